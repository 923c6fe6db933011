// A bounded load test on loopback while the cloud upstream flaps: 2,000
// requests from 50 concurrent clients through the real `tiergate` binary,
// the upstream failing every other run of 25 requests (a 503) and answering
// in between. Nothing may be lost: every request gets an answer marked with
// the tier that gave it, or a well-formed error with Retry-After, and the
// gateway counts each request exactly once. The flapping follows the
// upstream's request count, not the clock, so the test is deterministic in
// what it checks; its size bounds its time.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <thread>
#include <vector>

#include "fake_upstream.h"
#include "http_client.h"
#include "stack.h"
#include "test_models.h"

namespace tiergate::testing {
namespace {

using json = nlohmann::json;

constexpr int kRequests = 2000;
constexpr int kClients = 50;
constexpr int kFlapRun = 25;  // upstream requests per up or down run


TEST(FlappingLoadTest, NoRequestIsLostWhileTheCloudFlaps) {
  std::atomic<int> upstream_calls{0};
  FakeUpstream flappy([&](const FakeRequest&, FakeExchange& ex) {
    const int n = upstream_calls++;
    if ((n / kFlapRun) % 2 == 1) {
      ex.respond(503, R"({"error":{"message":"flapping"}})");
      return;
    }
    ex.start_stream();
    ex.send_event(content_chunk("Hi", "cloud-model"));
    ex.send_event(finish_chunk("stop", "cloud-model"));
    ex.send_event(usage_chunk(5, 1));
    ex.send_event("[DONE]");
  });
  // The breaker opens after 3 failures for 50 ms, so the load meets it
  // closed, open (fail fast) and half-open alike.
  RunningServer gw = start_tiergate(
      "listen: 127.0.0.1:0\nedge:\n  model: " + synthetic_model() +
      "\n  context: 256\n  parallel: 4\n  queue: 256\n  threads: 1\ncloud:\n  - name: flappy\n    base_url: " +
      flappy.base_url() +
      "\n    models: [cloud-model]\n    retries: {max: 0}\n"
      "    circuit_breaker: {failures: 3, open_ms: 50, max_open_ms: 200}\n");

  for (int i = 0; i < 600; ++i) {  // bounded: the edge model loads first
    const json ready = json::parse(http_call(gw.port, "GET", "/readyz").body, nullptr, false);
    if (!ready.is_discarded() && ready["tiers"]["edge"]["state"] == "ready") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }

  // Three kinds, in turn: "auto" with a short prompt (the edge), "auto" asking
  // to "prove" something (the cloud first, the edge as fallback), and the
  // upstream's own model (the cloud only: a 503 when it is down).
  auto body_for = [](int i) {
    json body = {{"max_tokens", 2}, {"temperature", 0}};
    switch (i % 3) {
      case 0: body["model"] = "auto"; body["messages"] = json::array({{{"role", "user"}, {"content", "hi"}}}); break;
      case 1: body["model"] = "auto"; body["messages"] = json::array({{{"role", "user"}, {"content", "prove it"}}}); break;
      default: body["model"] = "cloud-model"; body["messages"] = json::array({{{"role", "user"}, {"content", "hi"}}});
    }
    return body.dump();
  };

  std::mutex mu;
  std::map<std::string, int> by_outcome;  // "200 edge", "200 flappy", "503", ...
  std::vector<std::string> problems;
  std::atomic<int> next{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&] {
      for (int i = next++; i < kRequests; i = next++) {
        HttpResult r = http_call(gw.port, "POST", "/v1/chat/completions", body_for(i));
        std::string outcome = std::to_string(r.status);
        std::string problem;
        if (!r.error.empty()) {
          problem = "no answer: " + r.error;
        } else if (r.status == 200) {
          const std::string tier = r.headers["x-tiergate-tier"];
          outcome += " " + tier;
          const json answer = json::parse(r.body, nullptr, false);
          if (tier != "edge" && tier != "flappy") problem = "200 without a known tier: " + tier;
          if (answer.is_discarded() || answer["tiergate"]["tier"] != tier) problem = "body and header disagree: " + r.body;
          if (i % 3 == 2 && tier != "flappy") problem = "a cloud-only model answered by " + tier;
        } else if (r.status == 503) {
          const json err = json::parse(r.body, nullptr, false);
          if (err.is_discarded() || !err.contains("error")) problem = "503 without an OpenAI error: " + r.body;
          if (r.headers["retry-after"].empty()) problem = "503 without Retry-After";
          if (i % 3 != 2) problem = "an auto request was refused: " + r.body;
        } else {
          problem = "unexpected status " + outcome + ": " + r.body;
        }
        std::lock_guard lock(mu);
        ++by_outcome[outcome];
        if (!problem.empty() && problems.size() < 10) problems.push_back(problem);
      }
    });
  }
  for (auto& t : clients) t.join();

  for (const std::string& p : problems) ADD_FAILURE() << p;
  int total = 0;
  for (const auto& [outcome, n] : by_outcome) {
    total += n;
    std::cerr << "[load] " << outcome << ": " << n << "\n";
  }
  EXPECT_EQ(total, kRequests);
  EXPECT_GT(by_outcome["200 edge"], 0);
  EXPECT_GT(by_outcome["200 flappy"], 0);
  // Each request reached the upstream at most once (no retries configured),
  // and the gateway counted each request exactly once.
  EXPECT_LE(upstream_calls.load(), kRequests);
  const std::string metrics = http_call(gw.port, "GET", "/metrics").body;
  EXPECT_EQ(metric_sum(metrics, "tiergate_requests_total"), kRequests);
  EXPECT_EQ(gw.process->terminate(), 0);
}

}  // namespace
}  // namespace tiergate::testing
