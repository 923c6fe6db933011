#include "plain_text.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstddef>
#include <cstring>
#include <numeric>
#include <string_view>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "scan.h"

namespace tiergate::pii_scan {
namespace {

// The plain form of the character at s[0..n), n >= 2 bytes left: its length
// in the text and the ASCII it stands for ('\0' to remove it), or length 0
// when it is none of them.
struct Plain {
  size_t length = 0;
  char ascii = '\0';
};

// An "@" written as a URL writes it ("%40": "mailto:jane%40example.com",
// "?email=jane%40example.com") or as HTML does ("&#64;", "&#x40;",
// "&commat;"), at s[0..n).
Plain encoded_at_sign(const unsigned char* s, size_t n) {
  const std::string_view rest(reinterpret_cast<const char*>(s), std::min<size_t>(n, 8));
  for (const std::string_view form : {"%40", "&#64;", "&#x40;", "&#X40;", "&commat;"}) {
    if (rest.starts_with(form)) return {form.size(), '@'};
  }
  return {};
}

Plain plain_at(const unsigned char* s, size_t n) {
  if (s[0] == '%' || s[0] == '&') return encoded_at_sign(s, n);
  if (s[0] == 0xc2) {
    if (s[1] == 0xa0) return {2, ' '};   // U+00A0 no-break space
    if (s[1] == 0xad) return {2, '\0'};  // U+00AD soft hyphen
    return {};
  }
  if (n < 3) return {};
  if (s[0] == 0xe2 && s[1] == 0x80) {
    switch (s[2]) {
      case 0x87: return {3, ' '};   // U+2007 figure space
      case 0x8b:                    // U+200B zero-width space
      case 0x8c:                    // U+200C zero-width non-joiner
      case 0x8d: return {3, '\0'};  // U+200D zero-width joiner
      case 0x90:                    // U+2010 hyphen
      case 0x91:                    // U+2011 non-breaking hyphen
      case 0x93: return {3, '-'};   // U+2013 en dash
      case 0xaf: return {3, ' '};   // U+202F narrow no-break space
      default: return {};
    }
  }
  if (s[0] == 0xe2 && s[1] == 0x81 && s[2] == 0xa0) return {3, '\0'};  // U+2060 word joiner
  if (s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf) return {3, '\0'};  // U+FEFF
  if (s[0] == 0xef && s[1] == 0xbc) {
    if (s[2] >= 0x90 && s[2] <= 0x99) return {3, static_cast<char>('0' + (s[2] - 0x90))};  // U+FF10-FF19
    if (s[2] == 0xa0) return {3, '@'};                                                       // U+FF20
  }
  return {};
}

// The bytes a character to make plain opens with.
bool is_lead_byte(unsigned char c) { return c == 0xc2 || c == 0xe2 || c == 0xef || c == '%' || c == '&'; }

// Bit k set where byte k of the 16 at s is a lead byte: SSE2 on x86-64
// (every such CPU has it), byte by byte elsewhere. A block's plain bytes
// cost a few instructions, and only its lead bytes are read one at a time
// (most texts' lead bytes are other characters' starts: "’", "&&").
#if defined(__x86_64__)
uint32_t lead_bytes_of_block(const unsigned char* s) {
  const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
  const __m128i hit = _mm_or_si128(
      _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(static_cast<char>(0xc2))),
                                _mm_cmpeq_epi8(x, _mm_set1_epi8(static_cast<char>(0xe2)))),
                   _mm_cmpeq_epi8(x, _mm_set1_epi8(static_cast<char>(0xef)))),
      _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('%')), _mm_cmpeq_epi8(x, _mm_set1_epi8('&'))));
  return static_cast<uint32_t>(_mm_movemask_epi8(hit));
}
#else
uint32_t lead_bytes_of_block(const unsigned char* s) {
  uint32_t bits = 0;
  for (unsigned k = 0; k < 16; ++k) bits |= uint32_t{is_lead_byte(s[k])} << k;
  return bits;
}
#endif

#if defined(__x86_64__)
// The same of the 32 bytes at s, with AVX2.
[[gnu::target("avx2")]] uint32_t lead_bytes_of_block32(const unsigned char* s) {
  const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s));
  const __m256i hit = _mm256_or_si256(
      _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8(static_cast<char>(0xc2))),
                                      _mm256_cmpeq_epi8(x, _mm256_set1_epi8(static_cast<char>(0xe2)))),
                      _mm256_cmpeq_epi8(x, _mm256_set1_epi8(static_cast<char>(0xef)))),
      _mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('%')), _mm256_cmpeq_epi8(x, _mm256_set1_epi8('&'))));
  return static_cast<uint32_t>(_mm256_movemask_epi8(hit));
}
#endif

// The offset of the next character at or after `from` to make plain, and
// its plain form; n when there is none. (A character opens before the
// last byte: it is two bytes or more.)
size_t next_to_make_plain(const unsigned char* s, size_t n, size_t from, Plain& plain) {
  // The first of a block's lead bytes at k (bit i: byte k + i) that opens a
  // character to make plain; n when none does.
  auto first_in_block = [&](size_t k, uint32_t leads) {
    for (; leads != 0; leads &= leads - 1) {
      const size_t at = k + static_cast<size_t>(std::countr_zero(leads));
      if (at + 1 >= n) return n;
      plain = plain_at(s + at, n - at);
      if (plain.length != 0) return at;
    }
    return n;
  };
  size_t k = from;
#if defined(__x86_64__)
  static const bool avx2 = cpu_has_avx2();
  for (; avx2 && k + 32 <= n; k += 32) {
    if (const size_t at = first_in_block(k, lead_bytes_of_block32(s + k)); at != n) return at;
  }
#endif
  for (; k + 16 <= n; k += 16) {
    if (const size_t at = first_in_block(k, lead_bytes_of_block(s + k)); at != n) return at;
  }
  for (; k + 1 < n; ++k) {
    if (is_lead_byte(s[k])) {
      plain = plain_at(s + k, n - k);
      if (plain.length != 0) return k;
    }
  }
  return n;
}

}  // namespace

std::string_view plain_text(std::string_view text, PlainText& plain) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  Plain next;
  size_t at = next_to_make_plain(s, n, 0, next);
  if (at == n) return text;
  plain.text.clear();
  plain.offset.clear();
  // The bytes before each such character as they are, then its plain form.
  for (size_t k = 0;;) {
    plain.text.append(text, k, at - k);
    const size_t filled = plain.offset.size();
    plain.offset.resize(filled + (at - k));
    std::iota(plain.offset.begin() + static_cast<std::ptrdiff_t>(filled), plain.offset.end(), static_cast<uint32_t>(k));
    if (at == n) break;
    if (next.ascii != '\0') {
      plain.text += next.ascii;
      plain.offset.push_back(static_cast<uint32_t>(at));
    }
    k = at + next.length;
    at = next_to_make_plain(s, n, k, next);
  }
  plain.offset.push_back(static_cast<uint32_t>(n));
  return plain.text;
}

}  // namespace tiergate::pii_scan
