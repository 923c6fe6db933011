// Decides where a request goes. Pure: no I/O, no clock; the caller passes in
// what it knows about the tiers' health.
//
// The `model` field selects:
//   "auto"                  schedule_route (scheduler.h) without signals: rules,
//                           then the placeholder rule (AutoRuleConfig in
//                           config.h): long prompts or cloud keywords -> cloud,
//                           else edge; the other tier is the fallback.
//   "edge", the edge alias,
//   or the edge model file  edge only.
//   "cloud"                 the first upstream's first model, then the other
//                           upstreams' first models as fallbacks.
//   a configured model name that upstream only.
// Anything else is kNotFound.
#pragma once

#include <string>
#include <unordered_map>

#include "tiergate/config/config.h"
#include "tiergate/core/chat.h"
#include "tiergate/core/status.h"
#include "tiergate/router/route_plan.h"

namespace tiergate {

struct TierAvailability {
  bool edge_configured = false;
  bool edge_ready = false;
  std::string edge_model_id;  // file name of the edge model, also accepted as a model name
  // Upstream name -> whether it is currently healthy. Missing = healthy.
  std::unordered_map<std::string, bool> cloud_ready;
};

StatusOr<RoutePlan> plan_route(const Config& config, const ChatRequest& request, const TierAvailability& tiers);

// The same rule as plan_route's "auto", exposed for tests and the route trace:
// true when the request should go to the cloud; reason set to a short tag.
bool auto_rule_prefers_cloud(const AutoRuleConfig& rule, const ChatRequest& request, std::string& reason,
                             std::string& detail);

}  // namespace tiergate
