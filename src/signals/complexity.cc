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
  pack();
}

void ComplexityEstimator::pack() {
  logits_ = PackedLinear();
  gate_logits_ = PackedLinear();
  if (!gate_.empty() && gate_.model.classes() <= PackedLinear::kMaxOutputs) {
    const SoftmaxModel& g = gate_.model;
    gate_logits_ = PackedLinear(g.classes(), g.dimension() - kDenseFeatures, 0, g.range(),
                                [&](uint32_t f, uint32_t k) { return g.weights()[size_t{f} * g.classes() + k]; });
  }
  if (global_.empty()) return;
  std::vector<const LogisticModel*> models;
  auto add = [&](const GainModel& g) {
    models.push_back(&g.first);
    if (g.target == ComplexityTarget::kTierGap) models.push_back(&g.second);
  };
  add(global_);
  for (const GainModel& e : experts_) {
    if (e.target != global_.target || e.intent_features != global_.intent_features ||
        e.first.dimension() != global_.first.dimension()) {
      return;  // not uniform: parts() takes the model-by-model path
    }
    add(e);
  }
  if (!topics_.empty()) {
    if (topics_.model.dimension() != global_.first.dimension()) return;
    models.push_back(&topics_.model);
  }
  if (models.size() > kMaxPackedModels) return;
  const uint32_t extra = global_.intent_features ? static_cast<uint32_t>(kIntentFeatures) : 0;
  const uint32_t buckets = global_.first.dimension() - kDenseFeatures - extra;
  logits_ = PackedLinear(static_cast<uint32_t>(models.size()), buckets, extra, FeatureRange::kAll,
                         [&](uint32_t f, uint32_t m) { return models[m]->weights()[f]; });
}

void ComplexityEstimator::set_topic_model(TopicModel topics, float weight) {
  topics_ = std::move(topics);
  topic_weight_ = topics_.empty() ? 0.0f : weight;
  pack();
}

ComplexityParts ComplexityEstimator::parts(const SparseFeatures& features, const IntentResult& intent) const {
  ComplexityParts parts;
  if (empty()) return parts;
  // Each gain model's gain: packed in one pass, or model by model.
  std::array<float, kMaxPackedModels> gains{};
  if (!logits_.empty()) {
    std::array<float, kIntentFeatures> intent_block;
    std::span<const float> extra;
    if (global_.intent_features) {
      const float length = features.value[kLogLastUserChars];
      for (size_t k = 0; k < kIntentCount; ++k) {
        intent_block[k] = intent.probabilities[k];
        intent_block[kIntentCount + k] = intent.probabilities[k] * length;
      }
      extra = intent_block;
    }
    std::array<float, PackedLinear::kMaxOutputs> z;
    logits_.logits(features, extra, z);
    const uint32_t m_count = logits_.outputs();
    const bool gap = global_.target == ComplexityTarget::kTierGap;
    const uint32_t per_model = gap ? 2 : 1;
    const uint32_t gain_logits = m_count - (topics_.empty() ? 0 : 1);
    for (uint32_t g = 0; g * per_model < gain_logits; ++g) {
      const float first = 1.0f / (1.0f + std::exp(-z[g * per_model]));
      gains[g] = gap ? 1.0f / (1.0f + std::exp(-z[g * per_model + 1])) - first : first;
    }
    if (!topics_.empty()) parts.topics = 1.0f / (1.0f + std::exp(-z[m_count - 1])) - 0.5f;
  } else {
    gains[0] = global_.gain(features, intent);
    for (size_t e = 0; e < experts_.size() && e + 1 < gains.size(); ++e) gains[e + 1] = experts_[e].gain(features, intent);
    if (!topics_.empty()) parts.topics = probability(topics_.model, global_.intent_features, features, intent) - 0.5f;
  }
  parts.global = gains[0];
  float linear = parts.global;
  if (expert_weight_ > 0.0f) {
    std::array<float, LabelMixture::kMaxLabels> buffer;
    std::span<float> p(buffer.data(), experts_.size());
    if (!gate_logits_.empty()) {
      gate_logits_.logits(features, {}, p);
      softmax_in_place(p);
    } else {
      gate_.probabilities(features, p);
    }
    for (size_t e = 0; e < experts_.size(); ++e) parts.experts += p[e] * gains[e + 1];
    linear = (1.0f - expert_weight_) * parts.global + expert_weight_ * parts.experts;
  }
  parts.gain = linear;
  parts.gain = linear + topic_weight_ * parts.topics;
  parts.gain += length_weight_ * features.value[kLogChars];
  return parts;
}

float ComplexityEstimator::cloud_gain(const SparseFeatures& features, const IntentResult& intent) const {
  return parts(features, intent).gain;
}

}  // namespace tiergate
