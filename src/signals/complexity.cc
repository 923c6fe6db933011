#include "tiergate/signals/complexity.h"

#include <algorithm>
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

namespace {

// The slot of the line-break term: any fixed value does (one more term that
// may share a slot with a word, like any hashed term).
constexpr uint32_t kLineBreakSlot = 0x9e3779b9u;

// Calls visit(slot, 1 + ln(count)) once per distinct slot of the task turn's
// terms (slots in order of first occurrence) and returns the sum of the
// squared weights, so a caller can normalise without a second pass.
template <typename Visit>
float for_each_familiar_term(const SparseFeatures& x, uint32_t buckets, Visit visit) {
  // Counts per slot in a reused array; the touched slots are reset after.
  thread_local std::vector<uint16_t> count_storage;
  thread_local std::vector<uint32_t> distinct_storage;
  if (count_storage.size() < buckets) count_storage.assign(buckets, 0);
  uint16_t* count = count_storage.data();
  const uint32_t slots = buckets - 1;
  // At most one distinct slot per term, plus the line-break term.
  const size_t terms = x.task_unigrams_end > kDenseFeatures ? x.task_unigrams_end - kDenseFeatures : 0;
  if (distinct_storage.size() < terms + 1) distinct_storage.resize(terms + 1);
  uint32_t* distinct = distinct_storage.data();
  size_t n = 0;
  for (size_t i = kDenseFeatures; i < x.task_unigrams_end; ++i) {
    const uint32_t slot = (x.index[i] - kDenseFeatures) & slots;
    distinct[n] = slot;  // kept only when the slot is new
    n += count[slot]++ == 0 ? 1 : 0;
  }
  // Line breaks are a term here (the features count them apart): the layout
  // of a request (options on lines of their own, few-shot blocks) tells
  // benchmarks apart as much as its words do.
  const auto line_breaks = static_cast<uint32_t>(std::lround(std::expm1(double{x.value[kLogLines]})));
  if (line_breaks > 0) {
    const uint32_t slot = kLineBreakSlot & slots;
    if (count[slot] == 0) distinct[n++] = slot;
    count[slot] = static_cast<uint16_t>(std::min<uint32_t>(count[slot] + line_breaks, 0xffff));
  }
  // 1 + ln(count), from a table for the usual counts.
  static const std::array<float, 64> kWeight = [] {
    std::array<float, 64> t{};
    for (size_t c = 1; c < t.size(); ++c) t[c] = 1.0f + std::log(static_cast<float>(c));
    return t;
  }();
  float norm2 = 0;
  for (size_t k = 0; k < n; ++k) {
    const uint32_t slot = distinct[k];
    const uint16_t c = count[slot];
    const float weight = c < kWeight.size() ? kWeight[c] : 1.0f + std::log(static_cast<float>(c));
    norm2 += weight * weight;
    count[slot] = 0;
    visit(slot, weight);
  }
  return norm2;
}

}  // namespace

void familiar_terms(const SparseFeatures& x, uint32_t buckets, std::vector<std::pair<uint32_t, float>>& out) {
  out.clear();
  const float norm2 = for_each_familiar_term(x, buckets, [&](uint32_t slot, float weight) { out.emplace_back(slot, weight); });
  const float scale = norm2 > 0 ? 1.0f / std::sqrt(norm2) : 0.0f;
  for (auto& entry : out) entry.second *= scale;
}

float FamiliarityModel::familiarity(const SparseFeatures& x, size_t& nearest) const {
  // The cosines to each centroid, from the unnormalised weights in the same
  // pass that counts them: scaled once at the end.
  std::array<float, kMaxLabels> sim{};
  const size_t n = labels.size();
  const float norm2 = for_each_familiar_term(x, buckets, [&](uint32_t slot, float weight) {
    const float* c = centroids.data() + size_t{slot} * n;
    for (size_t l = 0; l < n; ++l) sim[l] += weight * c[l];
  });
  const float scale = norm2 > 0 ? 1.0f / std::sqrt(norm2) : 0.0f;
  float w = 0;
  nearest = 0;
  for (size_t l = 0; l < n; ++l) sim[l] *= scale;
  for (size_t l = 0; l < n; ++l) {
    w = std::max(w, std::clamp((sim[l] - low[l]) / (high[l] - low[l]), 0.0f, 1.0f));
    if (sim[l] - high[l] > sim[nearest] - high[nearest]) nearest = l;
  }
  return w;
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

void ComplexityEstimator::set_experts(LabelMixture gate, std::vector<GainModel> experts, float weight,
                                      std::vector<float> offsets) {
  gate_ = std::move(gate);
  experts_ = std::move(experts);
  expert_offsets_ = offsets.size() == experts_.size() ? std::move(offsets) : std::vector<float>(experts_.size(), 0.0f);
  expert_weight_ = experts_.empty() ? 0.0f : weight;
  pack();
}

void ComplexityEstimator::pack() {
  logits_ = PackedLinear();
  gate_logits_ = PackedLinear();
  if (!gate_.empty() && gate_.model.classes() <= PackedLinear::kMaxOutputs) {
    const SoftmaxModel* models[] = {&gate_.model};
    gate_logits_ = pack_softmax_models(models);
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

void ComplexityEstimator::set_familiarity(FamiliarityModel familiarity) { familiarity_ = std::move(familiarity); }

void ComplexityEstimator::set_embedding(EmbeddingPart embedding, float weight) {
  embedding_ = std::move(embedding);
  embedding_weight_ = embedding_.empty() ? 0.0f : weight;
}

void embedding_features(std::span<const float> embedding, SparseFeatures& out) {
  out.clear();
  const float scale = std::sqrt(static_cast<float>(embedding.size()));
  for (size_t i = 0; i < embedding.size(); ++i) out.add(static_cast<uint32_t>(i), embedding[i] * scale);
  out.add(static_cast<uint32_t>(embedding.size()), 1.0f);  // bias
  out.task_unigrams_end = out.task_end = out.size();
}

float EmbeddingPart::score(std::span<const float> embedding) const {
  if (empty() || embedding.size() != dimension) return 0.0f;
  thread_local SparseFeatures x;
  embedding_features(embedding, x);
  return gain.gain(x, IntentResult{}) - mean_gain;
}

void ComplexityEstimator::set_topic_model(TopicModel topics, float weight) {
  topics_ = std::move(topics);
  topic_weight_ = topics_.empty() ? 0.0f : weight;
  pack();
}

ComplexityParts ComplexityEstimator::parts(const SparseFeatures& features, const IntentResult& intent) const {
  return parts(features, intent, {});
}

ComplexityParts ComplexityEstimator::parts(const SparseFeatures& features, const IntentResult& intent,
                                           std::span<const float> gate_logits, std::span<const float> embedding) const {
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
    if (gate_logits.size() == p.size()) {
      std::copy(gate_logits.begin(), gate_logits.end(), p.begin());
      softmax_in_place(p);
    } else if (!gate_logits_.empty()) {
      gate_logits_.logits(features, {}, p);
      softmax_in_place(p);
    } else {
      gate_.probabilities(features, p);
    }
    for (size_t e = 0; e < experts_.size(); ++e) parts.experts += p[e] * (gains[e + 1] - expert_offsets_[e]);
    linear = (1.0f - expert_weight_) * parts.global + expert_weight_ * parts.experts;
  }
  if (embedding_weight_ > 0.0f) parts.embedding = embedding_.score(embedding);
  const float learned = linear + topic_weight_ * parts.topics + length_weight_ * features.value[kLogChars] +
                        embedding_weight_ * parts.embedding;
  parts.gain = learned;
  if (!familiarity_.empty()) {
    size_t nearest = 0;
    const float w = familiarity_.familiarity(features, nearest);
    const float log_chars = features.value[kLogChars] * 10.0f;  // kLogChars is log1p(chars) / 10
    const float intercept = w * familiarity_.intercepts[nearest] + (1.0f - w) * familiarity_.intercept;
    parts.familiarity = w;
    parts.gain = w * learned + (1.0f - w) * (intercept + familiarity_.slope * log_chars);
  }
  return parts;
}

float ComplexityEstimator::cloud_gain(const SparseFeatures& features, const IntentResult& intent,
                                      std::span<const float> embedding) const {
  return parts(features, intent, {}, embedding).gain;
}

}  // namespace tiergate
