#include "tiergate/engines/circuit_breaker.h"

#include <gtest/gtest.h>

namespace tiergate {
namespace {

using std::chrono::seconds;
using Admission = CircuitBreaker::Admission;

const SteadyTime kStart = SteadyTime(std::chrono::hours(1));

CircuitBreaker breaker() { return CircuitBreaker({.failures = 3, .open_for = seconds(5), .max_open_for = seconds(12)}); }

// Fails `n` calls admitted at `t`.
void fail(CircuitBreaker& b, SteadyTime t, int n) {
  for (int i = 0; i < n; ++i) b.record_failure(t, "upstream 'a': HTTP 502", b.admit(t));
}

TEST(CircuitBreakerTest, OpensAfterConsecutiveFailuresOnly) {
  CircuitBreaker b = breaker();
  fail(b, kStart, 2);
  b.record_success(b.admit(kStart));  // a success resets the count
  fail(b, kStart, 2);
  EXPECT_EQ(b.state(kStart), CircuitState::kClosed);
  EXPECT_EQ(b.admit(kStart), Admission::kAllowed);
  EXPECT_FALSE(b.retry_at().has_value());
  fail(b, kStart, 1);
  EXPECT_EQ(b.state(kStart), CircuitState::kOpen);
  EXPECT_EQ(b.consecutive_failures(), 3);
  EXPECT_EQ(b.last_error(), "upstream 'a': HTTP 502");
  EXPECT_EQ(b.retry_at(), kStart + seconds(5));
}

TEST(CircuitBreakerTest, RejectsWhileOpenThenLetsOneProbeThrough) {
  CircuitBreaker b = breaker();
  fail(b, kStart, 3);
  EXPECT_EQ(b.admit(kStart + seconds(4)), Admission::kRejected);
  EXPECT_FALSE(b.would_admit(kStart + seconds(4)));
  const SteadyTime later = kStart + seconds(5);
  EXPECT_EQ(b.state(later), CircuitState::kHalfOpen);
  EXPECT_TRUE(b.would_admit(later));
  EXPECT_EQ(b.admit(later), Admission::kProbe);
  // The probe is out: everyone else still fails fast.
  EXPECT_FALSE(b.would_admit(later));
  EXPECT_EQ(b.admit(later), Admission::kRejected);
  b.record_success(Admission::kProbe);
  EXPECT_EQ(b.state(later), CircuitState::kClosed);
  EXPECT_EQ(b.consecutive_failures(), 0);
  EXPECT_EQ(b.admit(later), Admission::kAllowed);
}

TEST(CircuitBreakerTest, FailedProbesDoubleTheCoolDownUpToTheMaximum) {
  CircuitBreaker b = breaker();
  fail(b, kStart, 3);
  SteadyTime t = kStart + seconds(5);
  ASSERT_EQ(b.admit(t), Admission::kProbe);
  b.record_failure(t, "timeout", Admission::kProbe);
  EXPECT_EQ(b.retry_at(), t + seconds(10));
  EXPECT_EQ(b.admit(t + seconds(9)), Admission::kRejected);
  t += seconds(10);
  ASSERT_EQ(b.admit(t), Admission::kProbe);
  b.record_failure(t, "timeout", Admission::kProbe);
  EXPECT_EQ(b.retry_at(), t + seconds(12));  // 20 s capped at 12
  EXPECT_EQ(b.last_error(), "timeout");
  // Recovery starts the next outage from the first cool-down again.
  t += seconds(12);
  ASSERT_EQ(b.admit(t), Admission::kProbe);
  b.record_success(Admission::kProbe);
  fail(b, t, 3);
  EXPECT_EQ(b.retry_at(), t + seconds(5));
}

TEST(CircuitBreakerTest, AProbeThatSaysNothingFreesTheSlot) {
  CircuitBreaker b = breaker();
  fail(b, kStart, 3);
  const SteadyTime t = kStart + seconds(6);
  ASSERT_EQ(b.admit(t), Admission::kProbe);
  b.record_neither(Admission::kProbe);  // the client went away
  EXPECT_EQ(b.state(t), CircuitState::kHalfOpen);
  EXPECT_EQ(b.admit(t), Admission::kProbe);
}

TEST(CircuitBreakerTest, LateFailuresOfCallsAdmittedBeforeTheOpeningOnlyCount) {
  CircuitBreaker b = breaker();
  std::vector<Admission> in_flight;
  for (int i = 0; i < 5; ++i) in_flight.push_back(b.admit(kStart));
  for (Admission a : in_flight) b.record_failure(kStart + seconds(1), "refused", a);
  EXPECT_EQ(b.consecutive_failures(), 5);
  EXPECT_EQ(b.retry_at(), kStart + seconds(6));  // opened by the third, not pushed back by the later two
}

TEST(CircuitBreakerTest, StateNames) {
  EXPECT_EQ(circuit_state_name(CircuitState::kClosed), "closed");
  EXPECT_EQ(circuit_state_name(CircuitState::kOpen), "open");
  EXPECT_EQ(circuit_state_name(CircuitState::kHalfOpen), "half_open");
}

}  // namespace
}  // namespace tiergate
