// Runs the scheduler table in schedule_cases.json, and checks what a table
// cannot say easily: header parsing, trace contents, no prompt text in traces.
#include "tiergate/router/scheduler.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tiergate/core/key_fingerprint.h"
#include "tiergate/router/route_trace_format.h"
#include "case_table.h"

namespace tiergate {
namespace {

using json = nlohmann::json;

json load_table() { return testing::load_case_table("tests/router/schedule_cases.json"); }

std::vector<float> linear_quantiles(double lo, double hi) {
  std::vector<float> q;
  for (int i = 0; i <= 100; ++i) q.push_back(static_cast<float>(lo + (hi - lo) * i / 100.0));
  return q;
}

ChatRequest request_of(const json& c) {
  ChatRequest r;
  r.model = c.value("model", "auto");
  r.user = c.value("user", "");
  if (c.contains("max_tokens")) r.sampling.max_tokens = c.at("max_tokens").get<int>();
  json messages = c.value("messages", json::array({{{"role", "user"}, {"content", "hi"}}}));
  for (const auto& m : messages) {
    ChatMessage msg;
    EXPECT_TRUE(parse_role(m.at("role").get<std::string>(), msg.role));
    msg.content = m.at("content");
    r.messages.push_back(msg);
  }
  return r;
}

SchedulerState state_of(const Config& config, const json& c, const std::string& key_fp) {
  SchedulerState s;
  s.now = SteadyTime{} + std::chrono::hours(1);
  s.edge.configured = config.has_edge();
  s.edge.ready = true;
  s.edge.model_id = "edge.gguf";
  s.edge.parallel = config.edge.parallel;
  s.edge.queue_capacity = config.edge.queue;
  json st = c.value("state", json::object());
  if (st.contains("edge")) {
    const json& e = st.at("edge");
    s.edge.ready = e.value("ready", true);
    s.edge.queue_depth = e.value("queue_depth", 0);
    s.edge.slots_busy = e.value("slots_busy", 0);
    if (e.contains("decode_tokens_per_s")) s.edge.decode_tokens_per_s = e.at("decode_tokens_per_s").get<double>();
  }
  const json upstreams = st.value("upstreams", json::object());
  for (const auto& [name, u] : upstreams.items()) {
    UpstreamState& us = s.upstreams[name];
    us.healthy = u.value("healthy", true);
    if (u.contains("ewma_latency_s")) us.ewma_latency_s = u.at("ewma_latency_s").get<double>();
    if (u.contains("p95_latency_s")) us.p95_latency_s = u.at("p95_latency_s").get<double>();
    if (u.contains("remaining_requests")) us.remaining_requests = u.at("remaining_requests").get<int64_t>();
    if (u.contains("remaining_tokens")) us.remaining_tokens = u.at("remaining_tokens").get<int64_t>();
    if (u.contains("rate_limited_for_s")) {
      us.rate_limited_until = s.now + std::chrono::seconds(u.at("rate_limited_for_s").get<int>());
    }
  }
  s.budget.spent_today_usd = st.value("spent_today_usd", 0.0);
  s.budget.limit_usd = config.routing.budget_for(key_fp);
  return s;
}

TEST(SchedulerTest, SchedulingTable) {
  json doc = load_table();
  std::map<std::string, ConfigPtr> configs;
  for (const auto& [name, yaml] : doc.at("configs").items()) {
    StatusOr<ConfigPtr> parsed = parse_config(yaml.get<std::string>(), "schedule_cases.json:" + name);
    ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
    configs[name] = *parsed;
  }
  ASSERT_FALSE(doc.at("cases").empty());
  for (const auto& c : doc.at("cases")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    const std::string config_name = c.value("config", "default");
    ASSERT_TRUE(configs.count(config_name)) << config_name;
    const Config& config = *configs[config_name];

    RequestSignals signals;
    const bool has_signals = c.contains("signals");
    if (has_signals) {
      const json& sg = c.at("signals");
      signals.learned = true;
      signals.complexity.gain = sg.at("score").get<float>();
      signals.complexity.global = signals.complexity.gain;
      auto intent = parse_intent(sg.value("intent", "chat"));
      ASSERT_TRUE(intent.has_value());
      signals.intent.intent = *intent;
      signals.intent.confidence = sg.value("confidence", 0.5f);
    }
    json q = c.contains("quantiles") ? c.at("quantiles") : doc.at("quantiles");
    std::vector<float> quantiles = q.is_null() ? std::vector<float>{} : linear_quantiles(q.at(0), q.at(1));

    RouteInputs inputs;
    const ChatRequest request = request_of(c);
    if (has_signals) {
      signals.prompt_tokens = estimate_prompt_tokens(request.messages);
      inputs.signals = &signals;
    }
    inputs.score_quantiles = quantiles;
    inputs.context.api_key_fingerprint = key_fingerprint(c.value("api_key", ""));
    const json headers = c.value("headers", json::object());
    for (const auto& [name, value] : headers.items()) {
      inputs.context.headers.emplace_back(name, value.get<std::string>());
    }
    if (c.contains("quality")) inputs.context.quality = c.at("quality").get<double>();
    inputs.state = state_of(config, c, inputs.context.api_key_fingerprint);

    StatusOr<RoutePlan> plan = schedule_route(config, request, inputs);
    if (c.contains("expect_error")) {
      ASSERT_FALSE(plan.is_ok());
      EXPECT_EQ(status_code_name(plan.status().code()), c.at("expect_error").get<std::string>());
      continue;
    }
    ASSERT_TRUE(plan.is_ok()) << plan.status().message();
    EXPECT_EQ(plan->reason, c.at("expect_reason").get<std::string>()) << explain_route(*plan);
    std::vector<std::string> tiers, models;
    for (const auto& cand : plan->candidates) {
      tiers.push_back(cand.tier);
      models.push_back(cand.model);
    }
    EXPECT_EQ(tiers, c.at("expect_tiers").get<std::vector<std::string>>()) << explain_route(*plan);
    if (c.contains("expect_models")) {
      std::vector<std::string> want = c.at("expect_models");
      models.resize(want.size());
      EXPECT_EQ(models, want);
    }
    if (c.contains("expect_constraints")) {
      EXPECT_EQ(plan->detail.constraints, c.at("expect_constraints").get<std::vector<std::string>>());
    }
    if (c.contains("expect_price_adjustment")) {
      const std::string want = c.at("expect_price_adjustment");
      const double adj = plan->detail.price_adjustment;
      if (want == "positive") {
        EXPECT_GT(adj, 0);
      } else if (want == "negative") {
        EXPECT_LT(adj, 0);
      } else {
        EXPECT_EQ(want, "zero");
        EXPECT_EQ(adj, 0);
      }
    }
    EXPECT_FALSE(plan->detail.decided_by.empty());
    EXPECT_FALSE(plan->trace.empty());
    // Every plan renders as valid JSON.
    EXPECT_NO_THROW(json::parse(route_plan_json(*plan)));
  }
}

TEST(SchedulerTest, QualityHeader) {
  EXPECT_DOUBLE_EQ(*parse_quality_header("0"), 0);
  EXPECT_DOUBLE_EQ(*parse_quality_header("1"), 1);
  EXPECT_DOUBLE_EQ(*parse_quality_header(" 0.25 "), 0.25);
  EXPECT_DOUBLE_EQ(*parse_quality_header("1.0"), 1);
  for (const char* bad : {"", "abc", "-0.1", "1.01", "0.5x", "nan", "inf", "1e3", "0,5"}) {
    SCOPED_TRACE(bad);
    StatusOr<double> q = parse_quality_header(bad);
    ASSERT_FALSE(q.is_ok());
    EXPECT_EQ(q.status().code(), StatusCode::kInvalidArgument);
  }
}

TEST(SchedulerTest, TraceCarriesFiguresButNoPromptText) {
  json doc = load_table();
  ConfigPtr config = *parse_config(doc.at("configs").at("default").get<std::string>(), "t");
  ChatRequest r;
  r.model = "auto";
  r.messages.push_back({Role::kUser, "secret-word please prove this"});
  RequestSignals signals;
  signals.learned = true;
  signals.intent.intent = Intent::kMath;
  signals.intent.confidence = 0.8f;
  signals.complexity = {.global = 0.1f, .experts = 0.2f, .topics = 0.05f, .gain = 0.3f, .familiarity = 0.75f};
  signals.prompt_tokens = estimate_prompt_tokens(r.messages);
  std::vector<float> quantiles = linear_quantiles(-1, 1);
  RouteInputs inputs;
  inputs.signals = &signals;
  inputs.score_quantiles = quantiles;
  inputs.context.api_key_fingerprint = key_fingerprint("sk-secret-key");
  inputs.state.edge = {true, true, "edge.gguf", 0, 4, 0, 2, 40.0};
  RoutePlan plan = *schedule_route(*config, r, inputs);
  EXPECT_EQ(plan.reason, "auto:complexity");
  const RouteTrace& t = plan.detail;
  EXPECT_EQ(t.intent, "math");
  EXPECT_FLOAT_EQ(static_cast<float>(t.score), 0.3f);
  EXPECT_FLOAT_EQ(static_cast<float>(t.complexity_experts), 0.2f);
  EXPECT_FLOAT_EQ(static_cast<float>(t.familiarity), 0.75f);
  ASSERT_TRUE(t.threshold.has_value());
  EXPECT_NEAR(*t.threshold, 0.0, 1e-6);
  EXPECT_EQ(t.threshold_source, "quality");
  EXPECT_EQ(t.quality_source, "config");
  ASSERT_EQ(t.tiers.size(), 3u);
  EXPECT_EQ(t.tiers[0].tier, "edge");
  ASSERT_TRUE(t.tiers[0].expected_latency_s.has_value());
  EXPECT_NEAR(*t.tiers[0].expected_latency_s, 256.0 / 40.0, 1e-9);
  EXPECT_GT(t.tiers[2].expected_cost_usd, t.tiers[1].expected_cost_usd);  // premium > cheap

  const std::string text = route_plan_json(plan) + explain_route(plan);
  EXPECT_EQ(text.find("secret-word"), std::string::npos);
  EXPECT_EQ(text.find("prove"), std::string::npos);
  EXPECT_EQ(text.find("sk-secret-key"), std::string::npos);
  json j = json::parse(route_plan_json(plan));
  EXPECT_EQ(j["tier"], "cheap");
  EXPECT_EQ(j["reason"], "auto:complexity");
  EXPECT_EQ(j["trace"]["signals"]["intent"], "math");
  EXPECT_FLOAT_EQ(j["trace"]["signals"]["complexity"]["familiarity"].get<float>(), 0.75f);
  EXPECT_EQ(j["trace"]["decided_by"], "complexity");
  EXPECT_EQ(j["candidates"].size(), 3u);
}

TEST(SchedulerTest, ExpectedOutputTokens) {
  ChatRequest r;
  EXPECT_EQ(expected_output_tokens(r), 256);
  r.sampling.max_tokens = 17;
  EXPECT_EQ(expected_output_tokens(r), 17);
}

}  // namespace
}  // namespace tiergate
