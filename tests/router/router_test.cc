// Runs the routing table in route_cases.json.
#include "tiergate/router/router.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "case_table.h"

namespace tiergate {
namespace {

using json = nlohmann::json;

json load_cases() { return testing::load_case_table("tests/router/route_cases.json"); }

ChatRequest request_of(const json& c) {
  ChatRequest r;
  r.model = c.at("model");
  for (const auto& m : c.at("messages")) {
    ChatMessage msg;
    EXPECT_TRUE(parse_role(m.at("role").get<std::string>(), msg.role));
    std::string content = m.at("content");
    for (int i = 0; i < m.value("repeat", 1); ++i) msg.content += content;
    r.messages.push_back(msg);
  }
  return r;
}

TEST(RouterTest, RoutingTable) {
  json doc = load_cases();
  StatusOr<ConfigPtr> config = parse_config(doc.at("config"), "route_cases.json");
  ASSERT_TRUE(config.is_ok()) << config.status().message();
  ASSERT_FALSE(doc.at("cases").empty());
  for (const auto& c : doc.at("cases")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    TierAvailability tiers;
    tiers.edge_configured = true;
    tiers.edge_ready = c.value("edge_ready", true);
    tiers.edge_model_id = "edge.gguf";
    for (const auto& down : c.value("cloud_down", json::array())) tiers.cloud_ready[down.get<std::string>()] = false;
    StatusOr<RoutePlan> plan = plan_route(**config, request_of(c), tiers);
    if (c.contains("expect_error")) {
      ASSERT_FALSE(plan.is_ok());
      EXPECT_EQ(status_code_name(plan.status().code()), c.at("expect_error").get<std::string>());
      continue;
    }
    ASSERT_TRUE(plan.is_ok()) << plan.status().message();
    EXPECT_EQ(plan->reason, c.at("expect_reason").get<std::string>());
    std::vector<std::string> got_tiers, got_models;
    for (const auto& cand : plan->candidates) {
      got_tiers.push_back(cand.tier);
      got_models.push_back(cand.model);
    }
    EXPECT_EQ(got_tiers, c.at("expect_tiers").get<std::vector<std::string>>());
    if (c.contains("expect_models")) {
      std::vector<std::string> want = c.at("expect_models");
      got_models.resize(want.size());
      EXPECT_EQ(got_models, want);
    }
    EXPECT_FALSE(plan->trace.empty());
  }
}

TEST(RouterTest, TraceCarriesNoPromptText) {
  json doc = load_cases();
  ConfigPtr config = *parse_config(doc.at("config"), "route_cases.json");
  ChatRequest r;
  r.model = "auto";
  r.messages.push_back({Role::kUser, "secret-word please prove this"});
  TierAvailability tiers{true, true, "edge.gguf", {}};
  RoutePlan plan = *plan_route(*config, r, tiers);
  for (const auto& step : plan.trace) {
    EXPECT_EQ(step.detail.find("secret-word"), std::string::npos);
    EXPECT_EQ(step.detail.find("prove"), std::string::npos);
  }
}

TEST(RouterTest, OnlyOneKindOfTier) {
  ConfigPtr edge_only = *parse_config("listen: 127.0.0.1:0\nedge:\n  model: e.gguf\n", "t");
  ChatRequest r;
  r.model = "auto";
  r.messages.push_back({Role::kUser, "prove this step by step"});
  RoutePlan plan = *plan_route(*edge_only, r, TierAvailability{true, true, "e.gguf", {}});
  EXPECT_EQ(plan.reason, "auto:edge_only");
  ASSERT_EQ(plan.candidates.size(), 1u);
  EXPECT_EQ(plan.candidates[0].tier, "edge");

  r.model = "cloud";
  EXPECT_EQ(plan_route(*edge_only, r, TierAvailability{true, true, "e.gguf", {}}).status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace tiergate
