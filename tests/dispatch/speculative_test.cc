// Speculative edge execution in the dispatcher: the edge drafts behind the
// verifier; a confident draft is the answer, a doomed one stops at the early
// exit and the cloud answers instead, and the client never sees a discarded
// draft. Scripted engines (testing/fake_engine.h) supply the drafts'
// log-probabilities.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "fake_engine.h"
#include "recording_sink.h"
#include "tiergate/dispatch/dispatcher.h"

namespace tiergate {
namespace {

using testing::FakeEngine;
using testing::RecordingSink;

constexpr char kConfig[] =
    "listen: 127.0.0.1:0\n"
    "edge: {model: edge.gguf}\n"
    "cloud:\n"
    "  - {name: up1, base_url: http://127.0.0.1:9/v1, models: [big]}\n"
    "speculative: {enabled: true, early_exit_tokens: 4, hold_back_tokens: 6}\n";

class SpeculativeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    config_ = *parse_config(kConfig, "test.yaml");
    dispatcher_ = std::make_unique<Dispatcher>(config_, &edge_, std::map<std::string, Engine*>{{"up1", &cloud_}});
    plan_.reason = "auto:complexity";
    plan_.candidates = {{TierKind::kEdge, "edge", "edge.gguf"}, {TierKind::kCloud, "up1", "big"}};
    plan_.speculative = true;
    plan_.detail.intent = "chat";
    request_.model = "auto";
    request_.messages = {{Role::kUser, "hi"}};
    edge_.pieces = pieces(10);
    cloud_.pieces = {"cloud ", "answer"};
  }
  // n different tokens (a draft of one token repeated would look like a loop).
  static std::vector<std::string> pieces(int n) {
    std::vector<std::string> out;
    for (int i = 0; i < n; ++i) {
      // Appended piece by piece (g++ 12 warns falsely on "t" + ... + " ").
      std::string piece = "t";
      piece.append(std::to_string(i)).append(" ");
      out.push_back(std::move(piece));
    }
    return out;
  }
  static std::string text_of(int n) {
    std::string text;
    for (const std::string& p : pieces(n)) text += p;
    return text;
  }
  // The edge is sure of each token (one alternative far behind).
  void confident_edge() {
    edge_.piece_logprob = -0.02;
    edge_.piece_top = {{"x", -0.02}, {"y", -4.0}, {"z", -5.0}};
  }
  // The edge guesses: every token unlikely, alternatives flat.
  void guessing_edge() {
    edge_.piece_logprob = -3.0;
    edge_.piece_top = {{"x", std::log(0.2)}, {"y", std::log(0.2)}, {"z", std::log(0.2)}, {"w", std::log(0.2)}};
  }

  ConfigPtr config_;
  FakeEngine edge_, cloud_;
  std::unique_ptr<Dispatcher> dispatcher_;
  RoutePlan plan_;
  ChatRequest request_;
  RecordingSink sink_;
};

TEST_F(SpeculativeTest, AConfidentDraftIsTheAnswer) {
  confident_edge();
  StatusOr<DispatchResult> r = dispatcher_->run(plan_, request_, sink_);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(r->attempt.tier, "edge");
  EXPECT_EQ(sink_.text, text_of(10));
  EXPECT_EQ(cloud_.calls.load(), 0);
  ASSERT_TRUE(r->speculative.has_value());
  EXPECT_TRUE(r->speculative->accepted);
  EXPECT_GE(r->speculative->confidence, r->speculative->threshold);
  EXPECT_EQ(r->speculative->draft_tokens, 10);
  EXPECT_TRUE(r->speculative->features.stopped);
  // The edge was asked for log-probabilities; the client, which did not ask, gets none.
  EXPECT_TRUE(edge_.last_request.sampling.logprobs);
  EXPECT_EQ(sink_.logprobs, 0u);
  EXPECT_TRUE(r->completion.logprobs.empty());
}

TEST_F(SpeculativeTest, ADoomedDraftStopsAtTheEarlyExitAndTheCloudAnswers) {
  guessing_edge();
  edge_.pieces = pieces(200);
  StatusOr<DispatchResult> r = dispatcher_->run(plan_, request_, sink_);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(r->attempt.tier, "up1");
  EXPECT_EQ(r->attempt.route, "auto:complexity>escalated:up1");
  EXPECT_EQ(r->attempt.degraded, Degradation::kNone);  // escalation is the plan working, not a tier down
  EXPECT_EQ(edge_.pieces_sent.load(), 4);               // stopped at K = 4, not 200
  EXPECT_EQ(sink_.text, "cloud answer");                // the draft never reached the client
  EXPECT_EQ(r->attempts, 2);
  ASSERT_TRUE(r->speculative.has_value());
  EXPECT_FALSE(r->speculative->accepted);
  EXPECT_LT(r->speculative->confidence, r->speculative->threshold);
  EXPECT_EQ(r->speculative->draft_tokens, 4);
  EXPECT_GE(r->speculative->time_lost_ms, 0);
}

TEST_F(SpeculativeTest, AShortDraftIsJudgedWhenItEnds) {
  guessing_edge();
  edge_.pieces = pieces(2);  // ends before the early exit
  StatusOr<DispatchResult> r = dispatcher_->run(plan_, request_, sink_);
  ASSERT_TRUE(r.is_ok());
  EXPECT_EQ(r->attempt.tier, "up1");
  EXPECT_EQ(sink_.text, "cloud answer");
  EXPECT_EQ(r->speculative->draft_tokens, 2);
}

TEST_F(SpeculativeTest, AStreamSendsNothingBeforeTheHoldBackWindowPasses) {
  request_.stream = true;
  guessing_edge();
  edge_.pieces = pieces(50);
  StatusOr<DispatchResult> escalated = dispatcher_->run(plan_, request_, sink_);
  ASSERT_TRUE(escalated.is_ok());
  EXPECT_EQ(sink_.text, "cloud answer");

  confident_edge();
  edge_.pieces_sent = 0;
  RecordingSink committed;
  committed.edge = &edge_;
  StatusOr<DispatchResult> r = dispatcher_->run(plan_, request_, committed);
  ASSERT_TRUE(r.is_ok());
  EXPECT_EQ(r->attempt.tier, "edge");
  EXPECT_EQ(committed.text, text_of(50));
  EXPECT_EQ(committed.deltas, 50);
  EXPECT_EQ(committed.first_delta_after, 6);  // the window: hold_back_tokens, then the held text at once
}

TEST_F(SpeculativeTest, TheClientGetsTheLogprobsItAskedForOnly) {
  confident_edge();
  request_.sampling.logprobs = true;
  request_.sampling.top_logprobs = 1;
  StatusOr<DispatchResult> r = dispatcher_->run(plan_, request_, sink_);
  ASSERT_TRUE(r.is_ok());
  EXPECT_EQ(sink_.logprobs, 10u);
  for (size_t n : sink_.alternatives) EXPECT_EQ(n, 1u);
  ASSERT_EQ(r->completion.logprobs.size(), 10u);
  EXPECT_EQ(r->completion.logprobs[0].top.size(), 1u);
}

TEST_F(SpeculativeTest, AnEdgeThatFailsIsAFallbackNotAVerdict) {
  edge_.fail_before = unavailable("edge broke");
  StatusOr<DispatchResult> r = dispatcher_->run(plan_, request_, sink_);
  ASSERT_TRUE(r.is_ok());
  EXPECT_EQ(r->attempt.route, "auto:complexity>fallback:up1");
  EXPECT_EQ(r->attempt.degraded, Degradation::kEdgeUnavailable);
  EXPECT_FALSE(r->speculative.has_value());
}

TEST_F(SpeculativeTest, AConfiguredThresholdOverridesTheVerifiers) {
  config_ = *parse_config(std::string(kConfig) + "", "test.yaml");
  auto strict = std::make_shared<Config>(*config_);
  strict->speculative.threshold = 1.0;  // nothing is good enough
  Dispatcher dispatcher(strict, &edge_, {{"up1", &cloud_}});
  confident_edge();
  StatusOr<DispatchResult> r = dispatcher.run(plan_, request_, sink_);
  ASSERT_TRUE(r.is_ok());
  EXPECT_EQ(r->attempt.tier, "up1");
  EXPECT_DOUBLE_EQ(r->speculative->threshold, 1.0);
}

// Hedging: with hedge_below above the first verdict's confidence, the cloud
// starts while the edge drafts; the loser is cancelled.
class HedgeTest : public SpeculativeTest {
 protected:
  void SetUp() override {
    SpeculativeTest::SetUp();
    auto hedging = std::make_shared<Config>(*config_);
    hedging->speculative.hedge_below = 0.99;
    config_ = hedging;
    dispatcher_ = std::make_unique<Dispatcher>(config_, &edge_, std::map<std::string, Engine*>{{"up1", &cloud_}});
    cloud_.reports_egress = true;
    confident_edge();
  }
};

TEST_F(HedgeTest, AStandingDraftCancelsTheHedgeWhoseRequestIsStillAudited) {
  cloud_.until_cancelled = true;  // the hedge streams until it is told to stop
  StatusOr<DispatchResult> r = dispatcher_->run(plan_, request_, sink_);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(r->attempt.tier, "edge");
  EXPECT_EQ(sink_.text, text_of(10));  // nothing of the hedge reached the client
  ASSERT_TRUE(r->speculative.has_value());
  EXPECT_TRUE(r->speculative->accepted);
  EXPECT_TRUE(r->speculative->hedged);
  EXPECT_EQ(cloud_.calls.load(), 1);
  EXPECT_TRUE(cloud_.saw_cancel.load());
  ASSERT_EQ(sink_.egress_routes.size(), 1u);  // the hedge's request left the device: audited
  EXPECT_EQ(sink_.egress_routes[0], "auto:complexity>hedge_cancelled:up1");
}

TEST_F(HedgeTest, ADraftRejectedAtItsEndTakesTheHedgesAnswer) {
  // Sure of each token, but looping: the first verdict passes, the last rejects.
  edge_.pieces = pieces(4);
  for (int i = 0; i < 30; ++i) edge_.pieces.push_back(i % 2 ? "la " : "di ");
  StatusOr<DispatchResult> r = dispatcher_->run(plan_, request_, sink_);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(r->attempt.tier, "up1");
  EXPECT_EQ(r->attempt.route, "auto:complexity>escalated:up1");
  EXPECT_EQ(sink_.text, "cloud answer");
  EXPECT_FALSE(r->speculative->accepted);
  EXPECT_TRUE(r->speculative->hedged);
  EXPECT_EQ(cloud_.calls.load(), 1);  // the hedge was the cloud's only call
  EXPECT_EQ(r->attempts, 2);
  ASSERT_EQ(sink_.egress_routes.size(), 1u);
}

TEST_F(HedgeTest, AFailedHedgeIsNotTriedAgain) {
  edge_.pieces = pieces(4);
  for (int i = 0; i < 30; ++i) edge_.pieces.push_back(i % 2 ? "la " : "di ");
  cloud_.fail_before = unavailable("upstream 'up1' cannot be reached");
  StatusOr<DispatchResult> r = dispatcher_->run(plan_, request_, sink_);
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(cloud_.calls.load(), 1);
  EXPECT_TRUE(sink_.text.empty());  // neither the rejected draft nor anything else
}

TEST_F(HedgeTest, NoHedgeWhenTheFirstVerdictIsSure) {
  auto sure = std::make_shared<Config>(*config_);
  sure->speculative.hedge_below = 0.5;  // the confident draft scores well above
  Dispatcher dispatcher(sure, &edge_, {{"up1", &cloud_}});
  StatusOr<DispatchResult> r = dispatcher.run(plan_, request_, sink_);
  ASSERT_TRUE(r.is_ok());
  EXPECT_FALSE(r->speculative->hedged);
  EXPECT_EQ(cloud_.calls.load(), 0);
}

}  // namespace
}  // namespace tiergate
