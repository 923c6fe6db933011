// What the scheduler knows of the tiers at the moment of one decision: a
// snapshot the caller (the gateway, or a test table) builds and passes in.
// Pure data; the router never measures anything itself and never reads a clock
// (`now` is part of the snapshot).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "tiergate/core/clock.h"

namespace tiergate {

struct UpstreamState {
  bool healthy = true;                        // false: recent calls failed (circuit open)
  std::optional<double> ewma_latency_s;       // whole-request latency, exponentially weighted
  std::optional<double> p95_latency_s;        // over a recent window
  std::optional<int64_t> remaining_requests;  // x-ratelimit-remaining-requests, last seen
  std::optional<int64_t> remaining_tokens;    // x-ratelimit-remaining-tokens, last seen
  std::optional<SteadyTime> rate_limited_until;  // from a 429's Retry-After
};

struct EdgeState {
  bool configured = false;
  bool ready = false;
  std::string model_id;       // file name of the edge model (also a model name)
  int queue_depth = 0;        // requests waiting for a free sequence
  int queue_capacity = 0;     // edge.queue: more waiting requests are refused
  int slots_busy = 0;         // sequences generating now
  int parallel = 1;           // sequences decoded together (edge.parallel)
  std::optional<double> decode_tokens_per_s;  // per sequence, measured
  // Run-time adaptation (fleet/device_adaptation.h): the device is slow or
  // short of memory. max_new_tokens caps an edge answer and max_prompt_tokens
  // sends longer prompts of "auto" requests to the cloud (the shortened
  // step); prefer_cloud sends "auto" requests to the cloud when one is
  // eligible (the cloud_preferred step).
  std::optional<int> max_new_tokens{};
  std::optional<int64_t> max_prompt_tokens{};
  bool prefer_cloud = false;
};

struct BudgetState {
  double spent_today_usd = 0;       // this request's API key, this UTC day
  std::optional<double> limit_usd;  // RoutingConfig::budget_for the key; nullopt = none
  bool exhausted() const { return limit_usd && spent_today_usd >= *limit_usd; }
};

struct SchedulerState {
  SteadyTime now{};
  EdgeState edge;
  // Upstream name -> state; a configured upstream that is missing here counts
  // as healthy with nothing known.
  std::map<std::string, UpstreamState> upstreams;
  BudgetState budget;
};

// The edge cannot take another request without refusing it: every sequence
// is busy and the waiting queue is at capacity.
inline bool edge_queue_full(const EdgeState& edge) {
  return edge.slots_busy >= edge.parallel && edge.queue_depth >= edge.queue_capacity;
}

}  // namespace tiergate
