#include "plain_text.h"

#include <cstddef>
#include <cstring>
#include <numeric>

namespace tiergate::pii_scan {
namespace {

// The plain form of the character at s[0..n), n >= 2 bytes left: its length
// in the text and the ASCII it stands for ('\0' to remove it), or length 0
// when it is none of them.
struct Plain {
  size_t length = 0;
  char ascii = '\0';
};

Plain plain_at(const unsigned char* s, size_t n) {
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

// Whether one of the eight bytes of `word` is 0xc2, 0xe2 or 0xef, the bytes
// those characters open with (a byte equal to b leaves a zero byte in
// word ^ b, which the usual test finds).
bool holds_a_lead_byte(uint64_t word) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL, kHighs = 0x8080808080808080ULL;
  auto zero_byte = [](uint64_t x) { return ((x - kOnes) & ~x & kHighs) != 0; };
  return (word & kHighs) != 0 &&
         (zero_byte(word ^ (0xc2 * kOnes)) || zero_byte(word ^ (0xe2 * kOnes)) || zero_byte(word ^ (0xef * kOnes)));
}

// The offset of the next character at or after `from` to make plain, and
// its plain form; n when there is none.
size_t next_to_make_plain(const unsigned char* s, size_t n, size_t from, Plain& plain) {
  for (size_t k = from; k + 1 < n;) {
    if (k + 8 <= n) {
      uint64_t word;
      std::memcpy(&word, s + k, 8);
      if (!holds_a_lead_byte(word)) {
        k += 8;
        continue;
      }
    }
    if (s[k] == 0xc2 || s[k] == 0xe2 || s[k] == 0xef) {
      plain = plain_at(s + k, n - k);
      if (plain.length != 0) return k;
    }
    ++k;
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
