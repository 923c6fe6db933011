// A circuit breaker for one tier (issue 5, graceful degradation): a cloud
// upstream (CloudEngine) or the edge model (LocalEngine). After consecutive
// failures it stops sending requests to the tier, so that callers fail fast
// and fall back instead of waiting on timeouts or repeating a failing decode,
// and after a cool-down it lets one request through as a probe.
//
//              `failures` consecutive failures
//   kClosed ───────────────────────────────────▶ kOpen
//      ▲                                          │ the cool-down elapses
//      │ the probe succeeded                      ▼    (seen by admit/state)
//      └──────────────────────────────────── kHalfOpen
//                                                 │ the probe failed: kOpen
//                                                 ▼ again, cool-down doubled
//                                               kOpen   (up to max_open_for)
//
// Only failures that say the upstream cannot serve count (no connection, 5xx,
// a broken stream, a timeout); an answer of any kind (4xx, 429 included)
// means it is up. A call that ends without saying either (the client left)
// counts as neither and frees the probe slot.
//
// Pure: time comes in as an argument. Not thread-safe; each engine guards it
// with its own mutex.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "tiergate/config/config.h"
#include "tiergate/core/clock.h"

namespace tiergate {

struct CircuitBreakerOptions {
  int failures = 3;                                    // consecutive failures that open the circuit
  Duration open_for = std::chrono::seconds(5);         // first cool-down
  Duration max_open_for = std::chrono::seconds(60);    // the doubling stops here
};

// From a tier's circuit_breaker: config block.
CircuitBreakerOptions circuit_breaker_options(const BreakerConfig& config);

enum class CircuitState { kClosed, kOpen, kHalfOpen };

std::string_view circuit_state_name(CircuitState state);  // "closed", "open", "half_open"

class CircuitBreaker {
 public:
  explicit CircuitBreaker(CircuitBreakerOptions options = {});

  enum class Admission {
    kAllowed,   // closed: send
    kProbe,     // half-open: send; this call is the probe, report its outcome
    kRejected,  // open, or half-open with the probe still out: do not send
  };
  // Whether a call may go to the upstream now. Each admitted call reports
  // its outcome with its admission: record_success, record_failure or
  // record_neither (a kProbe admission holds the probe slot until then).
  Admission admit(SteadyTime now);

  // Any success closes the circuit: the upstream answers.
  void record_success(Admission admission);
  // `error` says what went wrong, for operators (no prompt text). Opens the
  // circuit at the threshold; a failed probe opens it again.
  void record_failure(SteadyTime now, std::string error, Admission admission);
  // The call ended without telling whether the upstream is up.
  void record_neither(Admission admission);

  // kOpen turns kHalfOpen once the cool-down has elapsed.
  CircuitState state(SteadyTime now) const;
  // Whether a call made now would be admitted (closed, or half-open with no
  // probe out): the scheduler treats the upstream as healthy.
  bool would_admit(SteadyTime now) const;
  // When a rejected caller may try again: the end of the cool-down (nullopt
  // when closed).
  std::optional<SteadyTime> retry_at() const;
  int consecutive_failures() const { return consecutive_failures_; }
  const std::string& last_error() const { return last_error_; }
  Duration cool_down() const { return cool_down_; }

 private:
  void open(SteadyTime now);

  CircuitBreakerOptions options_;
  bool open_ = false;  // kOpen or kHalfOpen, told apart by the time
  bool probe_out_ = false;
  SteadyTime open_until_{};
  Duration cool_down_;
  int consecutive_failures_ = 0;
  std::string last_error_;
};

}  // namespace tiergate
