// Time as an injected dependency, so tests control it and pure code (router)
// receives it as an argument instead of reading it.
#pragma once

#include <chrono>

namespace tiergate {

using SteadyTime = std::chrono::steady_clock::time_point;
using Duration = std::chrono::steady_clock::duration;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual SteadyTime now() const = 0;
  // Wall-clock seconds since the Unix epoch, for API "created" fields.
  virtual int64_t unix_seconds() const = 0;
};

class SystemClock final : public Clock {
 public:
  SteadyTime now() const override { return std::chrono::steady_clock::now(); }
  int64_t unix_seconds() const override {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};

inline double seconds_between(SteadyTime a, SteadyTime b) {
  return std::chrono::duration<double>(b - a).count();
}

}  // namespace tiergate
