// A clock that moves only when a test says so (hermetic tests of cool-downs
// and other waits measured on an injected Clock). Thread-safe.
#pragma once

#include <atomic>
#include <chrono>

#include "tiergate/core/clock.h"

namespace tiergate::testing {

class ManualClock final : public Clock {
 public:
  SteadyTime now() const override { return SteadyTime(Duration(ticks_.load())); }
  int64_t unix_seconds() const override {
    return kUnixStart + std::chrono::duration_cast<std::chrono::seconds>(Duration(ticks_.load())).count();
  }
  void advance(Duration d) { ticks_ += d.count(); }

 private:
  static constexpr int64_t kUnixStart = 1'800'000'000;
  // Starts well after the epoch of steady_clock, so "now - x" stays valid.
  std::atomic<Duration::rep> ticks_{std::chrono::duration_cast<Duration>(std::chrono::hours(1)).count()};
};

}  // namespace tiergate::testing
