// The draft gate's hold-back window, timed: a stream commits after
// hold_back_tokens tokens or hold_back_ms since the first draft token,
// whichever comes first. Time comes from the test.
#include "draft_gate.h"

#include <gtest/gtest.h>

#include <chrono>

namespace tiergate {
namespace {

class CountingSink final : public TokenSink {
 public:
  bool on_delta(const Delta&) override {
    ++deltas;
    return true;
  }
  bool cancelled() override { return false; }
  int deltas = 0;
};

Delta token(const std::string& text) { return Delta{text, {TokenLogprob{text, -0.01, {}}}}; }

struct GateFixture {
  explicit GateFixture(int hold_back_ms) {
    config.early_exit_tokens = 100;
    config.hold_back_tokens = 100;
    config.hold_back_ms = hold_back_ms;
  }
  DraftGate gate(TokenSink& client) {
    // Threshold 0: every verdict accepts, so only the window decides.
    return DraftGate(client, verifier, 0.0, config, SamplingParams{}, /*stream=*/true, 0.0, "chat", {},
                     [this] { return now; });
  }
  SpeculativeConfig config;
  Verifier verifier;
  SteadyTime now = SteadyTime(std::chrono::hours(1));
};

TEST(DraftGateTest, TheHoldBackWindowEndsAfterItsMilliseconds) {
  GateFixture f(/*hold_back_ms=*/50);
  CountingSink client;
  DraftGate gate = f.gate(client);
  ASSERT_TRUE(gate.on_delta(token("a")));
  f.now += std::chrono::milliseconds(30);
  ASSERT_TRUE(gate.on_delta(token("b")));
  EXPECT_EQ(client.deltas, 0);  // 30 ms in: still held
  f.now += std::chrono::milliseconds(20);
  ASSERT_TRUE(gate.on_delta(token("c")));
  EXPECT_TRUE(gate.committed());
  EXPECT_EQ(client.deltas, 3);  // 50 ms: the held text at once
  ASSERT_TRUE(gate.on_delta(token("d")));
  EXPECT_EQ(client.deltas, 4);  // then each token as it comes
}

TEST(DraftGateTest, WithoutMillisecondsOnlyTokensEndTheWindow) {
  GateFixture f(/*hold_back_ms=*/0);
  CountingSink client;
  DraftGate gate = f.gate(client);
  for (int i = 0; i < 99; ++i) {
    ASSERT_TRUE(gate.on_delta(token("x")));
    f.now += std::chrono::seconds(1);
  }
  EXPECT_EQ(client.deltas, 0);
  ASSERT_TRUE(gate.on_delta(token("x")));
  EXPECT_EQ(client.deltas, 100);
}

}  // namespace
}  // namespace tiergate
