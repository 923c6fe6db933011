// The edge tier: a GGUF model run in-process by llama.cpp.
//
// Lifecycle (one-way, driven by start()):
//
//   UNLOADED --start()--> LOADING --ok--> READY
//                            |
//                            +--error--> FAILED   (missing, unreadable or corrupt
//                                                  file; health() says why)
//
// While READY, a circuit breaker over decode failures (params.breaker) may
// make health() report kUnavailable with a retry time: see LocalEngineParams.
//
// The model is memory-mapped. One worker thread owns the llama_context and
// decodes up to `parallel` sequences together (continuous batching): a new
// request joins the running batch as soon as a sequence is free, and waits in
// a bounded queue otherwise. A request whose client goes away is removed from
// the batch at the next step and its KV cache cells are freed.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "tiergate/core/clock.h"
#include "tiergate/engines/circuit_breaker.h"
#include "tiergate/engines/engine.h"

namespace tiergate {

struct LocalEngineParams {
  std::string model_path;
  int context = 4096;  // tokens per sequence: prompt + answer
  int parallel = 4;    // sequences decoded together
  int queue = 64;      // requests waiting for a sequence; more get kResourceExhausted
  int threads = 0;     // 0 = std::thread::hardware_concurrency()
  int batch = 512;     // tokens per llama_decode call (prefill chunk)
  // Health from recent failures (engines/circuit_breaker.h): after
  // breaker.failures requests in a row end in a failed decode (a llama_decode
  // error, out of memory, no KV space), the edge reports itself unavailable
  // and refuses at once for breaker.open_for, so routing sends requests
  // elsewhere; then one request probes it.
  CircuitBreakerOptions breaker{};
  const Clock* clock = nullptr;  // null = the system clock; tests inject one
  // Fault injection for tests, else empty: called on the worker before each
  // llama_decode; a non-zero result is taken as llama_decode's return code
  // and the batch is not decoded.
  std::function<int32_t()> decode_fault{};
};

LocalEngineParams local_engine_default_params();

// Counters for metrics and the scheduler; a consistent snapshot.
struct LocalEngineStats {
  int slots_total = 0;
  int slots_busy = 0;
  int queue_depth = 0;
  int64_t prompt_tokens = 0;      // since start
  int64_t generated_tokens = 0;   // since start
  int64_t cancelled_requests = 0; // client went away mid-generation
};

class LocalEngine final : public Engine {
 public:
  explicit LocalEngine(LocalEngineParams params);
  ~LocalEngine() override;  // stops the worker; in-flight requests get kUnavailable
  LocalEngine(const LocalEngine&) = delete;
  LocalEngine& operator=(const LocalEngine&) = delete;

  // Loads the model on the worker thread and returns at once. Call once.
  void start();
  // Blocks until the engine left LOADING; returns the load result.
  Status wait_until_loaded();

  // Engine. Errors in addition to the interface's: kUnavailable when the model
  // is not loaded (yet or at all); kInvalidArgument when prompt plus max_tokens
  // do not fit in the context ("context_length_exceeded" in the message).
  StatusOr<Completion> generate(const ChatRequest& request, const std::string& model,
                                TokenSink& sink) override;
  TierHealth health() const override;
  // queue_depth and slots_busy from stats().
  TierLoad load() const override;

  LocalEngineStats stats() const;
  // File name of the model without directories, as shown in /v1/models.
  const std::string& model_id() const;
  int context_per_sequence() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace tiergate
