// Matching of routing.rules (config.h RoutingRule) against a request.
// Internal to the router.
#pragma once

#include "tiergate/config/config.h"
#include "tiergate/core/chat.h"
#include "tiergate/router/scheduler.h"

namespace tiergate {

// True when the rule applies to the request's model (its match.model, or
// "auto" when it names none) and every given match field equals the request's.
bool rule_matches(const RoutingRule& rule, const ChatRequest& request, const RouteContext& context);

// The first matching rule in config order (highest priority first), or null.
const RoutingRule* first_matching_rule(const RoutingConfig& routing, const ChatRequest& request,
                                       const RouteContext& context);

}  // namespace tiergate
