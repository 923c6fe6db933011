#include "tiergate/engines/cloud/cloud_engine.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <thread>

#include "fake_upstream.h"
#include "manual_clock.h"

namespace tiergate {
namespace {

using std::chrono::milliseconds;
using testing::FakeExchange;
using testing::FakeRequest;
using testing::FakeUpstream;

// Records deltas; can refuse a delta or report cancellation after some.
class RecordingSink final : public TokenSink {
 public:
  bool on_delta(const Delta& delta) override {
    deltas.push_back(delta);
    text += delta.text;
    return reject_at < 0 || static_cast<int>(deltas.size()) <= reject_at;
  }
  bool cancelled() override {
    ++cancelled_polls;
    if (cancel_now.load()) return true;
    return cancel_after >= 0 && static_cast<int>(deltas.size()) >= cancel_after;
  }

  std::vector<Delta> deltas;
  std::string text;
  int reject_at = -1;     // on_delta returns false once more than this many arrived
  int cancel_after = -1;  // cancelled() is true once this many deltas arrived
  std::atomic<bool> cancel_now{false};
  int cancelled_polls = 0;
};

class CloudEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Loopback requests must not go to a proxy from the environment.
    for (const char* name : {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy",
                             "ALL_PROXY"}) {
      unsetenv(name);
    }
  }

  static UpstreamConfig config_for(const std::string& base_url) {
    UpstreamConfig config;
    config.name = "fake-cloud";
    config.base_url = base_url;
    config.api_key_env = "FAKE_CLOUD_KEY";
    config.models = {"fake-model"};
    config.connect_timeout_ms = 2000;
    config.first_byte_timeout_ms = 5000;
    config.request_timeout_ms = 20000;
    config.max_retries = 2;
    config.backoff_ms = 1;
    return config;
  }

  // An upstream that never answers, against the given timeouts: a deadline, one attempt.
  static void expect_deadline_exceeded(int first_byte_timeout_ms, int request_timeout_ms) {
    FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) {
      ex.wait_closed(milliseconds(10000));  // never answers
    });
    UpstreamConfig config = config_for(upstream.base_url());
    config.first_byte_timeout_ms = first_byte_timeout_ms;
    config.request_timeout_ms = request_timeout_ms;
    CloudEngine engine(config, "");
    RecordingSink sink;
    auto result = engine.generate(hello(), "fake-model", sink);
    ASSERT_FALSE(result.is_ok());
    EXPECT_EQ(result.status().code(), StatusCode::kDeadlineExceeded);
    EXPECT_EQ(upstream.request_count(), 1);
  }

  static ChatRequest hello() {
    ChatRequest request;
    request.model = "cloud";
    request.messages = {{Role::kSystem, "You are terse."}, {Role::kUser, "Say hello, please"}};
    return request;
  }
};

TEST_F(CloudEngineTest, StreamsDeltasInOrder) {
  FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) {
    testing::stream_answer(ex, {"Hel", "lo", ", wor", "ld!"});
  });
  CloudEngine engine(config_for(upstream.base_url()), "");
  RecordingSink sink;
  auto result = engine.generate(hello(), "fake-model", sink);
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  ASSERT_EQ(sink.deltas.size(), 4u);
  EXPECT_EQ(sink.deltas[0].text, "Hel");
  EXPECT_EQ(sink.deltas[3].text, "ld!");
  EXPECT_EQ(sink.text, "Hello, world!");
  EXPECT_EQ(result->text, "Hello, world!");
  EXPECT_EQ(result->model, "fake-model");
  EXPECT_EQ(result->finish, FinishReason::kStop);
  EXPECT_EQ(result->usage.prompt_tokens, 7);
  EXPECT_EQ(result->usage.completion_tokens, 4);
  EXPECT_FALSE(result->usage_counted);
  EXPECT_EQ(engine.health().state, TierState::kReady);
}

TEST_F(CloudEngineTest, RequestCarriesModelMessagesStreamAndHeaders) {
  FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) {
    testing::stream_answer(ex, {"ok"});
  });
  CloudEngine engine(config_for(upstream.base_url() + "/"), "sk-test-123");
  RecordingSink sink;
  ChatRequest request = hello();
  request.sampling.temperature = 0.25;
  request.sampling.top_k = 5;
  ASSERT_TRUE(engine.generate(request, "upstream-model", sink).is_ok());
  ASSERT_EQ(upstream.request_count(), 1);
  FakeRequest seen = upstream.requests()[0];
  EXPECT_EQ(seen.method, "POST");
  EXPECT_EQ(seen.target, "/v1/chat/completions");
  EXPECT_EQ(seen.header("Authorization"), "Bearer sk-test-123");
  EXPECT_EQ(seen.header("Content-Type"), "application/json");
  EXPECT_EQ(seen.header("Accept"), "text/event-stream");
  auto body = nlohmann::json::parse(seen.body);
  EXPECT_EQ(body["model"], "upstream-model");
  EXPECT_EQ(body["stream"], true);
  EXPECT_EQ(body["stream_options"]["include_usage"], true);
  ASSERT_EQ(body["messages"].size(), 2u);
  EXPECT_EQ(body["messages"][0]["role"], "system");
  EXPECT_EQ(body["messages"][1]["role"], "user");
  EXPECT_EQ(body["messages"][1]["content"], "Say hello, please");
  EXPECT_DOUBLE_EQ(body["temperature"].get<double>(), 0.25);
  EXPECT_EQ(body["top_k"], 5);
}

TEST_F(CloudEngineTest, NoAuthorizationWithoutKeyAndDefaultModel) {
  FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) {
    testing::stream_answer(ex, {"ok"});
  });
  CloudEngine engine(config_for(upstream.base_url()), "");
  RecordingSink sink;
  ASSERT_TRUE(engine.generate(hello(), "", sink).is_ok());
  FakeRequest seen = upstream.requests().at(0);
  EXPECT_FALSE(seen.has_header("Authorization"));
  EXPECT_EQ(nlohmann::json::parse(seen.body)["model"], "fake-model");
}

TEST_F(CloudEngineTest, CountsUsageWhenUpstreamSendsNone) {
  FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) {
    testing::stream_answer(ex, {"twelve bytes"}, /*with_usage=*/false);
  });
  CloudEngine engine(config_for(upstream.base_url()), "");
  RecordingSink sink;
  ChatRequest request = hello();
  auto result = engine.generate(request, "fake-model", sink);
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_TRUE(result->usage_counted);
  EXPECT_EQ(result->usage.prompt_tokens, estimate_prompt_tokens(request.messages));
  EXPECT_EQ(result->usage.completion_tokens, estimate_tokens("twelve bytes"));
}

TEST_F(CloudEngineTest, SplitsAnywhereInTheByteStream) {
  FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) {
    ex.start_stream(200, {});
    std::string bytes;
    for (const char* piece : {"a", "\xC3\xA9", "b"}) {
      bytes += "data: " + testing::content_chunk(piece) + "\r\n\r\n";
    }
    bytes += ": comment\r\n\r\ndata: " + testing::finish_chunk("length") + "\r\n\r\ndata: [DONE]\r\n\r\n";
    for (size_t i = 0; i < bytes.size(); i += 3) {
      if (!ex.send(std::string_view(bytes).substr(i, 3))) return;
      if (i % 30 == 0) ex.pause(milliseconds(1));
    }
  });
  CloudEngine engine(config_for(upstream.base_url()), "");
  RecordingSink sink;
  auto result = engine.generate(hello(), "fake-model", sink);
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_EQ(result->text, "a\xC3\xA9" "b");
  EXPECT_EQ(sink.deltas.size(), 3u);
  EXPECT_EQ(result->finish, FinishReason::kLength);
}

TEST_F(CloudEngineTest, ForwardsLogprobs) {
  FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) {
    ex.start_stream(200, {});
    // One line: a raw newline would end the SSE data field.
    ex.send_event(
        R"({"model":"lp-model","choices":[{"index":0,"delta":{"content":"Hi"},)"
        R"("logprobs":{"content":[{"token":"Hi","logprob":-0.5,"top_logprobs":)"
        R"([{"token":"Hi","logprob":-0.5},{"token":"Yo","logprob":-2.0}]}]},"finish_reason":null}]})");
    ex.send_event(testing::finish_chunk());
    ex.send_event("[DONE]");
  });
  CloudEngine engine(config_for(upstream.base_url()), "");
  RecordingSink sink;
  ChatRequest request = hello();
  request.sampling.logprobs = true;
  request.sampling.top_logprobs = 2;
  auto result = engine.generate(request, "fake-model", sink);
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_EQ(result->model, "lp-model");
  ASSERT_EQ(sink.deltas.size(), 1u);
  ASSERT_EQ(sink.deltas[0].logprobs.size(), 1u);
  EXPECT_DOUBLE_EQ(sink.deltas[0].logprobs[0].logprob, -0.5);
  ASSERT_EQ(result->logprobs.size(), 1u);
  ASSERT_EQ(result->logprobs[0].top.size(), 2u);
  EXPECT_EQ(result->logprobs[0].top[1].token, "Yo");
}

TEST_F(CloudEngineTest, AcceptsNonStreamingJsonBody) {
  FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) {
    ex.respond(200, R"({"id":"x","object":"chat.completion","model":"json-model",
        "choices":[{"index":0,"message":{"role":"assistant","content":"all at once"},"finish_reason":"length"}],
        "usage":{"prompt_tokens":9,"completion_tokens":3,"total_tokens":12}})",
               "application/json; charset=utf-8");
  });
  CloudEngine engine(config_for(upstream.base_url()), "");
  RecordingSink sink;
  auto result = engine.generate(hello(), "fake-model", sink);
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  ASSERT_EQ(sink.deltas.size(), 1u);
  EXPECT_EQ(sink.deltas[0].text, "all at once");
  EXPECT_EQ(result->text, "all at once");
  EXPECT_EQ(result->model, "json-model");
  EXPECT_EQ(result->finish, FinishReason::kLength);
  EXPECT_EQ(result->usage.prompt_tokens, 9);
  EXPECT_FALSE(result->usage_counted);
}

TEST_F(CloudEngineTest, DetectsJsonBodyWithoutContentType) {
  FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) {
    ex.respond(200, R"(  {"choices":[{"index":0,"message":{"content":"untyped"},"finish_reason":"stop"}]})",
               "application/octet-stream");
  });
  CloudEngine engine(config_for(upstream.base_url()), "");
  RecordingSink sink;
  auto result = engine.generate(hello(), "fake-model", sink);
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_EQ(result->text, "untyped");
  EXPECT_EQ(result->model, "fake-model");  // the upstream named none
  EXPECT_TRUE(result->usage_counted);
}

TEST_F(CloudEngineTest, MalformedStreamBeforeAnyDeltaIsRetried) {
  std::atomic<int> attempts{0};
  FakeUpstream upstream([&](const FakeRequest&, FakeExchange& ex) {
    if (attempts.fetch_add(1) == 0) {
      ex.start_stream(200, {});
      ex.send_event("{not json");
      return;
    }
    testing::stream_answer(ex, {"fine"});
  });
  CloudEngine engine(config_for(upstream.base_url()), "");
  RecordingSink sink;
  auto result = engine.generate(hello(), "fake-model", sink);
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_EQ(result->text, "fine");
  EXPECT_EQ(attempts.load(), 2);
}

TEST_F(CloudEngineTest, RetriesServerErrorThenSucceeds) {
  std::atomic<int> attempts{0};
  FakeUpstream upstream([&](const FakeRequest&, FakeExchange& ex) {
    if (attempts.fetch_add(1) == 0) {
      ex.respond(500, R"({"error":{"message":"boom"}})");
      return;
    }
    testing::stream_answer(ex, {"second time"});
  });
  CloudEngine engine(config_for(upstream.base_url()), "");
  RecordingSink sink;
  auto result = engine.generate(hello(), "fake-model", sink);
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_EQ(result->text, "second time");
  EXPECT_EQ(attempts.load(), 2);
}

TEST_F(CloudEngineTest, GivesUpAfterMaxRetries) {
  FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) {
    ex.respond(503, R"({"error":{"message":"overloaded"}})");
  });
  UpstreamConfig config = config_for(upstream.base_url());
  config.max_retries = 2;
  CloudEngine engine(config, "");
  RecordingSink sink;
  auto result = engine.generate(hello(), "fake-model", sink);
  ASSERT_FALSE(result.is_ok());
  EXPECT_EQ(result.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(result.status().message().find("503"), std::string::npos);
  EXPECT_EQ(upstream.request_count(), 3);
}

TEST_F(CloudEngineTest, NoRetryOnceADeltaWasForwarded) {
  FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) {
    ex.start_stream(200, {});
    ex.send_event(testing::content_chunk("partial"));
    // The connection closes without finish_reason or [DONE].
  });
  CloudEngine engine(config_for(upstream.base_url()), "");
  RecordingSink sink;
  auto result = engine.generate(hello(), "fake-model", sink);
  ASSERT_FALSE(result.is_ok());
  EXPECT_EQ(result.status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(sink.text, "partial");
  EXPECT_EQ(upstream.request_count(), 1);
}

TEST_F(CloudEngineTest, ErrorEventMidStreamIsUnavailableWithoutRetry) {
  FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) {
    ex.start_stream(200, {});
    ex.send_event(testing::content_chunk("partial"));
    ex.send_event(R"({"error":{"message":"internal error","code":500}})");
  });
  CloudEngine engine(config_for(upstream.base_url()), "");
  RecordingSink sink;
  auto result = engine.generate(hello(), "fake-model", sink);
  ASSERT_FALSE(result.is_ok());
  EXPECT_EQ(result.status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(upstream.request_count(), 1);
}

TEST_F(CloudEngineTest, ConnectionRefusedIsUnavailableNamingTheUpstream) {
  testing::RefusingPort refusing;
  ASSERT_NE(refusing.port(), 0);
  const std::string base_url = "http://127.0.0.1:" + std::to_string(refusing.port()) + "/v1";
  UpstreamConfig config = config_for(base_url);
  config.max_retries = 1;
  CloudEngine engine(config, "");
  RecordingSink sink;
  auto result = engine.generate(hello(), "fake-model", sink);
  ASSERT_FALSE(result.is_ok());
  EXPECT_EQ(result.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(result.status().message().find("fake-cloud"), std::string::npos);
  EXPECT_NE(result.status().message().find(base_url), std::string::npos);
  EXPECT_EQ(result.status().message().find("hello"), std::string::npos);  // no prompt text
  EXPECT_TRUE(sink.deltas.empty());
}

TEST_F(CloudEngineTest, CircuitOpensAfterThreeFailuresFailsFastAndRecoversThroughAProbe) {
  std::atomic<bool> healthy{false};
  FakeUpstream upstream([&](const FakeRequest&, FakeExchange& ex) {
    if (!healthy.load()) {
      ex.respond(502, "bad gateway", "text/plain");
      return;
    }
    testing::stream_answer(ex, {"ok"});
  });
  UpstreamConfig config = config_for(upstream.base_url());
  config.max_retries = 0;
  config.breaker.open_ms = 5000;
  testing::ManualClock clock;
  CloudEngine engine(config, "", {.clock = &clock});
  RecordingSink sink;
  for (int i = 0; i < 2; ++i) EXPECT_FALSE(engine.generate(hello(), "fake-model", sink).is_ok());
  EXPECT_EQ(engine.health().state, TierState::kReady);
  EXPECT_FALSE(engine.generate(hello(), "fake-model", sink).is_ok());
  TierHealth health = engine.health();
  EXPECT_EQ(health.state, TierState::kUnavailable);
  EXPECT_NE(health.detail.find("502"), std::string::npos);
  EXPECT_NE(health.detail.find("circuit open"), std::string::npos);
  EXPECT_EQ(health.retry_at, clock.now() + std::chrono::seconds(5));
  EXPECT_EQ(engine.circuit_state(), CircuitState::kOpen);

  // Open: the upstream is not called, even once it is back, until the cool-down ends.
  healthy = true;
  auto fast = engine.generate(hello(), "fake-model", sink);
  ASSERT_FALSE(fast.is_ok());
  EXPECT_EQ(fast.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(fast.status().message().find("circuit open after 3 consecutive failures"), std::string::npos);
  EXPECT_NE(fast.status().message().find("tried again in 5 s"), std::string::npos);
  EXPECT_EQ(upstream.request_count(), 3);

  clock.advance(std::chrono::seconds(5));
  EXPECT_EQ(engine.circuit_state(), CircuitState::kHalfOpen);
  EXPECT_EQ(engine.health().state, TierState::kReady);  // the scheduler may send the probe
  EXPECT_TRUE(engine.generate(hello(), "fake-model", sink).is_ok());
  EXPECT_EQ(upstream.request_count(), 4);
  EXPECT_EQ(engine.circuit_state(), CircuitState::kClosed);
  EXPECT_EQ(engine.health().state, TierState::kReady);
}

TEST_F(CloudEngineTest, FailedProbeReopensTheCircuitForLonger) {
  FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) { ex.respond(503, "down", "text/plain"); });
  UpstreamConfig config = config_for(upstream.base_url());
  config.max_retries = 0;
  config.breaker.failures = 1;
  config.breaker.open_ms = 2000;
  testing::ManualClock clock;
  CloudEngine engine(config, "", {.clock = &clock});
  RecordingSink sink;
  EXPECT_FALSE(engine.generate(hello(), "fake-model", sink).is_ok());
  EXPECT_EQ(engine.circuit_state(), CircuitState::kOpen);
  clock.advance(std::chrono::seconds(2));
  EXPECT_FALSE(engine.generate(hello(), "fake-model", sink).is_ok());  // the probe
  EXPECT_EQ(upstream.request_count(), 2);
  EXPECT_EQ(engine.health().retry_at, clock.now() + std::chrono::seconds(4));
  clock.advance(std::chrono::seconds(3));
  EXPECT_FALSE(engine.generate(hello(), "fake-model", sink).is_ok());
  EXPECT_EQ(upstream.request_count(), 2);  // still open: not called
}

TEST_F(CloudEngineTest, ErrorsThatProveTheUpstreamIsUpKeepTheCircuitClosed) {
  FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) {
    ex.respond(400, R"({"error":{"message":"bad"}})");
  });
  UpstreamConfig config = config_for(upstream.base_url());
  config.breaker.failures = 1;
  testing::ManualClock clock;
  CloudEngine engine(config, "", {.clock = &clock});
  RecordingSink sink;
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(engine.generate(hello(), "fake-model", sink).is_ok());
  EXPECT_EQ(engine.circuit_state(), CircuitState::kClosed);
  EXPECT_EQ(upstream.request_count(), 3);
}

TEST_F(CloudEngineTest, TooManyRequestsWithRetryAfterZeroIsRetried) {
  std::atomic<int> attempts{0};
  FakeUpstream upstream([&](const FakeRequest&, FakeExchange& ex) {
    if (attempts.fetch_add(1) == 0) {
      ex.respond(429, R"({"error":{"message":"slow down"}})", "application/json",
                 {{"Retry-After", "0"}, {"x-ratelimit-remaining-requests", "0"}});
      return;
    }
    testing::stream_answer(ex, {"ok"}, true,
                           {{"x-ratelimit-remaining-requests", "99"},
                            {"X-RateLimit-Remaining-Tokens", "12345"}});
  });
  UpstreamConfig config = config_for(upstream.base_url());
  config.backoff_ms = 60000;  // Retry-After wins over the backoff
  CloudEngine engine(config, "");
  EXPECT_FALSE(engine.last_rate_limits().observed_at.has_value());
  RecordingSink sink;
  auto result = engine.generate(hello(), "fake-model", sink);
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_EQ(attempts.load(), 2);
  RateLimitSnapshot limits = engine.last_rate_limits();
  EXPECT_EQ(limits.remaining_requests, std::optional<int64_t>(99));
  EXPECT_EQ(limits.remaining_tokens, std::optional<int64_t>(12345));
  EXPECT_TRUE(limits.observed_at.has_value());
}

TEST_F(CloudEngineTest, TooManyRequestsWithLongRetryAfterIsNotRetried) {
  FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) {
    ex.respond(429, R"({"error":{"message":"quota"}})", "application/json", {{"Retry-After", "120"}});
  });
  CloudEngine engine(config_for(upstream.base_url()), "");
  RecordingSink sink;
  auto result = engine.generate(hello(), "fake-model", sink);
  ASSERT_FALSE(result.is_ok());
  EXPECT_EQ(result.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(result.status().message().find("120"), std::string::npos);
  EXPECT_EQ(upstream.request_count(), 1);
  // The scheduler sees the upstream rate limited until the Retry-After ends.
  TierLoad load = engine.load();
  ASSERT_TRUE(load.rate_limited_until.has_value());
  const double left_s = seconds_between(std::chrono::steady_clock::now(), *load.rate_limited_until);
  EXPECT_GT(left_s, 100);
  EXPECT_LE(left_s, 120);
}

TEST_F(CloudEngineTest, BadRequestIsInvalidArgumentWithoutRetry) {
  FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) {
    ex.respond(400, R"({"error":{"message":"temperature must be <= 2","type":"invalid_request_error"}})");
  });
  CloudEngine engine(config_for(upstream.base_url()), "");
  RecordingSink sink;
  auto result = engine.generate(hello(), "fake-model", sink);
  ASSERT_FALSE(result.is_ok());
  EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(result.status().message().find("temperature must be <= 2"), std::string::npos);
  EXPECT_EQ(upstream.request_count(), 1);
  EXPECT_EQ(engine.health().state, TierState::kReady);
}

TEST_F(CloudEngineTest, AuthAndNotFoundErrors) {
  std::atomic<int> status{401};
  FakeUpstream upstream([&](const FakeRequest&, FakeExchange& ex) {
    ex.respond(status.load(), R"({"error":{"message":"nope"}})");
  });
  CloudEngine engine(config_for(upstream.base_url()), "sk-wrong");
  RecordingSink sink;
  auto denied = engine.generate(hello(), "fake-model", sink);
  ASSERT_FALSE(denied.is_ok());
  EXPECT_EQ(denied.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(denied.status().message().find("$FAKE_CLOUD_KEY"), std::string::npos);
  EXPECT_EQ(denied.status().message().find("sk-wrong"), std::string::npos);
  status = 404;
  auto missing = engine.generate(hello(), "no-such-model", sink);
  ASSERT_FALSE(missing.is_ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(upstream.request_count(), 2);
}

TEST_F(CloudEngineTest, SlowUpstreamExceedsFirstByteTimeout) { expect_deadline_exceeded(200, 600000); }

TEST_F(CloudEngineTest, WholeRequestBeyondRequestTimeout) { expect_deadline_exceeded(60000, 200); }

TEST_F(CloudEngineTest, CancelledMidStreamClosesTheConnection) {
  std::atomic<bool> saw_close{false};
  FakeUpstream upstream([&](const FakeRequest&, FakeExchange& ex) {
    ex.start_stream(200, {});
    ex.send_event(testing::content_chunk("first"));
    saw_close = ex.wait_closed(milliseconds(10000));
  });
  CloudEngine engine(config_for(upstream.base_url()), "");
  RecordingSink sink;
  sink.cancel_after = 1;
  auto result = engine.generate(hello(), "fake-model", sink);
  ASSERT_FALSE(result.is_ok());
  EXPECT_EQ(result.status().code(), StatusCode::kCancelled);
  EXPECT_EQ(sink.text, "first");
  upstream.stop();  // joins the handler
  EXPECT_TRUE(saw_close.load());
  EXPECT_EQ(upstream.request_count(), 1);
  EXPECT_EQ(engine.health().state, TierState::kReady);
}

TEST_F(CloudEngineTest, CancelledWhileWaitingForHeaders) {
  FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) {
    ex.wait_closed(milliseconds(10000));
  });
  CloudEngine engine(config_for(upstream.base_url()), "");
  RecordingSink sink;
  std::thread canceller([&] {
    while (upstream.request_count() == 0) std::this_thread::sleep_for(milliseconds(5));
    sink.cancel_now = true;
  });
  auto result = engine.generate(hello(), "fake-model", sink);
  canceller.join();
  ASSERT_FALSE(result.is_ok());
  EXPECT_EQ(result.status().code(), StatusCode::kCancelled);
}

TEST_F(CloudEngineTest, SinkRefusingADeltaCancels) {
  FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) {
    testing::stream_answer(ex, {"one", "two", "three"});
  });
  CloudEngine engine(config_for(upstream.base_url()), "");
  RecordingSink sink;
  sink.reject_at = 1;  // accepts "one", refuses "two"
  auto result = engine.generate(hello(), "fake-model", sink);
  ASSERT_FALSE(result.is_ok());
  EXPECT_EQ(result.status().code(), StatusCode::kCancelled);
  EXPECT_EQ(sink.deltas.size(), 2u);
  EXPECT_EQ(upstream.request_count(), 1);
}

TEST_F(CloudEngineTest, CancelDuringRetryBackoff) {
  FakeUpstream upstream([](const FakeRequest&, FakeExchange& ex) {
    ex.respond(503, "{}");
  });
  UpstreamConfig config = config_for(upstream.base_url());
  config.backoff_ms = 5000;
  CloudEngine engine(config, "");
  RecordingSink sink;
  std::thread canceller([&] {
    while (upstream.request_count() == 0) std::this_thread::sleep_for(milliseconds(5));
    sink.cancel_now = true;
  });
  auto result = engine.generate(hello(), "fake-model", sink);
  canceller.join();
  ASSERT_FALSE(result.is_ok());
  EXPECT_EQ(result.status().code(), StatusCode::kCancelled);
  EXPECT_EQ(upstream.request_count(), 1);
}

TEST_F(CloudEngineTest, ConcurrentCallsEachGetTheirAnswer) {
  FakeUpstream upstream([](const FakeRequest& request, FakeExchange& ex) {
    auto body = nlohmann::json::parse(request.body);
    testing::stream_answer(ex, {body["messages"][0]["content"].get<std::string>(), "!"});
  });
  CloudEngine engine(config_for(upstream.base_url()), "");
  constexpr int kThreads = 8;
  constexpr int kCalls = 5;
  std::atomic<int> good{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCalls; ++i) {
        ChatRequest request;
        request.messages = {{Role::kUser, "call-" + std::to_string(t) + "-" + std::to_string(i)}};
        RecordingSink sink;
        auto result = engine.generate(request, "fake-model", sink);
        if (result.is_ok() && result->text == request.messages[0].content + "!") ++good;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(good.load(), kThreads * kCalls);
}

TEST_F(CloudEngineTest, ListsModels) {
  FakeUpstream upstream([](const FakeRequest& request, FakeExchange& ex) {
    if (request.method == "GET" && request.target == "/v1/models") {
      ex.respond(200, R"({"object":"list","data":[{"id":"m-a"},{"id":"m-b"}]})");
    } else {
      ex.respond(404, "{}");
    }
  });
  CloudEngine engine(config_for(upstream.base_url()), "sk-x");
  auto models = engine.list_models();
  ASSERT_TRUE(models.is_ok()) << models.status().to_string();
  EXPECT_EQ(*models, (std::vector<std::string>{"m-a", "m-b"}));
  EXPECT_EQ(upstream.requests().at(0).header("authorization"), "Bearer sk-x");
}

}  // namespace
}  // namespace tiergate
