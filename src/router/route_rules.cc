#include "route_rules.h"

namespace tiergate {

bool rule_matches(const RoutingRule& rule, const ChatRequest& request, const RouteContext& context) {
  const RuleMatch& m = rule.match;
  if (m.model ? request.model != *m.model : request.model != "auto") return false;
  if (m.api_key_fingerprint &&
      (context.api_key_fingerprint.empty() || context.api_key_fingerprint != *m.api_key_fingerprint)) {
    return false;
  }
  if (m.user && request.user != *m.user) return false;
  for (const auto& [name, value] : m.headers) {
    bool found = false;
    for (const auto& [have_name, have_value] : context.headers) {
      if (have_name == name && have_value == value) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

const RoutingRule* first_matching_rule(const RoutingConfig& routing, const ChatRequest& request,
                                       const RouteContext& context) {
  for (const RoutingRule& rule : routing.rules) {
    if (rule_matches(rule, request, context)) return &rule;
  }
  return nullptr;
}

}  // namespace tiergate
