#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "tiergate/signals/router_training.h"

namespace tiergate {
namespace {

// A benchmark needs this many rows for its low percentiles to mean anything.
constexpr size_t kFamiliarityMinRows = 30;
// Familiarity starts rising at the 0.1th percentile of a benchmark's own
// (left-out) similarities and is complete at the 1st: nearly every training
// row counts as familiar, and a request less like the benchmark than 99.9%
// of its rows does not.
constexpr double kLowPercentile = 0.1;
constexpr double kHighPercentile = 1.0;

double percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  const auto at = static_cast<size_t>(p / 100.0 * static_cast<double>(values.size() - 1));
  return values[at];
}

}  // namespace

FamiliarityModel train_familiarity(const std::vector<SparseFeatures>& features, const std::vector<int>& label_of,
                                   const std::vector<std::string>& labels, std::span<const double> scores,
                                   uint32_t buckets) {
  FamiliarityModel model;
  // The benchmarks with enough rows, largest first.
  std::vector<size_t> count(labels.size(), 0);
  for (int l : label_of) ++count[static_cast<size_t>(l)];
  std::vector<size_t> chosen;
  for (size_t l = 0; l < labels.size(); ++l) {
    if (count[l] >= kFamiliarityMinRows) chosen.push_back(l);
  }
  std::stable_sort(chosen.begin(), chosen.end(), [&](size_t a, size_t b) { return count[a] > count[b]; });
  if (chosen.size() > FamiliarityModel::kMaxLabels) chosen.resize(FamiliarityModel::kMaxLabels);
  if (chosen.empty() || features.empty()) return model;

  // Each row's unit term vector, as the gateway computes it.
  std::vector<std::vector<std::pair<uint32_t, float>>> rows(features.size());
  for (size_t i = 0; i < features.size(); ++i) familiar_terms(features[i], buckets, rows[i]);

  const auto label_count = static_cast<uint32_t>(chosen.size());
  model.buckets = buckets;
  model.centroids.assign(size_t{buckets} * label_count, 0.0f);
  for (uint32_t c = 0; c < label_count; ++c) {
    const int label = static_cast<int>(chosen[c]);
    std::vector<double> sum(buckets, 0.0);
    for (size_t i = 0; i < rows.size(); ++i) {
      if (label_of[i] != label) continue;
      for (const auto& [slot, v] : rows[i]) sum[slot] += v;
    }
    const double sum_norm2 = std::inner_product(sum.begin(), sum.end(), sum.begin(), 0.0);
    // Each row's cosine to the centroid of the others (sum - row).
    std::vector<double> own;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (label_of[i] != label) continue;
      double dot = 0, norm2 = 0;
      for (const auto& [slot, v] : rows[i]) {
        dot += v * sum[slot];
        norm2 += double{v} * v;
      }
      const double rest_norm2 = sum_norm2 - 2 * dot + norm2;
      own.push_back(rest_norm2 > 1e-12 ? (dot - norm2) / std::sqrt(rest_norm2) : 0.0);
    }
    const double low = percentile(own, kLowPercentile);
    const double high = std::max(percentile(own, kHighPercentile), low + 1e-6);
    model.labels.push_back(labels[chosen[c]]);
    model.low.push_back(static_cast<float>(low));
    model.high.push_back(static_cast<float>(high));
    const double norm = std::sqrt(sum_norm2);
    for (uint32_t slot = 0; slot < buckets; ++slot) {
      model.centroids[size_t{slot} * label_count + c] = norm > 0 ? static_cast<float>(sum[slot] / norm) : 0.0f;
    }
  }

  // The fallback: least squares of the learned score on log length, overall
  // and (intercepts only) per chosen benchmark.
  const size_t n = features.size();
  std::vector<double> log_chars(n);
  for (size_t i = 0; i < n; ++i) log_chars[i] = double{features[i].value[kLogChars]} * 10.0;
  const double mean_x = std::accumulate(log_chars.begin(), log_chars.end(), 0.0) / static_cast<double>(n);
  const double mean_y = std::accumulate(scores.begin(), scores.end(), 0.0) / static_cast<double>(n);
  double covariance = 0, variance = 0;
  for (size_t i = 0; i < n; ++i) {
    covariance += (log_chars[i] - mean_x) * (scores[i] - mean_y);
    variance += (log_chars[i] - mean_x) * (log_chars[i] - mean_x);
  }
  const double slope = variance > 0 ? covariance / variance : 0.0;
  model.slope = static_cast<float>(slope);
  model.intercept = static_cast<float>(mean_y - slope * mean_x);
  for (size_t c : chosen) {
    double x = 0, y = 0, k = 0;
    for (size_t i = 0; i < n; ++i) {
      if (label_of[i] != static_cast<int>(c)) continue;
      x += log_chars[i];
      y += scores[i];
      k += 1;
    }
    model.intercepts.push_back(static_cast<float>(y / k - slope * x / k));
  }
  return model;
}

}  // namespace tiergate
