// The router's output: which tiers to try, in order, and why. Pure data.
#pragma once

#include <string>
#include <vector>

#include "tiergate/router/route_trace.h"

namespace tiergate {

enum class TierKind { kEdge, kCloud };

struct RouteCandidate {
  TierKind kind = TierKind::kEdge;
  std::string tier;   // "edge" or the cloud upstream's name (x-tiergate-tier)
  std::string model;  // the model id to ask that tier for
};

// One rule evaluated on the way to the decision, for the route trace.
struct TraceStep {
  std::string stage;   // e.g. "model", "auto_rule"
  std::string detail;  // what was seen and decided, metadata only (no prompt text)
};

struct RoutePlan {
  std::vector<RouteCandidate> candidates;  // first is preferred; later ones are fallbacks
  std::string reason;                      // short reason for x-tiergate-route, e.g. "auto:short_prompt"
  std::vector<TraceStep> trace;             // the steps, in order, as short lines
  RouteTrace detail;                        // the scheduler's figures (model "auto" and rules)
};

}  // namespace tiergate
