#include "tiergate/signals/complexity.h"

#include <array>
#include <cmath>
#include <span>

namespace tiergate {
namespace {

float probability(const LogisticModel& model, bool intent_features, const SparseFeatures& features,
                  const IntentResult& intent) {
  float z = model.logit(features);
  if (intent_features) {
    const uint32_t base = model.dimension() - static_cast<uint32_t>(kIntentFeatures);
    const float length = features.value[kLogLastUserChars];
    for (size_t k = 0; k < kIntentCount; ++k) {
      z += model.weights()[base + k] * intent.probabilities[k];
      z += model.weights()[base + kIntentCount + k] * intent.probabilities[k] * length;
    }
  }
  return 1.0f / (1.0f + std::exp(-z));
}

}  // namespace

std::string_view complexity_target_name(ComplexityTarget target) {
  switch (target) {
    case ComplexityTarget::kTierGap:
      return "tier_gap";
    case ComplexityTarget::kCloudWins:
      return "cloud_wins";
  }
  return "tier_gap";
}

std::optional<ComplexityTarget> parse_complexity_target(std::string_view name) {
  if (name == "tier_gap") return ComplexityTarget::kTierGap;
  if (name == "cloud_wins") return ComplexityTarget::kCloudWins;
  return std::nullopt;
}

void append_intent_features(uint32_t feature_dimension, const IntentResult& intent, SparseFeatures& features) {
  const float length = features.value[kLogLastUserChars];
  for (size_t k = 0; k < kIntentCount; ++k) {
    features.add(feature_dimension + static_cast<uint32_t>(k), intent.probabilities[k]);
  }
  for (size_t k = 0; k < kIntentCount; ++k) {
    features.add(feature_dimension + static_cast<uint32_t>(kIntentCount + k), intent.probabilities[k] * length);
  }
}

float GainModel::gain(const SparseFeatures& features, const IntentResult& intent) const {
  if (empty()) return 0.0f;
  switch (target) {
    case ComplexityTarget::kTierGap:
      return probability(second, intent_features, features, intent) -
             probability(first, intent_features, features, intent);
    case ComplexityTarget::kCloudWins:
      return probability(first, intent_features, features, intent);
  }
  return 0.0f;
}

void LabelMixture::probabilities(const SparseFeatures& features, std::span<float> out) const {
  model.probabilities(features, out);
}

float LabelMixture::expected(const SparseFeatures& features) const {
  if (empty()) return 0.0f;
  std::array<float, kMaxLabels> buffer;
  std::span<float> p(buffer.data(), labels.size());
  probabilities(features, p);
  float sum = 0;
  for (size_t l = 0; l < labels.size(); ++l) sum += p[l] * values[l];
  return sum;
}

void ComplexityEstimator::set_experts(LabelMixture gate, std::vector<GainModel> experts, float weight) {
  gate_ = std::move(gate);
  experts_ = std::move(experts);
  expert_weight_ = experts_.empty() ? 0.0f : weight;
}

void ComplexityEstimator::set_topic_prior(LabelMixture topics, float weight) {
  topics_ = std::move(topics);
  topic_weight_ = topics_.empty() ? 0.0f : weight;
}

ComplexityParts ComplexityEstimator::parts(const SparseFeatures& features, const IntentResult& intent) const {
  ComplexityParts parts;
  if (empty()) return parts;
  parts.global = global_.gain(features, intent);
  float linear = parts.global;
  if (expert_weight_ > 0.0f) {
    std::array<float, LabelMixture::kMaxLabels> buffer;
    std::span<float> p(buffer.data(), experts_.size());
    gate_.probabilities(features, p);
    for (size_t e = 0; e < experts_.size(); ++e) parts.experts += p[e] * experts_[e].gain(features, intent);
    linear = (1.0f - expert_weight_) * parts.global + expert_weight_ * parts.experts;
  }
  parts.gain = linear;
  if (topic_weight_ > 0.0f) {
    parts.topics = topics_.expected(features);
    parts.gain = linear + topic_weight_ * parts.topics;
  }
  return parts;
}

float ComplexityEstimator::cloud_gain(const SparseFeatures& features, const IntentResult& intent) const {
  return parts(features, intent).gain;
}

}  // namespace tiergate
