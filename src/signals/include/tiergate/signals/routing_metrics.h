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

}  // namespace tiergate
