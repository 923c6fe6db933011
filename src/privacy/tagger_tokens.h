// The tokens the PII tagger (pii_tagger.cc) reads: words (runs of letters
// and digits, any byte >= 0x80 counting as a letter, with an apostrophe
// inside one included: "O'Brien", "don't") and single marks; white space
// (space, tab, CR, LF) separates and is noted when it holds a line break.
// Private to the privacy module.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace tiergate::pii_tokens {

struct Token {
  uint32_t begin = 0, end = 0;  // byte offsets, end exclusive
  bool newline_before = false;  // a line feed between the previous token (or the start) and this one
  bool marked = false;          // it opens with a capital, a digit or a byte >= 0x80
};

// Whether a byte belongs to words.
constexpr bool is_word_byte(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

// Replaces `out` with the tokens of `text` (shorter than 4 GiB), in order,
// and `marked` with the indices in `out` of the marked tokens. It runs over
// every byte of every message the gateway scans: 64 bytes at a time as bit
// masks (SSE2 where the CPU has it), one step per token.
void tokenize(std::string_view text, std::vector<Token>& out, std::vector<uint32_t>& marked);

}  // namespace tiergate::pii_tokens
