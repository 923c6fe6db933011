// The gateway over real HTTP on loopback, with scripted engines to inject
// faults (a tier down, failing mid-stream, a client that leaves).
#include "tiergate/server/gateway.h"

#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <nlohmann/json.hpp>
#include <thread>

#include "gateway_harness.h"

namespace tiergate {
namespace {

using json = nlohmann::json;
using testing::http_call;
using testing::sse_payloads;

const char* kConfig = R"(listen: 127.0.0.1:0
max_body_bytes: 2048
edge:
  model: edge.gguf
cloud:
  - name: up1
    base_url: http://127.0.0.1:9/v1
    models: [big]
    price_per_mtok: {input: 1000000, output: 2000000}
)";

class GatewayTest : public testing::GatewayHarness {
 protected:
  void SetUp() override { start_gateway(kConfig); }

  testing::HttpResult chat(const json& body) { return http_call(port_, "POST", "/v1/chat/completions", body.dump()); }
};

json user(const std::string& text) { return json::array({{{"role", "user"}, {"content", text}}}); }

TEST_F(GatewayTest, NonStreamingAnswerNamesTierAndRoute) {
  auto r = chat({{"model", "auto"}, {"messages", user("hi")}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.headers["x-tiergate-tier"], "edge");
  EXPECT_EQ(r.headers["x-tiergate-route"], "auto:short_prompt");
  json j = json::parse(r.body);
  EXPECT_EQ(j["choices"][0]["message"]["content"], "Hello, world");
  EXPECT_EQ(j["tiergate"]["tier"], "edge");
}

TEST_F(GatewayTest, CloudCostComesFromPriceTable) {
  auto r = chat({{"model", "cloud"}, {"messages", user("hi")}});
  ASSERT_EQ(r.status, 200) << r.body;
  json j = json::parse(r.body);
  EXPECT_EQ(j["tiergate"]["tier"], "up1");
  double expected = (j["usage"]["prompt_tokens"].get<double>() * 1e6 + j["usage"]["completion_tokens"].get<double>() * 2e6) / 1e6;
  EXPECT_DOUBLE_EQ(j["tiergate"]["cost_usd"].get<double>(), expected);
}

TEST_F(GatewayTest, StreamingEndsWithDoneAndCarriesUsage) {
  auto r = chat({{"model", "edge"}, {"messages", user("hi")}, {"stream", true}, {"stream_options", {{"include_usage", true}}}});
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.headers["content-type"], "text/event-stream");
  EXPECT_EQ(r.headers["x-tiergate-tier"], "edge");
  auto events = sse_payloads(r.body);
  ASSERT_GE(events.size(), 5u);
  EXPECT_EQ(events.back(), "[DONE]");
  std::string text;
  for (size_t i = 0; i + 1 < events.size(); ++i) {
    json e = json::parse(events[i]);
    if (!e["choices"].empty()) text += e["choices"][0]["delta"].value("content", "");
  }
  EXPECT_EQ(text, "Hello, world");
  json usage = json::parse(events[events.size() - 2]);
  EXPECT_TRUE(usage["choices"].empty());
  EXPECT_GT(usage["usage"]["total_tokens"].get<int>(), 0);
  json finish = json::parse(events[events.size() - 3]);
  EXPECT_EQ(finish["choices"][0]["finish_reason"], "stop");
  EXPECT_EQ(finish["tiergate"]["tier"], "edge");
}

TEST_F(GatewayTest, TierDownBeforeAnsweringFallsBackAndSaysSo) {
  edge_.fail_before = unavailable("edge broke");
  auto r = chat({{"model", "auto"}, {"messages", user("hi")}, {"stream", true}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.headers["x-tiergate-tier"], "up1");
  EXPECT_EQ(r.headers["x-tiergate-route"], "auto:short_prompt>fallback:up1");
  EXPECT_EQ(r.headers["x-tiergate-degraded"], "edge_unavailable");
}

// Graceful degradation (issue 5): the cloud was wanted ("prove" is a cloud
// keyword of the placeholder rule) and fails before answering; the edge
// answers and every part of the answer says so.
TEST_F(GatewayTest, CloudDownMidRequestTheEdgeAnswersMarkedDegraded) {
  cloud_.fail_before = unavailable("upstream 'up1' cannot be reached");
  for (bool stream : {false, true}) {
    auto r = chat({{"model", "auto"}, {"messages", user("prove it")}, {"stream", stream}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.headers["x-tiergate-tier"], "edge");
    EXPECT_EQ(r.headers["x-tiergate-route"], "auto:keyword>fallback:edge");
    EXPECT_EQ(r.headers["x-tiergate-degraded"], "cloud_unavailable");
    if (stream) {
      auto events = sse_payloads(r.body);
      ASSERT_GE(events.size(), 2u);
      EXPECT_EQ(json::parse(events[events.size() - 2])["tiergate"]["degraded"], "cloud_unavailable");
    } else {
      EXPECT_EQ(json::parse(r.body)["tiergate"]["degraded"], "cloud_unavailable");
    }
  }
  auto m = http_call(port_, "GET", "/metrics");
  EXPECT_NE(m.body.find("tiergate_degraded_requests_total{reason=\"cloud_unavailable\"} 2"), std::string::npos) << m.body;
}

TEST_F(GatewayTest, CloudKnownDownTheRouterLeadsWithTheEdgeMarkedDegraded) {
  cloud_.state = TierState::kUnavailable;
  auto r = chat({{"model", "auto"}, {"messages", user("prove it")}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.headers["x-tiergate-tier"], "edge");
  EXPECT_EQ(r.headers["x-tiergate-route"], "auto:cloud_unavailable");
  EXPECT_EQ(r.headers["x-tiergate-degraded"], "cloud_unavailable");
  EXPECT_EQ(cloud_.calls.load(), 0);
  // An answer on the tier the router wanted carries no such mark.
  cloud_.state = TierState::kReady;
  auto normal = chat({{"model", "auto"}, {"messages", user("prove it")}});
  EXPECT_EQ(normal.headers["x-tiergate-tier"], "up1");
  EXPECT_EQ(normal.headers.count("x-tiergate-degraded"), 0u);
  EXPECT_FALSE(json::parse(normal.body)["tiergate"].contains("degraded"));
}

// A request for a model only the cloud serves is never answered by the edge
// instead: a 503 that says why and when to come back.
TEST_F(GatewayTest, CloudOnlyModelWithTheCloudDownIsA503WithRetryAfter) {
  cloud_.state = TierState::kUnavailable;
  cloud_.retry_at = clock_.now() + std::chrono::milliseconds(6500);
  cloud_.fail_before = unavailable("upstream 'up1' (http://127.0.0.1:9/v1): circuit open after 3 consecutive failures");
  for (bool stream : {false, true}) {
    auto r = chat({{"model", "big"}, {"messages", user("hi")}, {"stream", stream}});
    EXPECT_EQ(r.status, 503);
    EXPECT_EQ(r.headers["retry-after"], "7");
    json j = json::parse(r.body);
    EXPECT_EQ(j["error"]["type"], "server_error");
    EXPECT_NE(j["error"]["message"].get<std::string>().find("circuit open"), std::string::npos);
  }
  EXPECT_EQ(edge_.calls.load(), 0);
}

TEST_F(GatewayTest, ReadinessSaysWhichTiersServe) {
  auto mode = [&] {
    auto r = http_call(port_, "GET", "/readyz");
    return std::make_pair(r.status, json::parse(r.body)["mode"].get<std::string>());
  };
  EXPECT_EQ(mode(), std::make_pair(200, std::string("normal")));
  // Offline: no upstream can be reached; the edge serves on.
  cloud_.state = TierState::kUnavailable;
  cloud_.retry_at = clock_.now() + std::chrono::seconds(30);
  EXPECT_EQ(mode(), std::make_pair(200, std::string("edge_only")));
  json ready = json::parse(http_call(port_, "GET", "/readyz").body);
  EXPECT_GT(ready["tiers"]["up1"]["retry_in_s"].get<double>(), 25);
  auto m = http_call(port_, "GET", "/metrics");
  EXPECT_NE(m.body.find("tiergate_tier_ready{tier=\"edge\"} 1"), std::string::npos);
  EXPECT_NE(m.body.find("tiergate_tier_ready{tier=\"up1\"} 0"), std::string::npos);
  edge_.state = TierState::kUnavailable;
  EXPECT_EQ(mode(), std::make_pair(503, std::string("unavailable")));
  cloud_.state = TierState::kReady;
  EXPECT_EQ(mode(), std::make_pair(503, std::string("cloud_only")));
}

TEST_F(GatewayTest, EmptyDeltaBeforeAFailureStillAllowsFallback) {
  edge_.pieces = {"", "never sent"};
  edge_.fail_after_first = unavailable("edge broke after an empty delta");
  auto r = chat({{"model", "auto"}, {"messages", user("hi")}, {"stream", true}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.headers["x-tiergate-tier"], "up1");
  EXPECT_EQ(r.body.find("never sent"), std::string::npos);
}

TEST_F(GatewayTest, FailureMidStreamIsAnErrorEventNeverASplice) {
  edge_.fail_after_first = unavailable("edge broke");
  auto r = chat({{"model", "auto"}, {"messages", user("hi")}, {"stream", true}});
  ASSERT_EQ(r.status, 200);
  auto events = sse_payloads(r.body);
  ASSERT_GE(events.size(), 3u);
  EXPECT_EQ(events.back(), "[DONE]");
  json err = json::parse(events[events.size() - 2]);
  EXPECT_TRUE(err.contains("error"));
  EXPECT_EQ(cloud_.calls.load(), 0);  // the cloud never started a second answer
}

TEST_F(GatewayTest, InvalidArgumentNeverFallsBack) {
  edge_.fail_before = invalid_argument("context_length_exceeded: too long");
  auto r = chat({{"model", "auto"}, {"messages", user("hi")}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(json::parse(r.body)["error"]["code"], "context_length_exceeded");
  EXPECT_EQ(cloud_.calls.load(), 0);
}

TEST_F(GatewayTest, EveryTierDownIsA503NotAHang) {
  edge_.fail_before = unavailable("edge broke");
  cloud_.fail_before = unavailable("upstream 'up1' cannot be reached");
  auto r = chat({{"model", "auto"}, {"messages", user("hi")}});
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.headers["retry-after"], "1");  // no tier says when: soon
  json j = json::parse(r.body);
  EXPECT_EQ(j["error"]["type"], "server_error");
  // The explanation names each tier and why it could not answer.
  EXPECT_EQ(j["error"]["message"], "no tier could answer this request; edge: edge broke; up1: upstream 'up1' cannot be reached");
}

// Cross-tier handoff over HTTP: a conversation named by its header moves
// from the edge to the cloud; the answer says how its history went (raw:
// this gateway has no privacy policy, so nothing was found in it).
TEST_F(GatewayTest, AConversationMovingToTheCloudSaysHowItsHistoryWent) {
  auto first = http_call(port_, "POST", "/v1/chat/completions",
                         json{{"model", "edge"}, {"messages", user("hi")}}.dump(), {{"x-tiergate-conversation", "c9"}});
  ASSERT_EQ(first.status, 200);
  EXPECT_FALSE(json::parse(first.body)["tiergate"].contains("handoff"));
  json history = json::array({{{"role", "user"}, {"content", "hi"}},
                              {{"role", "assistant"}, {"content", "Hello, world"}},
                              {{"role", "user"}, {"content", "more"}}});
  auto second = http_call(port_, "POST", "/v1/chat/completions", json{{"model", "big"}, {"messages", history}}.dump(),
                          {{"x-tiergate-conversation", "c9"}});
  ASSERT_EQ(second.status, 200) << second.body;
  EXPECT_EQ(json::parse(second.body)["tiergate"]["handoff"], "raw");
  ASSERT_EQ(cloud_.last_request.messages.size(), 3u);
  // The `user` field names a conversation too; an over-long header is refused.
  auto by_user = chat({{"model", "big"}, {"messages", history}, {"user", "someone-new"}});
  EXPECT_FALSE(json::parse(by_user.body)["tiergate"].contains("handoff"));
  auto too_long = http_call(port_, "POST", "/v1/chat/completions", json{{"model", "edge"}, {"messages", user("hi")}}.dump(),
                            {{"x-tiergate-conversation", std::string(300, 'c')}});
  EXPECT_EQ(too_long.status, 400);
  EXPECT_EQ(json::parse(too_long.body)["error"]["param"], "x-tiergate-conversation");
}

// Requests only the cloud can serve may wait for it (dispatch.cloud_wait_ms)
// when an upstream says when it serves again; a bounded number at a time.
class GatewayCloudWaitTest : public testing::GatewayHarness {
 protected:
  void SetUp() override {
    start_gateway("listen: 127.0.0.1:0\nedge:\n  model: edge.gguf\ncloud:\n  - name: up1\n"
                  "    base_url: http://127.0.0.1:9/v1\n    models: [big]\n"
                  "dispatch: {cloud_wait_ms: 10000, max_waiting: 1}\n");
  }
  testing::HttpResult chat_auto() {
    return http_call(port_, "POST", "/v1/chat/completions", json{{"model", "auto"}, {"messages", user("prove it")}}.dump());
  }
  testing::HttpResult ask_big() {
    return http_call(port_, "POST", "/v1/chat/completions", json{{"model", "big"}, {"messages", user("hi")}}.dump());
  }
};

TEST_F(GatewayCloudWaitTest, ARequestWaitsForTheCloudWithinItsBudget) {
  cloud_.down_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
  auto r = ask_big();
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.headers["x-tiergate-tier"], "up1");
  EXPECT_EQ(cloud_.calls.load(), 2);  // refused, waited, answered
  EXPECT_EQ(edge_.calls.load(), 0);
}

TEST_F(GatewayCloudWaitTest, BeyondTheBudgetOrTheQueueTheAnswerIsA503AtOnce) {
  cloud_.down_until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  auto far = ask_big();
  EXPECT_EQ(far.status, 503);
  EXPECT_GE(std::stoi(far.headers["retry-after"]), 59);
  EXPECT_EQ(cloud_.calls.load(), 1);

  // One waits; the next finds the queue full.
  cloud_.down_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(1500);
  testing::HttpResult first;
  std::thread waiter([&] { first = ask_big(); });
  bool waiting = false;
  for (int i = 0; i < 500 && !waiting; ++i) {
    waiting = http_call(port_, "GET", "/metrics").body.find("tiergate_waiting_for_cloud 1") != std::string::npos;
    if (!waiting) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(waiting);
  auto second = ask_big();
  EXPECT_EQ(second.status, 503);
  EXPECT_FALSE(second.headers["retry-after"].empty());
  waiter.join();
  EXPECT_EQ(first.status, 200) << first.body;
}

TEST_F(GatewayCloudWaitTest, AutoRequestsDoNotWaitTheEdgeAnswers) {
  cloud_.down_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
  auto r = chat_auto();
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.headers["x-tiergate-tier"], "edge");
}

TEST_F(GatewayTest, BadRequests) {
  EXPECT_EQ(http_call(port_, "POST", "/v1/chat/completions", "{not json").status, 400);
  EXPECT_EQ(chat({{"messages", user("")}}).status, 400);
  EXPECT_EQ(chat({{"model", "auto"}}).status, 400);
  auto unknown = chat({{"model", "nope"}, {"messages", user("hi")}});
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(json::parse(unknown.body)["error"]["code"], "model_not_found");
  auto big = chat({{"messages", user(std::string(4096, 'a'))}});
  EXPECT_EQ(big.status, 413);
  EXPECT_EQ(json::parse(big.body)["error"]["code"], "request_too_large");
  EXPECT_EQ(http_call(port_, "GET", "/v1/chat/completions").status, 405);
  EXPECT_EQ(http_call(port_, "GET", "/nowhere").status, 404);
}

TEST_F(GatewayTest, ModelsHealthReadinessMetrics) {
  auto models = json::parse(http_call(port_, "GET", "/v1/models").body);
  std::vector<std::string> ids;
  for (const auto& m : models["data"]) ids.push_back(m["id"]);
  EXPECT_EQ(ids, (std::vector<std::string>{"auto", "edge", "edge.gguf", "cloud", "big"}));
  EXPECT_EQ(http_call(port_, "GET", "/healthz").status, 200);
  EXPECT_EQ(http_call(port_, "GET", "/readyz").status, 200);
  edge_.state = TierState::kUnavailable;
  auto ready = http_call(port_, "GET", "/readyz");
  EXPECT_EQ(ready.status, 503);
  EXPECT_EQ(json::parse(ready.body)["tiers"]["edge"]["state"], "unavailable");

  ASSERT_EQ(chat({{"model", "edge"}, {"messages", user("hi")}}).status, 200);
  auto m = http_call(port_, "GET", "/metrics");
  EXPECT_EQ(m.status, 200);
  EXPECT_NE(m.body.find("# TYPE tiergate_requests_total counter"), std::string::npos);
  EXPECT_NE(m.body.find("tiergate_requests_total{tier=\"edge\",route=\"model:edge\",status=\"200\"} 1"), std::string::npos);
}

TEST_F(GatewayTest, ClientLeavingMidStreamStopsGeneration) {
  edge_.until_cancelled = true;
  namespace net = boost::asio;
  net::io_context io;
  net::ip::tcp::socket s(io);
  s.connect({net::ip::make_address("127.0.0.1"), port_});
  std::string body = json{{"model", "edge"}, {"messages", user("hi")}, {"stream", true}}.dump();
  std::string req = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " +
                    std::to_string(body.size()) + "\r\n\r\n" + body;
  net::write(s, net::buffer(req));
  char buf[512];
  size_t got = s.read_some(net::buffer(buf));  // the stream has started
  EXPECT_GT(got, 0u);
  s.close();
  // The engine must see the cancellation; bounded wait, not a timing assertion.
  for (int i = 0; i < 1000 && !edge_.saw_cancel; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(edge_.saw_cancel.load());
}

}  // namespace
}  // namespace tiergate

namespace tiergate {
namespace {

// curl sends "Expect: 100-continue" before bodies over 1 KiB and waits for the
// interim answer; without it every such request would stall.
TEST_F(GatewayTest, ExpectContinueGetsAnInterimAnswer) {
  namespace net = boost::asio;
  net::io_context io;
  net::ip::tcp::socket s(io);
  s.connect({net::ip::make_address("127.0.0.1"), port_});
  std::string body = json{{"model", "edge"}, {"messages", user("hi")}}.dump();
  std::string head = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
                     "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  net::write(s, net::buffer(head));
  std::string got;
  char buf[256];
  while (got.find("\r\n\r\n") == std::string::npos) got.append(buf, s.read_some(net::buffer(buf)));
  EXPECT_EQ(got.rfind("HTTP/1.1 100 Continue", 0), 0u) << got;
  net::write(s, net::buffer(body));
  got.clear();
  while (got.find("Hello, world") == std::string::npos) got.append(buf, s.read_some(net::buffer(buf)));
  EXPECT_NE(got.find("200 OK"), std::string::npos);
}

}  // namespace
}  // namespace tiergate
