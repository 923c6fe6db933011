#include "tiergate/signals/linear_model.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace tiergate {
namespace {

float sigmoid(float z) {
  if (z >= 0) return 1.0f / (1.0f + std::exp(-z));
  const float e = std::exp(z);
  return e / (1.0f + e);
}

std::vector<size_t> shuffled_order(size_t n, std::mt19937_64& rng) {
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::shuffle(order.begin(), order.end(), rng);
  return order;
}

float row_weight(std::span<const float> weights, size_t i) { return weights.empty() ? 1.0f : weights[i]; }

constexpr float kAdagradEpsilon = 1e-6f;

}  // namespace

float LogisticModel::logit(const SparseFeatures& x) const {
  float z = 0;
  for (size_t i = 0; i < x.index.size(); ++i) z += weights_[x.index[i]] * x.value[i];
  return z;
}

float LogisticModel::probability(const SparseFeatures& x) const { return sigmoid(logit(x)); }

void SoftmaxModel::probabilities(const SparseFeatures& x, std::span<float> out) const {
  float* __restrict acc = out.data();
  std::fill(acc, acc + classes_, 0.0f);
  const uint32_t buckets = dimension() - kDenseFeatures;
  const size_t end = range_end(x, range_);
  for (size_t i = 0; i < end; ++i) {
    const float* __restrict w = weights_.data() + size_t{fold_index(x.index[i], buckets)} * classes_;
    const float v = x.value[i];
    for (uint32_t k = 0; k < classes_; ++k) acc[k] += w[k] * v;
  }
  softmax_in_place(out);
}

void softmax_in_place(std::span<float> logits) {
  if (logits.empty()) return;
  const float top = *std::max_element(logits.begin(), logits.end());
  float sum = 0;
  for (float& p : logits) {
    p = std::exp(p - top);
    sum += p;
  }
  for (float& p : logits) p /= sum;
}

LogisticModel train_logistic(const std::vector<SparseFeatures>& rows, std::span<const float> labels,
                             std::span<const float> row_weights, uint32_t dimension, const TrainOptions& options) {
  LogisticModel model(dimension);
  std::vector<float>& w = model.mutable_weights();
  std::vector<float> squared(dimension, 0.0f);
  std::mt19937_64 rng(options.seed);
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    for (size_t r : shuffled_order(rows.size(), rng)) {
      const SparseFeatures& x = rows[r];
      const float gradient = (model.probability(x) - labels[r]) * row_weight(row_weights, r);
      for (size_t i = 0; i < x.index.size(); ++i) {
        const uint32_t j = x.index[i];
        const float g = gradient * x.value[i] + options.l2 * w[j];
        squared[j] += g * g;
        w[j] -= options.learning_rate * g / (std::sqrt(squared[j]) + kAdagradEpsilon);
      }
    }
  }
  return model;
}

SoftmaxModel train_softmax(const std::vector<SparseFeatures>& rows, std::span<const int> labels,
                           std::span<const float> row_weights, uint32_t dimension, uint32_t classes,
                           FeatureRange range, const TrainOptions& options) {
  SoftmaxModel model(dimension, classes, range);
  std::vector<float>& w = model.mutable_weights();
  std::vector<float> squared(w.size(), 0.0f);
  std::vector<float> p(classes);
  const uint32_t buckets = dimension - kDenseFeatures;
  std::mt19937_64 rng(options.seed);
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    for (size_t r : shuffled_order(rows.size(), rng)) {
      const SparseFeatures& x = rows[r];
      model.probabilities(x, p);
      const float scale = row_weight(row_weights, r);
      const size_t end = range_end(x, range);
      for (size_t i = 0; i < end; ++i) {
        const size_t base = size_t{fold_index(x.index[i], buckets)} * classes;
        for (uint32_t k = 0; k < classes; ++k) {
          const float target = static_cast<int>(k) == labels[r] ? 1.0f : 0.0f;
          const float g = (p[k] - target) * scale * x.value[i] + options.l2 * w[base + k];
          squared[base + k] += g * g;
          w[base + k] -= options.learning_rate * g / (std::sqrt(squared[base + k]) + kAdagradEpsilon);
        }
      }
    }
  }
  return model;
}

}  // namespace tiergate
