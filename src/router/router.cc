#include "tiergate/router/router.h"

#include <algorithm>
#include <cctype>

#include "tiergate/router/scheduler.h"

namespace tiergate {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

bool cloud_ready(const TierAvailability& tiers, const std::string& name) {
  auto it = tiers.cloud_ready.find(name);
  return it == tiers.cloud_ready.end() || it->second;
}

// Every upstream's first model, healthy upstreams first (stable otherwise).
std::vector<RouteCandidate> cloud_candidates(const Config& config, const TierAvailability& tiers) {
  std::vector<RouteCandidate> out;
  for (const auto& up : config.cloud) out.push_back({TierKind::kCloud, up.name, up.models.front()});
  std::stable_partition(out.begin(), out.end(), [&](const RouteCandidate& c) { return cloud_ready(tiers, c.tier); });
  return out;
}

RouteCandidate edge_candidate(const TierAvailability& tiers) { return {TierKind::kEdge, "edge", tiers.edge_model_id}; }

}  // namespace

bool auto_rule_prefers_cloud(const AutoRuleConfig& rule, const ChatRequest& request, std::string& reason,
                             std::string& detail) {
  const int64_t tokens = estimate_prompt_tokens(request.messages);
  if (tokens > rule.max_edge_prompt_tokens) {
    reason = "auto:long_prompt";
    detail = "estimated " + std::to_string(tokens) + " prompt tokens > " + std::to_string(rule.max_edge_prompt_tokens);
    return true;
  }
  // Keywords are looked for in the latest user turn only: it states the task.
  std::string last_user;
  for (auto it = request.messages.rbegin(); it != request.messages.rend(); ++it) {
    if (it->role == Role::kUser) {
      last_user = lower(it->content);
      break;
    }
  }
  for (size_t i = 0; i < rule.cloud_keywords.size(); ++i) {
    if (last_user.find(lower(rule.cloud_keywords[i])) != std::string::npos) {
      reason = "auto:keyword";
      // The keyword's index, not the keyword: traces carry no prompt content.
      detail = "cloud keyword #" + std::to_string(i) + " present";
      return true;
    }
  }
  reason = "auto:short_prompt";
  detail = "estimated " + std::to_string(tokens) + " prompt tokens <= " + std::to_string(rule.max_edge_prompt_tokens) +
           ", no cloud keyword";
  return false;
}

StatusOr<RoutePlan> plan_route(const Config& config, const ChatRequest& request, const TierAvailability& tiers) {
  RoutePlan plan;
  const std::string& model = request.model;

  if (model == "auto") {
    // The scheduler without signals: the placeholder rule, tiers as given.
    RouteInputs inputs;
    inputs.state.edge.configured = tiers.edge_configured;
    inputs.state.edge.ready = tiers.edge_ready;
    inputs.state.edge.model_id = tiers.edge_model_id;
    for (const auto& [name, ready] : tiers.cloud_ready) inputs.state.upstreams[name].healthy = ready;
    return schedule_route(config, request, inputs);
  }

  if (model == "edge" || model == config.edge.alias || (!tiers.edge_model_id.empty() && model == tiers.edge_model_id)) {
    if (!tiers.edge_configured) return not_found("The model '" + model + "' does not exist: no edge model is configured");
    plan.reason = "model:edge";
    plan.candidates.push_back(edge_candidate(tiers));
    plan.trace.push_back({"model", "explicit edge"});
    return plan;
  }

  if (model == "cloud") {
    plan.candidates = cloud_candidates(config, tiers);
    if (plan.candidates.empty()) return not_found("The model 'cloud' does not exist: no cloud upstream is configured");
    plan.reason = "model:cloud";
    plan.trace.push_back({"model", "explicit cloud"});
    return plan;
  }

  for (const auto& up : config.cloud) {
    if (std::find(up.models.begin(), up.models.end(), model) != up.models.end()) {
      plan.reason = "model:" + up.name;
      plan.candidates.push_back({TierKind::kCloud, up.name, model});
      plan.trace.push_back({"model", "configured model of upstream " + up.name});
      return plan;
    }
  }
  return not_found("The model '" + model + "' does not exist; GET /v1/models lists the models");
}

}  // namespace tiergate
