// Byte classification of a text, the first step of feature extraction: bit
// masks of the word bytes and the white space, 64 bytes per mask word, and
// counts of the character kinds the dense features need. With SSE2 (every
// x86-64) 16 bytes are classified per step; elsewhere one table lookup per
// byte. Both give identical results (tests compare them on random bytes).
// No branches depend on the text, so the cost is linear and predictable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace tiergate {

struct ByteClasses {
  // Bit i of word w describes byte 64 * w + i; bits past the text are 0.
  std::vector<uint64_t> word;   // ASCII letter or digit, or any byte >= 0x80
  std::vector<uint64_t> space;  // ' ', '\t', '\r', '\n'
  size_t digits = 0, upper = 0, letters = 0, non_ascii = 0, newlines = 0;
  size_t words = 0;    // runs of word bytes
  size_t numbers = 0;  // runs that open with a digit
  uint64_t carry = 0;  // working state: whether the last byte seen was a word byte
};

// Fills `out` (reusing its buffers) for `text`.
void classify_bytes(std::string_view text, ByteClasses& out);

// The same with one table lookup per byte: the fallback without SSE2, and the
// reference the SSE2 path is tested against.
void classify_bytes_portable(std::string_view text, ByteClasses& out);

inline bool is_word_byte(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c >= 0x80;
}

}  // namespace tiergate
