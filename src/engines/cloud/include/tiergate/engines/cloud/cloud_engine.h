// The cloud tier: an OpenAI-compatible upstream (OpenAI, vLLM, llama-server,
// ...) reached over HTTP(S) with libcurl. Answers are always streamed from
// the upstream so that text reaches the client token by token.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "tiergate/config/config.h"
#include "tiergate/core/clock.h"
#include "tiergate/engines/circuit_breaker.h"
#include "tiergate/engines/engine.h"

namespace tiergate {

namespace cloud_detail {
class CurlHandlePool;
}  // namespace cloud_detail

// The rate-limit headers of the latest upstream response that carried any.
struct RateLimitSnapshot {
  std::optional<int64_t> remaining_requests;  // x-ratelimit-remaining-requests
  std::optional<int64_t> remaining_tokens;    // x-ratelimit-remaining-tokens
  std::optional<SteadyTime> observed_at;      // by CloudEngineOptions::clock; nullopt = never seen
};

struct CloudEngineOptions {
  // Stamps RateLimitSnapshot::observed_at and runs the circuit breaker's
  // cool-down. nullptr = the system clock; else it must outlive the engine.
  // Transfer deadlines and retry waits always run on real time (libcurl's
  // timeouts do too).
  const Clock* clock = nullptr;
  // Longest Retry-After honoured; a longer one ends the retries.
  int max_retry_after_s = 30;
  // Seed of the backoff jitter; 0 = random.
  uint64_t jitter_seed = 0;
  // Largest response body accepted.
  int64_t max_response_bytes = int64_t{64} << 20;
};

// Thread-safe: generate(), list_models(), health() and last_rate_limits() may
// be called from many threads at once; each call uses its own libcurl handle.
class CloudEngine final : public Engine {
 public:
  // api_key is the resolved value of config.api_key_env; empty = no
  // Authorization header. Initialises libcurl once per process.
  CloudEngine(const UpstreamConfig& config, std::string api_key, CloudEngineOptions options = {});
  ~CloudEngine() override;
  CloudEngine(const CloudEngine&) = delete;
  CloudEngine& operator=(const CloudEngine&) = delete;

  // POST {base_url}/chat/completions with model (empty = config.models[0]).
  // Deltas reach sink as they arrive. Retries connection errors, 5xx and 429
  // up to max_retries times while nothing was passed to sink yet, waiting a
  // jittered exponential backoff or the upstream's Retry-After. A call that
  // ends in kUnavailable or kDeadlineExceeded counts as a failure of the
  // upstream for its circuit breaker (config circuit_breaker); while the
  // circuit is open, calls fail at once with kUnavailable, without touching
  // the network, naming the failures and when the upstream is tried again.
  // Errors: kUnavailable (cannot connect, 5xx, broken stream, or any failure after a
  // delta was sent), kDeadlineExceeded (first_byte_timeout_ms or
  // request_timeout_ms), kResourceExhausted (429), kInvalidArgument (400/422,
  // with the upstream's message), kFailedPrecondition (401/403, bad base_url),
  // kNotFound (404), kCancelled (sink.cancelled() or on_delta() == false).
  // Messages name the upstream and never quote the prompt.
  StatusOr<Completion> generate(const ChatRequest& request, const std::string& model,
                                TokenSink& sink) override;

  // kReady while the circuit breaker admits calls (closed, or half-open with
  // no probe out); else kUnavailable, with the failures and the last error
  // in detail and the end of the cool-down in retry_at.
  TierHealth health() const override;
  CircuitState circuit_state() const;

  // GET {base_url}/models: the model ids the upstream serves, for readiness
  // checks. No retries; the configured timeouts apply; errors map as in
  // generate(). Does not change health().
  StatusOr<std::vector<std::string>> list_models();

  RateLimitSnapshot last_rate_limits() const;
  // The rate-limit snapshot, and until when the upstream asked to be left
  // alone (the latest 429's Retry-After, stamped by CloudEngineOptions::clock).
  TierLoad load() const override;

  const UpstreamConfig& config() const { return config_; }
  // base_url without trailing '/' + "/chat/completions".
  const std::string& chat_url() const { return chat_url_; }

 private:
  struct AttemptOutcome;
  class StreamConsumer;

  AttemptOutcome attempt(const std::string& body, const ChatRequest& request,
                         const std::string& model, TokenSink& sink);
  std::vector<std::string> request_headers(bool streaming) const;
  void record_rate_limits(const std::optional<int64_t>& requests,
                          const std::optional<int64_t>& tokens);
  void record_retry_after(int64_t seconds);
  void record_result(const Status& status, CircuitBreaker::Admission admission);
  SteadyTime now() const;
  std::chrono::milliseconds backoff(int retry);
  std::string prefix() const;  // "upstream 'name' (base_url)"

  const UpstreamConfig config_;
  const std::string api_key_;
  const CloudEngineOptions options_;
  const std::string base_url_;  // without trailing '/'
  const std::string chat_url_;
  std::unique_ptr<cloud_detail::CurlHandlePool> pool_;

  mutable std::mutex mutex_;  // guards everything below
  RateLimitSnapshot rate_limits_;
  std::optional<SteadyTime> rate_limited_until_;
  CircuitBreaker breaker_;
  std::mt19937_64 jitter_;
};

}  // namespace tiergate
