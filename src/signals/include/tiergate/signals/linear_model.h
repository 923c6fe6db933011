// Linear models over SparseFeatures: a logistic model (one probability) and
// a softmax model (a distribution over K classes), with their trainers
// (AdaGrad SGD, L2, deterministic for a given seed). Scoring is a few hundred
// multiply-adds into one weight array; it does not allocate.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tiergate/signals/features.h"

namespace tiergate {

class LogisticModel {
 public:
  LogisticModel() = default;
  explicit LogisticModel(uint32_t dimension) : weights_(dimension, 0.0f) {}
  explicit LogisticModel(std::vector<float> weights) : weights_(std::move(weights)) {}

  // Precondition: every index in x is < dimension().
  float logit(const SparseFeatures& x) const;
  float probability(const SparseFeatures& x) const;

  uint32_t dimension() const { return static_cast<uint32_t>(weights_.size()); }
  const std::vector<float>& weights() const { return weights_; }
  std::vector<float>& mutable_weights() { return weights_; }

 private:
  std::vector<float> weights_;
};

class SoftmaxModel {
 public:
  SoftmaxModel() = default;
  SoftmaxModel(uint32_t dimension, uint32_t classes, FeatureRange range)
      : classes_(classes), range_(range), weights_(size_t{dimension} * classes, 0.0f) {}
  SoftmaxModel(uint32_t classes, std::vector<float> weights, FeatureRange range)
      : classes_(classes), range_(range), weights_(std::move(weights)) {}

  // Writes classes() probabilities into out. Precondition: out.size() == classes().
  // A model of a smaller dimension than the features' space reads them folded
  // (fold_index): hashed slots wrap onto its own, as if hashed into fewer buckets.
  void probabilities(const SparseFeatures& x, std::span<float> out) const;

  uint32_t classes() const { return classes_; }
  FeatureRange range() const { return range_; }
  uint32_t dimension() const { return classes_ == 0 ? 0 : static_cast<uint32_t>(weights_.size() / classes_); }
  // Layout: weights()[feature * classes() + class].
  const std::vector<float>& weights() const { return weights_; }
  std::vector<float>& mutable_weights() { return weights_; }

 private:
  uint32_t classes_ = 0;
  FeatureRange range_ = FeatureRange::kAll;
  std::vector<float> weights_;
};

// Turns logits into probabilities in place (max-subtracted exponentials).
void softmax_in_place(std::span<float> logits);

// Maps a feature index onto a model whose hashed part has `buckets` slots
// (a power of two no larger than the features' space).
inline uint32_t fold_index(uint32_t index, uint32_t buckets) {
  return index < kDenseFeatures ? index : kDenseFeatures + ((index - kDenseFeatures) & (buckets - 1));
}

struct TrainOptions {
  int epochs = 6;
  float learning_rate = 0.2f;  // AdaGrad base rate
  float l2 = 1e-5f;            // per-update shrinkage of touched weights
  uint64_t seed = 1;           // shuffling order
};

// Labels are targets in [0, 1] (soft labels allowed); weights scale each
// row's gradient (empty = all 1).
LogisticModel train_logistic(const std::vector<SparseFeatures>& rows, std::span<const float> labels,
                             std::span<const float> row_weights, uint32_t dimension, const TrainOptions& options);

// Labels are class indices in [0, classes). The model reads `range` of each row.
SoftmaxModel train_softmax(const std::vector<SparseFeatures>& rows, std::span<const int> labels,
                           std::span<const float> row_weights, uint32_t dimension, uint32_t classes,
                           FeatureRange range, const TrainOptions& options);

}  // namespace tiergate
