#include "tagger_tokens.h"

#include <algorithm>
#include <bit>
#include <cstring>

#if defined(__SSE2__)
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

// Bits [from, 64) set; from <= 64.
uint64_t bits_from(unsigned from) { return from >= 64 ? 0 : ~uint64_t{0} << from; }

}  // namespace

void tokenize(std::string_view text, TokenList& out, IndexList& marked) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t count = 0, marked_count = 0;
  bool line_feed = false;      // a LF since the last token ended
  bool word_open = false;      // the last token is a word that may run on into this block
  bool last_was_word = false;  // the block before ended inside a word (a word byte or a joined apostrophe)
  unsigned char tail[64];
  for (size_t base = 0; base < n; base += 64) {
    // Room for this block's tokens (64 at most), written through pointers.
    if (out.size() < count + 64) out.resize(std::max(2 * out.size(), count + 64));
    if (marked.size() < marked_count + 64) marked.resize(std::max(2 * marked.size(), marked_count + 64));
    Token* const tokens = out.data();
    uint32_t* const marked_at = marked.data();
    const size_t valid = std::min<size_t>(64, n - base);
    const unsigned char* block = p + base;
    if (valid < 64) {  // the last, short block: padded with spaces
      std::memset(tail, ' ', sizeof tail);
      std::memcpy(tail, block, valid);
      block = tail;
    }
    const BlockMasks m = block_masks(block);
    // An apostrophe joins a word when a word byte stands on either side.
    const bool next_is_word = base + 64 < n && is_word_byte(p[base + 64]);
    const uint64_t before_word = (m.word << 1) | uint64_t{last_was_word};
    const uint64_t after_word = (m.word >> 1) | (uint64_t{next_is_word} << 63);
    const uint64_t word = m.word | (m.apostrophe & before_word & after_word);
    const uint64_t marks = ~word & ~m.space;
    unsigned at = 0;  // where the last token ended within this block
    if (word_open) {
      // The word of the block before runs on to the first non-word byte.
      const uint64_t stop = ~word;
      if (stop == 0) {
        tokens[count - 1].end = static_cast<uint32_t>(base + 64);
        last_was_word = true;
        continue;
      }
      at = static_cast<unsigned>(std::countr_zero(stop));
      tokens[count - 1].end = static_cast<uint32_t>(base + at);
      word_open = false;
    }
    // Token starts at or after `at`; no start lies inside a token, so the
    // lowest start is always the next token. `line_feeds`: the block's line
    // feeds not yet before a token.
    uint64_t starts = ((word & ~((word << 1) | uint64_t{last_was_word})) | marks) & bits_from(at);
    uint64_t line_feeds = m.line_feed & bits_from(at);
    while (starts != 0) {
      // A mark ends after itself, a word at the first byte past it that is
      // no word byte (none: it runs into the next block).
      const auto k = static_cast<unsigned>(std::countr_zero(starts));
      const uint64_t below_k = (uint64_t{1} << k) - 1;
      const uint64_t stop = ~word & ~below_k;
      const unsigned end = std::max<unsigned>(static_cast<unsigned>(std::countr_zero(stop)), k + 1);
      const bool is_marked = (m.marked >> k) & 1;
      marked_at[marked_count] = static_cast<uint32_t>(count);
      marked_count += is_marked ? 1 : 0;
      tokens[count++] = {static_cast<uint32_t>(base + k), static_cast<uint32_t>(base + std::min<size_t>(end, valid)),
                         line_feed || (line_feeds & below_k) != 0, is_marked};
      line_feed = false;
      line_feeds &= ~below_k;
      word_open = stop == 0;
      starts &= starts - 1;
    }
    line_feed = line_feed || line_feeds != 0;
    last_was_word = (word >> 63) & 1;
  }
  out.resize(count);
  marked.resize(marked_count);
}

}  // namespace tiergate::pii_tokens
