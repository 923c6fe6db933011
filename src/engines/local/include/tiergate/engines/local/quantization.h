// Quantized variants of a GGUF checkpoint, made in-process through
// llama.cpp's quantization API (docs/compression.md).
//
// A recipe is a tier name in this grammar:
//
//   RECIPE := BASE ( "+" GROUP "=" TYPE )*
//   BASE   := q8_0 | q6_k | q5_k_m | q5_k_s | q5_1 | q5_0 | q4_k_m | q4_k_s | q4_1 |
//             q4_0 | q3_k_l | q3_k_m | q3_k_s | q2_k | iq4_xs | iq4_nl | bf16 | f16
//   GROUP  := embd | output | attn | attn_q | attn_k | attn_v | attn_output |
//             ffn | ffn_gate | ffn_up | ffn_down
//   TYPE   := a ggml tensor type: q8_0, q6_k, q5_k, q4_k, q3_k, q2_k, q5_0, q4_0,
//             iq4_xs, f16, bf16, ...
//
// BASE is llama.cpp's file type with its own per-tensor mixture (q4_k_m keeps
// some tensors at q6_k); each GROUP=TYPE pins a group of tensors, e.g.
// `q4_k_m+attn=q8_0` keeps every attention matrix at 8 bits. Named recipes
// are shorthands for such strings (named_recipes()). A budget search
// (mixed_precision.h) yields a recipe with one type per tensor.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tiergate/core/status.h"
#include "tiergate/engines/local/importance.h"

namespace tiergate {

struct QuantizationRecipe {
  std::string name;   // the tier as given, or e.g. "budget-61MiB"
  std::string ftype;  // BASE, lower case
  // Overrides of the base mixture: a GROUP or an exact tensor name
  // ("blk.0.attn_q.weight") -> a ggml type name, lower case.
  std::map<std::string, std::string> tensor_types;
};

// Parses a tier: a named recipe or the grammar above. Errors
// (kInvalidArgument) name the unknown part and list what is known.
StatusOr<QuantizationRecipe> parse_recipe(std::string_view tier);

// The BASE names, and the named recipes with what they stand for.
std::vector<std::string> known_base_types();
std::vector<std::pair<std::string, std::string>> named_recipes();

// True when a recipe's types need an importance matrix (iq types below 4 bits).
bool recipe_requires_importance(const QuantizationRecipe& recipe);

// Bits per weight of a ggml type name ("q4_k" -> 4.5), 0 when unknown.
double type_bits_per_weight(std::string_view type);

// What a checkpoint is, from its GGUF metadata (no tensor data is read).
struct CheckpointInfo {
  std::string name;          // general.name, or the file's stem when absent
  std::string architecture;  // general.architecture
  int64_t parameters = 0;    // elements of all tensors
  int layers = 0;            // <arch>.block_count
  int embd = 0;              // <arch>.embedding_length
  int heads = 0;             // <arch>.attention.head_count
  int heads_kv = 0;          // <arch>.attention.head_count_kv (= heads when absent)
  std::string weight_type;   // type of the first weight matrix, e.g. "f16"

  // Bytes of an f16 KV cache holding `tokens` tokens.
  int64_t kv_cache_bytes(int tokens) const;
};

// Errors: those of check_gguf_file; kInvalidArgument when the GGUF header or
// metadata cannot be read (truncated or corrupt).
StatusOr<CheckpointInfo> read_checkpoint_info(const std::string& path);

struct QuantizeProgress {
  int tensors_done = 0;
  int tensors_total = 0;
  std::string tensor;  // the tensor being written
};

struct QuantizeParams {
  int threads = 0;                            // 0 = all hardware threads
  const ImportanceMatrix* importance = nullptr;  // activation-aware when set
  std::function<void(const QuantizeProgress&)> on_progress;  // may be empty
};

// Writes `output` from `checkpoint` by `recipe`. The file is written to
// output + ".tmp" and renamed at the end; on any failure the temporary file
// is removed and `output` is untouched. Not to be run concurrently with
// another quantization in the same process (llama.cpp's log is redirected to
// follow progress).
// Errors:
//   kNotFound / kInvalidArgument  the checkpoint is missing, not a GGUF, or
//                                 llama.cpp cannot read it (the message says so)
//   kFailedPrecondition  the recipe needs an importance matrix and none is given
//   kResourceExhausted   writing failed for lack of space (the message names
//                        the path)
//   kInternal            llama.cpp failed otherwise (its error text included)
Status quantize_checkpoint(const std::string& checkpoint, const std::string& output, const QuantizationRecipe& recipe,
                           const QuantizeParams& params);

}  // namespace tiergate
