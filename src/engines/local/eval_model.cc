#include "eval_model.h"

#include <algorithm>

#include "tiergate/engines/local/prompt_format.h"
#include "tiergate/engines/local/vocab_text.h"

namespace tiergate {

namespace {

constexpr size_t kMinChunkTokens = 16;

}  // namespace

StatusOr<std::unique_ptr<EvalModel>> EvalModel::open(const std::string& path, std::string_view what,
                                                     const EvalModelParams& params) {
  if (Status s = check_gguf_file(path, what, ""); !s.is_ok()) return s;
  init_llama_backend_once();
  std::unique_ptr<EvalModel> m(new EvalModel());
  llama_model_params mp = llama_model_default_params();
  mp.load_mode = LLAMA_LOAD_MODE_MMAP;
  mp.n_gpu_layers = 0;
  m->model_ = llama_model_load_from_file(path.c_str(), mp);
  if (m->model_ == nullptr) {
    return invalid_argument(std::string("llama.cpp could not load the ") + std::string(what) +
                            " (corrupt or unsupported GGUF): " + path);
  }
  m->vocab_ = llama_model_get_vocab(m->model_);
  m->n_vocab_ = llama_vocab_n_tokens(m->vocab_);
  m->context_ = params.context;
  const int threads = resolve_threads(params.threads);
  llama_context_params cp = llama_context_default_params();
  cp.n_ctx = static_cast<uint32_t>(params.context);
  cp.n_batch = static_cast<uint32_t>(params.context);
  cp.n_ubatch = static_cast<uint32_t>(params.context);
  cp.n_seq_max = 1;
  cp.n_threads = threads;
  cp.n_threads_batch = threads;
  cp.no_perf = true;
  cp.cb_eval = params.observer;
  cp.cb_eval_user_data = params.observer_data;
  if (params.embeddings) {
    cp.embeddings = true;
    cp.pooling_type = LLAMA_POOLING_TYPE_MEAN;
    cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;
  }
  m->ctx_ = llama_init_from_model(m->model_, cp);
  if (m->ctx_ == nullptr) {
    return resource_exhausted("llama.cpp could not create a context of " + std::to_string(params.context) +
                              " tokens for " + path + " (out of memory?)");
  }
  m->pool_.attach(m->ctx_, threads);
  return m;
}

EvalModel::~EvalModel() {
  if (ctx_ != nullptr) llama_free(ctx_);
  pool_.release();
  if (model_ != nullptr) llama_model_free(model_);
}

Status EvalModel::decode_fresh(std::span<const llama_token> tokens, bool all_logits) {
  if (tokens.empty() || tokens.size() > static_cast<size_t>(context_)) {
    return invalid_argument("a chunk of " + std::to_string(tokens.size()) + " tokens does not fit a context of " +
                            std::to_string(context_));
  }
  llama_memory_clear(llama_get_memory(ctx_), true);
  llama_batch batch = llama_batch_init(static_cast<int32_t>(tokens.size()), 0, 1);
  for (size_t i = 0; i < tokens.size(); ++i) {
    batch.token[i] = tokens[i];
    batch.pos[i] = static_cast<llama_pos>(i);
    batch.n_seq_id[i] = 1;
    batch.seq_id[i][0] = 0;
    batch.logits[i] = all_logits || i + 1 == tokens.size();
  }
  batch.n_tokens = static_cast<int32_t>(tokens.size());
  const int32_t rc = llama_decode(ctx_, batch);
  llama_batch_free(batch);
  if (rc != 0) return internal_error("llama_decode failed with code " + std::to_string(rc));
  n_past_ = static_cast<int>(tokens.size());
  return Status::ok();
}

Status EvalModel::decode_next(llama_token token) {
  if (n_past_ >= context_) return invalid_argument("the context of " + std::to_string(context_) + " tokens is full");
  llama_batch batch = llama_batch_get_one(&token, 1);
  const int32_t rc = llama_decode(ctx_, batch);
  if (rc != 0) return internal_error("llama_decode failed with code " + std::to_string(rc));
  ++n_past_;
  return Status::ok();
}

const float* EvalModel::logits(int i) const { return llama_get_logits_ith(ctx_, i); }
const float* EvalModel::last_logits() const { return llama_get_logits_ith(ctx_, -1); }
const float* EvalModel::sequence_embedding() const { return llama_get_embeddings_seq(ctx_, 0); }
int EvalModel::n_embd() const { return llama_model_n_embd(model_); }

StatusOr<std::vector<std::vector<llama_token>>> token_chunks(const EvalModel& model,
                                                             const std::vector<std::vector<ChatMessage>>& conversations,
                                                             int chunk_tokens, int64_t max_tokens) {
  const bool add_bos = llama_vocab_get_add_bos(model.vocab());
  const llama_token bos = llama_vocab_bos(model.vocab());
  const size_t body = static_cast<size_t>(std::max(1, chunk_tokens - (add_bos ? 1 : 0)));
  std::vector<std::vector<llama_token>> chunks;
  std::vector<llama_token> piece;
  int64_t total = 0;
  auto flush = [&](bool final_piece) {
    if (final_piece && piece.size() < kMinChunkTokens) return;
    std::vector<llama_token> chunk;
    if (add_bos) chunk.push_back(bos);
    chunk.insert(chunk.end(), piece.begin(), piece.end());
    total += static_cast<int64_t>(chunk.size());
    chunks.push_back(std::move(chunk));
    piece.clear();
  };
  for (const auto& conversation : conversations) {
    const std::string text = format_prompt(model.model(), conversation).text + "\n\n";
    std::vector<llama_token> tokens = tokenize(model.vocab(), text, /*parse_special=*/false);
    size_t first = (add_bos && !tokens.empty() && tokens.front() == bos) ? 1 : 0;
    for (size_t i = first; i < tokens.size(); ++i) {
      if (total + static_cast<int64_t>(piece.size()) + (add_bos ? 1 : 0) >= max_tokens) break;
      piece.push_back(tokens[i]);
      if (piece.size() == body) flush(false);
    }
    if (total + static_cast<int64_t>(piece.size()) + (add_bos ? 1 : 0) >= max_tokens) break;
  }
  flush(true);
  if (chunks.empty()) {
    return invalid_argument("the query log gives no text to measure on (need at least " +
                            std::to_string(kMinChunkTokens) + " tokens)");
  }
  return chunks;
}

}  // namespace tiergate
