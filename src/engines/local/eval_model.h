// A model loaded to be measured rather than served: importance matrices,
// fidelity and speed, and the router's embeddings of requests. One sequence,
// a context of `context` tokens, decoded a chunk at a time with logits (or
// embeddings) for every position. Internal to engines/local.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "llama.h"
#include "llama_runtime.h"
#include "tiergate/core/chat.h"
#include "tiergate/core/status.h"

namespace tiergate {

struct EvalModelParams {
  int context = 512;  // tokens per chunk; also the batch size
  int threads = 0;    // 0 = all hardware threads
  // Called by ggml for every graph node (importance matrices); may be null.
  ggml_backend_sched_eval_callback observer = nullptr;
  void* observer_data = nullptr;
  // Mean-pooled sequence embeddings instead of logits (PromptEmbedder), with
  // flash attention off: on the CPU it took 2.8 times as long for one short
  // sequence (stories260K, 256 tokens: 70 ms against 25 ms).
  bool embeddings = false;
};

// Not thread-safe; one user at a time.
class EvalModel {
 public:
  // Errors: those of check_gguf_file (`what` names the file in them);
  // kInvalidArgument when llama.cpp cannot load it; kResourceExhausted when
  // the context cannot be created.
  static StatusOr<std::unique_ptr<EvalModel>> open(const std::string& path, std::string_view what,
                                                   const EvalModelParams& params);
  ~EvalModel();
  EvalModel(const EvalModel&) = delete;
  EvalModel& operator=(const EvalModel&) = delete;

  const llama_model* model() const { return model_; }
  const llama_vocab* vocab() const { return vocab_; }
  int n_vocab() const { return n_vocab_; }
  int context() const { return context_; }

  // Decodes `tokens` (at most context()) as a fresh sequence; with
  // all_logits, logits(i) holds the next-token logits after tokens[i], else
  // only after the last. Errors: kInvalidArgument (too many tokens),
  // kInternal (llama_decode failed).
  Status decode_fresh(std::span<const llama_token> tokens, bool all_logits);
  // Decodes one more token after the previous decode (generation).
  Status decode_next(llama_token token);
  // n_vocab() logits; valid until the next decode.
  const float* logits(int i) const;
  const float* last_logits() const;
  // With params.embeddings: the decoded sequence's mean-pooled embedding,
  // n_embd() values (null when llama.cpp has none); valid until the next decode.
  const float* sequence_embedding() const;
  int n_embd() const;

 private:
  EvalModel() = default;
  llama_model* model_ = nullptr;
  llama_context* ctx_ = nullptr;
  const llama_vocab* vocab_ = nullptr;
  CpuThreadpool pool_;
  int n_vocab_ = 0;
  int context_ = 0;
  int n_past_ = 0;
};

// The query log as token chunks for measurement: each conversation rendered
// with the model's own chat template (format_prompt), tokenized, joined into
// one stream and cut into chunks of chunk_tokens, each starting with BOS when
// the model adds one. At most max_tokens in all; a last piece shorter than 16
// tokens is dropped. Errors: kInvalidArgument when no chunk results (the log
// holds no text).
StatusOr<std::vector<std::vector<llama_token>>> token_chunks(const EvalModel& model,
                                                             const std::vector<std::vector<ChatMessage>>& conversations,
                                                             int chunk_tokens, int64_t max_tokens);

}  // namespace tiergate
