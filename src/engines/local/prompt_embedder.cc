#include "tiergate/engines/local/prompt_embedder.h"

#include <algorithm>
#include <cmath>

#include "eval_model.h"
#include "tiergate/engines/local/vocab_text.h"

namespace tiergate {

struct PromptEmbedder::State {
  std::unique_ptr<EvalModel> model;
  std::string fingerprint;
};

PromptEmbedder::PromptEmbedder(std::unique_ptr<State> state) : state_(std::move(state)) {}
PromptEmbedder::~PromptEmbedder() = default;

StatusOr<std::unique_ptr<PromptEmbedder>> PromptEmbedder::open(const std::string& path,
                                                               const PromptEmbedderParams& params) {
  if (params.max_tokens < 1) return invalid_argument("the embedder needs max_tokens >= 1");
  EvalModelParams eval;
  eval.context = params.max_tokens;
  eval.threads = params.threads;
  eval.embeddings = true;
  auto model = EvalModel::open(path, "edge model file", eval);
  if (!model.is_ok()) return model.status();
  auto state = std::make_unique<State>();
  state->model = std::move(*model);
  char description[256] = {};
  llama_model_desc(state->model->model(), description, sizeof(description));
  state->fingerprint = std::string(description) + ", n_embd " + std::to_string(state->model->n_embd()) + ", " +
                       std::to_string(llama_model_n_params(state->model->model())) + " parameters";
  return std::unique_ptr<PromptEmbedder>(new PromptEmbedder(std::move(state)));
}

int PromptEmbedder::dimension() const { return state_->model->n_embd(); }
const std::string& PromptEmbedder::fingerprint() const { return state_->fingerprint; }

Status PromptEmbedder::embed(std::string_view text, std::vector<float>& out) {
  EvalModel& model = *state_->model;
  const auto dimension = static_cast<size_t>(model.n_embd());
  out.assign(dimension, 0.0f);
  if (text.empty()) return Status::ok();
  std::vector<llama_token> tokens = tokenize(model.vocab(), std::string(text), false);
  if (tokens.empty()) return Status::ok();
  if (tokens.size() > static_cast<size_t>(model.context())) tokens.resize(static_cast<size_t>(model.context()));
  // Every position's output enters the mean.
  if (Status s = model.decode_fresh(tokens, /*all_logits=*/true); !s.is_ok()) return s;
  const float* pooled = model.sequence_embedding();
  if (pooled == nullptr) return internal_error("llama.cpp returned no pooled embedding");
  double norm2 = 0;
  for (size_t i = 0; i < dimension; ++i) norm2 += double{pooled[i]} * pooled[i];
  const float scale = norm2 > 0 ? static_cast<float>(1.0 / std::sqrt(norm2)) : 0.0f;
  for (size_t i = 0; i < dimension; ++i) out[i] = pooled[i] * scale;
  return Status::ok();
}

}  // namespace tiergate
