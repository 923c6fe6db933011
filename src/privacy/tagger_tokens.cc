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
  uint64_t high = 0;        // bytes >= 0x80
  uint64_t mark_lead = 0;   // 0xe2 and 0xc2, which open the marks of separate_mark_length()
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
    const Vec high = static_cast<Vec>(x >= 0x80);
    const Vec marked = capital | digit | high;
    const Vec word = letter | marked;
    const Vec line_feed = static_cast<Vec>(x == '\n');
    const Vec space = line_feed | static_cast<Vec>(x == ' ') | static_cast<Vec>(x == '\t') | static_cast<Vec>(x == '\r');
    const unsigned shift = static_cast<unsigned>(sizeof(Vec) * part);
    m.word |= HighBits(word) << shift;
    m.space |= HighBits(space) << shift;
    m.line_feed |= HighBits(line_feed) << shift;
    m.apostrophe |= HighBits(static_cast<Vec>(x == '\'')) << shift;
    m.marked |= HighBits(marked) << shift;
    m.high |= HighBits(high) << shift;
    m.mark_lead |= HighBits(static_cast<Vec>(x == 0xe2) | static_cast<Vec>(x == 0xc2)) << shift;
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
    if (c >= 0x80) m.high |= bit;
    if (c == 0xe2 || c == 0xc2) m.mark_lead |= bit;
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

// What a block's masks say of its tokens, and where they go: tokens[count...]
// get the begins and flags of the tokens starting in the block,
// tokens[ended...] the ends of those ending in it (a word's start and end may
// lie in different blocks), marked_at[marked_count...] the indices of the
// marked tokens, line_starts_at[line_count...] those of the tokens after a
// line feed. Each of the four has room for 64 more.
struct BlockTokens {
  size_t base;              // the block's first byte in the text
  uint64_t starts, ends;    // bit k: a token starts at / ends after byte k
  uint64_t newline_starts;  // bit k: the token starting at byte k has a line feed before it
  uint64_t marked;          // bit k: byte k is a capital, a digit or >= 0x80 (at a token's start, no small letter's)
};
struct TokenCursor {
  Token* tokens;
  uint32_t* marked_at;
  uint32_t* line_starts_at;
  size_t count, ended, marked_count, line_count;
};

// One token per bit, in order.
[[gnu::always_inline]] inline void emit_tokens(const BlockTokens& b, TokenCursor& c) {
  for (uint64_t s = b.starts; s != 0; s &= s - 1) {
    const auto k = static_cast<unsigned>(std::countr_zero(s));
    const bool is_marked = (b.marked >> k) & 1;
    c.tokens[c.count].begin = static_cast<uint32_t>(b.base + k);
    const auto flags = static_cast<uint16_t>(((b.newline_starts >> k) & 1) | (uint64_t{is_marked} << 8));
    std::memcpy(&c.tokens[c.count].newline_before, &flags, sizeof flags);
    c.marked_at[c.marked_count] = static_cast<uint32_t>(c.count);
    c.marked_count += is_marked ? 1 : 0;
    c.line_starts_at[c.line_count] = static_cast<uint32_t>(c.count);
    c.line_count += (b.newline_starts >> k) & 1;
    ++c.count;
  }
  for (uint64_t e = b.ends; e != 0; e &= e - 1) {
    c.tokens[c.ended++].end = static_cast<uint32_t>(b.base + static_cast<unsigned>(std::countr_zero(e)) + 1);
  }
}

// tokenize() with the block masks of Masks and the writer Emit; inlined into
// each caller so that the AVX2 caller's masks are inlined too.
template <BlockMasks (*Masks)(const unsigned char*), void (*Emit)(const BlockTokens&, TokenCursor&)>
[[gnu::always_inline]] inline bool tokenize_blocks(std::string_view text, TokenList& out, IndexList& marked,
                                                   IndexList& line_starts) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  TokenCursor cursor{nullptr, nullptr, nullptr, 0, 0, 0, 0};
  bool last_was_word = false;  // the block before ended inside a word (a word byte or a joined apostrophe)
  uint64_t line_feed_carry = 0;  // the block before ended in white space holding a line feed
  // The bytes in this block of a separate mark that opened in the block
  // before, and its last byte.
  uint64_t separate_carry = 0, separate_end_carry = 0;
  uint64_t high = 0;  // the bytes >= 0x80 of the blocks so far, or'd
  unsigned char tail[64];
  for (size_t base = 0; base < n; base += 64) {
    // Room for this block's tokens (64 at most), written through pointers.
    if (out.size() < cursor.count + 64) out.resize(std::max(2 * out.size(), cursor.count + 64));
    if (marked.size() < cursor.marked_count + 64) marked.resize(std::max(2 * marked.size(), cursor.marked_count + 64));
    if (line_starts.size() < cursor.line_count + 64) {
      line_starts.resize(std::max(2 * line_starts.size(), cursor.line_count + 64));
    }
    cursor.tokens = out.data();
    cursor.marked_at = marked.data();
    cursor.line_starts_at = line_starts.data();
    const unsigned char* block = p + base;
    if (n - base < 64) {  // the last, short block: padded with spaces
      std::memset(tail, ' ', sizeof tail);
      std::memcpy(tail, block, n - base);
      block = tail;
    }
    const BlockMasks m = Masks(block);
    high |= m.high;
    // The separate marks (separate_mark_at()): a token each, of two or three
    // bytes, none of them a word byte; one that opened in the block before
    // ends in this one's first bytes.
    uint64_t separate = separate_carry, separate_starts = 0, separate_ends = separate_end_carry;
    separate_carry = separate_end_carry = 0;
    for (uint64_t s = m.mark_lead; s != 0; s &= s - 1) [[unlikely]] {
      const auto k = static_cast<unsigned>(std::countr_zero(s));
      const size_t length = separate_mark_at(p, n, base + k);
      if (length == 0) continue;
      const size_t last = k + length - 1;
      separate_starts |= uint64_t{1} << k;
      if (last < 64) {
        separate |= ((uint64_t{1} << length) - 1) << k;
        separate_ends |= uint64_t{1} << last;
      } else {
        separate |= ~uint64_t{0} << k;
        separate_carry = (uint64_t{1} << (last - 63)) - 1;
        separate_end_carry = uint64_t{1} << (last - 64);
      }
    }
    // Whether byte i (of a later block) is a word byte: no separate mark
    // holds it.
    auto word_at = [&](size_t i) {
      return is_word_byte(p[i]) && !(i == base + 64 && (separate_carry & 1) != 0) &&
             ((p[i] != 0xe2 && p[i] != 0xc2) || separate_mark_at(p, n, i) == 0);
    };
    const uint64_t word_bytes = m.word & ~separate;
    // An apostrophe joins a word when a word byte stands on either side.
    const bool next_is_word = base + 64 < n && word_at(base + 64);
    const uint64_t before_word = (word_bytes << 1) | uint64_t{last_was_word};
    const uint64_t after_word = (word_bytes >> 1) | (uint64_t{next_is_word} << 63);
    const uint64_t word = word_bytes | (m.apostrophe & before_word & after_word);
    const uint64_t marks = ~word & ~m.space & ~separate;
    // The word at the block's last byte goes on past it over a word byte, or
    // over an apostrophe with a word byte after it.
    const bool word_goes_on = next_is_word || (base + 65 < n && p[base + 64] == '\'' && word_at(base + 65));
    // A token starts at a word's first byte, at a mark or at a separate
    // mark's first byte, and ends after a word's last byte, after the mark
    // or after the separate mark's last byte: one start and one end per
    // token, a word's or a separate mark's possibly in a later block. White
    // space separates, so the byte after a run of white space holding a
    // line feed starts a token with newline_before: adding the line feeds
    // to the white space carries from each line feed to the end of its run
    // (and, past the block, on).
    BlockTokens b{base, 0, 0, 0, m.marked & ~separate};
    b.starts = (word & ~((word << 1) | uint64_t{last_was_word})) | marks | separate_starts;
    // A word that opens with a small letter of two bytes ("été", "город"),
    // or with quote marks or dashes before a small letter ("–acting"), is
    // no more marked than one that opens with a-z (opens_unmarked()).
    for (uint64_t s = b.starts & m.high & ~separate_starts; s != 0; s &= s - 1) {
      const auto k = static_cast<unsigned>(std::countr_zero(s));
      if (opens_unmarked(p, n, base + k)) b.marked &= ~(uint64_t{1} << k);
    }
    b.ends = (word & ~((word >> 1) | (uint64_t{word_goes_on} << 63))) | marks | separate_ends;
    uint64_t reach = 0;
    const bool carry = __builtin_add_overflow(m.space, m.line_feed, &reach);
    const bool carry_on = __builtin_add_overflow(reach, line_feed_carry, &reach);
    b.newline_starts = reach & ~m.space;
    line_feed_carry = uint64_t{carry || carry_on};
    Emit(b, cursor);
    last_was_word = (word >> 63) & 1;
  }
  out.resize(cursor.count);
  marked.resize(cursor.marked_count);
  line_starts.resize(cursor.line_count);
  return high != 0;
}

#if defined(__x86_64__)
#define TIERGATE_AVX512 gnu::target("avx512f,avx512bw,avx512vbmi2,bmi,bmi2,popcnt")

// Bit k set for each byte k of v in [from, from + span].
[[TIERGATE_AVX512]] inline uint64_t bytes_in(__m512i v, char from, char span) {
  return _mm512_cmple_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8(from)), _mm512_set1_epi8(span));
}

// The masks of a block from AVX-512 comparisons, which give bit masks
// directly.
[[TIERGATE_AVX512]] inline BlockMasks block_masks_avx512(const unsigned char* p) {
  const __m512i x = _mm512_loadu_si512(p);
  BlockMasks m;
  m.high = _mm512_movepi8_mask(x);
  m.marked = bytes_in(x, 'A', 25) | bytes_in(x, '0', 9) | m.high;
  m.word = m.marked | bytes_in(_mm512_or_si512(x, _mm512_set1_epi8(0x20)), 'a', 25);
  m.line_feed = bytes_in(x, '\n', 0);
  m.space = m.line_feed | bytes_in(x, ' ', 0) | bytes_in(x, '\t', 0) | bytes_in(x, '\r', 0);
  m.apostrophe = bytes_in(x, '\'', 0);
  m.mark_lead = _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8(static_cast<char>(0xe2))) |
                _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8(static_cast<char>(0xc2)));
  return m;
}

// The sixteen byte positions at `at` (64-byte aligned storage), widened to
// dwords and moved by `offset`. (The maskz_ form with every lane: GCC 12
// warns of the plain form's undefined source operand.)
[[TIERGATE_AVX512]] inline __m512i positions(const unsigned char* at, __m512i offset) {
  return _mm512_add_epi32(_mm512_maskz_cvtepu8_epi32(0xffff, _mm_load_si128(reinterpret_cast<const __m128i*>(at))), offset);
}

// emit_tokens() sixteen tokens at a time: the positions of a block's starts
// and ends gathered into bytes (VBMI2 compress), widened, and stored into
// the tokens' fields with masked stores. Stores past the block's tokens
// write fields of tokens that later blocks write again, within the room
// tokenize_blocks() made.
[[TIERGATE_AVX512]] inline void emit_tokens_avx512(const BlockTokens& b, TokenCursor& c) {
  const __m512i byte_index = _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45,
                                             44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26,
                                             25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6,
                                             5, 4, 3, 2, 1, 0);
  const __m512i lane_index = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  // Token j of four in a vector is dwords 4j (begin), 4j + 1 (end), 4j + 2
  // (flags) and 4j + 3 (padding). For the k-th four of sixteen tokens:
  // begins from the first source, flags from the second (index 16 + j).
  static_assert(sizeof(Token) == 16 && offsetof(Token, begin) == 0 && offsetof(Token, end) == 4 &&
                offsetof(Token, newline_before) == 8);
  constexpr __mmask16 kBeginsAndFlags = 0x5555, kEnds = 0x2222;
  alignas(64) unsigned char start_at[64], end_at[64];
  _mm512_store_si512(start_at, _mm512_maskz_compress_epi8(b.starts, byte_index));
  _mm512_store_si512(end_at, _mm512_maskz_compress_epi8(b.ends, byte_index));
  const auto starts = static_cast<size_t>(std::popcount(b.starts));
  const auto ends = static_cast<size_t>(std::popcount(b.ends));
  const uint64_t newline_bits = _pext_u64(b.newline_starts, b.starts);
  const uint64_t marked_bits = _pext_u64(b.marked, b.starts);
  const __m512i base = _mm512_set1_epi32(static_cast<int>(b.base));
  for (size_t at = 0; at < starts; at += 16) {
    const __m512i begin = positions(start_at + at, base);
    const auto newline = static_cast<__mmask16>(newline_bits >> at);
    const auto marked = static_cast<__mmask16>(marked_bits >> at);
    const __m512i flags = _mm512_or_si512(_mm512_maskz_mov_epi32(newline, _mm512_set1_epi32(1)),
                                          _mm512_maskz_mov_epi32(marked, _mm512_set1_epi32(0x100)));
    for (size_t k = 0; k < 4 && at + 4 * k < starts; ++k) {
      const auto j = static_cast<int>(4 * k);
      const __m512i order = _mm512_set_epi32(0, 16 + j + 3, 0, j + 3, 0, 16 + j + 2, 0, j + 2, 0, 16 + j + 1, 0, j + 1,
                                             0, 16 + j, 0, j);
      _mm512_mask_storeu_epi32(c.tokens + c.count + at + 4 * k, kBeginsAndFlags,
                               _mm512_permutex2var_epi32(begin, order, flags));
    }
    const __m512i index = _mm512_add_epi32(lane_index, _mm512_set1_epi32(static_cast<int>(c.count + at)));
    _mm512_storeu_si512(c.marked_at + c.marked_count, _mm512_maskz_compress_epi32(marked, index));
    c.marked_count += static_cast<size_t>(std::popcount(static_cast<unsigned>(marked)));
    _mm512_storeu_si512(c.line_starts_at + c.line_count, _mm512_maskz_compress_epi32(newline, index));
    c.line_count += static_cast<size_t>(std::popcount(static_cast<unsigned>(newline)));
  }
  const __m512i after = _mm512_set1_epi32(static_cast<int>(b.base + 1));
  for (size_t at = 0; at < ends; at += 16) {
    const __m512i end = positions(end_at + at, after);
    for (size_t k = 0; k < 4 && at + 4 * k < ends; ++k) {
      const auto j = static_cast<int>(4 * k);
      const __m512i order = _mm512_set_epi32(0, 0, j + 3, 0, 0, 0, j + 2, 0, 0, 0, j + 1, 0, 0, 0, j, 0);
      // (maskz_ with every lane, as in positions().)
      _mm512_mask_storeu_epi32(c.tokens + c.ended + at + 4 * k, kEnds, _mm512_maskz_permutexvar_epi32(0xffff, order, end));
    }
  }
  c.count += starts;
  c.ended += ends;
}

[[TIERGATE_AVX512]] bool tokenize_avx512(std::string_view text, TokenList& out, IndexList& marked, IndexList& line_starts) {
  return tokenize_blocks<block_masks_avx512, emit_tokens_avx512>(text, out, marked, line_starts);
}
#undef TIERGATE_AVX512

bool cpu_has_avx512_tokenizer() {
  static const bool has = pii_scan::cpu_has_avx512bw() && __builtin_cpu_supports("avx512vbmi2") != 0 &&
                          __builtin_cpu_supports("bmi2") != 0;
  return has;
}

[[gnu::target("avx2")]] bool tokenize_avx2(std::string_view text, TokenList& out, IndexList& marked,
                                            IndexList& line_starts) {
  return tokenize_blocks<block_masks_avx2, emit_tokens>(text, out, marked, line_starts);
}
#endif

}  // namespace

bool tokenize(std::string_view text, TokenList& out, IndexList& marked, IndexList& line_starts) {
#if defined(__x86_64__)
  static const bool avx512 = cpu_has_avx512_tokenizer();
  if (avx512) return tokenize_avx512(text, out, marked, line_starts);
#endif
  return tokenize_without_avx512(text, out, marked, line_starts);
}

bool tokenize(std::string_view text, TokenList& out, IndexList& marked) {
  thread_local IndexList line_starts;
  return tokenize(text, out, marked, line_starts);
}

bool tokenize_without_avx512(std::string_view text, TokenList& out, IndexList& marked, IndexList& line_starts) {
#if defined(__x86_64__)
  static const bool avx2 = pii_scan::cpu_has_avx2();
  if (avx2) return tokenize_avx2(text, out, marked, line_starts);
#endif
  return tokenize_without_avx2(text, out, marked, line_starts);
}

bool tokenize_without_avx2(std::string_view text, TokenList& out, IndexList& marked, IndexList& line_starts) {
  return tokenize_blocks<block_masks, emit_tokens>(text, out, marked, line_starts);
}

}  // namespace tiergate::pii_tokens
