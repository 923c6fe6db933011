// Prefill and decode speed of a GGUF model on this machine, as the edge
// engine runs it (CPU, persistent thread pool).
#pragma once

#include <cstdint>
#include <string>

#include "tiergate/core/status.h"

namespace tiergate {

struct SpeedParams {
  int prompt_tokens = 128;  // one prefill batch of this many tokens
  int decode_tokens = 64;   // then this many tokens one at a time (greedy)
  int threads = 0;          // 0 = all hardware threads
  int repetitions = 3;      // timed rounds; each figure is its best round
};

struct SpeedReport {
  double load_seconds = 0;
  double prefill_tps = 0;  // prompt tokens per second
  double decode_tps = 0;   // generated tokens per second
  int prompt_tokens = 0;
  int decode_tokens = 0;
};

// One warm-up prefill (it also pages in the memory-mapped weights), then
// `repetitions` rounds of a timed prefill and decode; the best round of each
// counts, since on a shared machine a slow round measures the neighbours. The prompt is a fixed English text, repeated to
// the length asked. Errors: those of loading the model; kInvalidArgument for
// token counts below 1 or above 4096 or repetitions outside 1..100; kInternal when decoding fails.
StatusOr<SpeedReport> measure_speed(const std::string& model_path, const SpeedParams& params);

}  // namespace tiergate
