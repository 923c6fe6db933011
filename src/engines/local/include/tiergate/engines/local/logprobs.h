// Token log-probabilities in OpenAI's shape, from raw logits.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "tiergate/core/chat.h"

namespace tiergate {

// log softmax of logits[token] over the whole vocabulary (the model's own
// distribution, before temperature and truncation), and the top_n most likely
// tokens at this position (top_n clamped to [0, 20]). piece renders a token id.
TokenLogprob token_logprob(const float* logits, int32_t n_vocab, int32_t token, int top_n,
                           const std::function<std::string(int32_t)>& piece);

}  // namespace tiergate
