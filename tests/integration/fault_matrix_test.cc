// The cloud side of the fault-injection matrix (issue 5): `tiergate serve`
// in front of programmable fake upstreams on loopback, one per fault, each
// asked for directly by its model, streaming and not. For every cell the
// client gets a valid answer or a well-formed OpenAI error (a stream ends
// with [DONE]); a 503 or 429 says when to come back; every request is
// counted once in the metrics and reaches its upstream once (no retries are
// configured, so a second call would be a duplicate); only answered
// requests are billed; the server then shuts down cleanly (in the sanitizer
// build: without a leak). Bounded: each fault ends within the upstream
// timeouts below, and http_call gives up after 120 s.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "fake_upstream.h"
#include "http_client.h"
#include "stack.h"

namespace tiergate::testing {
namespace {

using json = nlohmann::json;
using std::chrono::milliseconds;

// What the client should get: the HTTP status, and for a 200 stream whether
// it ends in an error event (the upstream failed after the first token).
struct Expected {
  int status_plain = 0;
  int status_stream = 0;
  bool stream_error_event = false;
};

struct Fault {
  std::string name;  // also the upstream's name and, with "m-", its model
  FakeHandler handler;
  Expected expected;
};

void one_token_then(FakeExchange& ex) {
  ex.start_stream();
  ex.send_event(content_chunk("Hel"));
}

std::vector<Fault> faults() {
  return {
      {"closed-early", [](const FakeRequest&, FakeExchange&) {}, {503, 503, false}},  // closed without a byte
      {"tcp-reset", [](const FakeRequest&, FakeExchange& ex) { ex.reset(); }, {503, 503, false}},
      {"reset-mid-stream",
       [](const FakeRequest&, FakeExchange& ex) {
         one_token_then(ex);
         ex.reset();
       },
       {503, 200, true}},
      {"http-500", [](const FakeRequest&, FakeExchange& ex) { ex.respond(500, "oops", "text/plain"); }, {503, 503, false}},
      {"http-503", [](const FakeRequest&, FakeExchange& ex) { ex.respond(503, "busy", "text/plain"); }, {503, 503, false}},
      {"rate-limited",
       [](const FakeRequest&, FakeExchange& ex) {
         ex.respond(429, R"({"error":{"message":"quota"}})", "application/json", {{"Retry-After", "120"}});
       },
       {429, 429, false}},
      {"slow-first-byte", [](const FakeRequest&, FakeExchange& ex) { ex.wait_closed(milliseconds(10000)); },
       {504, 504, false}},
      {"stall-mid-stream",
       [](const FakeRequest&, FakeExchange& ex) {
         one_token_then(ex);
         ex.wait_closed(milliseconds(10000));
       },
       {503, 200, true}},
      {"cut-mid-stream", [](const FakeRequest&, FakeExchange& ex) { one_token_then(ex); }, {503, 200, true}},
      {"malformed-sse",
       [](const FakeRequest&, FakeExchange& ex) {
         ex.start_stream();
         ex.send("data: {not json\n\n");
       },
       {503, 503, false}},
      {"invalid-json", [](const FakeRequest&, FakeExchange& ex) { ex.respond(200, "{not json"); }, {503, 503, false}},
      {"wrong-model",
       [](const FakeRequest&, FakeExchange& ex) {
         ex.start_stream();
         ex.send_event(content_chunk("Hi", "another-model"));
         ex.send_event(finish_chunk("stop", "another-model"));
         ex.send_event(usage_chunk(5, 1));
         ex.send_event("[DONE]");
       },
       {200, 200, false}},
  };
}

std::string upstream_config(const std::string& name, const std::string& base_url) {
  return "  - name: " + name + "\n    base_url: " + base_url + "\n    models: [m-" + name +
         "]\n    price_per_mtok: {input: 1, output: 1}\n"
         "    timeouts: {connect_ms: 2000, first_byte_ms: 1000, request_ms: 2000}\n"
         "    retries: {max: 0}\n    circuit_breaker: {failures: 100}\n";
}


TEST(FaultMatrixTest, EveryCloudFaultGivesAnAnswerOrAWellFormedErrorOnce) {
  std::vector<Fault> matrix = faults();
  std::vector<std::unique_ptr<FakeUpstream>> upstreams;
  RefusingPort refused;
  std::string config = "listen: 127.0.0.1:0\ncloud:\n";
  config += upstream_config("refused", "http://127.0.0.1:" + std::to_string(refused.port()) + "/v1");
  // A name the preloaded shim (testing/dns_fault.cc) makes unresolvable.
  config += upstream_config("dns-failure", "http://upstream.dns-fault.test:8080/v1");
  for (const Fault& f : matrix) {
    upstreams.push_back(std::make_unique<FakeUpstream>(f.handler));
    config += upstream_config(f.name, upstreams.back()->base_url());
  }
  matrix.insert(matrix.begin(), Fault{"refused", nullptr, {503, 503, false}});
  matrix.insert(matrix.begin(), Fault{"dns-failure", nullptr, {503, 503, false}});
  // In the sanitizer build the ASan runtime must come first among preloaded
  // libraries unless told otherwise; the shim itself is not instrumented.
  std::map<std::string, std::string> env = {{"LD_PRELOAD", TIERGATE_DNS_FAULT_LIB}};
  if (const char* asan = std::getenv("ASAN_OPTIONS")) {
    env["ASAN_OPTIONS"] = std::string(asan) + ":verify_asan_link_order=0";
  } else {
    env["ASAN_OPTIONS"] = "verify_asan_link_order=0";
  }
  RunningServer gw = start_tiergate(config, env);
  const ThreadCounts before = thread_counts(gw.process->pid());

  int sent = 0, answered = 0;
  for (const Fault& f : matrix) {
    for (bool stream : {false, true}) {
      SCOPED_TRACE(f.name + (stream ? " (stream)" : ""));
      auto r = http_call(gw.port, "POST", "/v1/chat/completions",
                         json{{"model", "m-" + f.name},
                              {"messages", json::array({{{"role", "user"}, {"content", "hi"}}})},
                              {"stream", stream}}
                             .dump());
      ++sent;
      ASSERT_TRUE(r.error.empty()) << r.error;
      EXPECT_EQ(r.status, stream ? f.expected.status_stream : f.expected.status_plain) << r.body;
      EXPECT_EQ(r.headers["x-tiergate-tier"], f.name);
      if (r.status != 200) {
        json err = json::parse(r.body, nullptr, false);
        ASSERT_FALSE(err.is_discarded()) << r.body;
        EXPECT_FALSE(err["error"]["message"].get<std::string>().empty());
        EXPECT_NE(err["error"]["message"].get<std::string>().find(f.name), std::string::npos);
        if (r.status == 503 || r.status == 429) {
          EXPECT_FALSE(r.headers["retry-after"].empty());
        }
        if (f.name == "dns-failure") {  // the resolver's answer, not a connection error
          EXPECT_NE(err["error"]["message"].get<std::string>().find("resolve"), std::string::npos) << r.body;
        }
        if (f.name == "tcp-reset") {  // libcurl saw the RST, not an orderly close
          EXPECT_NE(err["error"]["message"].get<std::string>().find("reset"), std::string::npos) << r.body;
        }
        if (f.name == "rate-limited") {
          EXPECT_GE(std::stoi(r.headers["retry-after"]), 100);  // the upstream's own Retry-After
        }
        continue;
      }
      if (!stream) {
        json answer = json::parse(r.body);
        EXPECT_EQ(answer["model"], "another-model");  // what the upstream said it is, never hidden
        ++answered;
        continue;
      }
      std::vector<std::string> events = sse_payloads(r.body);
      ASSERT_FALSE(events.empty());
      EXPECT_EQ(events.back(), "[DONE]");
      bool error_event = false;
      for (const std::string& e : events) {
        if (e != "[DONE]") error_event = error_event || json::parse(e).contains("error");
      }
      EXPECT_EQ(error_event, f.expected.stream_error_event);
      if (!error_event) ++answered;
    }
  }
  // Each request reached its upstream once.
  for (const auto& up : upstreams) EXPECT_EQ(up->request_count(), 2);
  // Counted once each; billed only when answered (1 + 1 tokens at $1/Mtok
  // is 2e-6 USD a request at most).
  std::string metrics = http_call(gw.port, "GET", "/metrics").body;
  EXPECT_EQ(metric_sum(metrics, "tiergate_requests_total"), sent);
  EXPECT_EQ(answered, 2);
  EXPECT_GT(metric_sum(metrics, "tiergate_cost_usd_total"), 0);
  EXPECT_LE(metric_sum(metrics, "tiergate_cost_usd_total"), answered * 2e-6 * 4);
  // No thread outlives its request but the HTTP server's idle connection
  // threads.
  ThreadCounts after = thread_counts(gw.process->pid());
  for (int i = 0; i < 100 && after.other > before.other; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    after = thread_counts(gw.process->pid());
  }
  EXPECT_LE(after.other, before.other);
  EXPECT_LE(after.connection, kIdleConnectionThreads + 1);
  // A clean shutdown after the whole matrix; in the sanitizer build
  // (detect_leaks=1) a leak or a use after free would make this fail.
  EXPECT_EQ(gw.process->terminate(), 0) << "tiergate did not shut down cleanly";
}

}  // namespace
}  // namespace tiergate::testing
