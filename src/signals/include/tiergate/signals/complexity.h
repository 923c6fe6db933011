// Complexity estimator: the expected quality gain of answering a request with
// the cloud tier rather than the edge tier, from its features and its intent.
// Higher means more deserving of the cloud; this is the "cloud score" that
// routing metrics rank by and the scheduler weighs against price.
//
// It blends three learned parts (docs/routing.md has the measurements that
// chose them):
//   global    a linear gain model over every training row;
//   experts   one linear gain model per training benchmark, mixed by a
//             softmax gate P(benchmark | text): a request that looks like a
//             known benchmark is judged the way that benchmark taught;
//   topics    a topic model: a linear model of how far the mean gain of a
//             request's topic (subject) lies from its benchmark's mean,
//             learned from the training rows' sources.
//   length    the request's log length, weighted: longer requests tend to
//             be harder on every benchmark seen; this keeps the ranking
//             sensible on kinds of requests the other parts never saw.
//   embedding (optional, off by default) a linear gain model over the edge
//             model's own embedding of the request (EmbeddingPart).
// learned = (1 - we) * global + we * experts + wt * topics + wl * log length
//           [+ wm * embedding].
//
// Familiarity (optional) guards the kinds of requests no training benchmark
// resembles, where the learned parts have nothing to stand on and rank worse
// than length alone (measured by leaving each dev benchmark out): w in [0, 1]
// from the similarity of the task turn's unigrams to each benchmark's
// centroid, and
//   gain = w * learned + (1 - w) * fallback,
// fallback = the least-squares fit of the learned score on log length over
// the training rows, so that w = 0 ranks by length alone on the learned
// score's scale.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "tiergate/signals/features.h"
#include "tiergate/signals/intent.h"
#include "tiergate/signals/linear_model.h"
#include "tiergate/signals/packed_linear.h"

namespace tiergate {

enum class ComplexityTarget {
  kTierGap,    // two models, P(edge good) and P(cloud good); gain = difference, in [-1, 1]
  kCloudWins,  // one model, P(cloud strictly better than edge), in [0, 1]
};

std::string_view complexity_target_name(ComplexityTarget target);
std::optional<ComplexityTarget> parse_complexity_target(std::string_view name);

// The intent block of the gain models: each intent's probability, and the
// same times the task turn's log length, so that length can weigh differently
// per kind of task.
inline constexpr size_t kIntentFeatures = 2 * kIntentCount;

// Appends the intent block after `feature_dimension`. Precondition: `features`
// come from extract_features (dense slots first).
void append_intent_features(uint32_t feature_dimension, const IntentResult& intent, SparseFeatures& features);

// One linear gain model. For kTierGap, `first` predicts edge quality and
// `second` cloud quality; for kCloudWins, `first` predicts a cloud win. With
// intent_features the models' last kIntentFeatures weights read the intent
// block (dimension = feature space + kIntentFeatures).
struct GainModel {
  ComplexityTarget target = ComplexityTarget::kTierGap;
  bool intent_features = false;
  LogisticModel first;
  LogisticModel second;

  bool empty() const { return first.dimension() == 0; }
  float gain(const SparseFeatures& features, const IntentResult& intent) const;
};

// A softmax over labels (benchmarks) read from the text, with a value per
// label; expected() = sum_l P(l | text) * value(l).
struct LabelMixture {
  static constexpr size_t kMaxLabels = 256;
  std::vector<std::string> labels;
  std::vector<float> values;  // by label (topic prior: the topic's mean gain)
  SoftmaxModel model;         // classes() == labels.size(); may use fewer buckets (folded)

  bool empty() const { return labels.empty(); }
  // Writes labels.size() probabilities. Precondition: out.size() == labels.size().
  void probabilities(const SparseFeatures& features, std::span<float> out) const;
  float expected(const SparseFeatures& features) const;
};

// The most gain models (global + experts) an estimator holds; training makes
// one expert per benchmark, and an artifact with more is refused.
inline constexpr size_t kMaxGainModels = 16;
inline constexpr size_t kMaxPackedModels = 2 * kMaxGainModels + 1;  // + the topic model

// The topic model: predicts value(topic of the request) as sigmoid(z) - 0.5,
// where value is a topic's mean gain minus its benchmark's (within +-0.49).
// One linear model, so it costs what a gain model costs; labels and values
// record what it was trained on.
struct TopicModel {
  std::vector<std::string> labels;
  std::vector<float> values;  // by label
  LogisticModel model;        // same dimension and intent block as the gain models

  bool empty() const { return model.dimension() == 0; }
};

// How much a request resembles the training rows of some benchmark. The
// task turn's terms (its hashed unigrams, words and punctuation marks, and
// its line breaks, so that layout counts as much as vocabulary) folded onto
// `buckets` slots and weighted 1 + ln(count), as a unit vector x. Per benchmark l: sim_l = x . c_l
// (cosine; c_l the normalised mean of its training rows' vectors),
// w_l = clamp((sim_l - low_l) / (high_l - low_l)), and w = max_l w_l. low_l and
// high_l are low percentiles of the benchmark's own training rows'
// similarities (each row left out of its centroid), so that nearly every
// training row counts as familiar.
struct FamiliarityModel {
  static constexpr size_t kMaxLabels = 32;
  std::vector<std::string> labels;  // benchmarks
  uint32_t buckets = 0;             // a power of two
  std::vector<float> centroids;     // [slot * labels.size() + l]
  std::vector<float> low, high;     // per label
  // The fallback: intercept + slope * log1p(characters of all turns), with
  // the request's nearest benchmark's intercept in place of the global one
  // as far as the request is familiar.
  std::vector<float> intercepts;  // per label
  float intercept = 0, slope = 0;

  bool empty() const { return labels.empty(); }
  // w in [0, 1]; `nearest` gets the label furthest above its `high`.
  float familiarity(const SparseFeatures& x, size_t& nearest) const;
};

// The task turn's term vector of FamiliarityModel: (slot, weight) pairs, a
// unit vector, slots in order of first occurrence. Precondition: buckets is
// a power of two no larger than the features' space.
void familiar_terms(const SparseFeatures& x, uint32_t buckets, std::vector<std::pair<uint32_t, float>>& out);

// Optional: a gain model over the edge model's embedding of the request
// (engines/local PromptEmbedder), trained when the training rows carry
// embeddings. Its inputs are the unit embedding's values times
// sqrt(dimension), about unit variance each, and a bias.
struct EmbeddingPart {
  std::string edge_model;  // PromptEmbedder::fingerprint() of the model that embedded the training rows
  uint32_t dimension = 0;
  GainModel gain;          // dimension + 1 inputs, no intent block
  float mean_gain = 0;     // over the training rows

  bool empty() const { return dimension == 0; }
  // gain - mean_gain, so that a request without an embedding (or one of
  // another size) counts as an average one: 0.
  float score(std::span<const float> embedding) const;
};

// The embedding part's inputs (see EmbeddingPart) into `out`, cleared first.
void embedding_features(std::span<const float> embedding, SparseFeatures& out);

struct ComplexityParts {
  float global = 0, experts = 0, topics = 0;  // each part's estimate (0 when absent)
  float embedding = 0;                        // EmbeddingPart::score (0 when absent)
  float gain = 0;                             // the blend
  float familiarity = 1;                      // w; 1 without a familiarity model
};

class ComplexityEstimator {
 public:
  ComplexityEstimator() = default;
  explicit ComplexityEstimator(GainModel global) : global_(std::move(global)) { pack(); }

  // Precondition: gate.labels.size() == experts.size().
  // `offsets`: one per expert (or empty: zeros), taken from its gain.
  void set_experts(LabelMixture gate, std::vector<GainModel> experts, float weight, std::vector<float> offsets = {});
  // Precondition: topics.model has the gain models' dimension.
  void set_topic_model(TopicModel topics, float weight);
  void set_length_weight(float weight) { length_weight_ = weight; }
  // Precondition: familiarity.labels.size() <= FamiliarityModel::kMaxLabels
  // and the per-label vectors match it.
  void set_familiarity(FamiliarityModel familiarity);
  // Adds weight * embedding.score(...) to the learned score.
  void set_embedding(EmbeddingPart embedding, float weight);
  float length_weight() const { return length_weight_; }

  bool empty() const { return global_.empty(); }
  // Expected cloud gain; 0 when empty().
  // With `embedding`, the edge model's embedding of the request, when the
  // estimator has an embedding part (empty: counted as an average request).
  float cloud_gain(const SparseFeatures& features, const IntentResult& intent,
                   std::span<const float> embedding = {}) const;
  ComplexityParts parts(const SparseFeatures& features, const IntentResult& intent) const;
  // The same with the benchmark gate's logits (gate().labels.size() values)
  // computed elsewhere; empty: computed here.
  ComplexityParts parts(const SparseFeatures& features, const IntentResult& intent,
                        std::span<const float> gate_logits, std::span<const float> embedding = {}) const;

  const GainModel& global() const { return global_; }
  const LabelMixture& gate() const { return gate_; }
  const std::vector<GainModel>& experts() const { return experts_; }
  float expert_weight() const { return expert_weight_; }
  const std::vector<float>& expert_offsets() const { return expert_offsets_; }
  const TopicModel& topics() const { return topics_; }
  float topic_weight() const { return topic_weight_; }
  const FamiliarityModel& familiarity() const { return familiarity_; }
  const EmbeddingPart& embedding() const { return embedding_; }
  float embedding_weight() const { return embedding_weight_; }

 private:
  GainModel global_;
  LabelMixture gate_;
  std::vector<GainModel> experts_;
  float expert_weight_ = 0;
  std::vector<float> expert_offsets_;  // experts_.size() values
  TopicModel topics_;
  float topic_weight_ = 0;
  float length_weight_ = 0;
  FamiliarityModel familiarity_;
  EmbeddingPart embedding_;
  float embedding_weight_ = 0;

  // Speed: the logistic models of global_, experts_ and topics_ packed into
  // one PackedLinear, so one pass over the features computes every logit;
  // the gate's softmax likewise. Built when the gain models agree in target,
  // intent block and dimension (training makes them so); otherwise parts()
  // scores them one by one.
  void pack();
  PackedLinear logits_;
  PackedLinear gate_logits_;
};

}  // namespace tiergate
