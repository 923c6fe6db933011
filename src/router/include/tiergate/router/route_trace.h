// The scheduler's account of one decision: each stage's output, the threshold
// and its adjustments, the rule or constraint that decided, and the expected
// cost of each tier. Metadata only: never prompt text, never an API key.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tiergate {

// One tier as the scheduler weighed it.
struct TierEstimate {
  std::string tier;                         // "edge" or an upstream name
  double expected_cost_usd = 0;             // price at prompt + expected output tokens
  std::optional<double> expected_latency_s;  // nullopt: not known yet
  bool eligible = true;
  std::string note;                         // why not eligible, or "near_rate_limit"; "" otherwise
};

struct RouteTrace {
  std::string model;           // the request's model field
  std::string decided_by;      // "rule:<name>", "budget", "quality_dial", "complexity", "placeholder", ...
  // Signals (learned only when `learned`).
  bool learned = false;
  std::string intent;          // intent_name()
  double intent_confidence = 0;
  bool intent_from_cue = false;
  double complexity_global = 0, complexity_experts = 0, complexity_topics = 0;
  double complexity_embedding = 0;  // the edge-model embedding part (0 without one)
  double familiarity = 1;      // 1: like a training benchmark; 0: scored by length (complexity.h)
  double score = 0;            // complexity.gain, the cloud score
  int64_t prompt_tokens = 0;
  int64_t expected_output_tokens = 0;
  // The threshold: tau from config or the quality dial, then the adjustments.
  double quality = 0;
  std::string quality_source;  // "header", "config", or "" when unused
  std::string threshold_source;  // "config", "quality", "uncalibrated", or "" when unused
  std::optional<double> threshold;            // tau
  double price_adjustment = 0;
  double latency_adjustment = 0;
  std::optional<double> effective_threshold;  // tau + adjustments
  std::vector<TierEstimate> tiers;            // edge first, then upstreams in config order
  std::vector<std::string> constraints;       // e.g. "budget_exhausted", "edge_queue_full", in the order met
};

}  // namespace tiergate
