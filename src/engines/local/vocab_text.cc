#include "tiergate/engines/local/vocab_text.h"

namespace tiergate {

std::vector<llama_token> tokenize(const llama_vocab* vocab, const std::string& text, bool parse_special) {
  const auto len = static_cast<int32_t>(text.size());
  std::vector<llama_token> tokens(text.size() + 8);
  int32_t n = llama_tokenize(vocab, text.data(), len, tokens.data(), static_cast<int32_t>(tokens.size()), true,
                             parse_special);
  if (n < 0) {
    tokens.resize(static_cast<size_t>(-n));
    n = llama_tokenize(vocab, text.data(), len, tokens.data(), static_cast<int32_t>(tokens.size()), true,
                       parse_special);
  }
  tokens.resize(static_cast<size_t>(std::max(n, 0)));
  return tokens;
}

std::string token_piece(const llama_vocab* vocab, llama_token token) {
  char buf[256];
  int32_t n = llama_token_to_piece(vocab, token, buf, sizeof buf, 0, true);
  if (n < 0) {
    std::string big(static_cast<size_t>(-n), '\0');
    n = llama_token_to_piece(vocab, token, big.data(), static_cast<int32_t>(big.size()), 0, true);
    big.resize(static_cast<size_t>(std::max(n, 0)));
    return big;
  }
  return std::string(buf, static_cast<size_t>(n));
}

}  // namespace tiergate
