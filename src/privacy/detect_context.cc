// Ages and ZIP codes: numbers that only the words around them make personal
// data. A bare "45" or "12345" is not flagged; "45 years old", "aged 45",
// "a 45-year-old" and "zip code 12345" are.
#include <algorithm>
#include <array>

#include "scan.h"

namespace tiergate::pii_scan {
namespace {

// Words that make the number after them an age or a ZIP code, and the words
// that may stand between ("at the age of 45", "zip code is 94103").
constexpr std::array<std::string_view, 3> kAgeWordsBefore = {"age", "aged", "ages"};
constexpr std::array<std::string_view, 4> kZipWordsBefore = {"zip", "zipcode", "postcode", "postal"};
constexpr std::array<std::string_view, 5> kFillers = {"of", "is", "was", "code", "number"};

// Whether a word of `cues` comes right before the number at `ws`, past at
// most two filler words, with only blanks and ':' '-' '#' '(' between words
// (so on the same line). Reads a few bytes back: this runs for every short
// number in the text.
template <size_t N>
bool cue_before(const Scan& s, size_t ws, const std::array<std::string_view, N>& cues) {
  size_t at = ws;
  for (int hop = 0; hop < 3; ++hop) {
    size_t gap = 0;
    while (at > 0 && gap < 3) {
      const unsigned char c = s.at(at - 1);
      if (!s.blank(at - 1) && c != ':' && c != '-' && c != '#' && c != '(') break;
      --at;
      ++gap;
    }
    size_t begin = at;
    while (begin > 0 && at - begin <= 9 && s.alpha(begin - 1)) --begin;
    if (begin == at || (begin > 0 && s.alnum(begin - 1))) return false;
    auto is = [&](std::string_view word) { return at - begin == word.size() && s.matches(begin, word); };
    if (std::any_of(cues.begin(), cues.end(), is)) return true;
    if (!std::any_of(kFillers.begin(), kFillers.end(), is)) return false;
    at = begin;
  }
  return false;
}

// Whether an age phrase follows the number ending at e: "years old",
// "year old", "-year-old", "yrs old", "years of age", "y/o", "yo".
bool age_after(const Scan& s, size_t e) {
  // Cheap test first: a 'y' within two bytes.
  if ((s.at(e + 1) | 0x20) != 'y' && (s.at(e + 2) | 0x20) != 'y') return false;
  size_t i = e;
  if (s.at(i) == '-') {
    ++i;
  } else {
    while (i < e + 2 && s.blank(i)) ++i;
  }
  for (std::string_view unit : {"years", "year", "yrs", "yr"}) {
    if (!s.matches_word(i, unit)) continue;
    size_t j = i + unit.size();
    if (s.at(j) == '-') {
      ++j;
    } else {
      while (j < i + unit.size() + 2 && s.blank(j)) ++j;
    }
    return s.matches_word(j, "old") || s.matches(j, "of age");
  }
  return s.matches_word(i, "y/o") || s.matches(i, "y/o") || s.matches_word(i, "yo");
}

}  // namespace

void detect_context_number(Scan& s, size_t ws, size_t we) {
  if (!s.numeric_left_ok(ws)) return;
  int value = 0;
  const size_t len = s.read_number(ws, 6, value);
  if (ws + len != we) return;
  if (len <= 3 && value >= 1 && value <= 129 && (age_after(s, we) || cue_before(s, ws, kAgeWordsBefore))) {
    s.add(PiiType::kAge, ws, we);
    return;
  }
  if (len == 5 && cue_before(s, ws, kZipWordsBefore)) {
    size_t end = we;
    if (s.at(end) == '-' && s.digit(end + 1) && s.digit(end + 4) && !s.word(end + 5)) {
      int plus4 = 0;
      if (s.read_number(end + 1, 5, plus4) == 4) end += 5;  // ZIP+4
    }
    if (!s.word(end)) s.add(PiiType::kZipCode, ws, end);
  }
}

}  // namespace tiergate::pii_scan
