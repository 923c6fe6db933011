#include "byte_classes.h"

#include <bit>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tiergate {
namespace {

size_t mask_words(size_t bytes) { return (bytes + 63) / 64; }

void reset(size_t bytes, ByteClasses& out) {
  out.word.assign(mask_words(bytes), 0);
  out.space.assign(mask_words(bytes), 0);
  out.digits = out.upper = out.letters = out.non_ascii = out.newlines = out.words = out.numbers = 0;
  out.carry = 0;
}

#if defined(__SSE2__)

// 0xff in each byte of x that lies in [lo, lo + span].
__m128i in_range(__m128i x, char lo, char span) {
  const __m128i d = _mm_sub_epi8(x, _mm_set1_epi8(lo));
  return _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(span)), d);
}

uint32_t bits_of(__m128i m) { return static_cast<uint32_t>(_mm_movemask_epi8(m)); }

// Classifies one block of 64 bytes (zero-padded past the text).
[[gnu::always_inline]] inline void classify_block(const unsigned char* block, size_t w, ByteClasses& out) {
  uint64_t space = 0, digit = 0, upper = 0, lower = 0, high = 0, newline = 0;
  for (int part = 0; part < 4; ++part) {
    __m128i x;
    std::memcpy(&x, block + 16 * part, 16);
    const __m128i d = in_range(x, '0', 9);
    const __m128i u = in_range(x, 'A', 25);
    const __m128i l = in_range(x, 'a', 25);
    const __m128i nl = _mm_cmpeq_epi8(x, _mm_set1_epi8('\n'));
    const __m128i s = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')), nl),
                                   _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\t')),
                                                _mm_cmpeq_epi8(x, _mm_set1_epi8('\r'))));
    const int shift = 16 * part;
    const uint64_t h = bits_of(x);
    digit |= uint64_t{bits_of(d)} << shift;
    upper |= uint64_t{bits_of(u)} << shift;
    lower |= uint64_t{bits_of(l)} << shift;
    high |= h << shift;
    newline |= uint64_t{bits_of(nl)} << shift;
    space |= uint64_t{bits_of(s)} << shift;
  }
  const uint64_t word = digit | upper | lower | high;
  // Words open where a word byte follows a byte that is not one; `carry`
  // holds the previous block's last byte.
  const uint64_t starts = word & ~((word << 1) | out.carry);
  out.carry = word >> 63;
  out.word[w] = word;
  out.space[w] = space;
  out.words += static_cast<size_t>(std::popcount(starts));
  out.numbers += static_cast<size_t>(std::popcount(starts & digit));
  out.digits += static_cast<size_t>(std::popcount(digit));
  out.upper += static_cast<size_t>(std::popcount(upper));
  out.letters += static_cast<size_t>(std::popcount(upper | lower));
  out.non_ascii += static_cast<size_t>(std::popcount(high));
  out.newlines += static_cast<size_t>(std::popcount(newline));
}

#endif

}  // namespace

void classify_bytes_portable(std::string_view text, ByteClasses& out) {
  reset(text.size(), out);
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const uint64_t bit = uint64_t{1} << (i % 64);
    const bool digit = c >= '0' && c <= '9', upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
    const bool space = c == ' ' || c == '\t' || c == '\r' || c == '\n';
    if (is_word_byte(c)) {
      out.word[i / 64] |= bit;
      const bool opens = i == 0 || !is_word_byte(static_cast<unsigned char>(text[i - 1]));
      out.words += opens ? 1 : 0;
      out.numbers += opens && digit ? 1 : 0;
    }
    if (space) out.space[i / 64] |= bit;
    out.digits += digit ? 1 : 0;
    out.upper += upper ? 1 : 0;
    out.letters += upper || lower ? 1 : 0;
    out.non_ascii += c >= 0x80 ? 1 : 0;
    out.newlines += c == '\n' ? 1 : 0;
  }
}

#if defined(__SSE2__)
namespace {

[[gnu::always_inline]] inline void classify_blocks(std::string_view text, ByteClasses& out) {
  reset(text.size(), out);
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const size_t full = text.size() / 64;
  for (size_t w = 0; w < full; ++w) classify_block(bytes + 64 * w, w, out);
  if (const size_t rest = text.size() % 64; rest > 0) {
    unsigned char tail[64] = {};  // zero bytes are neither word bytes nor space
    std::memcpy(tail, bytes + 64 * full, rest);
    classify_block(tail, full, out);
  }
}

void classify_blocks_baseline(std::string_view text, ByteClasses& out) { classify_blocks(text, out); }

// The same with the POPCNT instruction for the counts (without it,
// std::popcount is a library call), chosen at run time.
[[gnu::target("popcnt")]] void classify_blocks_popcnt(std::string_view text, ByteClasses& out) {
  classify_blocks(text, out);
}
// __builtin_cpu_init first: this runs among the static constructors.
const bool kHasPopcnt = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("popcnt") != 0;
}();

}  // namespace
#endif

void classify_bytes(std::string_view text, ByteClasses& out) {
#if defined(__SSE2__)
  if (kHasPopcnt) return classify_blocks_popcnt(text, out);
  classify_blocks_baseline(text, out);
#else
  classify_bytes_portable(text, out);
#endif
}

}  // namespace tiergate
