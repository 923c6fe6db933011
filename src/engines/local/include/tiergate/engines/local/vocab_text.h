// Text <-> token conversions over a llama.cpp vocabulary. Thread-safe: the
// vocabulary is immutable once the model is loaded.
#pragma once

#include <string>
#include <vector>

#include "llama.h"

namespace tiergate {

// Tokenizes text, adding BOS when the model wants it. parse_special: render
// special-token markup in text (e.g. "<|im_start|>") as the special tokens, for
// prompts produced by the model's own chat template.
std::vector<llama_token> tokenize(const llama_vocab* vocab, const std::string& text, bool parse_special);
// The text of one token (special tokens rendered).
std::string token_piece(const llama_vocab* vocab, llama_token token);

}  // namespace tiergate
