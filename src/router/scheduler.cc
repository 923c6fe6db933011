#include "tiergate/router/scheduler.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "decimal_text.h"
#include "route_rules.h"
#include "tiergate/router/router.h"
#include "tiergate/signals/router_artifact.h"

namespace tiergate {

namespace {

constexpr int64_t kDefaultOutputTokens = 256;
// The request size the price adjustment is relative to: a request of this size
// on the cheapest upstream adds nothing to the threshold.
constexpr int64_t kReferencePromptTokens = 500;
constexpr int64_t kReferenceOutputTokens = 256;
// Fewer requests left than this (x-ratelimit-remaining-requests) puts an
// upstream behind the others: the next few calls may well get a 429.
constexpr int64_t kNearLimitRequests = 5;

// One upstream as the scheduler weighs it for this request.
struct UpstreamView {
  const UpstreamConfig* config = nullptr;
  UpstreamState state;
  bool eligible = true;
  bool near_limit = false;
  double cost_usd = 0;
  std::string note;
};

std::vector<UpstreamView> weigh_upstreams(const Config& config, const SchedulerState& state, int64_t prompt_tokens,
                                          int64_t output_tokens) {
  std::vector<UpstreamView> out;
  out.reserve(config.cloud.size());
  for (const UpstreamConfig& up : config.cloud) {
    UpstreamView v;
    v.config = &up;
    if (auto it = state.upstreams.find(up.name); it != state.upstreams.end()) v.state = it->second;
    v.cost_usd = up.price.cost_usd(prompt_tokens, output_tokens);
    const UpstreamState& s = v.state;
    if (!s.healthy) {
      v.eligible = false;
      v.note = "unhealthy";
    } else if (s.rate_limited_until && *s.rate_limited_until > state.now) {
      v.eligible = false;
      v.note = "rate_limited";
    } else if (s.remaining_requests && *s.remaining_requests <= 0) {
      v.eligible = false;
      v.note = "no_requests_left";
    } else if ((s.remaining_requests && *s.remaining_requests < kNearLimitRequests) ||
               (s.remaining_tokens && *s.remaining_tokens < prompt_tokens + output_tokens)) {
      v.near_limit = true;
      v.note = "near_rate_limit";
    }
    out.push_back(std::move(v));
  }
  return out;
}

// Preference order (see scheduler.h); stable, so config order breaks ties.
std::vector<const UpstreamView*> order_upstreams(const std::vector<UpstreamView>& views) {
  std::vector<const UpstreamView*> out;
  out.reserve(views.size());
  for (const auto& v : views) out.push_back(&v);
  std::stable_sort(out.begin(), out.end(), [](const UpstreamView* a, const UpstreamView* b) {
    if (a->eligible != b->eligible) return a->eligible;
    if (!a->eligible) return false;
    if (a->near_limit != b->near_limit) return !a->near_limit;
    if (a->cost_usd != b->cost_usd) return a->cost_usd < b->cost_usd;
    // Unknown latency sorts as 0: a fresh upstream gets tried and measured.
    return a->state.ewma_latency_s.value_or(0) < b->state.ewma_latency_s.value_or(0);
  });
  return out;
}

RouteCandidate edge_candidate(const SchedulerState& state) { return {TierKind::kEdge, "edge", state.edge.model_id}; }

std::vector<RouteCandidate> cloud_candidates(const std::vector<const UpstreamView*>& ordered) {
  std::vector<RouteCandidate> out;
  out.reserve(ordered.size());
  for (const UpstreamView* v : ordered) out.push_back({TierKind::kCloud, v->config->name, v->config->models.front()});
  return out;
}

TierAvailability availability_of(const SchedulerState& state) {
  TierAvailability t;
  t.edge_configured = state.edge.configured;
  t.edge_ready = state.edge.ready;
  t.edge_model_id = state.edge.model_id;
  for (const auto& [name, s] : state.upstreams) t.cloud_ready[name] = s.healthy;
  return t;
}

// One trace line built in one buffer, numbers through to_chars: this runs on
// every decision, so no printf and no string temporaries.
class TraceLine {
 public:
  TraceLine() { text_.reserve(96); }
  TraceLine& operator<<(std::string_view s) {
    text_ += s;
    return *this;
  }
  // v with `digits` decimals.
  TraceLine& fixed(double v, int digits = 4) {
    append_fixed(text_, v, digits);
    return *this;
  }
  std::string take() { return std::move(text_); }

 private:
  std::string text_;
};

// Edge latency for the expected output: waiting turns plus its own decode.
std::optional<double> edge_latency_s(const EdgeState& edge, int64_t output_tokens) {
  if (!edge.decode_tokens_per_s || *edge.decode_tokens_per_s <= 0) return std::nullopt;
  const double turns = static_cast<double>(edge.queue_depth) / std::max(1, edge.parallel) + 1.0;
  return turns * static_cast<double>(output_tokens) / *edge.decode_tokens_per_s;
}

void record_signals(const RequestSignals& signals, RouteTrace& t) {
  t.learned = signals.learned;
  t.intent = std::string(intent_name(signals.intent.intent));
  t.intent_confidence = signals.intent.confidence;
  t.intent_from_cue = signals.intent.from_cue;
  t.complexity_global = signals.complexity.global;
  t.complexity_experts = signals.complexity.experts;
  t.complexity_topics = signals.complexity.topics;
  t.complexity_embedding = signals.complexity.embedding;
  t.familiarity = signals.complexity.familiarity;
  t.score = signals.complexity.gain;
  t.prompt_tokens = signals.prompt_tokens;
}

// Candidates with `first` leading and the other tiers after it.
void lead_with_cloud(RoutePlan& plan, const std::vector<RouteCandidate>& cloud, const SchedulerState& state) {
  plan.candidates.reserve(cloud.size() + 1);
  plan.candidates.assign(cloud.begin(), cloud.end());
  if (state.edge.configured) plan.candidates.push_back(edge_candidate(state));
}
void lead_with_edge(RoutePlan& plan, const std::vector<RouteCandidate>& cloud, const SchedulerState& state) {
  plan.candidates.reserve(cloud.size() + 1);
  plan.candidates.push_back(edge_candidate(state));
  plan.candidates.insert(plan.candidates.end(), cloud.begin(), cloud.end());
}

void finish(RoutePlan& plan) {
  plan.trace.push_back(
      {"decision", (TraceLine() << plan.reason << " -> "
                                << (plan.candidates.empty() ? "none" : plan.candidates.front().tier))
                       .take()});
}

}  // namespace

int64_t expected_output_tokens(const ChatRequest& request) {
  return request.sampling.max_tokens && *request.sampling.max_tokens > 0 ? *request.sampling.max_tokens
                                                                         : kDefaultOutputTokens;
}

StatusOr<double> parse_quality_header(std::string_view value) {
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  double q = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), q);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size() || !std::isfinite(q) || q < 0 ||
      q > 1) {
    return invalid_argument("x-tiergate-quality must be a number from 0 (cheapest) to 1 (best)");
  }
  return q;
}

namespace {

StatusOr<RoutePlan> schedule_without_device_cap(const Config& config, const ChatRequest& request,
                                                const RouteInputs& inputs) {
  const SchedulerState& state = inputs.state;
  const RouteContext& ctx = inputs.context;
  const RoutingConfig& routing = config.routing;
  const bool is_auto = request.model == "auto";

  RouteTrace trace;
  trace.model = request.model;
  if (inputs.signals != nullptr) {
    record_signals(*inputs.signals, trace);  // prompt_tokens too, estimated once
  } else {
    trace.prompt_tokens = estimate_prompt_tokens(request.messages);
  }
  trace.expected_output_tokens = expected_output_tokens(request);

  const std::vector<UpstreamView> views =
      weigh_upstreams(config, state, trace.prompt_tokens, trace.expected_output_tokens);
  const std::vector<const UpstreamView*> ordered = order_upstreams(views);
  const std::vector<RouteCandidate> cloud = cloud_candidates(ordered);
  const double edge_cost = config.edge.price.cost_usd(trace.prompt_tokens, trace.expected_output_tokens);
  const std::optional<double> edge_latency = edge_latency_s(state.edge, trace.expected_output_tokens);
  trace.tiers.reserve(views.size() + 1);
  if (state.edge.configured) {
    TierEstimate e{"edge", edge_cost, edge_latency, state.edge.ready && !edge_queue_full(state.edge), ""};
    if (!state.edge.ready) e.note = "not_ready";
    else if (edge_queue_full(state.edge)) e.note = "queue_full";
    trace.tiers.push_back(std::move(e));
  }
  for (const UpstreamView& v : views) {
    trace.tiers.push_back({v.config->name, v.cost_usd, v.state.ewma_latency_s, v.eligible, v.note});
  }
  const UpstreamView* best_cloud = nullptr;  // the cheapest eligible upstream
  for (const UpstreamView& v : views) {
    if (v.eligible && (best_cloud == nullptr || v.cost_usd < best_cloud->cost_usd)) best_cloud = &v;
  }
  const bool any_cloud_eligible = best_cloud != nullptr;

  const RoutingRule* rule = first_matching_rule(routing, request, ctx);
  const bool budget_exhausted = state.budget.exhausted();

  // 1. Explicit model names.
  if (!is_auto && rule == nullptr) {
    StatusOr<RoutePlan> plan = plan_route(config, request, availability_of(state));
    if (!plan.is_ok()) return plan;
    if (budget_exhausted && !plan->candidates.empty() && plan->candidates.front().kind == TierKind::kCloud) {
      return resource_exhausted("The daily budget of this API key is spent (routing.budgets); the model '" +
                                request.model + "' is served by the cloud only");
    }
    trace.decided_by = "model";
    plan->detail = std::move(trace);
    return plan;
  }

  RoutePlan plan;
  plan.trace.reserve(5);  // signals, threshold, complexity, decision and one spare
  if (inputs.signals != nullptr) {
    TraceLine line;
    line << "intent " << trace.intent << " (";
    line.fixed(trace.intent_confidence, 2) << (trace.intent_from_cue ? ", cue" : "") << "), cloud score ";
    line.fixed(trace.score) << (trace.learned ? "" : " (no artifact)");
    plan.trace.push_back({"signals", line.take()});
  }

  // 2. Budget.
  if (budget_exhausted) {
    trace.constraints.push_back("budget_exhausted");
    trace.decided_by = "budget";
    if (!state.edge.configured) {
      return resource_exhausted("The daily budget of this API key is spent (routing.budgets) and no edge tier is "
                                "configured");
    }
    plan.reason = is_auto ? "auto:budget_exhausted" : "budget_exhausted";
    plan.candidates.push_back(edge_candidate(state));
    TraceLine line;
    line << "spent ";
    line.fixed(state.budget.spent_today_usd) << " USD today >= limit ";
    line.fixed(*state.budget.limit_usd) << " USD: edge only";
    plan.trace.push_back({"budget", line.take()});
    plan.detail = std::move(trace);
    finish(plan);
    return plan;
  }

  // 3. Rules.
  if (rule != nullptr) {
    trace.decided_by = "rule:" + rule->name;
    plan.reason = "rule:" + rule->name;
    switch (rule->route) {
      case RuleRoute::kEdge:
        if (!state.edge.configured) return not_found("rule '" + rule->name + "' routes to the edge, which is not configured");
        lead_with_edge(plan, cloud, state);
        break;
      case RuleRoute::kCloud:
        if (cloud.empty()) return not_found("rule '" + rule->name + "' routes to the cloud; no upstream is configured");
        lead_with_cloud(plan, cloud, state);
        break;
      case RuleRoute::kUpstream: {
        std::vector<RouteCandidate> pinned;
        for (const RouteCandidate& c : cloud) {
          if (c.tier != rule->upstream) continue;
          RouteCandidate first = c;
          // The request's own model when that upstream serves it.
          for (const UpstreamConfig& up : config.cloud) {
            if (up.name == c.tier && std::find(up.models.begin(), up.models.end(), request.model) != up.models.end()) {
              first.model = request.model;
            }
          }
          pinned.push_back(first);
        }
        if (pinned.empty()) return not_found("rule '" + rule->name + "' routes to unknown upstream " + rule->upstream);
        for (const RouteCandidate& c : cloud) {
          if (c.tier != rule->upstream) pinned.push_back(c);
        }
        lead_with_cloud(plan, pinned, state);
        break;
      }
    }
    plan.trace.push_back({"rule", "rule " + rule->name + " (priority " + std::to_string(rule->priority) + ") matched"});
    plan.detail = std::move(trace);
    finish(plan);
    return plan;
  }

  // 4. Only one kind of tier.
  if (cloud.empty() || !state.edge.configured) {
    const bool edge = state.edge.configured;
    plan.reason = edge ? "auto:edge_only" : "auto:cloud_only";
    trace.decided_by = edge ? "edge_only" : "cloud_only";
    if (edge) {
      plan.candidates.push_back(edge_candidate(state));
    } else {
      plan.candidates = cloud;
    }
    plan.detail = std::move(trace);
    finish(plan);
    return plan;
  }

  // 5. Preference.
  const bool dial_applies = ctx.quality.has_value() || !routing.threshold.has_value();
  const double quality = ctx.quality.value_or(routing.quality);
  bool to_cloud = false;
  // Whether the preference below is a close call, for speculative edge
  // execution: a learned score near its threshold, or the placeholder rule
  // (which has no score to be sure of).
  bool uncertain = false;
  if (dial_applies && (quality <= 0 || quality >= 1)) {
    trace.quality = quality;
    trace.quality_source = ctx.quality ? "header" : "config";
    to_cloud = quality >= 1;
    plan.reason = "auto:quality_dial";
    trace.decided_by = "quality_dial";
    TraceLine line;
    line << "quality ";
    line.fixed(quality, 2) << " -> " << (to_cloud ? "cloud" : "edge");
    plan.trace.push_back({"quality_dial", line.take()});
  } else if (inputs.signals != nullptr && inputs.signals->learned) {
    double tau = 0;
    if (!ctx.quality && routing.threshold) {
      tau = *routing.threshold;
      trace.threshold_source = "config";
    } else {
      trace.quality = quality;
      trace.quality_source = ctx.quality ? "header" : "config";
      if (inputs.score_quantiles.size() == 101) {
        tau = threshold_for_cloud_share(inputs.score_quantiles, quality);
        trace.threshold_source = "quality";
      } else {
        trace.threshold_source = "uncalibrated";
      }
    }
    trace.threshold = tau;
    if (best_cloud != nullptr && routing.price_sensitivity > 0) {
      const Price& cp = best_cloud->config->price;
      const double marginal = best_cloud->cost_usd - edge_cost;
      const double reference = cp.cost_usd(kReferencePromptTokens, kReferenceOutputTokens) -
                               config.edge.price.cost_usd(kReferencePromptTokens, kReferenceOutputTokens);
      if (marginal > 0 && reference > 0) trace.price_adjustment = routing.price_sensitivity * std::log(marginal / reference);
    }
    const UpstreamView* first_cloud = ordered.empty() || !ordered.front()->eligible ? nullptr : ordered.front();
    if (routing.latency_weight > 0 && first_cloud != nullptr && first_cloud->state.ewma_latency_s && edge_latency) {
      trace.latency_adjustment = routing.latency_weight * (*first_cloud->state.ewma_latency_s - *edge_latency);
    }
    const double tau_eff = tau + trace.price_adjustment + trace.latency_adjustment;
    trace.effective_threshold = tau_eff;
    to_cloud = trace.score > tau_eff;
    uncertain = std::abs(trace.score - tau_eff) <= config.speculative.margin;
    plan.reason = "auto:complexity";
    trace.decided_by = "complexity";
    TraceLine threshold;
    threshold << "tau ";
    threshold.fixed(tau) << " (" << trace.threshold_source << ") + price ";
    threshold.fixed(trace.price_adjustment) << " + latency ";
    threshold.fixed(trace.latency_adjustment) << " = ";
    threshold.fixed(tau_eff);
    plan.trace.push_back({"threshold", threshold.take()});
    TraceLine complexity;
    complexity << "score ";
    complexity.fixed(trace.score) << (to_cloud ? " > " : " <= ");
    complexity.fixed(tau_eff);
    plan.trace.push_back({"complexity", complexity.take()});
  } else {
    std::string reason, detail;
    to_cloud = auto_rule_prefers_cloud(config.auto_rule, request, reason, detail);
    uncertain = true;
    plan.reason = reason;
    trace.decided_by = "placeholder";
    plan.trace.push_back({"auto_rule", detail});
  }

  // 6. Constraints.
  const bool prompt_too_long_for_device =
      state.edge.max_prompt_tokens && trace.prompt_tokens > *state.edge.max_prompt_tokens;
  if (!to_cloud && !state.edge.ready) {
    to_cloud = true;
    plan.reason = "auto:edge_unavailable";
    plan.degraded = Degradation::kEdgeUnavailable;
    trace.constraints.push_back("edge_unavailable");
  } else if (!to_cloud && edge_queue_full(state.edge) && any_cloud_eligible) {
    to_cloud = true;
    plan.reason = "auto:edge_queue_full";
    trace.constraints.push_back("edge_queue_full");
  } else if (!to_cloud && (state.edge.prefer_cloud || prompt_too_long_for_device) && any_cloud_eligible) {
    to_cloud = true;
    plan.reason = "auto:device_constrained";
    trace.constraints.push_back(state.edge.prefer_cloud ? "device_cloud_preferred" : "device_prompt_too_long");
  } else if (to_cloud && !any_cloud_eligible && state.edge.ready && !edge_queue_full(state.edge)) {
    to_cloud = false;
    plan.reason = "auto:cloud_unavailable";
    plan.degraded = Degradation::kCloudUnavailable;
    trace.constraints.push_back("cloud_unavailable");
  }
  if (to_cloud) {
    lead_with_cloud(plan, cloud, state);
  } else {
    lead_with_edge(plan, cloud, state);
    if (config.speculative.enabled && uncertain && any_cloud_eligible && plan.degraded == Degradation::kNone) {
      plan.speculative = true;
      plan.trace.push_back({"speculative", "edge draft verified before it stands; escalates to the cloud if rejected"});
    }
  }
  plan.detail = std::move(trace);
  finish(plan);
  return plan;
}

}  // namespace

StatusOr<RoutePlan> schedule_route(const Config& config, const ChatRequest& request, const RouteInputs& inputs) {
  StatusOr<RoutePlan> plan = schedule_without_device_cap(config, request, inputs);
  const std::optional<int>& cap = inputs.state.edge.max_new_tokens;
  if (!plan.is_ok() || !cap) return plan;
  for (const RouteCandidate& c : plan->candidates) {
    if (c.kind != TierKind::kEdge) continue;
    plan->edge_max_tokens = *cap;
    plan->trace.push_back({"device", "constrained device: an edge answer gets at most " + std::to_string(*cap) +
                                         " new tokens"});
    break;
  }
  return plan;
}

}  // namespace tiergate
