// The router's output: which tiers to try, in order, and why. Pure data.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tiergate/router/route_trace.h"

namespace tiergate {

enum class TierKind { kEdge, kCloud };

// Why a request is answered on a tier other than the one the router would
// choose with every tier up (x-tiergate-degraded). A privacy policy or a
// spent budget keeping a request on the edge is policy, not degradation.
enum class Degradation {
  kNone,
  kCloudUnavailable,  // the cloud was wanted; the edge answers
  kEdgeUnavailable,   // the edge was wanted; the cloud answers
  kDeviceConstrained, // the device is slow or short of memory: the edge's answer
                      // was capped at fewer new tokens than asked
                      // (edge.adaptation, fleet/device_adaptation.h)
};

constexpr std::string_view degradation_name(Degradation d) {
  switch (d) {
    case Degradation::kNone:
      return "";
    case Degradation::kCloudUnavailable:
      return "cloud_unavailable";
    case Degradation::kEdgeUnavailable:
      return "edge_unavailable";
    case Degradation::kDeviceConstrained:
      return "device_constrained";
  }
  return "";
}

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
  // Set when the router already had to lead with a tier other than the one
  // it wanted (auto:cloud_unavailable, auto:edge_unavailable).
  Degradation degraded = Degradation::kNone;
  // The edge leads and a cloud tier follows, and the router is unsure
  // (speculative: in the config): dispatch verifies the edge's draft before
  // it becomes the answer, and escalates when the verifier rejects it.
  bool speculative = false;
  // The device is constrained (EdgeState::max_new_tokens): an edge attempt
  // generates at most this many tokens.
  std::optional<int> edge_max_tokens;
};

}  // namespace tiergate
