// Synthetic llama-architecture GGUF models for tests and benchmarks
// (`tiergate make-test-model`): real tokenizer, deterministic random weights.
// Such a model produces gibberish, but loads, tokenizes and decodes exactly
// like a real one of the same shape, so it can stand in for one anywhere the
// output text does not matter.
#pragma once

#include <cstdint>
#include <string>

#include "tiergate/core/status.h"

namespace tiergate {

struct TestModelParams {
  std::string out_path;    // GGUF file to write (replaced if it exists)
  std::string vocab_path;  // a GGUF with tokenizer.* keys, e.g. a llama.cpp
                           // vocab-only file (models/ggml-vocab-llama-spm.gguf)
  int layers = 2;          // 1..kMaxTestModelLayers
  int embd = 256;          // n_embd, 2..kMaxTestModelEmbd; divisible by heads
                           // with an even head_dim (embd / heads)
  int heads = 4;           // attention heads; head_count_kv == heads
  int ff = 0;              // feed-forward size, 0..kMaxTestModelFf;
                           // 0 = default_test_model_ff(embd)
  int context = 2048;      // llama.context_length, 1..kMaxTestModelContext
  uint64_t seed = 42;      // weights are a pure function of seed and tensor name
  // Norm weights are 1 + norm_spread * g^2 per channel, g roughly standard
  // normal (deterministic from the seed; |g| <= 3.47). 0 gives all-ones norms.
  // Above 0 a few channels carry much larger activations than the rest, as
  // the outlier features of trained models do, which is what activation-aware
  // quantization exploits. 0..100.
  float norm_spread = 0;
  // Type of the 2-D weight matrices; the norm vectors are always F32.
  enum class WeightType { kF32, kF16 } weight_type = WeightType::kF16;
};

inline constexpr int kMaxTestModelLayers = 512;
inline constexpr int kMaxTestModelEmbd = 32768;
inline constexpr int kMaxTestModelFf = 131072;
inline constexpr int kMaxTestModelContext = 1 << 24;

// The defaults above with empty paths.
TestModelParams test_model_default_params();

// The feed-forward size used when params.ff is 0: LLaMA's rule, 8/3 * embd
// rounded up to a multiple of 256 (256 -> 768, 768 -> 2048, 4096 -> 11008).
int default_test_model_ff(int embd);

// Writes a llama-architecture GGUF: tokenizer.* keys copied from vocab_path,
// the llama.* hyperparameters from params, general.architecture "llama",
// general.name "tiergate-synthetic-L<layers>-E<embd>", and the tensors
// token_embd, output_norm, output and per layer attn_norm, attn_q/k/v,
// attn_output, ffn_norm, ffn_gate/up/down (llama.cpp names and shapes).
// Matrix weights are pseudo-random, roughly normal with std 0.02 (bounded by
// +-0.07); norm weights as norm_spread says. The same params give a byte-identical file on
// every platform. Tensor data is generated and streamed one chunk at a time,
// so memory stays small (a few MB plus the tokenizer) for any model size.
//
// The file is written to out_path + ".tmp" and renamed over out_path at the
// end; on any failure the temporary file is removed and out_path is untouched.
// Errors:
//   kNotFound         vocab_path cannot be opened.
//   kInvalidArgument  a dimension out of range, or vocab_path is not a GGUF
//                     or lacks tokenizer.ggml.model / tokenizer.ggml.tokens
//                     (the message names the file and what is missing).
//   kInternal         creating, writing or renaming the output failed (the
//                     message names the path and the errno text).
Status write_test_model(const TestModelParams& params);

}  // namespace tiergate
