#include "tiergate/engines/local/logprobs.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace tiergate {

TokenLogprob token_logprob(const float* logits, int32_t n_vocab, int32_t token, int top_n,
                           const std::function<std::string(int32_t)>& piece) {
  float max_logit = logits[0];
  for (int32_t i = 1; i < n_vocab; ++i) max_logit = std::max(max_logit, logits[i]);
  double sum = 0;
  for (int32_t i = 0; i < n_vocab; ++i) sum += std::exp(static_cast<double>(logits[i] - max_logit));
  const double log_z = static_cast<double>(max_logit) + std::log(sum);

  TokenLogprob out;
  out.token = piece(token);
  out.logprob = static_cast<double>(logits[token]) - log_z;

  top_n = std::clamp(top_n, 0, 20);
  if (top_n > 0) {
    std::vector<int32_t> ids(static_cast<size_t>(n_vocab));
    for (int32_t i = 0; i < n_vocab; ++i) ids[static_cast<size_t>(i)] = i;
    auto n = std::min<size_t>(static_cast<size_t>(top_n), ids.size());
    std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(n), ids.end(),
                      [&](int32_t a, int32_t b) { return logits[a] > logits[b]; });
    for (size_t k = 0; k < n; ++k) {
      out.top.push_back({piece(ids[k]), static_cast<double>(logits[ids[k]]) - log_z});
    }
  }
  return out;
}

}  // namespace tiergate
