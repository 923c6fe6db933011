#include "tiergate/router/route_trace_format.h"

#include <nlohmann/json.hpp>

#include "decimal_text.h"

namespace tiergate {

namespace {

using json = nlohmann::json;

json optional_number(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json trace_object(const RoutePlan& plan) {
  const RouteTrace& t = plan.detail;
  json stages = json::array();
  for (const TraceStep& s : plan.trace) stages.push_back({{"stage", s.stage}, {"detail", s.detail}});
  json tiers = json::array();
  for (const TierEstimate& e : t.tiers) {
    tiers.push_back({{"tier", e.tier},
                     {"expected_cost_usd", e.expected_cost_usd},
                     {"expected_latency_s", optional_number(e.expected_latency_s)},
                     {"eligible", e.eligible},
                     {"note", e.note}});
  }
  json out = {{"decided_by", t.decided_by},
              {"stages", stages},
              {"signals",
               {{"learned", t.learned},
                {"intent", t.intent},
                {"intent_confidence", t.intent_confidence},
                {"intent_from_cue", t.intent_from_cue},
                {"complexity",
                 {{"global", t.complexity_global},
                  {"experts", t.complexity_experts},
                  {"topics", t.complexity_topics},
                  {"embedding", t.complexity_embedding},
                  {"familiarity", t.familiarity},
                  {"gain", t.score}}},
                {"prompt_tokens", t.prompt_tokens},
                {"expected_output_tokens", t.expected_output_tokens}}},
              {"threshold",
               {{"quality", t.quality_source.empty() ? json(nullptr) : json(t.quality)},
                {"quality_source", t.quality_source},
                {"source", t.threshold_source},
                {"tau", optional_number(t.threshold)},
                {"price_adjustment", t.price_adjustment},
                {"latency_adjustment", t.latency_adjustment},
                {"effective", optional_number(t.effective_threshold)}}},
              {"constraints", t.constraints},
              {"tiers", tiers}};
  return out;
}

std::string dump(const json& j, int indent = -1) { return j.dump(indent, ' ', false, json::error_handler_t::replace); }

}  // namespace

std::string route_trace_json(const RoutePlan& plan) { return dump(trace_object(plan)); }

std::string route_plan_json(const RoutePlan& plan) {
  json candidates = json::array();
  for (const RouteCandidate& c : plan.candidates) candidates.push_back({{"tier", c.tier}, {"model", c.model}});
  json out = {{"tier", plan.candidates.empty() ? json(nullptr) : json(plan.candidates.front().tier)},
              {"model", plan.candidates.empty() ? json(nullptr) : json(plan.candidates.front().model)},
              {"reason", plan.reason},
              {"candidates", candidates},
              {"trace", trace_object(plan)}};
  if (plan.degraded != Degradation::kNone) out["degraded"] = degradation_name(plan.degraded);
  if (plan.speculative) out["speculative"] = true;
  return dump(out);
}

std::string explain_route(const RoutePlan& plan) {
  const RouteTrace& t = plan.detail;
  std::string out;
  out += "route:      " + plan.reason + "\n";
  out += "tiers:      ";
  for (size_t i = 0; i < plan.candidates.size(); ++i) {
    out += (i ? " > " : "") + plan.candidates[i].tier + " (" + plan.candidates[i].model + ")";
  }
  out += "\ndecided by: " + t.decided_by + "\n";
  if (!t.intent.empty()) {
    out += "signals:    intent " + t.intent + " (" + fixed_text(t.intent_confidence, 2) + (t.intent_from_cue ? ", cue" : "") +
           "), cloud score " + fixed_text(t.score, 4) + " [global " + fixed_text(t.complexity_global, 4) + ", experts " +
           fixed_text(t.complexity_experts, 4) + ", topics " + fixed_text(t.complexity_topics, 4) +
           (t.complexity_embedding != 0 ? ", embedding " + fixed_text(t.complexity_embedding, 4) : std::string()) +
           ", familiarity " +
           fixed_text(t.familiarity, 2) + "]" +
           (t.learned ? "" : " (no trained router)") + "\n";
  }
  out += "size:       " + std::to_string(t.prompt_tokens) + " prompt tokens (estimated), " +
         std::to_string(t.expected_output_tokens) + " output tokens expected\n";
  if (t.threshold) {
    out += "threshold:  tau " + fixed_text(*t.threshold, 4) + " (" + t.threshold_source;
    if (!t.quality_source.empty()) out += ", quality " + fixed_text(t.quality, 2) + " from " + t.quality_source;
    out += ") + price " + fixed_text(t.price_adjustment, 4) + " + latency " + fixed_text(t.latency_adjustment, 4) + " = " +
           fixed_text(t.effective_threshold.value_or(*t.threshold), 4) + "\n";
  }
  for (const std::string& c : t.constraints) out += "constraint: " + c + "\n";
  out += "stages:\n";
  for (const TraceStep& s : plan.trace) out += "  " + s.stage + ": " + s.detail + "\n";
  if (!t.tiers.empty()) {
    out += "expected cost per tier:\n";
    for (const TierEstimate& e : t.tiers) {
      out += "  " + e.tier + ": " + fixed_text(e.expected_cost_usd, 6) + " USD";
      if (e.expected_latency_s) out += ", " + fixed_text(*e.expected_latency_s, 2) + " s";
      if (!e.eligible) out += ", not eligible";
      if (!e.note.empty()) out += " (" + e.note + ")";
      out += "\n";
    }
  }
  return out;
}

}  // namespace tiergate
