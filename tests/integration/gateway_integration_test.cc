// tiergate serve in front of a real llama-server (cloud tier) with a real
// GGUF edge model, driven over HTTP like any client would.
#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "fake_upstream.h"
#include "http_client.h"
#include "stack.h"
#include "test_models.h"

namespace tiergate::testing {
namespace {

using json = nlohmann::json;

std::string config_for(const std::string& edge_model, const std::string& upstream_url, int max_body = 65536) {
  std::string c = "listen: 127.0.0.1:0\nmax_body_bytes: " + std::to_string(max_body) + "\n";
  if (!edge_model.empty()) c += "edge:\n  model: " + edge_model + "\n  context: 1024\n  parallel: 2\n  threads: 1\n";
  if (!upstream_url.empty()) {
    c += "cloud:\n  - name: llama\n    base_url: " + upstream_url +
         "/v1\n    models: [upstream-model]\n    price_per_mtok: {input: 0.5, output: 1.5}\n"
         "    timeouts: {connect_ms: 2000, first_byte_ms: 60000, request_ms: 120000}\n"
         "    retries: {max: 1, backoff_ms: 10}\n";
  }
  return c;
}

bool wait_ready(uint16_t port) {
  for (int i = 0; i < 600; ++i) {
    if (http_call(port, "GET", "/readyz").status == 200) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

json user(const std::string& text) { return json::array({{{"role", "user"}, {"content", text}}}); }

class GatewayIntegrationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    upstream_ = new RunningServer(start_llama_server(synthetic_upstream_model(), "upstream-model"));
    gateway_ = new RunningServer(start_tiergate(config_for(synthetic_model(), upstream_->url())));
    ASSERT_TRUE(wait_ready(gateway_->port));
  }
  static void TearDownTestSuite() {
    delete gateway_;
    delete upstream_;
  }

  static HttpResult chat(const json& body) {
    return http_call(gateway_->port, "POST", "/v1/chat/completions", body.dump());
  }
  static std::string stream_text(const HttpResult& r) {
    std::string text;
    for (const auto& p : sse_payloads(r.body)) {
      if (p == "[DONE]") break;
      json e = json::parse(p);
      if (e.contains("choices") && !e["choices"].empty()) text += e["choices"][0]["delta"].value("content", "");
    }
    return text;
  }
  static double metric(const std::string& sample_prefix) {
    std::string body = http_call(gateway_->port, "GET", "/metrics").body;
    size_t at = body.find("\n" + sample_prefix + " ");
    if (at == std::string::npos) return -1;
    return std::stod(body.substr(at + sample_prefix.size() + 2));
  }

  static RunningServer* upstream_;
  static RunningServer* gateway_;
};

RunningServer* GatewayIntegrationTest::upstream_ = nullptr;
RunningServer* GatewayIntegrationTest::gateway_ = nullptr;

TEST_F(GatewayIntegrationTest, EdgeAnswersNonStreamingAndStreamingAlike) {
  json req = {{"model", "edge"}, {"messages", user("Tell me a story")}, {"temperature", 0}, {"max_tokens", 12}};
  auto plain = chat(req);
  ASSERT_EQ(plain.status, 200) << plain.body;
  EXPECT_EQ(plain.headers["x-tiergate-tier"], "edge");
  json j = json::parse(plain.body);
  EXPECT_EQ(j["usage"]["completion_tokens"], 12);
  EXPECT_EQ(j["tiergate"]["tier"], "edge");
  EXPECT_EQ(j["choices"][0]["finish_reason"], "length");

  req["stream"] = true;
  auto streamed = chat(req);
  ASSERT_EQ(streamed.status, 200);
  EXPECT_EQ(streamed.headers["content-type"], "text/event-stream");
  EXPECT_EQ(sse_payloads(streamed.body).back(), "[DONE]");
  EXPECT_EQ(stream_text(streamed), j["choices"][0]["message"]["content"].get<std::string>());
}

TEST_F(GatewayIntegrationTest, CloudTierIsARealLlamaServer) {
  auto r = chat({{"model", "cloud"}, {"messages", user("Hello")}, {"temperature", 0}, {"max_tokens", 8}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.headers["x-tiergate-tier"], "llama");
  EXPECT_EQ(r.headers["x-tiergate-route"], "model:cloud");
  json j = json::parse(r.body);
  EXPECT_GT(j["usage"]["completion_tokens"].get<int>(), 0);
  EXPECT_FALSE(j["tiergate"]["usage_counted"].get<bool>());  // llama-server reports usage
  double expected = (j["usage"]["prompt_tokens"].get<double>() * 0.5 + j["usage"]["completion_tokens"].get<double>() * 1.5) / 1e6;
  EXPECT_NEAR(j["tiergate"]["cost_usd"].get<double>(), expected, 1e-12);

  auto s = chat({{"model", "upstream-model"}, {"messages", user("Hello")}, {"temperature", 0}, {"max_tokens", 8},
                 {"stream", true}, {"stream_options", {{"include_usage", true}}}});
  ASSERT_EQ(s.status, 200);
  EXPECT_EQ(s.headers["x-tiergate-tier"], "llama");
  auto events = sse_payloads(s.body);
  ASSERT_GE(events.size(), 3u);
  EXPECT_EQ(events.back(), "[DONE]");
  json usage = json::parse(events[events.size() - 2]);
  EXPECT_GT(usage["usage"]["completion_tokens"].get<int>(), 0);
  EXPECT_EQ(stream_text(s), j["choices"][0]["message"]["content"].get<std::string>());
}

TEST_F(GatewayIntegrationTest, AutoRoutesShortToEdgeAndLongToCloud) {
  auto short_r = chat({{"model", "auto"}, {"messages", user("hi")}, {"max_tokens", 4}});
  ASSERT_EQ(short_r.status, 200);
  EXPECT_EQ(short_r.headers["x-tiergate-tier"], "edge");
  EXPECT_EQ(short_r.headers["x-tiergate-route"], "auto:short_prompt");
  auto kw = chat({{"model", "auto"}, {"messages", user("Prove that there are infinitely many primes")}, {"max_tokens", 4}});
  ASSERT_EQ(kw.status, 200);
  EXPECT_EQ(kw.headers["x-tiergate-tier"], "llama");
  EXPECT_EQ(kw.headers["x-tiergate-route"], "auto:keyword");
}

TEST_F(GatewayIntegrationTest, LogprobsFromTheEdge) {
  auto r = chat({{"model", "edge"}, {"messages", user("Hi")}, {"max_tokens", 4}, {"temperature", 0},
                 {"logprobs", true}, {"top_logprobs", 2}});
  ASSERT_EQ(r.status, 200);
  json lp = json::parse(r.body)["choices"][0]["logprobs"]["content"];
  ASSERT_EQ(lp.size(), 4u);
  for (const auto& t : lp) {
    EXPECT_LE(t["logprob"].get<double>(), 0.0);
    EXPECT_EQ(t["top_logprobs"].size(), 2u);
    EXPECT_TRUE(t["bytes"].is_array());
  }
}

TEST_F(GatewayIntegrationTest, BadInputGetsOpenAiErrors) {
  uint16_t port = gateway_->port;
  auto err_of = [](const HttpResult& r) { return json::parse(r.body)["error"]; };
  auto malformed = http_call(port, "POST", "/v1/chat/completions", "{\"messages\": [");
  EXPECT_EQ(malformed.status, 400);
  EXPECT_EQ(err_of(malformed)["type"], "invalid_request_error");
  EXPECT_EQ(chat({{"messages", "hello"}}).status, 400);
  EXPECT_EQ(chat({{"model", "edge"}}).status, 400);
  EXPECT_EQ(err_of(chat({{"messages", user("")}}))["param"], "messages[0].content");
  EXPECT_EQ(chat({{"messages", user("x")}, {"temperature", "warm"}}).status, 400);
  auto unknown = chat({{"model", "gpt-9"}, {"messages", user("x")}});
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(err_of(unknown)["code"], "model_not_found");
  auto big = chat({{"messages", user(std::string(100000, 'a'))}});
  EXPECT_EQ(big.status, 413);
  auto overflow = chat({{"model", "edge"}, {"messages", user("x")}, {"max_tokens", 5000}});
  EXPECT_EQ(overflow.status, 400);
  EXPECT_EQ(err_of(overflow)["code"], "context_length_exceeded");
  std::string bad_utf8 = "{\"messages\":[{\"role\":\"user\",\"content\":\"\xC3\x28\"}]}";
  EXPECT_EQ(http_call(port, "POST", "/v1/chat/completions", bad_utf8).status, 400);
  // The server is still fine.
  EXPECT_EQ(chat({{"model", "edge"}, {"messages", user("ok")}, {"max_tokens", 2}}).status, 200);
}

TEST_F(GatewayIntegrationTest, ClientDisconnectMidStreamStopsGenerationAndFreesTheSlot) {
  double cancelled_before = std::max(0.0, metric("tiergate_client_cancelled_total"));
  namespace net = boost::asio;
  net::io_context io;
  net::ip::tcp::socket s(io);
  s.connect({net::ip::make_address("127.0.0.1"), gateway_->port});
  std::string body = json{{"model", "edge"}, {"messages", user("Go on forever")}, {"stream", true},
                          {"max_tokens", 1000}, {"temperature", 0}}.dump();
  std::string req = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " +
                    std::to_string(body.size()) + "\r\n\r\n" + body;
  net::write(s, net::buffer(req));
  std::string got;
  char buf[1024];
  while (got.find("data: ") == std::string::npos) got.append(buf, s.read_some(net::buffer(buf)));
  s.close();
  bool freed = false;
  for (int i = 0; i < 600 && !freed; ++i) {  // bounded polling
    freed = metric("tiergate_edge_slots_busy") == 0 && metric("tiergate_client_cancelled_total") == cancelled_before + 1;
    if (!freed) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(freed);
  // Fewer than max_tokens were generated for it: the generation really stopped.
  EXPECT_EQ(chat({{"model", "edge"}, {"messages", user("still here")}, {"max_tokens", 2}}).status, 200);
}

TEST_F(GatewayIntegrationTest, ModelsHealthMetrics) {
  ASSERT_EQ(chat({{"model", "cloud"}, {"messages", user("count me")}, {"max_tokens", 2}}).status, 200);
  json models = json::parse(http_call(gateway_->port, "GET", "/v1/models").body);
  std::vector<std::string> ids;
  for (const auto& m : models["data"]) ids.push_back(m["id"]);
  EXPECT_NE(std::find(ids.begin(), ids.end(), "upstream-model"), ids.end());
  EXPECT_NE(std::find(ids.begin(), ids.end(), "edge"), ids.end());
  EXPECT_EQ(http_call(gateway_->port, "GET", "/healthz").status, 200);
  std::string metrics = http_call(gateway_->port, "GET", "/metrics").body;
  EXPECT_NE(metrics.find("# TYPE tiergate_request_duration_seconds histogram"), std::string::npos);
  EXPECT_NE(metrics.find("tiergate_tokens_total{tier=\"llama\",kind=\"completion\"}"), std::string::npos);
}

TEST(GatewayDegradedTest, UpstreamDownIsACleanErrorNotAHang) {
  uint16_t closed = free_loopback_port();
  RunningServer gw = start_tiergate(config_for("", "http://127.0.0.1:" + std::to_string(closed)));
  auto r = http_call(gw.port, "POST", "/v1/chat/completions",
                     json{{"model", "cloud"}, {"messages", user("hi")}}.dump());
  EXPECT_EQ(r.status, 503) << r.body;
  json err = json::parse(r.body)["error"];
  EXPECT_NE(err["message"].get<std::string>().find("llama"), std::string::npos);
  EXPECT_EQ(r.headers["x-tiergate-tier"], "llama");
}

TEST(GatewayDegradedTest, MissingEdgeModelKeepsServingFromTheCloud) {
  RunningServer up = start_llama_server(synthetic_upstream_model(), "upstream-model");
  RunningServer gw = start_tiergate(config_for("/nonexistent/edge.gguf", up.url()));
  auto ready = http_call(gw.port, "GET", "/readyz");
  for (int i = 0; i < 100 && json::parse(ready.body)["tiers"]["edge"]["state"] == "loading"; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ready = http_call(gw.port, "GET", "/readyz");
  }
  EXPECT_EQ(ready.status, 503);
  json body = json::parse(ready.body);
  EXPECT_NE(body["tiers"]["edge"]["detail"].get<std::string>().find("not found"), std::string::npos);
  auto r = http_call(gw.port, "POST", "/v1/chat/completions",
                     json{{"model", "auto"}, {"messages", user("hi")}, {"max_tokens", 4}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.headers["x-tiergate-tier"], "llama");
  EXPECT_EQ(r.headers["x-tiergate-route"], "auto:edge_unavailable");
  EXPECT_EQ(r.headers["x-tiergate-degraded"], "edge_unavailable");
  EXPECT_EQ(body["mode"], "cloud_only");
  auto edge_only = http_call(gw.port, "POST", "/v1/chat/completions",
                             json{{"model", "edge"}, {"messages", user("hi")}}.dump());
  EXPECT_EQ(edge_only.status, 503);
}

// An upstream that keeps failing (here: 502 from a fake upstream on
// loopback): after circuit_breaker.failures requests the gateway stops
// calling it, answers cloud-only requests at once with a 503 that says when
// to come back, serves the rest from the edge marked degraded, and /readyz
// says it runs on the edge alone.
TEST(GatewayDegradedTest, OpenCircuitFailsFastAndTheEdgeServesOn) {
  FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) { ex.respond(502, "bad gateway", "text/plain"); });
  std::string config = config_for(synthetic_model(), "");
  config += "cloud:\n  - name: flaky\n    base_url: " + upstream.base_url() +
            "\n    models: [cloud-model]\n    retries: {max: 0}\n"
            "    circuit_breaker: {failures: 2, open_ms: 60000}\n"
            "routing:\n  auto: {max_edge_prompt_tokens: 512, cloud_keywords: [prove]}\n";
  RunningServer gw = start_tiergate(config);
  ASSERT_TRUE(wait_ready(gw.port));
  auto cloud_only = [&] {
    return http_call(gw.port, "POST", "/v1/chat/completions",
                     json{{"model", "cloud-model"}, {"messages", user("hi")}}.dump());
  };
  for (int i = 0; i < 2; ++i) EXPECT_EQ(cloud_only().status, 503);
  ASSERT_EQ(upstream.request_count(), 2);

  auto fast = cloud_only();
  EXPECT_EQ(fast.status, 503);
  EXPECT_EQ(upstream.request_count(), 2);  // not called while the circuit is open
  EXPECT_NE(json::parse(fast.body)["error"]["message"].get<std::string>().find("circuit open"), std::string::npos);
  ASSERT_FALSE(fast.headers["retry-after"].empty());
  EXPECT_GE(std::stoi(fast.headers["retry-after"]), 50);
  EXPECT_LE(std::stoi(fast.headers["retry-after"]), 60);

  // A request the router would send to the cloud is answered by the edge.
  for (bool stream : {false, true}) {
    auto r = http_call(gw.port, "POST", "/v1/chat/completions",
                       json{{"model", "auto"}, {"messages", user("prove it")}, {"max_tokens", 4}, {"stream", stream}}.dump());
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.headers["x-tiergate-tier"], "edge");
    EXPECT_EQ(r.headers["x-tiergate-route"], "auto:cloud_unavailable");
    EXPECT_EQ(r.headers["x-tiergate-degraded"], "cloud_unavailable");
  }
  EXPECT_EQ(upstream.request_count(), 2);

  auto ready = http_call(gw.port, "GET", "/readyz");
  EXPECT_EQ(ready.status, 200);
  json body = json::parse(ready.body);
  EXPECT_EQ(body["mode"], "edge_only");
  EXPECT_EQ(body["tiers"]["flaky"]["state"], "unavailable");
  EXPECT_NE(body["tiers"]["flaky"]["detail"].get<std::string>().find("502"), std::string::npos);
  std::string metrics = http_call(gw.port, "GET", "/metrics").body;
  EXPECT_NE(metrics.find("tiergate_tier_ready{tier=\"flaky\"} 0"), std::string::npos);
  EXPECT_NE(metrics.find("tiergate_degraded_requests_total{reason=\"cloud_unavailable\"} 2"), std::string::npos);
}

// Speculative execution with real processes: the synthetic edge model has
// random weights, so its drafts are guesses (flat, unlikely tokens); the
// verifier stops them at the early exit and the real llama-server answers.
// With the threshold at 0 every draft stands and the edge answers.
TEST(GatewaySpeculativeTest, RandomEdgeDraftsEscalateToTheRealUpstream) {
  RunningServer up = start_llama_server(synthetic_upstream_model(), "upstream-model");
  for (const char* threshold : {"", "0"}) {
    std::string config = config_for(synthetic_model(), up.url());
    config += "speculative: {enabled: true, early_exit_tokens: 4, hold_back_tokens: 8";
    if (*threshold != '\0') config += std::string(", threshold: ") + threshold;
    config += "}\n";
    RunningServer gw = start_tiergate(config);
    ASSERT_TRUE(wait_ready(gw.port));
    auto r = http_call(gw.port, "POST", "/v1/chat/completions",
                       json{{"model", "auto"}, {"messages", user("hi")}, {"max_tokens", 12}}.dump());
    ASSERT_EQ(r.status, 200) << r.body;
    json info = json::parse(r.body)["tiergate"];
    if (*threshold == '\0') {
      EXPECT_EQ(r.headers["x-tiergate-tier"], "llama");
      EXPECT_EQ(r.headers["x-tiergate-route"], "auto:short_prompt>escalated:llama");
      EXPECT_EQ(info["speculative"]["verdict"], "escalated");
      EXPECT_EQ(info["speculative"]["draft_tokens"], 4);
    } else {
      EXPECT_EQ(r.headers["x-tiergate-tier"], "edge");
      EXPECT_EQ(info["speculative"]["verdict"], "accepted");
      const json choice = json::parse(r.body)["choices"][0];
      EXPECT_TRUE(!choice.contains("logprobs") || choice["logprobs"].is_null());  // the client did not ask
    }
  }
}

TEST(GatewayStoriesTest, RealModelThroughTheGateway) {
  std::string stories = stories_model();
  if (stories.empty()) GTEST_SKIP() << "../shared/models/stories260K.gguf is absent; skipping the real-model check";
  RunningServer gw = start_tiergate(config_for(stories, ""));
  ASSERT_TRUE(wait_ready(gw.port));
  auto r = http_call(gw.port, "POST", "/v1/chat/completions",
                     json{{"model", "edge"}, {"messages", user("Once upon a time")}, {"temperature", 0},
                          {"max_tokens", 12}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  std::string text = json::parse(r.body)["choices"][0]["message"]["content"];
  EXPECT_EQ(text.rfind(", there was a little girl named Lily", 0), 0u) << text;
}

}  // namespace
}  // namespace tiergate::testing
