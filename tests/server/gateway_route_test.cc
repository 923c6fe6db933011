// The scheduler through the gateway: POST /v1/route, the x-tiergate-quality
// header, budgets per API key, rules on headers, live tier state (rate limits,
// edge queue) and the route trace in answers. The learned router is a tiny
// artifact trained here on synthetic rows (no data files).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "gateway_harness.h"
#include "tiergate/signals/router_training.h"

namespace tiergate {
namespace {

using json = nlohmann::json;
using testing::http_call;
using HttpHeadersList = std::map<std::string, std::string>;

const char* kConfig = R"(listen: 127.0.0.1:0
edge:
  model: edge.gguf
  parallel: 4
  queue: 8
cloud:
  - name: up1
    base_url: http://127.0.0.1:9/v1
    models: [big]
    price_per_mtok: {input: 100000, output: 200000}
routing:
  price_sensitivity: 0
  rules:
    - {name: tenant-edge, priority: 5, match: {header: {x-tenant: a}}, route: edge}
    - {name: vip-cloud, priority: 9, match: {api_key: sk-vip}, route: cloud}
  budgets:
    - {api_key: "*", usd_per_day: 0.5}
)";

// Prompts whose words decide the outcome: "hard" ones only the cloud answers.
std::string prompt(bool hard, int i) {
  static const char* easy_words[] = {"hello", "thanks", "weather", "coffee", "friend", "music", "garden", "story"};
  static const char* hard_words[] = {"theorem", "eigenvalue", "integral", "topology", "lemma", "asymptotic"};
  std::vector<std::string_view> words = {"please", "tell", "me", "about", easy_words[i % 8], easy_words[(i / 8) % 8]};
  if (hard) words.insert(words.end(), {hard_words[i % 6], hard_words[(i / 6) % 6], "proof"});
  std::string text;
  for (std::string_view w : words) {
    if (!text.empty()) text.push_back(' ');
    text.append(w);
  }
  return text;
}

std::shared_ptr<const RouterArtifact> tiny_router() {
  std::vector<RoutingRow> rows;
  for (int i = 0; i < 160; ++i) {
    const bool hard = i % 2 == 0;
    RoutingRow row;
    row.id = std::to_string(1000 + i);  // ("r" + ... trips GCC 12 -Wrestrict at -O3)
    row.source = hard ? "synthetic/hard" : "synthetic/easy";
    row.messages.push_back({Role::kUser, prompt(hard, i)});
    row.edge_score = hard ? 0 : 1;
    row.cloud_score = 1;
    rows.push_back(std::move(row));
  }
  RouterTrainOptions options;
  options.space.buckets = 1u << 12;
  options.label_buckets = 1u << 10;
  options.expert_weight = 0;
  options.topic_weight = 0;
  options.complexity_training.epochs = 8;
  return std::make_shared<const RouterArtifact>(train_router(rows, {}, options));
}

class GatewayRouteTest : public testing::GatewayHarness {
 protected:
  void start(std::shared_ptr<const RouterArtifact> router) { start_gateway(kConfig, std::move(router)); }

  testing::HttpResult post(const std::string& path, const json& body, const HttpHeadersList& headers = {}) {
    return http_call(port_, "POST", path, body.dump(), headers);
  }
};

json ask(const std::string& text) {
  return {{"model", "auto"}, {"messages", json::array({{{"role", "user"}, {"content", text}}})}};
}

TEST_F(GatewayRouteTest, LearnedRouterSendsHardPromptsToTheCloud) {
  start(tiny_router());
  auto hard = post("/v1/route", ask(prompt(true, 3)));
  ASSERT_EQ(hard.status, 200) << hard.body;
  json h = json::parse(hard.body);
  EXPECT_EQ(h["tier"], "up1") << hard.body;
  EXPECT_EQ(h["model"], "big");
  EXPECT_EQ(h["reason"], "auto:complexity");
  ASSERT_EQ(h["candidates"].size(), 2u);
  EXPECT_EQ(h["candidates"][1]["tier"], "edge");
  EXPECT_TRUE(h["trace"]["signals"]["learned"].get<bool>());
  EXPECT_EQ(h["trace"]["threshold"]["source"], "quality");
  EXPECT_EQ(hard.headers["x-tiergate-route"], "auto:complexity");

  auto easy = post("/v1/route", ask(prompt(false, 5)));
  ASSERT_EQ(easy.status, 200);
  json e = json::parse(easy.body);
  EXPECT_EQ(e["tier"], "edge") << easy.body;
  EXPECT_LT(e["trace"]["signals"]["complexity"]["gain"].get<double>(),
            h["trace"]["signals"]["complexity"]["gain"].get<double>());
  // Metadata only.
  EXPECT_EQ(hard.body.find("eigenvalue"), std::string::npos);
  EXPECT_EQ(hard.body.find("please tell me"), std::string::npos);
  // Deciding generates nothing.
  EXPECT_EQ(edge_.calls.load() + cloud_.calls.load(), 0);
}

TEST_F(GatewayRouteTest, AnswersCarryTheFullTrace) {
  start(tiny_router());
  auto r = post("/v1/chat/completions", ask(prompt(true, 1)));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.headers["x-tiergate-route"], "auto:complexity");
  json j = json::parse(r.body);
  EXPECT_EQ(j["tiergate"]["tier"], "up1");
  EXPECT_EQ(j["tiergate"]["trace"]["decided_by"], "complexity");
  EXPECT_TRUE(j["tiergate"]["trace"]["threshold"]["tau"].is_number());
  EXPECT_FALSE(j["tiergate"]["trace"]["stages"].empty());
}

TEST_F(GatewayRouteTest, QualityHeaderSetsTheDial) {
  start(tiny_router());
  auto cheap = post("/v1/route", ask(prompt(true, 3)), {{"x-tiergate-quality", "0"}});
  ASSERT_EQ(cheap.status, 200);
  EXPECT_EQ(json::parse(cheap.body)["tier"], "edge");
  EXPECT_EQ(json::parse(cheap.body)["reason"], "auto:quality_dial");
  auto best = post("/v1/chat/completions", ask(prompt(false, 3)), {{"x-tiergate-quality", "1"}});
  ASSERT_EQ(best.status, 200);
  EXPECT_EQ(best.headers["x-tiergate-tier"], "up1");
  EXPECT_EQ(best.headers["x-tiergate-route"], "auto:quality_dial");
}

TEST_F(GatewayRouteTest, BadQualityHeaderIsA400) {
  start(nullptr);
  for (const char* bad : {"high", "1.5", "-1", "0.5.1"}) {
    SCOPED_TRACE(bad);
    for (const char* path : {"/v1/route", "/v1/chat/completions"}) {
      auto r = post(path, ask("hi"), {{"x-tiergate-quality", bad}});
      EXPECT_EQ(r.status, 400);
      json j = json::parse(r.body);
      EXPECT_EQ(j["error"]["type"], "invalid_request_error");
      EXPECT_NE(j["error"]["message"].get<std::string>().find("x-tiergate-quality"), std::string::npos);
    }
  }
  EXPECT_EQ(edge_.calls.load() + cloud_.calls.load(), 0);
}

TEST_F(GatewayRouteTest, BudgetPerKeyKeepsASpentKeyOnTheEdge) {
  start(nullptr);
  const HttpHeadersList key_a = {{"Authorization", "Bearer sk-a"}, {"x-tiergate-quality", "1"}};
  auto first = post("/v1/chat/completions", ask("hi"), key_a);
  ASSERT_EQ(first.status, 200) << first.body;
  EXPECT_EQ(first.headers["x-tiergate-tier"], "up1");
  ASSERT_GT(json::parse(first.body)["tiergate"]["cost_usd"].get<double>(), 0.5);  // over the budget now
  auto second = post("/v1/chat/completions", ask("hi"), key_a);
  ASSERT_EQ(second.status, 200);
  EXPECT_EQ(second.headers["x-tiergate-tier"], "edge");
  EXPECT_EQ(second.headers["x-tiergate-route"], "auto:budget_exhausted");
  // Another key has its own budget.
  auto other = post("/v1/route", ask("hi"), {{"Authorization", "Bearer sk-b"}, {"x-tiergate-quality", "1"}});
  EXPECT_EQ(json::parse(other.body)["tier"], "up1");
  // An explicit cloud model with a spent budget is refused, not silently re-routed.
  json explicit_cloud = ask("hi");
  explicit_cloud["model"] = "big";
  auto refused = post("/v1/chat/completions", explicit_cloud, key_a);
  EXPECT_EQ(refused.status, 429);
}

TEST_F(GatewayRouteTest, RulesMatchHeadersAndKeys) {
  start(nullptr);
  auto tenant = post("/v1/route", ask("prove this step by step"), {{"X-Tenant", "a"}});
  ASSERT_EQ(tenant.status, 200);
  EXPECT_EQ(json::parse(tenant.body)["reason"], "rule:tenant-edge");
  EXPECT_EQ(json::parse(tenant.body)["tier"], "edge");
  auto vip = post("/v1/route", ask("hi"), {{"X-Tenant", "a"}, {"Authorization", "Bearer sk-vip"}});
  EXPECT_EQ(json::parse(vip.body)["reason"], "rule:vip-cloud");  // higher priority
  EXPECT_EQ(json::parse(vip.body)["tier"], "up1");
}

TEST_F(GatewayRouteTest, LiveStateRateLimitAndEdgeQueue) {
  start(nullptr);
  cloud_.load_value.rate_limited_until = clock_.now() + std::chrono::seconds(60);
  auto limited = post("/v1/route", ask("hi"), {{"x-tiergate-quality", "1"}});
  json l = json::parse(limited.body);
  EXPECT_EQ(l["reason"], "auto:cloud_unavailable");
  EXPECT_EQ(l["tier"], "edge");
  EXPECT_EQ(l["degraded"], "cloud_unavailable");
  EXPECT_EQ(l["trace"]["tiers"][1]["note"], "rate_limited");

  cloud_.load_value = {};
  edge_.load_value.slots_busy = 4;
  edge_.load_value.queue_depth = 8;
  auto full = post("/v1/route", ask("hi"), {{"x-tiergate-quality", "0"}});
  EXPECT_EQ(json::parse(full.body)["reason"], "auto:edge_queue_full");
  EXPECT_FALSE(json::parse(full.body).contains("degraded"));  // load shedding, not a tier down
  EXPECT_EQ(json::parse(full.body)["tier"], "up1");
}

TEST_F(GatewayRouteTest, RouteEndpointErrors) {
  start(nullptr);
  EXPECT_EQ(http_call(port_, "GET", "/v1/route").status, 405);
  EXPECT_EQ(http_call(port_, "POST", "/v1/route", "{nope").status, 400);
  json unknown = ask("hi");
  unknown["model"] = "nope";
  EXPECT_EQ(post("/v1/route", unknown).status, 404);
}

}  // namespace
}  // namespace tiergate
