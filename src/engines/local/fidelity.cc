#include "tiergate/engines/local/fidelity.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "eval_model.h"

namespace tiergate {

struct ReferenceDistribution::Data {
  std::vector<std::vector<llama_token>> chunks;
  // Per compared position (every token of a chunk but the last, chunk after
  // chunk), n_vocab log-probabilities of the next token.
  std::vector<float> log_probs;
  int64_t positions = 0;
  int n_vocab = 0;
  double nll_sum = 0;  // of the actual next tokens
};

namespace {

// log_softmax of n logits into out; returns nothing, out[j] = logit_j - logsumexp.
void log_softmax(const float* logits, int n, std::vector<double>& out) {
  out.resize(static_cast<size_t>(n));
  double max = -std::numeric_limits<double>::infinity();
  for (int j = 0; j < n; ++j) max = std::max(max, double(logits[j]));
  double sum = 0;
  for (int j = 0; j < n; ++j) sum += std::exp(double(logits[j]) - max);
  const double log_z = max + std::log(sum);
  for (int j = 0; j < n; ++j) out[static_cast<size_t>(j)] = double(logits[j]) - log_z;
}

template <typename T>
int argmax(const T* values, int n) {
  return static_cast<int>(std::max_element(values, values + n) - values);
}

EvalModelParams eval_params(const FidelityParams& params) {
  EvalModelParams mp;
  mp.context = params.context;
  mp.threads = params.threads;
  return mp;
}

}  // namespace

ReferenceDistribution::ReferenceDistribution(std::unique_ptr<Data> data) : data_(std::move(data)) {}
ReferenceDistribution::~ReferenceDistribution() = default;
int64_t ReferenceDistribution::positions() const { return data_->positions; }
int ReferenceDistribution::n_vocab() const { return data_->n_vocab; }
double ReferenceDistribution::perplexity() const {
  return data_->positions == 0 ? 0 : std::exp(data_->nll_sum / double(data_->positions));
}

StatusOr<std::unique_ptr<ReferenceDistribution>> measure_reference(
    const std::string& checkpoint, const std::vector<std::vector<ChatMessage>>& conversations,
    const FidelityParams& params) {
  auto model = EvalModel::open(checkpoint, "reference checkpoint", eval_params(params));
  if (!model.is_ok()) return model.status();
  auto chunks = token_chunks(**model, conversations, params.context, params.max_tokens);
  if (!chunks.is_ok()) return chunks.status();

  auto data = std::make_unique<ReferenceDistribution::Data>();
  data->n_vocab = (*model)->n_vocab();
  data->chunks = std::move(*chunks);
  int64_t positions = 0;
  for (const auto& chunk : data->chunks) positions += static_cast<int64_t>(chunk.size()) - 1;
  data->log_probs.resize(static_cast<size_t>(positions) * static_cast<size_t>(data->n_vocab));

  std::vector<double> lp;
  const int total = static_cast<int>(data->chunks.size());
  for (int c = 0; c < total; ++c) {
    const auto& chunk = data->chunks[static_cast<size_t>(c)];
    if (Status s = (*model)->decode_fresh(chunk, /*all_logits=*/true); !s.is_ok()) return s;
    for (size_t i = 0; i + 1 < chunk.size(); ++i) {
      log_softmax((*model)->logits(static_cast<int>(i)), data->n_vocab, lp);
      float* row = data->log_probs.data() + static_cast<size_t>(data->positions) * static_cast<size_t>(data->n_vocab);
      for (int j = 0; j < data->n_vocab; ++j) row[j] = static_cast<float>(lp[static_cast<size_t>(j)]);
      data->nll_sum -= lp[static_cast<size_t>(chunk[i + 1])];
      ++data->positions;
    }
    if (params.on_progress) params.on_progress(c + 1, total);
  }
  return std::make_unique<ReferenceDistribution>(std::move(data));
}

StatusOr<FidelityReport> measure_fidelity(const std::string& variant, const ReferenceDistribution& reference,
                                    const FidelityParams& params) {
  const ReferenceDistribution::Data& ref = reference.data();
  auto model = EvalModel::open(variant, "variant", eval_params(params));
  if (!model.is_ok()) return model.status();
  if ((*model)->n_vocab() != ref.n_vocab) {
    return invalid_argument("variant " + variant + " has a vocabulary of " + std::to_string((*model)->n_vocab()) +
                            " tokens, the reference " + std::to_string(ref.n_vocab) +
                            ": it is not a variant of this checkpoint");
  }
  std::vector<double> lq;
  std::vector<double> kl_per_position;
  kl_per_position.reserve(static_cast<size_t>(ref.positions));
  double nll_sum = 0;
  int64_t agree = 0;
  int64_t position = 0;
  const int total = static_cast<int>(ref.chunks.size());
  for (int c = 0; c < total; ++c) {
    const auto& chunk = ref.chunks[static_cast<size_t>(c)];
    if (Status s = (*model)->decode_fresh(chunk, /*all_logits=*/true); !s.is_ok()) return s;
    for (size_t i = 0; i + 1 < chunk.size(); ++i, ++position) {
      log_softmax((*model)->logits(static_cast<int>(i)), ref.n_vocab, lq);
      const float* lp = ref.log_probs.data() + static_cast<size_t>(position) * static_cast<size_t>(ref.n_vocab);
      double kl = 0;
      for (int j = 0; j < ref.n_vocab; ++j) {
        const double p = std::exp(double(lp[j]));
        kl += p * (double(lp[j]) - lq[static_cast<size_t>(j)]);
      }
      kl_per_position.push_back(std::max(0.0, kl));
      if (argmax(lp, ref.n_vocab) == argmax(lq.data(), ref.n_vocab)) ++agree;
      nll_sum -= lq[static_cast<size_t>(chunk[i + 1])];
    }
    if (params.on_progress) params.on_progress(c + 1, total);
  }
  FidelityReport f;
  f.tokens = position;
  if (position == 0) return f;
  double kl_sum = 0;
  for (double kl : kl_per_position) kl_sum += kl;
  f.kl_mean = kl_sum / double(position);
  std::vector<double> sorted = kl_per_position;
  const size_t p99 = std::min(sorted.size() - 1, static_cast<size_t>(0.99 * double(sorted.size())));
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(p99), sorted.end());
  f.kl_p99 = sorted[p99];
  f.top1_agreement = double(agree) / double(position);
  f.perplexity = std::exp(nll_sum / double(position));
  f.reference_perplexity = reference.perplexity();
  return f;
}

}  // namespace tiergate
