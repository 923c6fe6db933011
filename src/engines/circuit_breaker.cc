#include "tiergate/engines/circuit_breaker.h"

#include <algorithm>

namespace tiergate {

CircuitBreakerOptions circuit_breaker_options(const BreakerConfig& config) {
  return {config.failures, std::chrono::milliseconds(config.open_ms), std::chrono::milliseconds(config.max_open_ms)};
}

std::string_view circuit_state_name(CircuitState state) {
  switch (state) {
    case CircuitState::kClosed:
      return "closed";
    case CircuitState::kOpen:
      return "open";
    case CircuitState::kHalfOpen:
      return "half_open";
  }
  return "closed";
}

CircuitBreaker::CircuitBreaker(CircuitBreakerOptions options)
    : options_(options), cool_down_(options.open_for) {
  options_.failures = std::max(options_.failures, 1);
  options_.max_open_for = std::max(options_.max_open_for, options_.open_for);
}

CircuitBreaker::Admission CircuitBreaker::admit(SteadyTime now) {
  switch (state(now)) {
    case CircuitState::kClosed:
      return Admission::kAllowed;
    case CircuitState::kOpen:
      return Admission::kRejected;
    case CircuitState::kHalfOpen:
      if (probe_out_) return Admission::kRejected;
      probe_out_ = true;
      return Admission::kProbe;
  }
  return Admission::kRejected;
}

void CircuitBreaker::record_success(Admission) {
  open_ = false;
  probe_out_ = false;
  consecutive_failures_ = 0;
  cool_down_ = options_.open_for;
}

void CircuitBreaker::record_failure(SteadyTime now, std::string error, Admission admission) {
  last_error_ = std::move(error);
  ++consecutive_failures_;
  if (admission == Admission::kProbe) {
    // Open again, the next cool-down twice as long.
    probe_out_ = false;
    cool_down_ = std::min(options_.max_open_for, cool_down_ * 2);
    open(now);
    return;
  }
  // A call admitted before the circuit opened only counts.
  if (!open_ && consecutive_failures_ >= options_.failures) open(now);
}

void CircuitBreaker::record_neither(Admission admission) {
  if (admission == Admission::kProbe) probe_out_ = false;
}

CircuitState CircuitBreaker::state(SteadyTime now) const {
  if (!open_) return CircuitState::kClosed;
  return now < open_until_ ? CircuitState::kOpen : CircuitState::kHalfOpen;
}

bool CircuitBreaker::would_admit(SteadyTime now) const {
  const CircuitState s = state(now);
  return s == CircuitState::kClosed || (s == CircuitState::kHalfOpen && !probe_out_);
}

std::optional<SteadyTime> CircuitBreaker::retry_at() const {
  if (!open_) return std::nullopt;
  return open_until_;
}

void CircuitBreaker::open(SteadyTime now) {
  open_ = true;
  open_until_ = now + cool_down_;
}

}  // namespace tiergate
