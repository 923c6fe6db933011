// Ages and ZIP codes: numbers that only the words around them make personal
// data. A bare "45" or "12345" is not flagged; "45 years old", "aged 45",
// "a 45-year-old" and "zip code 12345" are.
#include <array>

#include "scan.h"

namespace tiergate::pii_scan {
namespace {

// Words that make the number after them (on the same line, within a few
// words) an age or a ZIP code.
constexpr std::array<std::string_view, 3> kAgeWordsBefore = {"age", "aged", "ages"};
constexpr std::array<std::string_view, 5> kZipWordsBefore = {"zip", "zipcode", "zip-code", "postcode", "postal"};

// Whether an age phrase follows the number ending at e: "years old",
// "year old", "-year-old", "yrs old", "years of age", "y/o", "yo".
bool age_after(const Scan& s, size_t e) {
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
  if (len <= 3 && value >= 1 && value <= 129 && (age_after(s, we) || s.keyword_before(ws, 16, kAgeWordsBefore))) {
    s.add(PiiType::kAge, ws, we);
    return;
  }
  if (len == 5 && s.keyword_before(ws, 24, kZipWordsBefore)) {
    size_t end = we;
    if (s.at(end) == '-' && s.digit(end + 1) && s.digit(end + 4) && !s.word(end + 5)) {
      int plus4 = 0;
      if (s.read_number(end + 1, 5, plus4) == 4) end += 5;  // ZIP+4
    }
    if (!s.word(end)) s.add(PiiType::kZipCode, ws, end);
  }
}

}  // namespace tiergate::pii_scan
