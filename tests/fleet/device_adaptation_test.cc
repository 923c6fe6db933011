// The run-time adaptation state machine (fleet/device_adaptation.h), by
// sequences of observations: step down after escalate_after pressured ones,
// back up after recover_after healthy ones, hold in between.
#include "tiergate/fleet/device_adaptation.h"

#include <gtest/gtest.h>

namespace tiergate {
namespace {

constexpr uint64_t kPlenty = 8ull << 30;

DeviceObservation at(double decode_tps, uint64_t memory = kPlenty) { return {decode_tps, memory}; }
DeviceObservation quiet(uint64_t memory = kPlenty) { return {std::nullopt, memory}; }

AdaptationParams params() {
  AdaptationParams p;
  p.escalate_after = 2;
  p.recover_after = 3;
  return p;
}

TEST(DeviceAdaptationTest, StepsDownOneStepPerRunOfSlowObservations) {
  DeviceAdaptation a(params(), /*smaller_variant_available=*/true);
  EXPECT_FALSE(a.observe(at(40)));  // the baseline
  EXPECT_EQ(a.baseline_decode_tps(), 40);
  EXPECT_FALSE(a.observe(at(20)));  // one slow observation moves nothing
  auto change = a.observe(at(20));
  ASSERT_TRUE(change);
  EXPECT_EQ(change->from, AdaptationStep::kNormal);
  EXPECT_EQ(change->to, AdaptationStep::kShortened);
  EXPECT_NE(change->reason.find("decode 20.0 tok/s < 0.60 x baseline 40.0"), std::string::npos) << change->reason;
  a.observe(at(20));
  EXPECT_EQ(a.observe(at(20))->to, AdaptationStep::kSmallerVariant);
  a.observe(at(20));
  EXPECT_EQ(a.observe(at(20))->to, AdaptationStep::kCloudPreferred);
  a.observe(at(20));
  EXPECT_FALSE(a.observe(at(20)));  // nothing below the last step
  EXPECT_EQ(a.step(), AdaptationStep::kCloudPreferred);
  EXPECT_EQ(a.baseline_decode_tps(), 40);  // a throttled device cannot pull the baseline down
}

TEST(DeviceAdaptationTest, RecoversOneStepPerRunOfHealthyObservations) {
  DeviceAdaptation a(params(), true);
  a.observe(at(40));
  for (int i = 0; i < 6; ++i) a.observe(at(10));
  ASSERT_EQ(a.step(), AdaptationStep::kCloudPreferred);
  // Healthy: back at 0.85 x baseline or more, or no edge answer to judge by.
  EXPECT_FALSE(a.observe(at(38)));
  EXPECT_FALSE(a.observe(quiet()));
  EXPECT_EQ(a.observe(at(39))->to, AdaptationStep::kSmallerVariant);
  for (int i = 0; i < 2; ++i) EXPECT_FALSE(a.observe(quiet()));
  auto up = a.observe(quiet());
  ASSERT_TRUE(up);
  EXPECT_EQ(up->to, AdaptationStep::kShortened);
  EXPECT_NE(up->reason.find("recovered"), std::string::npos);
  for (int i = 0; i < 3; ++i) a.observe(at(40));
  EXPECT_EQ(a.step(), AdaptationStep::kNormal);
}

TEST(DeviceAdaptationTest, BetweenTheThresholdsTheStepHolds) {
  DeviceAdaptation a(params(), true);
  a.observe(at(40));
  a.observe(at(20));
  a.observe(at(20));
  ASSERT_EQ(a.step(), AdaptationStep::kShortened);
  // 30 tok/s: not slow (>= 0.6 x 40), not recovered (< 0.85 x 40).
  for (int i = 0; i < 20; ++i) EXPECT_FALSE(a.observe(at(30)));
  EXPECT_EQ(a.step(), AdaptationStep::kShortened);
  // A slow observation between healthy ones restarts the count.
  a.observe(at(40));
  a.observe(at(40));
  a.observe(at(20));
  a.observe(at(40));
  a.observe(at(40));
  EXPECT_EQ(a.step(), AdaptationStep::kShortened);
  a.observe(at(40));
  EXPECT_EQ(a.step(), AdaptationStep::kNormal);
}

TEST(DeviceAdaptationTest, MemoryShortageIsPressureToo) {
  DeviceAdaptation a(params(), true);
  const uint64_t low = 100ull << 20;  // below the default 256 MiB
  EXPECT_FALSE(a.observe(quiet(low)));
  auto change = a.observe(quiet(low));
  ASSERT_TRUE(change);
  EXPECT_NE(change->reason.find("memory available 100 MiB < 256 MiB"), std::string::npos) << change->reason;
  // 300 MiB: no longer short, not yet twice the threshold: holds.
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(a.observe(quiet(300ull << 20)));
  for (int i = 0; i < 3; ++i) a.observe(quiet(600ull << 20));
  EXPECT_EQ(a.step(), AdaptationStep::kNormal);
}

TEST(DeviceAdaptationTest, WithoutASmallerVariantThatStepIsPassedOver) {
  DeviceAdaptation a(params(), /*smaller_variant_available=*/false);
  a.observe(at(40));
  for (int i = 0; i < 2; ++i) a.observe(at(10));
  ASSERT_EQ(a.step(), AdaptationStep::kShortened);
  a.observe(at(10));
  EXPECT_EQ(a.observe(at(10))->to, AdaptationStep::kCloudPreferred);
  for (int i = 0; i < 2; ++i) a.observe(quiet());
  EXPECT_EQ(a.observe(quiet())->to, AdaptationStep::kShortened);
}

TEST(DeviceAdaptationTest, ASwitchedVariantMovesTheBaselineByTheSpeedRatio) {
  DeviceAdaptation a(params(), true);
  a.observe(at(40));
  a.rescale_baseline(1.5);  // the smaller variant decodes 1.5 x as fast where healthy
  EXPECT_EQ(a.baseline_decode_tps(), 60);
  // Still throttled: 40 tok/s on the smaller variant is 0.67 x its 60; 30 is slow.
  a.observe(at(30));
  EXPECT_EQ(a.observe(at(30))->to, AdaptationStep::kShortened);
  a.rescale_baseline(0);  // ignored
  EXPECT_EQ(a.baseline_decode_tps(), 60);
}

TEST(DeviceAdaptationTest, StepNamesAndLevels) {
  EXPECT_EQ(adaptation_step_name(AdaptationStep::kSmallerVariant), "smaller_variant");
  EXPECT_EQ(adaptation_step_level(AdaptationStep::kCloudPreferred), 3);
}

}  // namespace
}  // namespace tiergate
