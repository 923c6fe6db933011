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
// Vectors of bytes (GCC's generic vectors: the compiler picks the
// instructions for the function it inlines them into); comparisons give
// 0xff or 0 per byte.
using Bytes16 = unsigned char __attribute__((vector_size(16)));
using Bytes32 = unsigned char __attribute__((vector_size(32)));

// Bit k set for each byte k of v whose high bit is set.
uint64_t high_bits(Bytes16 v) { return static_cast<uint16_t>(_mm_movemask_epi8(reinterpret_cast<__m128i>(v))); }

// The masks of a block, sizeof(Vec) bytes at a time; inlined into each
// caller, as are HighBits.
template <typename Vec, uint64_t (*HighBits)(Vec)>
[[gnu::always_inline]] inline BlockMasks block_masks_in(const unsigned char* p) {
  BlockMasks m;
  for (size_t part = 0; part < 64 / sizeof(Vec); ++part) {
    Vec x;
    std::memcpy(&x, p + sizeof(Vec) * part, sizeof(Vec));
    // A byte in [lo, lo + span] is one whose distance from lo is at most span.
    const Vec capital = static_cast<Vec>(static_cast<Vec>(x - 'A') <= 25);
    const Vec digit = static_cast<Vec>(static_cast<Vec>(x - '0') <= 9);
    const Vec letter = static_cast<Vec>(static_cast<Vec>((x | 0x20) - 'a') <= 25);
    const Vec marked = capital | digit | static_cast<Vec>(x >= 0x80);
    const Vec word = letter | marked;
    const Vec line_feed = static_cast<Vec>(x == '\n');
    const Vec space = line_feed | static_cast<Vec>(x == ' ') | static_cast<Vec>(x == '\t') | static_cast<Vec>(x == '\r');
    const unsigned shift = static_cast<unsigned>(sizeof(Vec) * part);
    m.word |= HighBits(word) << shift;
    m.space |= HighBits(space) << shift;
    m.line_feed |= HighBits(line_feed) << shift;
    m.apostrophe |= HighBits(static_cast<Vec>(x == '\'')) << shift;
    m.marked |= HighBits(marked) << shift;
  }
  return m;
}

BlockMasks block_masks(const unsigned char* p) { return block_masks_in<Bytes16, high_bits>(p); }
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
[[gnu::target("avx2")]] uint64_t high_bits_avx2(Bytes32 v) {
  return static_cast<uint32_t>(_mm256_movemask_epi8(reinterpret_cast<__m256i>(v)));
}

[[gnu::target("avx2")]] BlockMasks block_masks_avx2(const unsigned char* p) {
  return block_masks_in<Bytes32, high_bits_avx2>(p);
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
      const auto flags = static_cast<uint16_t>(((newline_starts >> k) & 1) | (uint64_t{is_marked} << 8));
      std::memcpy(&tokens[count].newline_before, &flags, sizeof flags);
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
