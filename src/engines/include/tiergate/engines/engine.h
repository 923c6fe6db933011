// The interface every tier implements: the in-process edge model
// (engines/local) and each OpenAI-compatible cloud upstream (engines/cloud).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "tiergate/core/chat.h"
#include "tiergate/core/clock.h"
#include "tiergate/core/status.h"

namespace tiergate {

// Receives an answer as it is generated. Implemented by the server for each
// request; called only from the thread that called Engine::generate.
class TokenSink {
 public:
  virtual ~TokenSink() = default;
  // Called for each piece of text in order. Returns false when the client is
  // gone: the engine stops generating and returns kCancelled.
  virtual bool on_delta(const Delta& delta) = 0;
  // Polled while generating, also when no text is produced (prefill, a quiet
  // upstream). True means the client is gone.
  virtual bool cancelled() = 0;
  // Called by a tier that sends the request off the device, with the exact
  // request body, before each send (retries included), for the egress audit.
  virtual void on_request_sent(std::string_view body) { (void)body; }
};

// Health of a tier, for /readyz and routing around a tier that cannot serve.
enum class TierState { kReady, kLoading, kUnavailable };

std::string_view tier_state_name(TierState state);

struct TierHealth {
  TierHealth() = default;
  TierHealth(TierState s, std::string why, std::optional<SteadyTime> retry = std::nullopt)
      : state(s), detail(std::move(why)), retry_at(retry) {}

  TierState state = TierState::kUnavailable;
  std::string detail;  // why it is not ready, for operators
  // When an unavailable tier will be tried again (a cloud upstream's circuit
  // breaker), on the engine's clock; nullopt = not known. For Retry-After.
  std::optional<SteadyTime> retry_at;
};

// How loaded a tier is now, for the scheduler (router/scheduler_state.h).
// Fields a tier does not track keep their defaults.
struct TierLoad {
  int queue_depth = 0;  // requests waiting for a free sequence (edge)
  int slots_busy = 0;   // sequences generating now (edge)
  std::optional<int64_t> remaining_requests;     // last x-ratelimit-remaining-requests (cloud)
  std::optional<int64_t> remaining_tokens;       // last x-ratelimit-remaining-tokens (cloud)
  std::optional<SteadyTime> rate_limited_until;  // a 429's Retry-After, on the engine's clock (cloud)
};

class Engine {
 public:
  virtual ~Engine() = default;

  // Generates an answer to request with the given model (the tier's own model
  // id; engines serving one model ignore it). Thread-safe: many requests may
  // call it at once. On success every delta has been passed to sink and the
  // Completion holds the whole answer. Errors: kInvalidArgument (the request
  // cannot be served by this tier, e.g. context overflow: never retried),
  // kUnavailable / kDeadlineExceeded (the tier failed; may fall back when
  // nothing was sent yet, see Completion-less return), kResourceExhausted
  // (queue full), kCancelled (the sink reported the client gone).
  virtual StatusOr<Completion> generate(const ChatRequest& request, const std::string& model,
                                        TokenSink& sink) = 0;

  virtual TierHealth health() const = 0;

  // A consistent snapshot; thread-safe, does not block on generation. The
  // default is a tier that tracks nothing.
  virtual TierLoad load() const { return {}; }
};

}  // namespace tiergate
