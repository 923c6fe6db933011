#include "tiergate/server/live_tier_state.h"

#include <gtest/gtest.h>

namespace tiergate {
namespace {

TEST(LiveTierStateTest, LatencyEwmaAndP95) {
  LiveTierState live;
  EXPECT_FALSE(live.latency("up1").ewma_s.has_value());
  live.record_answer("up1", false, 1.0, 10);
  EXPECT_DOUBLE_EQ(*live.latency("up1").ewma_s, 1.0);
  live.record_answer("up1", false, 2.0, 10);
  EXPECT_DOUBLE_EQ(*live.latency("up1").ewma_s, 0.2 * 2.0 + 0.8 * 1.0);
  for (int i = 1; i <= 100; ++i) live.record_answer("up2", false, i, 10);
  // Only the last 64 samples (37..100) count; the nearest-rank p95 of them.
  EXPECT_DOUBLE_EQ(*live.latency("up2").p95_s, 97.0);
  live.record_answer("up2", false, -1, 10);  // ignored
  EXPECT_DOUBLE_EQ(*live.latency("up2").p95_s, 97.0);
}

TEST(LiveTierStateTest, EdgeDecodeSpeedIgnoresShortAnswers) {
  LiveTierState live;
  live.record_answer("edge", true, 1.0, 4);
  EXPECT_FALSE(live.edge_decode_tokens_per_s().has_value());
  live.record_answer("edge", true, 2.0, 100);
  EXPECT_DOUBLE_EQ(*live.edge_decode_tokens_per_s(), 50.0);
  live.record_answer("up1", false, 1.0, 1000);  // not the edge
  EXPECT_DOUBLE_EQ(*live.edge_decode_tokens_per_s(), 50.0);
}

TEST(LiveTierStateTest, SpendPerKeyPerUtcDay) {
  LiveTierState live;
  const int64_t day = 20000 * 86400;
  live.record_spend("k1", day + 10, 0.25);
  live.record_spend("k1", day + 86399, 0.5);
  live.record_spend("k2", day + 10, 1.0);
  EXPECT_DOUBLE_EQ(live.spent_today("k1", day + 100), 0.75);
  EXPECT_DOUBLE_EQ(live.spent_today("k2", day + 100), 1.0);
  EXPECT_DOUBLE_EQ(live.spent_today("k3", day + 100), 0.0);
  // The next UTC day starts from zero.
  EXPECT_DOUBLE_EQ(live.spent_today("k1", day + 86400), 0.0);
  live.record_spend("k1", day + 86400, 0.1);
  EXPECT_DOUBLE_EQ(live.spent_today("k1", day + 86401), 0.1);
  EXPECT_DOUBLE_EQ(live.spent_today("k2", day + 86401), 0.0);
}

}  // namespace
}  // namespace tiergate
