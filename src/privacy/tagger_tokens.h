// The tokens the PII tagger (pii_tagger.cc) reads: words (runs of letters
// and digits, any byte >= 0x80 counting as a letter, with an apostrophe
// inside one included: "O'Brien", "don't") and single marks; white space
// (space, tab, CR, LF) separates and is noted when it holds a line break.
// Private to the privacy module.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string_view>
#include <utility>
#include <vector>

namespace tiergate::pii_tokens {

// No default member initialisers: TokenList grows without writing them.
// Sixteen bytes, so that indexing and size() take shifts, not divisions.
struct alignas(16) Token {
  uint32_t begin, end;  // byte offsets, end exclusive
  bool newline_before;  // a line feed between the previous token (or the start) and this one
  bool marked;          // it opens with a capital, a digit or a byte >= 0x80, but not as opens_unmarked() says
};
// tokenize() writes both flags with one store.
static_assert(offsetof(Token, marked) == offsetof(Token, newline_before) + 1);

// An allocator whose resize() leaves new elements default-initialised (for
// Token and uint32_t: unwritten), so that tokenize() can make room for a
// block's tokens and write them through a pointer.
template <class T>
struct UninitialisedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitialisedAllocator<U>;
  };
  UninitialisedAllocator() = default;
  template <class U>
  UninitialisedAllocator(const UninitialisedAllocator<U>&) noexcept {}
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0) {
      ::new (static_cast<void*>(p)) U;
    } else {
      ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
  }
};

using TokenList = std::vector<Token, UninitialisedAllocator<Token>>;
using IndexList = std::vector<uint32_t, UninitialisedAllocator<uint32_t>>;

// Whether a byte belongs to words.
constexpr bool is_word_byte(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

// The case of a letter of the Latin Extended blocks that Central European
// and Vietnamese text writes (U+0100-U+017F, U+01A0, U+01A1, U+01AF, U+01B0,
// U+1E00-U+1EFF), by code point: kNoLatinExtendedLetter for any other.
enum class LatinExtendedCase { kNoLatinExtendedLetter, kCapital, kSmall };
constexpr LatinExtendedCase latin_extended_case(uint32_t cp) {
  using enum LatinExtendedCase;
  if (cp >= 0x100 && cp <= 0x17f) {
    // Pairs, the capital first ("Đ", "đ"), but in U+0139-U+0148 and
    // U+0179-U+017E, where the capital is odd ("Ł", "ł"); "ĸ", "ŉ" and "ſ"
    // are small, "Ÿ" capital.
    if (cp == 0x138 || cp == 0x149 || cp == 0x17f) return kSmall;
    if (cp == 0x178) return kCapital;
    const bool odd_capitals = (cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17e);
    return (cp % 2 == 1) == odd_capitals ? kCapital : kSmall;
  }
  if (cp == 0x1a0 || cp == 0x1af) return kCapital;  // "Ơ", "Ư"
  if (cp == 0x1a1 || cp == 0x1b0) return kSmall;    // "ơ", "ư"
  if (cp >= 0x1e00 && cp <= 0x1eff) {
    // Pairs, the capital first ("Ộ", "ộ"), but U+1E96-U+1E9D and U+1E9F,
    // small, and "ẞ".
    if ((cp >= 0x1e96 && cp <= 0x1e9d) || cp == 0x1e9f) return kSmall;
    return cp % 2 == 0 ? kCapital : kSmall;
  }
  return kNoLatinExtendedLetter;
}

// The case of the Latin Extended letter (latin_extended_case()) that the n
// bytes at s open with. Out of line: such letters are rare, and inlined
// this grows the callers past what GCC inlines into the tagger's loop.
[[gnu::noinline]] constexpr LatinExtendedCase opening_latin_extended_case(const unsigned char* s, size_t n) {
  if (n >= 2 && s[0] >= 0xc4 && s[0] <= 0xc6 && (s[1] & 0xc0) == 0x80) {
    return latin_extended_case((uint32_t{s[0]} & 0x1f) << 6 | (uint32_t{s[1]} & 0x3f));
  }
  if (n >= 3 && s[0] == 0xe1 && s[1] >= 0xb8 && s[1] <= 0xbb && (s[2] & 0xc0) == 0x80) {
    return latin_extended_case(0x1000 | (uint32_t{s[1]} & 0x3f) << 6 | (uint32_t{s[2]} & 0x3f));
  }
  return LatinExtendedCase::kNoLatinExtendedLetter;
}

// Whether the n bytes at s (n >= 1) open with a small letter of two UTF-8
// bytes: Latin-1 ("é", "ß", not "÷"), Greek ("ά" to "ώ") or Cyrillic ("а"
// to "џ"); or a small letter of the Latin Extended blocks
// (latin_extended_case(): "ł", "đ"; "ộ" of U+1E00-U+1EFF in three bytes).
// Other scripts' letters count as no small letter.
constexpr bool opens_with_a_small_letter(const unsigned char* s, size_t n) {
  if (n < 2 || (s[1] & 0xc0) != 0x80) return false;
  const unsigned char c = s[1];
  switch (s[0]) {
    case 0xc3: return c >= 0x9f && c != 0xb7;  // U+00DF-U+00FF but U+00F7
    case 0xce: return c >= 0xac;               // U+03AC-U+03BF
    case 0xcf: return c <= 0x8e;               // U+03C0-U+03CE
    case 0xd0: return c >= 0xb0;               // U+0430-U+043F
    case 0xd1: return c <= 0x9f;               // U+0440-U+045F
    case 0xc4:
    case 0xc5:
    case 0xc6:
    case 0xe1: return opening_latin_extended_case(s, n) == LatinExtendedCase::kSmall;
    default: return false;
  }
}

// The length in bytes of the mark that the n bytes at s open with: a quote
// mark, dash or other general punctuation (U+2010-U+203F: "“", "’", "–",
// "…"), a guillemet ("«", "»") or a no-break space (U+00A0); 0 when they
// open with none. These are bytes >= 0x80, so the tokenizer counts them
// into the word they touch ("“acting").
constexpr size_t mark_length(const unsigned char* s, size_t n) {
  if (n >= 3 && s[0] == 0xe2 && s[1] == 0x80 && s[2] >= 0x90 && s[2] <= 0xbf) return 3;
  if (n >= 2 && s[0] == 0xc2 && (s[1] == 0xab || s[1] == 0xbb || s[1] == 0xa0)) return 2;
  return 0;
}

// The length in bytes of the mark the n bytes at s open with that is no
// part of a word, whatever touches it: a dash (U+2014, U+2015), a quote
// mark (U+2018, U+2019, U+201B-U+201F), a bullet, dagger or ellipsis
// (U+2020-U+2027), other general punctuation (U+2030, U+2031,
// U+2038-U+203E: "‰", "‹", "›", "‼") or a guillemet ("«", "»"); 0 when they
// open with none. Prose glues these to the words around them ("the
// winner—Maria Lopez—was", "“Remote", "Lopez…"), where a name must be a
// token of its own. Not the hyphens and the figure and en dashes
// (U+2010-U+2013: "Jean‐Pierre", "Lopez–Garcia", "1990–1995"), which join
// words as "-" does; nor the primes (U+2032-U+2037: "5′ end"), which a
// number or letter holds; nor "‚" (U+201A), which text decoded in the
// wrong character set holds ("‚Äúword‚Äù"); nor a no-break space.
constexpr size_t separate_mark_length(const unsigned char* s, size_t n) {
  if (n >= 3 && s[0] == 0xe2 && s[1] == 0x80 &&
      ((s[2] >= 0x94 && s[2] <= 0x95) || (s[2] >= 0x98 && s[2] <= 0xa7 && s[2] != 0x9a) || s[2] == 0xb0 ||
       s[2] == 0xb1 || (s[2] >= 0xb8 && s[2] <= 0xbe))) {
    return 3;
  }
  if (n >= 2 && s[0] == 0xc2 && (s[1] == 0xab || s[1] == 0xbb)) return 2;
  return 0;
}

// The length of the token that a separate_mark_length() mark opening at byte
// i of the n bytes at p is; 0 where none opens there, or where a word holds
// it: an opening quote mark (U+2018, U+201B, U+201C, U+201E, U+201F) after
// a word byte, which Uzbek writes inside words ("Mo‘min") and text decoded
// in the wrong character set glues to bytes it misread ("ג€“"), and a right
// single quote ("’", U+2019) between word bytes, as "'" ("Lopez’s",
// "don’t"). A word byte next to it counts only where no such mark ends or
// opens there ("a’’s" is four tokens).
constexpr size_t separate_mark_at(const unsigned char* p, size_t n, size_t i) {
  const size_t length = separate_mark_length(p + i, n - i);
  if (length != 3) return length;
  const unsigned char c = p[i + 2];
  const bool opening = c == 0x98 || c == 0x9b || c == 0x9c || c == 0x9e || c == 0x9f;
  if (!opening && c != 0x99) return length;
  const bool word_before = i > 0 && is_word_byte(p[i - 1]) && !(i >= 3 && separate_mark_length(p + i - 3, 3) == 3) &&
                           !(i >= 2 && separate_mark_length(p + i - 2, 2) == 2);
  if (opening) return word_before ? 0 : length;
  const bool word_after = i + 3 < n && is_word_byte(p[i + 3]) && separate_mark_length(p + i + 3, n - i - 3) == 0;
  return word_before && word_after ? 0 : length;
}

// Whether the n bytes of a token are a dash, a quote mark, an ellipsis or a
// guillemet of separate_mark_length(): marks that end a clause or a quote,
// which no name runs over (not a bullet: "(Bj • Sl)" of a formula).
constexpr bool clause_mark(const unsigned char* s, size_t n) {
  // The dashes and quote marks are U+2014-U+201F, the ellipsis U+2026.
  return separate_mark_length(s, n) == n && (n == 2 || s[2] <= 0x9f || s[2] == 0xa6);
}

// Whether the token that opens with a byte >= 0x80 at byte i of the n
// bytes at p (no separate_mark_at() mark) is no more marked than a word of
// small letters: it opens with a small letter of two bytes, or with marks
// (mark_length()) before no capital, digit or other byte >= 0x80 that opens
// no small letter ("–acting", "”" of a word's end, "–" before "“"; not
// "–Remote", "–Éric", nor "Paris" after a dash and a no-break space).
constexpr bool opens_unmarked(const unsigned char* p, size_t n, size_t i) {
  size_t at = i;
  while (at < n && separate_mark_at(p, n, at) == 0) {
    const size_t mark = mark_length(p + at, n - at);
    if (mark == 0) break;
    at += mark;
  }
  if (at == n || separate_mark_at(p, n, at) != 0) return true;
  const unsigned char c = p[at];
  if (c < 0x80) return at > i && !((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'));
  return opens_with_a_small_letter(p + at, n - at);
}

// Whether the n bytes at s (n >= 1) open with a capital of two UTF-8 bytes,
// the counterpart of opens_with_a_small_letter(): Latin-1 ("É", not "×"),
// Greek ("Α" to "Ω") or Cyrillic ("Ѐ" to "Я"); or a capital of the Latin
// Extended blocks ("Ł", "Đ"; "Ộ" in three bytes).
constexpr bool opens_with_a_capital_letter(const unsigned char* s, size_t n) {
  if (n < 2 || (s[1] & 0xc0) != 0x80) return false;
  const unsigned char c = s[1];
  switch (s[0]) {
    case 0xc3: return c <= 0x9e && c != 0x97;  // U+00C0-U+00DE but U+00D7
    case 0xce: return c >= 0x91 && c <= 0xa9;  // U+0391-U+03A9
    case 0xd0: return c <= 0xaf;               // U+0400-U+042F
    case 0xc4:
    case 0xc5:
    case 0xc6:
    case 0xe1: return opening_latin_extended_case(s, n) == LatinExtendedCase::kCapital;
    default: return false;
  }
}

// Whether the n bytes at s (n >= 1) open with a letter of a script without
// capitals, or with a sign written with such text: in two UTF-8 bytes a
// Hebrew letter (U+05D0-U+05F4) or an Arabic one (U+0620-U+064A,
// U+066E-U+06D3, U+06D5, U+06FA-U+06FF); in three, a letter or sign of the
// Indic scripts, Sinhala, Thai or Lao (U+0900-U+0EFF), CJK symbols and
// punctuation ("。", "【", U+3000-U+303F), kana (U+3040-U+30FF), a CJK
// ideograph (U+3400-U+4DBF, U+4E00-U+9FFF), Hangul (U+AC00-U+D7A3), or a
// fullwidth sign ("（", "，"; U+FF01-U+FF0F, U+FF1A-U+FF20, U+FF3B-U+FF40,
// U+FF5B-U+FF65: not the fullwidth digits and letters). Such signs stick to
// the text they mark (every byte >= 0x80 is a word byte): "（1）报告".
constexpr bool opens_with_a_caseless_letter(const unsigned char* s, size_t n) {
  if (n >= 2 && s[0] >= 0xd7 && s[0] <= 0xdb && (s[1] & 0xc0) == 0x80) {
    const uint32_t cp = (uint32_t{s[0]} & 0x1f) << 6 | (uint32_t{s[1]} & 0x3f);
    return (cp >= 0x5d0 && cp <= 0x5f4) || (cp >= 0x620 && cp <= 0x64a) || (cp >= 0x66e && cp <= 0x6d3) ||
           cp == 0x6d5 || cp >= 0x6fa;
  }
  if (n < 3 || (s[0] & 0xf0) != 0xe0 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80) return false;
  const uint32_t cp = (uint32_t{s[0]} & 0x0f) << 12 | (uint32_t{s[1]} & 0x3f) << 6 | (uint32_t{s[2]} & 0x3f);
  const bool fullwidth_sign = (cp >= 0xff01 && cp <= 0xff0f) || (cp >= 0xff1a && cp <= 0xff20) ||
                              (cp >= 0xff3b && cp <= 0xff40) || (cp >= 0xff5b && cp <= 0xff65);
  return (cp >= 0x900 && cp <= 0xeff) || (cp >= 0x3000 && cp <= 0x30ff) || (cp >= 0x3400 && cp <= 0x4dbf) ||
         (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xac00 && cp <= 0xd7a3) || fullwidth_sign;
}

[[gnu::noinline]] inline bool opens_with_a_caseless_letter_out_of_line(const unsigned char* s, size_t n) {
  return opens_with_a_caseless_letter(s, n);
}

// Whether a letter or sign of opens_with_a_caseless_letter() stands
// anywhere in the n bytes at s: after marks ("“百县"), digits ("2024年") or
// letters ("Q方法").
inline bool holds_a_caseless_letter(const unsigned char* s, size_t n) {
  for (size_t k = 0; k + 1 < n; ++k) {
    // (One compare for the ASCII bytes of most tokens; the rest out of
    // line, as the decoder asks this of every token it reads.)
    if (s[k] >= 0xd7 && opens_with_a_caseless_letter_out_of_line(s + k, n - k)) return true;
  }
  return false;
}

// Replaces `out` with the tokens of `text` (shorter than 4 GiB), in order,
// `marked` with the indices in `out` of the marked tokens, and
// `line_starts` with those of the tokens with newline_before (the first
// tokens of the lines after the first). It runs over every byte of every
// message the gateway scans: 64 bytes at a time as bit masks (SSE2, AVX2 or
// AVX-512 as the CPU has them): with AVX-512 (and VBMI2, BMI2), sixteen
// tokens at a time, else one step per token. Returns whether the text holds
// a byte >= 0x80: no token of a text without one holds_a_caseless_letter().
bool tokenize(std::string_view text, TokenList& out, IndexList& marked, IndexList& line_starts);

// The same without the lines' first tokens (training, the word lists).
bool tokenize(std::string_view text, TokenList& out, IndexList& marked);

// The same without AVX-512, as a CPU without it runs it (for tests).
bool tokenize_without_avx512(std::string_view text, TokenList& out, IndexList& marked, IndexList& line_starts);

// The same without AVX2, as a CPU without it runs it (for tests).
bool tokenize_without_avx2(std::string_view text, TokenList& out, IndexList& marked, IndexList& line_starts);

}  // namespace tiergate::pii_tokens
