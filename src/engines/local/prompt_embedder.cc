#include "tiergate/engines/local/prompt_embedder.h"

#include <algorithm>
#include <cmath>

#include "llama.h"
#include "llama_runtime.h"
#include "tiergate/engines/local/vocab_text.h"

namespace tiergate {

struct PromptEmbedder::State {
  llama_model* model = nullptr;
  llama_context* ctx = nullptr;
  const llama_vocab* vocab = nullptr;
  CpuThreadpool pool;
  int dimension = 0;
  int max_tokens = 0;
  std::string fingerprint;

  ~State() {
    if (ctx != nullptr) llama_free(ctx);
    pool.release();
    if (model != nullptr) llama_model_free(model);
  }
};

PromptEmbedder::PromptEmbedder(std::unique_ptr<State> state) : state_(std::move(state)) {}
PromptEmbedder::~PromptEmbedder() = default;

StatusOr<std::unique_ptr<PromptEmbedder>> PromptEmbedder::open(const std::string& path,
                                                               const PromptEmbedderParams& params) {
  if (params.max_tokens < 1) return invalid_argument("the embedder needs max_tokens >= 1");
  if (Status s = check_gguf_file(path, "edge model file", ""); !s.is_ok()) return s;
  init_llama_backend_once();
  auto state = std::make_unique<State>();
  llama_model_params mp = llama_model_default_params();
  mp.n_gpu_layers = 0;
  state->model = llama_model_load_from_file(path.c_str(), mp);
  if (state->model == nullptr) {
    return invalid_argument("llama.cpp could not load the edge model file (corrupt or unsupported GGUF): " + path);
  }
  state->vocab = llama_model_get_vocab(state->model);
  state->dimension = llama_model_n_embd(state->model);
  state->max_tokens = std::min(params.max_tokens, std::max(1, llama_model_n_ctx_train(state->model)));
  const int threads = resolve_threads(params.threads);
  llama_context_params cp = llama_context_default_params();
  cp.n_ctx = static_cast<uint32_t>(state->max_tokens);
  cp.n_batch = cp.n_ctx;
  cp.n_ubatch = cp.n_ctx;
  cp.n_seq_max = 1;
  cp.n_threads = threads;
  cp.n_threads_batch = threads;
  cp.embeddings = true;
  cp.pooling_type = LLAMA_POOLING_TYPE_MEAN;
  // On the CPU, for one short sequence, flash attention cost 2.8x the time
  // (stories260K, 256 tokens: 70 ms against 25 ms per request).
  cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;
  cp.no_perf = true;
  state->ctx = llama_init_from_model(state->model, cp);
  if (state->ctx == nullptr) {
    return resource_exhausted("llama.cpp could not create an embedding context of " +
                              std::to_string(state->max_tokens) + " tokens for " + path + " (out of memory?)");
  }
  state->pool.attach(state->ctx, threads);
  char description[256] = {};
  llama_model_desc(state->model, description, sizeof(description));
  state->fingerprint = std::string(description) + ", n_embd " + std::to_string(state->dimension) + ", " +
                       std::to_string(llama_model_n_params(state->model)) + " parameters";
  return std::unique_ptr<PromptEmbedder>(new PromptEmbedder(std::move(state)));
}

int PromptEmbedder::dimension() const { return state_->dimension; }
const std::string& PromptEmbedder::fingerprint() const { return state_->fingerprint; }

Status PromptEmbedder::embed(std::string_view text, std::vector<float>& out) {
  State& s = *state_;
  out.assign(static_cast<size_t>(s.dimension), 0.0f);
  if (text.empty()) return Status::ok();
  std::vector<llama_token> tokens = tokenize(s.vocab, std::string(text), false);
  if (tokens.empty()) return Status::ok();
  if (tokens.size() > static_cast<size_t>(s.max_tokens)) tokens.resize(static_cast<size_t>(s.max_tokens));
  llama_memory_clear(llama_get_memory(s.ctx), true);
  llama_batch batch = llama_batch_init(static_cast<int32_t>(tokens.size()), 0, 1);
  for (size_t i = 0; i < tokens.size(); ++i) {
    batch.token[i] = tokens[i];
    batch.pos[i] = static_cast<llama_pos>(i);
    batch.n_seq_id[i] = 1;
    batch.seq_id[i][0] = 0;
    batch.logits[i] = true;  // every position's output enters the mean
  }
  batch.n_tokens = static_cast<int32_t>(tokens.size());
  const int32_t rc = llama_decode(s.ctx, batch);
  llama_batch_free(batch);
  if (rc != 0) return internal_error("llama_decode failed with code " + std::to_string(rc) + " while embedding");
  const float* pooled = llama_get_embeddings_seq(s.ctx, 0);
  if (pooled == nullptr) return internal_error("llama.cpp returned no pooled embedding");
  double norm2 = 0;
  for (int i = 0; i < s.dimension; ++i) norm2 += double{pooled[i]} * pooled[i];
  const float scale = norm2 > 0 ? static_cast<float>(1.0 / std::sqrt(norm2)) : 0.0f;
  for (int i = 0; i < s.dimension; ++i) out[static_cast<size_t>(i)] = pooled[i] * scale;
  return Status::ok();
}

}  // namespace tiergate
