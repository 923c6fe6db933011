// The routing metrics of RouteLLM (Ong et al., 2024), computed from per-row
// outcomes of both tiers and a router score (higher = more deserving of the
// cloud). Routing the share c of rows with the highest scores to the cloud
// gives quality Q(c); PGR(c) = (Q(c) - Q(0)) / (Q(1) - Q(0)).
//   APGR      area under PGR(c) for c in [0, 1] (random routing: 0.5)
//   CPT(x)    smallest c with PGR(c) >= x
//   cloud share for 95% quality: smallest c with Q(c) >= 0.95 * Q(1)
// Ties in the score are broken by row order, as a threshold would meet them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace tiergate {

struct RoutingOutcome {
  double edge_score = 0;   // quality the edge tier reached on the row, [0, 1]
  double cloud_score = 0;  // quality the cloud tier reached
};

struct RoutingSummary {
  size_t rows = 0;
  double edge_quality = 0;   // Q(0)
  double cloud_quality = 0;  // Q(1)
  double apgr = 0;
  double cpt50 = 1, cpt80 = 1, cpt95 = 1;
  double cloud_share_for_95_quality = 1;
  bool gap_defined = false;  // false when Q(1) <= Q(0): PGR is undefined and APGR/CPT stay at their defaults
};

// Precondition: outcomes.size() == scores.size().
RoutingSummary summarize_routing(std::span<const RoutingOutcome> outcomes, std::span<const double> scores);

// How sure a difference in APGR between two routers on the same rows is: the
// paired bootstrap over rows (Efron), `resamples` draws of n rows with
// replacement (from `seed`), each scored under both routers.
struct ApgrDifference {
  double observed = 0;                 // APGR(a) - APGR(b) on the rows themselves
  double low = 0, high = 0;            // 2.5th and 97.5th percentiles over the draws
  double share_below_zero = 0;         // of the draws
  size_t resamples = 0;                // draws used (those whose gap is defined)
};
// Precondition: outcomes, a and b of one size. A summary with resamples == 0
// when no draw has a defined gap.
ApgrDifference bootstrap_apgr_difference(std::span<const RoutingOutcome> outcomes, std::span<const double> a,
                                         std::span<const double> b, size_t resamples, uint64_t seed);

}  // namespace tiergate
