// Renderings of a RoutePlan and its trace, for POST /v1/route, the `tiergate`
// object of answers and `tiergate route`. Pure; metadata only.
#pragma once

#include <string>

#include "tiergate/router/route_plan.h"

namespace tiergate {

// {"stages": [...steps...], "decided_by", "signals": {...}, "threshold": {...},
//  "constraints": [...], "tiers": [...]}: a JSON object text.
std::string route_trace_json(const RoutePlan& plan);

// {"tier", "model", "reason", "candidates": [{"tier", "model"}], "trace": {...}}.
std::string route_plan_json(const RoutePlan& plan);

// Several lines for a person: the decision, each stage, the tiers compared.
std::string explain_route(const RoutePlan& plan);

}  // namespace tiergate
