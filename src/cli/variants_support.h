// What `tiergate variants build` and `variants eval` share: the query log,
// progress lines, and running one of Tiergate's own commands in a child.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "tiergate/core/chat.h"
#include "tiergate/core/status.h"

namespace tiergate::cli {

// A query log: JSONL of chat requests ({"messages": [...]}, as sent to
// /v1/chat/completions) or rows with "prompt". Errors name the file and line.
StatusOr<std::vector<std::vector<ChatMessage>>> load_query_log(const std::string& path);

// One progress line on stderr per task: "[q4_k_m] 37/75 tensors  2.1 s  ETA 2.2 s".
// On a terminal it is redrawn in place; otherwise a line is printed at each
// tenth of the work, so logs stay short.
class ProgressLine {
 public:
  ProgressLine(std::string task, std::string unit);
  void update(int64_t done, int64_t total);
  // Ends the line with "done in X s" (or the given note).
  void finish(const std::string& note = "");
  double elapsed_seconds() const;

 private:
  std::string task_;
  std::string unit_;
  std::chrono::steady_clock::time_point start_;
  bool terminal_;
  int last_tenth_ = -1;
  bool drawn_ = false;
};

// A file name for a tier: lower-case letters, digits, '_', '-' and '.' only
// ("q4_k_m+attn=q8_0" -> "q4_k_m-attn_q8_0").
std::string tier_file_stem(const std::string& tier);

// Runs this executable (/proc/self/exe) with `args`; returns its stdout when
// it exits with 0, else kInternal with its exit status and stderr's tail.
StatusOr<std::string> run_self(const std::vector<std::string>& args);

}  // namespace tiergate::cli
