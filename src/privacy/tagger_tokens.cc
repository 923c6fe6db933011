#include "tagger_tokens.h"

#include "scan.h"

#include <algorithm>
#include <bit>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tiergate::pii_tokens {
namespace {

// One 64-byte block, bit k for byte k.
struct BlockMasks {
  uint64_t word = 0;        // word bytes
  uint64_t space = 0;       // space, tab, CR, LF
  uint64_t line_feed = 0;   // LF
  uint64_t apostrophe = 0;  // '
  uint64_t marked = 0;      // capitals, digits, bytes >= 0x80
};

#if defined(__SSE2__)
// 0xff in each byte of x that lies in [lo, lo + span].
__m128i in_range(__m128i x, char lo, char span) {
  const __m128i d = _mm_sub_epi8(x, _mm_set1_epi8(lo));
  return _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(span)), d);
}

uint64_t bits(__m128i m, int part) { return uint64_t{static_cast<uint16_t>(_mm_movemask_epi8(m))} << (16 * part); }

BlockMasks block_masks(const unsigned char* p) {
  BlockMasks m;
  for (int part = 0; part < 4; ++part) {
    __m128i x;
    std::memcpy(&x, p + 16 * part, 16);
    const __m128i letter = in_range(_mm_or_si128(x, _mm_set1_epi8(0x20)), 'a', 25);
    const __m128i marked = _mm_or_si128(_mm_or_si128(in_range(x, 'A', 25), in_range(x, '0', 9)),
                                        _mm_cmplt_epi8(x, _mm_setzero_si128()));
    const __m128i word = _mm_or_si128(letter, marked);
    const __m128i line_feed = _mm_cmpeq_epi8(x, _mm_set1_epi8('\n'));
    const __m128i space = _mm_or_si128(_mm_or_si128(line_feed, _mm_cmpeq_epi8(x, _mm_set1_epi8(' '))),
                                       _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\t')),
                                                    _mm_cmpeq_epi8(x, _mm_set1_epi8('\r'))));
    m.word |= bits(word, part);
    m.space |= bits(space, part);
    m.line_feed |= bits(line_feed, part);
    m.apostrophe |= bits(_mm_cmpeq_epi8(x, _mm_set1_epi8('\'')), part);
    m.marked |= bits(marked, part);
  }
  return m;
}
#else
BlockMasks block_masks(const unsigned char* p) {
  BlockMasks m;
  for (int k = 0; k < 64; ++k) {
    const unsigned char c = p[k];
    const uint64_t bit = uint64_t{1} << k;
    if (is_word_byte(c)) m.word |= bit;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') m.space |= bit;
    if (c == '\n') m.line_feed |= bit;
    if (c == '\'') m.apostrophe |= bit;
    if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80) m.marked |= bit;
  }
  return m;
}
#endif

#if defined(__x86_64__)
[[gnu::target("avx2")]] __m256i in_range_avx2(__m256i x, char lo, char span) {
  const __m256i d = _mm256_sub_epi8(x, _mm256_set1_epi8(lo));
  return _mm256_cmpeq_epi8(_mm256_min_epu8(d, _mm256_set1_epi8(span)), d);
}

[[gnu::target("avx2")]] uint64_t bits_avx2(__m256i m, int part) {
  return uint64_t{static_cast<uint32_t>(_mm256_movemask_epi8(m))} << (32 * part);
}

// block_masks() 32 bytes at a time.
[[gnu::target("avx2")]] BlockMasks block_masks_avx2(const unsigned char* p) {
  BlockMasks m;
  for (int part = 0; part < 2; ++part) {
    __m256i x;
    std::memcpy(&x, p + 32 * part, 32);
    const __m256i letter = in_range_avx2(_mm256_or_si256(x, _mm256_set1_epi8(0x20)), 'a', 25);
    const __m256i marked = _mm256_or_si256(_mm256_or_si256(in_range_avx2(x, 'A', 25), in_range_avx2(x, '0', 9)),
                                           _mm256_cmpgt_epi8(_mm256_setzero_si256(), x));
    const __m256i word = _mm256_or_si256(letter, marked);
    const __m256i line_feed = _mm256_cmpeq_epi8(x, _mm256_set1_epi8('\n'));
    const __m256i space = _mm256_or_si256(_mm256_or_si256(line_feed, _mm256_cmpeq_epi8(x, _mm256_set1_epi8(' '))),
                                          _mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('\t')),
                                                          _mm256_cmpeq_epi8(x, _mm256_set1_epi8('\r'))));
    m.word |= bits_avx2(word, part);
    m.space |= bits_avx2(space, part);
    m.line_feed |= bits_avx2(line_feed, part);
    m.apostrophe |= bits_avx2(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('\'')), part);
    m.marked |= bits_avx2(marked, part);
  }
  return m;
}
#endif

// tokenize() with the block masks of Masks; inlined into each caller so that
// the AVX2 caller's masks are inlined too.
template <BlockMasks (*Masks)(const unsigned char*)>
[[gnu::always_inline]] inline void tokenize_blocks(std::string_view text, TokenList& out, IndexList& marked) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t count = 0, ended = 0, marked_count = 0;
  bool last_was_word = false;  // the block before ended inside a word (a word byte or a joined apostrophe)
  uint64_t line_feed_carry = 0;  // the block before ended in white space holding a line feed
  unsigned char tail[64];
  for (size_t base = 0; base < n; base += 64) {
    // Room for this block's tokens (64 at most), written through pointers.
    if (out.size() < count + 64) out.resize(std::max(2 * out.size(), count + 64));
    if (marked.size() < marked_count + 64) marked.resize(std::max(2 * marked.size(), marked_count + 64));
    Token* const tokens = out.data();
    uint32_t* const marked_at = marked.data();
    const unsigned char* block = p + base;
    if (n - base < 64) {  // the last, short block: padded with spaces
      std::memset(tail, ' ', sizeof tail);
      std::memcpy(tail, block, n - base);
      block = tail;
    }
    const BlockMasks m = Masks(block);
    // An apostrophe joins a word when a word byte stands on either side.
    const bool next_is_word = base + 64 < n && is_word_byte(p[base + 64]);
    const uint64_t before_word = (m.word << 1) | uint64_t{last_was_word};
    const uint64_t after_word = (m.word >> 1) | (uint64_t{next_is_word} << 63);
    const uint64_t word = m.word | (m.apostrophe & before_word & after_word);
    const uint64_t marks = ~word & ~m.space;
    // The word at the block's last byte goes on past it over a word byte, or
    // over an apostrophe with a word byte after it.
    const bool word_goes_on = next_is_word || (base + 65 < n && p[base + 64] == '\'' && is_word_byte(p[base + 65]));
    // A token starts at a word's first byte or at a mark, and ends after a
    // word's last byte or after the mark: one start and one end per token,
    // a word's possibly in a later block. White space separates, so the
    // byte after a run of white space holding a line feed starts a token
    // with newline_before: adding the line feeds to the white space carries
    // from each line feed to the end of its run (and, past the block, on).
    const uint64_t starts = (word & ~((word << 1) | uint64_t{last_was_word})) | marks;
    const uint64_t ends = (word & ~((word >> 1) | (uint64_t{word_goes_on} << 63))) | marks;
    uint64_t reach = 0;
    const bool carry = __builtin_add_overflow(m.space, m.line_feed, &reach);
    const bool carry_on = __builtin_add_overflow(reach, line_feed_carry, &reach);
    const uint64_t newline_starts = reach & ~m.space;
    line_feed_carry = uint64_t{carry || carry_on};
    for (uint64_t s = starts; s != 0; s &= s - 1) {
      const auto k = static_cast<unsigned>(std::countr_zero(s));
      const bool is_marked = (m.marked >> k) & 1;
      tokens[count].begin = static_cast<uint32_t>(base + k);
      tokens[count].newline_before = (newline_starts >> k) & 1;
      tokens[count].marked = is_marked;
      marked_at[marked_count] = static_cast<uint32_t>(count);
      marked_count += is_marked ? 1 : 0;
      ++count;
    }
    for (uint64_t e = ends; e != 0; e &= e - 1) {
      tokens[ended++].end = static_cast<uint32_t>(base + static_cast<unsigned>(std::countr_zero(e)) + 1);
    }
    last_was_word = (word >> 63) & 1;
  }
  out.resize(count);
  marked.resize(marked_count);
}

#if defined(__x86_64__)
[[gnu::target("avx2")]] void tokenize_avx2(std::string_view text, TokenList& out, IndexList& marked) {
  tokenize_blocks<block_masks_avx2>(text, out, marked);
}
#endif

}  // namespace

void tokenize(std::string_view text, TokenList& out, IndexList& marked) {
#if defined(__x86_64__)
  static const bool avx2 = pii_scan::cpu_has_avx2();
  if (avx2) return tokenize_avx2(text, out, marked);
#endif
  tokenize_without_avx2(text, out, marked);
}

void tokenize_without_avx2(std::string_view text, TokenList& out, IndexList& marked) {
  tokenize_blocks<block_masks>(text, out, marked);
}

}  // namespace tiergate::pii_tokens
