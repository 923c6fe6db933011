#include "tiergate/signals/routing_metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

namespace tiergate {

RoutingSummary summarize_routing(std::span<const RoutingOutcome> outcomes, std::span<const double> scores) {
  RoutingSummary summary;
  const size_t n = outcomes.size();
  summary.rows = n;
  if (n == 0) return summary;
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a] > scores[b]; });

  double edge_total = 0, cloud_total = 0;
  for (const RoutingOutcome& o : outcomes) {
    edge_total += o.edge_score;
    cloud_total += o.cloud_score;
  }
  summary.edge_quality = edge_total / static_cast<double>(n);
  summary.cloud_quality = cloud_total / static_cast<double>(n);
  const double gap = cloud_total - edge_total;
  summary.gap_defined = gap > 0;

  // Walk k = 0..n rows sent to the cloud; quality total moves by the row's gain.
  double total = edge_total;
  double area = 0, previous_pgr = 0;
  bool found50 = false, found80 = false, found95 = false, found_quality = false;
  auto visit = [&](size_t k, double pgr) {
    const double c = static_cast<double>(k) / static_cast<double>(n);
    if (summary.gap_defined) {
      if (!found50 && pgr >= 0.5) summary.cpt50 = c, found50 = true;
      if (!found80 && pgr >= 0.8) summary.cpt80 = c, found80 = true;
      if (!found95 && pgr >= 0.95) summary.cpt95 = c, found95 = true;
    }
    if (!found_quality && total >= 0.95 * cloud_total - 1e-9) {
      summary.cloud_share_for_95_quality = c;
      found_quality = true;
    }
  };
  visit(0, 0.0);
  for (size_t k = 1; k <= n; ++k) {
    const RoutingOutcome& o = outcomes[order[k - 1]];
    total += o.cloud_score - o.edge_score;
    const double pgr = summary.gap_defined ? (total - edge_total) / gap : 0.0;
    area += (previous_pgr + pgr) / 2.0;  // trapezoid over a step of 1/n
    previous_pgr = pgr;
    visit(k, pgr);
  }
  if (summary.gap_defined) summary.apgr = area / static_cast<double>(n);
  return summary;
}

ApgrDifference bootstrap_apgr_difference(std::span<const RoutingOutcome> outcomes, std::span<const double> a,
                                         std::span<const double> b, size_t resamples, uint64_t seed) {
  ApgrDifference result;
  const size_t n = outcomes.size();
  const RoutingSummary whole_a = summarize_routing(outcomes, a), whole_b = summarize_routing(outcomes, b);
  if (n == 0 || !whole_a.gap_defined) return result;
  result.observed = whole_a.apgr - whole_b.apgr;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<size_t> pick(0, n - 1);
  std::vector<RoutingOutcome> drawn(n);
  std::vector<double> drawn_a(n), drawn_b(n), differences;
  for (size_t r = 0; r < resamples; ++r) {
    for (size_t i = 0; i < n; ++i) {
      const size_t j = pick(rng);
      drawn[i] = outcomes[j];
      drawn_a[i] = a[j];
      drawn_b[i] = b[j];
    }
    const RoutingSummary sa = summarize_routing(drawn, drawn_a);
    if (!sa.gap_defined) continue;
    differences.push_back(sa.apgr - summarize_routing(drawn, drawn_b).apgr);
  }
  if (differences.empty()) return result;
  std::sort(differences.begin(), differences.end());
  // The nearest rank, so that the two ends lie alike from either end.
  const auto at = [&](double p) {
    return differences[static_cast<size_t>(std::lround(p * static_cast<double>(differences.size() - 1)))];
  };
  result.low = at(0.025);
  result.high = at(0.975);
  result.share_below_zero = static_cast<double>(std::count_if(differences.begin(), differences.end(),
                                                              [](double d) { return d < 0; })) /
                            static_cast<double>(differences.size());
  result.resamples = differences.size();
  return result;
}

}  // namespace tiergate
