// Readers of the JSONL datasets the routing commands take (formats in
// docs/routing.md). Every error names the file and line; nothing throws.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tiergate/core/chat.h"
#include "tiergate/core/status.h"

namespace tiergate {

// A routing outcome row: {"id", "source", "category"?, "messages" | "prompt",
// "edge": {"score", "cost_usd"?}, "cloud": {"score", "cost_usd"?}}.
struct RoutingRow {
  std::string id;
  std::string source;    // e.g. "mmlu/anatomy"; may be empty
  std::string category;  // may be empty
  std::vector<ChatMessage> messages;
  double edge_score = 0;
  double cloud_score = 0;
  // The edge model's embedding of the request (engines/local
  // PromptEmbedder), filled by the caller when an edge model is given; empty
  // otherwise. Not part of the file format.
  std::vector<float> embedding;
};

// A prompt row: {"id"?, "prompt" | "messages", "category"?, "source"?}.
// Rows without an id get "line-N".
struct PromptRow {
  std::string id;
  std::string source;
  std::string category;
  std::vector<ChatMessage> messages;
};

StatusOr<std::vector<RoutingRow>> load_routing_rows(const std::string& path);
StatusOr<std::vector<PromptRow>> load_prompt_rows(const std::string& path);

// The benchmark a row belongs to: `source` up to its first '/', else the file's
// stem (for reports per benchmark).
std::string benchmark_of(const std::string& source);

}  // namespace tiergate
