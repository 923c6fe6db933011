// The edge engine on real GGUF files: synthetic models from the project's
// generator, and stories260K (a real trained model) when ../shared has it.
#include "tiergate/engines/local/local_engine.h"

#include <gtest/gtest.h>

#include <fstream>
#include <future>
#include <thread>

#include "manual_clock.h"
#include "test_models.h"

namespace tiergate {
namespace {

using testing::synthetic_model;

class CollectingSink : public TokenSink {
 public:
  bool on_delta(const Delta& d) override {
    text += d.text;
    ++deltas;
    return true;
  }
  bool cancelled() override { return cancel_after >= 0 && deltas >= cancel_after; }
  std::string text;
  int deltas = 0;
  int cancel_after = -1;
};

ChatRequest greedy(const std::string& prompt, int max_tokens) {
  ChatRequest r;
  r.model = "edge";
  r.messages.push_back({Role::kUser, prompt});
  r.sampling.temperature = 0;
  r.sampling.max_tokens = max_tokens;
  return r;
}

std::unique_ptr<LocalEngine> start_engine(const std::string& path, int parallel = 2, int queue = 8, int context = 512) {
  LocalEngineParams p = local_engine_default_params();
  p.model_path = path;
  p.parallel = parallel;
  p.queue = queue;
  p.context = context;
  p.threads = 2;
  auto e = std::make_unique<LocalEngine>(p);
  e->start();
  return e;
}

template <typename Pred>
bool eventually(Pred pred) {  // bounded polling, not a timing assertion
  for (int i = 0; i < 2000; ++i) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return pred();
}

TEST(LocalEngineTest, GeneratesUpToMaxTokens) {
  auto e = start_engine(synthetic_model());
  ASSERT_TRUE(e->wait_until_loaded().is_ok());
  EXPECT_EQ(e->health().state, TierState::kReady);
  CollectingSink sink;
  auto c = e->generate(greedy("Hello there", 8), "", sink);
  ASSERT_TRUE(c.is_ok()) << c.status().message();
  EXPECT_EQ(c->usage.completion_tokens, 8);
  EXPECT_GT(c->usage.prompt_tokens, 1);
  EXPECT_EQ(c->finish, FinishReason::kLength);
  EXPECT_EQ(c->text, sink.text);
  EXPECT_EQ(c->model, "edge.gguf");
}

TEST(LocalEngineTest, GreedyAndSeededSamplingAreDeterministic) {
  auto e = start_engine(synthetic_model(), 1);
  ASSERT_TRUE(e->wait_until_loaded().is_ok());
  CollectingSink a, b, c, d;
  EXPECT_EQ(e->generate(greedy("abc", 12), "", a)->text, e->generate(greedy("abc", 12), "", b)->text);
  ChatRequest r = greedy("abc", 12);
  r.sampling.temperature = 0.9;
  r.sampling.top_k = 40;
  r.sampling.top_p = 0.95;
  r.sampling.min_p = 0.01;
  r.sampling.seed = 1234;
  EXPECT_EQ(e->generate(r, "", c)->text, e->generate(r, "", d)->text);
}

TEST(LocalEngineTest, LogprobsInOpenAiShape) {
  auto e = start_engine(synthetic_model());
  ASSERT_TRUE(e->wait_until_loaded().is_ok());
  ChatRequest r = greedy("The sky is", 5);
  r.sampling.logprobs = true;
  r.sampling.top_logprobs = 3;
  CollectingSink sink;
  auto c = e->generate(r, "", sink);
  ASSERT_TRUE(c.is_ok());
  ASSERT_EQ(c->logprobs.size(), 5u);
  for (const auto& lp : c->logprobs) {
    EXPECT_LE(lp.logprob, 0.0);
    ASSERT_EQ(lp.top.size(), 3u);
    EXPECT_GE(lp.top[0].logprob, lp.top[1].logprob);
    EXPECT_GE(lp.top[1].logprob, lp.top[2].logprob);
    // Greedy picks the most likely token.
    EXPECT_DOUBLE_EQ(lp.logprob, lp.top[0].logprob);
  }
}

TEST(LocalEngineTest, ContextOverflowIsAClearError) {
  auto e = start_engine(synthetic_model());
  ASSERT_TRUE(e->wait_until_loaded().is_ok());
  CollectingSink sink;
  auto c = e->generate(greedy("hi", 600), "", sink);
  ASSERT_FALSE(c.is_ok());
  EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(c.status().message().find("context_length_exceeded"), std::string::npos);
  std::string long_prompt;
  for (int i = 0; i < 600; ++i) long_prompt += "word ";
  ChatRequest r = greedy(long_prompt, 1);
  r.sampling.max_tokens.reset();
  EXPECT_EQ(e->generate(r, "", sink).status().code(), StatusCode::kInvalidArgument);
}

TEST(LocalEngineTest, ConcurrentRequestsShareTheBatch) {
  auto e = start_engine(synthetic_model(), 2, 16);
  ASSERT_TRUE(e->wait_until_loaded().is_ok());
  std::vector<std::future<StatusOr<Completion>>> results;
  for (int i = 0; i < 6; ++i) {
    results.push_back(std::async(std::launch::async, [&e, i] {
      CollectingSink sink;
      return e->generate(greedy("request " + std::to_string(i), 16), "", sink);
    }));
  }
  for (auto& f : results) {
    auto c = f.get();
    ASSERT_TRUE(c.is_ok()) << c.status().message();
    EXPECT_EQ(c->usage.completion_tokens, 16);
  }
  LocalEngineStats s = e->stats();
  EXPECT_EQ(s.slots_busy, 0);
  EXPECT_EQ(s.queue_depth, 0);
  EXPECT_GE(s.generated_tokens, 6 * 16);
}

TEST(LocalEngineTest, ClientLeavingFreesTheSlot) {
  auto e = start_engine(synthetic_model(), 1, 0);
  ASSERT_TRUE(e->wait_until_loaded().is_ok());
  CollectingSink sink;
  sink.cancel_after = 3;
  auto c = e->generate(greedy("go on", 400), "", sink);
  ASSERT_FALSE(c.is_ok());
  EXPECT_EQ(c.status().code(), StatusCode::kCancelled);
  EXPECT_TRUE(eventually([&] { return e->stats().slots_busy == 0; }));
  EXPECT_EQ(e->stats().cancelled_requests, 1);
  // The slot is usable again.
  CollectingSink again;
  EXPECT_TRUE(e->generate(greedy("again", 4), "", again).is_ok());
}

TEST(LocalEngineTest, FullQueueIsRejectedNotQueuedForever) {
  auto e = start_engine(synthetic_model(), 1, 0);
  ASSERT_TRUE(e->wait_until_loaded().is_ok());
  // The first request holds the only slot until its client leaves.
  std::promise<void> started;
  std::atomic<bool> release{false};
  class HoldingSink : public TokenSink {
   public:
    HoldingSink(std::promise<void>& s, std::atomic<bool>& r) : started_(s), release_(r) {}
    bool on_delta(const Delta&) override {
      if (!signalled_) started_.set_value();
      signalled_ = true;
      return true;
    }
    bool cancelled() override { return release_.load(); }
    std::promise<void>& started_;
    std::atomic<bool>& release_;
    bool signalled_ = false;
  } holder(started, release);
  auto first = std::async(std::launch::async, [&] { return e->generate(greedy("hold", 500), "", holder); });
  started.get_future().wait();
  CollectingSink sink;
  auto second = e->generate(greedy("second", 4), "", sink);
  bool first_done_early = first.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  release = true;
  auto first_result = first.get();
  if (first_done_early) GTEST_SKIP() << "first request finished before the second arrived";
  ASSERT_FALSE(second.is_ok());
  EXPECT_EQ(second.status().code(), StatusCode::kResourceExhausted);
}

TEST(LocalEngineTest, MissingModelLeavesTierUnavailable) {
  auto e = start_engine("/nonexistent/model.gguf");
  Status s = e->wait_until_loaded();
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  TierHealth h = e->health();
  EXPECT_EQ(h.state, TierState::kUnavailable);
  EXPECT_NE(h.detail.find("not found"), std::string::npos);
  CollectingSink sink;
  EXPECT_EQ(e->generate(greedy("hi", 4), "", sink).status().code(), StatusCode::kUnavailable);
}

TEST(LocalEngineTest, CorruptAndForeignFilesAreClearErrors) {
  std::string dir = testing::make_temp_dir("tiergate-bad-");
  {
    std::ofstream(dir + "/text.gguf") << "this is not a model";
    std::ofstream corrupt(dir + "/corrupt.gguf", std::ios::binary);
    corrupt << "GGUF" << std::string(64, '\x7f');
  }
  auto foreign = start_engine(dir + "/text.gguf");
  EXPECT_NE(foreign->wait_until_loaded().message().find("not a GGUF"), std::string::npos);
  auto corrupt = start_engine(dir + "/corrupt.gguf");
  Status s = corrupt->wait_until_loaded();
  EXPECT_FALSE(s.is_ok());
  EXPECT_EQ(corrupt->health().state, TierState::kUnavailable);
}

TEST(LocalEngineTest, StoriesModelContinuesTheStory) {
  std::string path = testing::stories_model();
  if (path.empty()) GTEST_SKIP() << "../shared/models/stories260K.gguf is absent; skipping the real-model check";
  auto e = start_engine(path, 1, 4, 256);
  ASSERT_TRUE(e->wait_until_loaded().is_ok());
  CollectingSink sink;
  auto c = e->generate(greedy("Once upon a time", 12), "", sink);
  ASSERT_TRUE(c.is_ok()) << c.status().message();
  EXPECT_EQ(c->text.rfind(", there was a little girl named Lily", 0), 0u) << c->text;

  ChatRequest stop = greedy("Once upon a time", 30);
  stop.sampling.stop = {"girl"};
  CollectingSink s2;
  auto c2 = e->generate(stop, "", s2);
  ASSERT_TRUE(c2.is_ok());
  EXPECT_EQ(c2->text, ", there was a little ");
  EXPECT_EQ(c2->finish, FinishReason::kStop);
}

}  // namespace
}  // namespace tiergate

namespace tiergate {
namespace {

// One sequence of `context` tokens on the synthetic model, its circuit
// breaker opening after `failures` failed requests for 5 s (doubling to 60 s).
LocalEngineParams one_sequence(int context, int failures) {
  LocalEngineParams p = local_engine_default_params();
  p.model_path = synthetic_model();
  p.parallel = 1;
  p.context = context;
  p.threads = 2;
  p.breaker = {failures, std::chrono::seconds(5), std::chrono::seconds(60)};
  return p;
}

// Edge health from recent failures: decode errors injected through the
// engine's fault seam, time from a manual clock.
TEST(LocalEngineHealthTest, RepeatedDecodeFailuresMakeTheEdgeUnavailableUntilAProbeSucceeds) {
  testing::ManualClock clock;
  std::atomic<int32_t> fault{-3};  // as llama_decode reports a failed compute (e.g. out of memory)
  std::atomic<int> decodes{0};
  LocalEngineParams p = one_sequence(256, /*failures=*/2);
  p.clock = &clock;
  p.decode_fault = [&] {
    ++decodes;
    return fault.load();
  };
  LocalEngine engine(p);
  engine.start();
  ASSERT_TRUE(engine.wait_until_loaded().is_ok());
  CollectingSink sink;

  for (int i = 0; i < 2; ++i) {
    auto r = engine.generate(greedy("hello", 4), "", sink);
    ASSERT_FALSE(r.is_ok());
    EXPECT_EQ(r.status().code(), StatusCode::kUnavailable);
    EXPECT_NE(r.status().message().find("llama_decode returned -3"), std::string::npos) << r.status().message();
  }
  TierHealth health = engine.health();
  EXPECT_EQ(health.state, TierState::kUnavailable);
  EXPECT_NE(health.detail.find("edge decode failing: 2 requests in a row failed"), std::string::npos) << health.detail;
  ASSERT_TRUE(health.retry_at);
  EXPECT_EQ(*health.retry_at, clock.now() + std::chrono::seconds(5));

  // Open: refused at once, without decoding.
  const int before = decodes.load();
  auto refused = engine.generate(greedy("hello", 4), "", sink);
  ASSERT_FALSE(refused.is_ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(refused.status().message().find("tried again in 5 s"), std::string::npos) << refused.status().message();
  EXPECT_EQ(decodes.load(), before);

  // After the cool-down one probe goes; it fails, and the wait doubles.
  clock.advance(std::chrono::seconds(5));
  EXPECT_EQ(engine.health().state, TierState::kReady);
  EXPECT_FALSE(engine.generate(greedy("hello", 4), "", sink).is_ok());
  health = engine.health();
  EXPECT_EQ(health.state, TierState::kUnavailable);
  EXPECT_EQ(*health.retry_at, clock.now() + std::chrono::seconds(10));

  // The decode works again: the next probe closes the circuit.
  clock.advance(std::chrono::seconds(10));
  fault = 0;
  auto answered = engine.generate(greedy("hello", 4), "", sink);
  ASSERT_TRUE(answered.is_ok()) << answered.status().message();
  EXPECT_EQ(engine.health().state, TierState::kReady);
  EXPECT_TRUE(engine.generate(greedy("hello again", 4), "", sink).is_ok());
}

// Capacity and bad input say nothing about the edge's health.
TEST(LocalEngineHealthTest, RefusalsForCapacityOrInputDoNotCount) {
  LocalEngine engine(one_sequence(64, /*failures=*/1));
  engine.start();
  ASSERT_TRUE(engine.wait_until_loaded().is_ok());
  CollectingSink sink;
  for (int i = 0; i < 3; ++i) {
    auto too_long = engine.generate(greedy(std::string(2000, 'a'), 4), "", sink);
    EXPECT_EQ(too_long.status().code(), StatusCode::kInvalidArgument);
  }
  EXPECT_EQ(engine.health().state, TierState::kReady);
  EXPECT_TRUE(engine.generate(greedy("hello", 2), "", sink).is_ok());
}

}  // namespace
}  // namespace tiergate
