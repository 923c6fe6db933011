// The scheduler: decides where a request goes from its signals, the config
// (rules, budgets, quality dial, prices) and a snapshot of the tiers' state.
// Pure: no I/O, no clock reads (time is SchedulerState::now), deterministic.
//
// Order of evaluation (docs/routing.md, "Scheduler"):
//   1. Explicit model names ("edge", "cloud", an upstream's model) keep
//      plan_route's meaning unless a rule's match.model names them.
//   2. Budget: the key's spend today reached its limit -> edge only
//      (model "auto"); an explicit cloud route is refused (kResourceExhausted).
//   3. Rules, highest priority first: the first match decides ("rule:<name>").
//   4. Only one kind of tier exists -> that kind ("auto:edge_only"/"cloud_only").
//   5. Preference: quality dial 0 -> edge, 1 -> cloud ("auto:quality_dial");
//      else with learned signals: cloud iff score > tau_eff ("auto:complexity"),
//      tau_eff = tau + price_sensitivity * ln(marginal cloud cost / reference
//      cost) + latency_weight * (cloud latency - edge latency); else the
//      placeholder rule (AutoRuleConfig).
//   6. Constraints: edge preferred but not ready -> cloud ("auto:edge_unavailable"),
//      or its queue full -> cloud ("auto:edge_queue_full"); cloud preferred
//      but no upstream eligible -> edge ("auto:cloud_unavailable"); the
//      device constrained (EdgeState::prefer_cloud, or a prompt over
//      max_prompt_tokens) and an upstream eligible -> cloud
//      ("auto:device_constrained").
//   7. A constrained device (EdgeState::max_new_tokens) caps every plan's
//      edge answer (RoutePlan::edge_max_tokens).
// Upstreams are ordered: eligible ones (healthy, not rate limited, requests
// left) before the others; among eligible ones those near their rate limit
// last, then by expected cost, then by EWMA latency, then config order. The
// tier(s) not chosen follow as fallbacks.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tiergate/config/config.h"
#include "tiergate/core/chat.h"
#include "tiergate/core/status.h"
#include "tiergate/router/route_plan.h"
#include "tiergate/router/scheduler_state.h"
#include "tiergate/signals/signals.h"

namespace tiergate {

// Per-request facts besides the body, read from the HTTP request.
struct RouteContext {
  std::string api_key_fingerprint;  // key_fingerprint() of the bearer key; "" without one
  // Request headers that rules name (lower-case name -> value).
  std::vector<std::pair<std::string, std::string>> headers;
  std::optional<double> quality;  // x-tiergate-quality, validated (parse_quality_header)
};

struct RouteInputs {
  // The request's signals; nullptr, or learned == false, means the placeholder
  // rule decides model "auto" (no trained artifact).
  // Its prompt_tokens is the scheduler's token estimate (without signals the
  // scheduler estimates from the messages).
  const RequestSignals* signals = nullptr;
  // The artifact's calibration (RouterArtifact::score_quantiles, 101 values
  // or empty), to turn a quality dial into a threshold.
  std::span<const float> score_quantiles;
  RouteContext context;
  SchedulerState state;
};

// Errors: kNotFound (unknown model, or a tier the model needs is not
// configured), kResourceExhausted (the key's budget is spent and only the
// cloud could serve the request).
StatusOr<RoutePlan> schedule_route(const Config& config, const ChatRequest& request, const RouteInputs& inputs);

// The x-tiergate-quality header: a number in [0, 1]. kInvalidArgument
// otherwise, with a message for the client (400).
StatusOr<double> parse_quality_header(std::string_view value);

// Output tokens the scheduler expects: max_tokens when given, else 256.
int64_t expected_output_tokens(const ChatRequest& request);

}  // namespace tiergate
