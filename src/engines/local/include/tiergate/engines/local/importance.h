// Importance matrices: which input columns of each weight matrix the user's
// own prompts exercise. For every matrix multiplication W·x the model runs on
// the query log, the mean of x_j² over all tokens, per input column j. A
// quantizer given these values spends its precision where the activations are
// large (llama.cpp's quantization API takes them per tensor).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tiergate/core/chat.h"
#include "tiergate/core/status.h"

namespace tiergate {

struct ImportanceMatrix {
  // Weight tensor name ("blk.0.attn_q.weight") -> mean squared activation per
  // input column (ne0 values).
  std::map<std::string, std::vector<float>> columns;
  int64_t tokens = 0;  // tokens the values were averaged over
  int chunks = 0;
};

struct ImportanceParams {
  int context = 512;         // tokens per chunk
  int64_t max_tokens = 8192; // of the query log, at most
  int threads = 0;           // 0 = all hardware threads
  std::function<void(int chunks_done, int chunks_total)> on_progress;  // may be empty
};

// Runs the checkpoint over the conversations (rendered with its chat template)
// and collects the matrix. Errors: those of loading the checkpoint;
// kInvalidArgument when the conversations hold too little text; kInternal
// when decoding fails.
StatusOr<ImportanceMatrix> compute_importance(const std::string& checkpoint,
                                              const std::vector<std::vector<ChatMessage>>& conversations,
                                              const ImportanceParams& params);

// A JSON file {"format": "tiergate-importance", "version": 1, "tokens",
// "chunks", "columns": {name: [..]}}, written atomically, so an interrupted
// build resumes without recomputing it. Errors name the file.
Status save_importance(const std::string& path, const ImportanceMatrix& matrix);
StatusOr<ImportanceMatrix> load_importance(const std::string& path);

}  // namespace tiergate
