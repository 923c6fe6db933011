// Ages, ZIP codes, postcodes and address units: numbers that only the
// words around them make personal data. A bare "45" or "12345" is not
// flagged; "45 years old", "aged 45", "a 45-year-old", "she turned 66 last
// week", "my father is 35 and", "her 50th birthday", "zip code 12345", "the
// weather in 94103 today", "postcode SW1A 1AA", "Apt. 217", "Apartment
// 5C" and "P.O. Box 101" are.
#include <algorithm>
#include <array>
#include <string_view>

#include "scan.h"

namespace tiergate::pii_scan {
namespace {

// Words that make the number after them an age or a ZIP code, and the words
// that may stand between ("at the age of 45", "zip code is 94103").
constexpr std::array<std::string_view, 3> kAgeWordsBefore = {"age", "aged", "ages"};
constexpr std::array<std::string_view, 4> kZipWordsBefore = {"zip", "zipcode", "postcode", "postal"};
// Before a postcode of letters and digits also "post code" and Ireland's
// "eircode" ("post" alone is no cue before a ZIP code of digits).
constexpr std::array<std::string_view, 6> kPostcodeWordsBefore = {"zip", "zipcode", "postcode", "postal", "post",
                                                                  "eircode"};
constexpr std::array<std::string_view, 5> kFillers = {"of", "is", "was", "code", "number"};
// A number is an age after these verbs ("she turned 66", "I'll turn 40."),
// and after a person and a copula ("he is 35", "my father was 80"), where
// the number ends its clause (ends_a_clause()): not "turned 90 degrees",
// "is 5 feet".
constexpr std::array<std::string_view, 4> kAgeVerbs = {"turn", "turned", "turns", "turning"};
// "turn" only after one of these ("I'll turn 40", "is about to turn 18"):
// alone it is more often a noun ("on turn 3.", "CH_TURN 3").
constexpr std::array<std::string_view, 5> kBeforeTurn = {"will", "ll", "to", "would", "shall"};
constexpr std::array<std::string_view, 3> kCopulas = {"is", "was", "am"};
constexpr std::array<std::string_view, 36> kPersons = {
    "he",      "she",     "i",        "father",    "mother",     "dad",         "mom",        "mum",
    "son",     "daughter", "wife",    "husband",   "brother",    "sister",      "grandmother", "grandfather",
    "grandma", "grandpa", "boy",      "girl",      "kid",        "child",       "baby",       "uncle",
    "aunt",    "niece",   "nephew",   "cousin",    "friend",     "boyfriend",   "girlfriend", "partner",
    "patient", "neighbor", "neighbour", "fiance"};
// "a girl of 12", "a man of 45": a person of an age (not "a father of 3").
constexpr std::array<std::string_view, 7> kPersonsOfAnAge = {"boy", "girl", "child", "man", "woman", "lady",
                                                             "gentleman"};
// A five-digit number after these words is a ZIP code where it ends its
// clause: "the weather in 94103 today", "restaurants near 10001?".
constexpr std::array<std::string_view, 3> kPlaceWordsBefore = {"in", "near", "around"};
// The words of an address unit before its number: "Apt. 217", "Suite #5".
constexpr std::array<std::string_view, 4> kUnitWords = {"apt", "apartment", "suite", "ste"};
// The words after a number that leave it ending its clause: "turned 66 last
// week", "is 35 and lives alone", "in 94103 today".
constexpr std::array<std::string_view, 16> kAfterClause = {
    "and", "but", "so",   "now",       "today", "tomorrow", "yesterday", "last",
    "this", "next", "when", "since",   "in",    "on",       "already",   "please"};

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
// "year old", "-year-old", "yrs old", "years of age", "y/o", "y.o.", "yo".
bool age_after(const Scan& s, size_t e) {
  // Cheap test first: a 'y' within two bytes.
  if ((s.at(e + 1) | 0x20) != 'y' && (s.at(e + 2) | 0x20) != 'y') return false;
  size_t i = e;
  if (s.at(i) == '-') {
    ++i;
  } else {
    while (i < e + 2 && s.blank(i)) ++i;
  }
  static constexpr std::array<std::string_view, 4> kYearUnits = {"years", "year", "yrs", "yr"};
  for (std::string_view unit : kYearUnits) {
    if (!s.matches_word(i, unit)) continue;
    size_t j = i + unit.size();
    if (s.at(j) == '-') {
      ++j;
    } else {
      while (j < i + unit.size() + 2 && s.blank(j)) ++j;
    }
    return s.matches_word(j, "old") || s.matches(j, "of age");
  }
  return s.matches(i, "y/o") || s.matches(i, "y.o.") || s.matches_word(i, "yo");
}

// The word that ends at `end` past at most three blanks or marks of `marks`
// (same line), of twelve letters at most; begin == end when there is none.
struct WordBefore {
  size_t begin = 0, end = 0;
};
WordBefore word_before(const Scan& s, size_t at, std::string_view marks) {
  for (size_t gap = 0; at > 0 && gap < 3; ++gap, --at) {
    const auto c = static_cast<char>(s.at(at - 1));
    if (!s.blank(at - 1) && marks.find(c) == std::string_view::npos) break;
  }
  size_t begin = at;
  while (begin > 0 && at - begin <= 11 && s.alpha(begin - 1)) --begin;
  if (begin > 0 && s.alnum(begin - 1)) return {at, at};
  return {begin, at};
}

bool is_word(const Scan& s, WordBefore w, std::string_view word) {
  return w.end - w.begin == word.size() && s.matches(w.begin, word);
}

template <size_t N>
bool is_one_of(const Scan& s, WordBefore w, const std::array<std::string_view, N>& words) {
  return std::any_of(words.begin(), words.end(), [&](std::string_view word) { return is_word(s, w, word); });
}

// Whether the number ending at e ends its clause: the text or the line ends,
// a mark that closes a clause follows (not a decimal point), or one of
// kAfterClause.
bool ends_a_clause(const Scan& s, size_t e) {
  size_t i = e;
  while (i < e + 2 && (s.at(i) == ' ' || s.at(i) == '\t')) ++i;
  const unsigned char c = s.at(i);
  if (c == 0 || c == '\n' || c == '\r' || c == ',' || c == ';' || c == '!' || c == '?' || c == ')') return true;
  if (c == '.') return !s.digit(i + 1);
  if (!s.alpha(i)) return false;
  return std::any_of(kAfterClause.begin(), kAfterClause.end(), [&](std::string_view w) { return s.matches_word(i, w); });
}

// Whether the two letters at i end an ordinal: "st", "nd", "rd", "th".
bool ordinal_suffix(const Scan& s, size_t i) {
  return s.matches(i, "st") || s.matches(i, "nd") || s.matches(i, "rd") || s.matches(i, "th");
}

// Whether "birthday" or "bday" follows the word ending at e, one byte apart
// ("35th birthday", "35th-birthday").
bool birthday_after(const Scan& s, size_t e) {
  return s.matches_word(e + 1, "birthday") || s.matches_word(e + 1, "bday");
}

// Whether the number [ws, we) is set off after a person of kPersons but the
// pronouns, as news and notes write an age: "her son, 12, plays", "my
// daughter (9)", "the patient, 45." (not "the kids, 3 of them").
bool set_off_after_a_person(const Scan& s, size_t ws, size_t we) {
  const bool bracket = ws >= 2 && s.at(ws - 1) == '(' && s.blank(ws - 2) && s.at(we) == ')';
  const bool commas = ws >= 2 && s.blank(ws - 1) && s.at(ws - 2) == ',' &&
                      (s.at(we) == ',' || (s.at(we) == '.' && !s.digit(we + 1)));
  if (!bracket && !commas) return false;
  const WordBefore person = word_before(s, ws - 2, "");
  return person.end == ws - 2 && is_one_of(s, person, kPersons) && !is_word(s, person, "he") &&
         !is_word(s, person, "she") && !is_word(s, person, "i");
}

// Whether the number at ws follows a verb of kAgeVerbs, a person of
// kPersons and a copula ("he is", "I am", "my father was", "she's", "I'm"),
// or a person of kPersonsOfAnAge and "of" ("a girl of 12"). The first word
// it reads back must be one make_cue_word_shapes() notes: a number after any
// other is not asked.
bool age_cue_before(const Scan& s, size_t ws) {
  const WordBefore verb = word_before(s, ws, "");
  if (verb.begin == verb.end) return false;
  if (is_one_of(s, verb, kAgeVerbs)) {
    return !is_word(s, verb, "turn") || is_one_of(s, word_before(s, verb.begin, "'"), kBeforeTurn);
  }
  if (is_word(s, verb, "of")) return is_one_of(s, word_before(s, verb.begin, ""), kPersonsOfAnAge);
  WordBefore person;
  if (is_one_of(s, verb, kCopulas)) {
    person = word_before(s, verb.begin, "");
  } else if ((is_word(s, verb, "s") || is_word(s, verb, "m")) && s.at(verb.begin - 1) == '\'') {
    person = word_before(s, verb.begin - 1, "");  // "she's", "I'm"
  } else {
    return false;
  }
  return is_one_of(s, person, kPersons);
}

// An address unit ending at the number [ws, we): "Apt. 217", "Suite #5",
// "apartment 3", "P.O. Box 101", "PO Box 7"; the span from the unit's word
// (one make_cue_word_shapes() notes, as for age_cue_before()).
void detect_address_unit(Scan& s, size_t ws, size_t we) {
  const WordBefore unit = word_before(s, ws, ".#");
  if (unit.begin == unit.end) return;
  for (std::string_view word : kUnitWords) {
    if (is_word(s, unit, word)) return s.add(PiiType::kStreetAddress, unit.begin, we);
  }
  if (!is_word(s, unit, "box")) return;
  const WordBefore po = word_before(s, unit.begin, ".");
  if (is_word(s, po, "po")) return s.add(PiiType::kStreetAddress, po.begin, we);
  if (is_word(s, po, "o") && po.begin >= 2 && s.at(po.begin - 1) == '.' && (s.at(po.begin - 2) | 0x20) == 'p' &&
      !(po.begin >= 3 && s.alnum(po.begin - 3))) {
    return s.add(PiiType::kStreetAddress, po.begin - 2, we);
  }
}

// The lengths and first letters of the words a cue before a number opens
// with, read back from the number (the lists above, "of", the "s" of
// "she's", the "m" of "I'm", "box"): bit c of [n] for a word of n letters
// that opens with 'a' + c. After any other word no cue can match, and none
// of the readings back above is needed.
constexpr size_t kLongestCueWord = 9;  // "apartment"
constexpr std::array<uint32_t, kLongestCueWord + 1> make_cue_word_shapes() {
  std::array<uint32_t, kLongestCueWord + 1> shapes{};
  auto note = [&](std::string_view w) { shapes[w.size()] |= uint32_t{1} << (w[0] - 'a'); };
  for (std::string_view w : kAgeWordsBefore) note(w);
  for (std::string_view w : kZipWordsBefore) note(w);
  for (std::string_view w : kFillers) note(w);
  for (std::string_view w : kAgeVerbs) note(w);
  for (std::string_view w : kCopulas) note(w);
  for (std::string_view w : kPlaceWordsBefore) note(w);
  for (std::string_view w : kUnitWords) note(w);
  for (std::string_view w : {"of", "s", "m", "box"}) note(w);
  return shapes;
}
constexpr std::array<uint32_t, kLongestCueWord + 1> kCueWordShapes = make_cue_word_shapes();

// Whether the word of letters ending at `end` has the length and first
// letter of a cue word (kCueWordShapes).
bool may_be_a_cue_word(const Scan& s, size_t end) {
  size_t begin = end;
  while (begin > 0 && end - begin <= kLongestCueWord && s.alpha(begin - 1)) --begin;
  const size_t n = end - begin;
  if (n == 0 || n > kLongestCueWord) return false;
  return ((kCueWordShapes[n] >> (s.lower(begin) - 'a')) & 1) != 0;
}

}  // namespace

void detect_context_number(Scan& s, size_t ws, size_t we) {
  if (!s.numeric_left_ok(ws)) return;
  int value = 0;
  const size_t len = s.read_number(ws, 6, value);
  // Every cue before a number is a word: most numbers (in phone numbers,
  // dates, lists) have none within three bytes, and need no more reading.
  size_t j = ws;
  while (j > 0 && ws - j < 3 && (s.blank(j - 1) || s.at(j - 1) == '.' || s.at(j - 1) == ':' || s.at(j - 1) == '#' ||
                                 s.at(j - 1) == '-' || s.at(j - 1) == '(')) {
    --j;
  }
  // The cues' readings back (cue_before(), age_cue_before(), word_before())
  // also skip at most three bytes, each of some of these: where one of them
  // finds a word at all, it is the word that ends at j.
  const bool after_a_cue_word = j > 0 && s.alpha(j - 1) && may_be_a_cue_word(s, j);
  if (ws + len != we) {
    // An ordinal before "birthday": "her 50th birthday", "21st bday".
    if (ws + len + 2 == we && len <= 3 && value >= 1 && value <= 129 && ordinal_suffix(s, ws + len) &&
        birthday_after(s, we)) {
      s.add(PiiType::kAge, ws, ws + len);
    }
    // A unit's number with its letter: "Apartment 5C", "Suite 12B".
    if (after_a_cue_word && ws + len + 1 == we && len <= 4 && s.alpha(ws + len)) detect_address_unit(s, ws, we);
    return;
  }
  // An age may be a digit, a stop and a digit, a toddler's ("a 1.5 year
  // old", "she was 0.7."), not a longer dotted number ("1.5.2").
  const size_t age_end = len == 1 && s.at(we) == '.' && s.digit(we + 1) && !s.digit(we + 2) &&
                                 !(s.at(we + 2) == '.' && s.digit(we + 3))
                             ? we + 2
                             : we;
  if (len <= 3 && (value >= 1 || age_end != we) && value <= 129 &&
      (age_after(s, age_end) || (after_a_cue_word && cue_before(s, ws, kAgeWordsBefore)) ||
       (after_a_cue_word && age_cue_before(s, ws) && ends_a_clause(s, age_end)) ||
       (age_end == we && set_off_after_a_person(s, ws, we)))) {
    s.add(PiiType::kAge, ws, age_end);
    return;
  }
  if (!after_a_cue_word) return;
  detect_address_unit(s, ws, we);
  if (len == 5 && (cue_before(s, ws, kZipWordsBefore) ||
                   (is_one_of(s, word_before(s, ws, ""), kPlaceWordsBefore) && ends_a_clause(s, we)))) {
    size_t end = we;
    if (s.at(end) == '-' && s.digit(end + 1) && s.digit(end + 4) && !s.word(end + 5)) {
      int plus4 = 0;
      if (s.read_number(end + 1, 5, plus4) == 4) end += 5;  // ZIP+4
    }
    if (!s.word(end)) s.add(PiiType::kZipCode, ws, end);
  }
}

// Whether the outward code [ws, we) and the inward code one blank after it
// are a whole British or Canadian postcode in capitals, as the Royal Mail
// and Canada Post write them ("BS1 4DJ": the inward code's letters are none
// of C I K M O V; "M5V 3L9": no D F I O Q U, and no W or Z first), after a
// town, one blank or a comma apart ("Bristol BS1 4DJ", "London, NW1 6XE"),
// or after a province's code and a comma ("Toronto, ON M5V 3L9"), where
// no word follows it on its line: a postcode without a word that names it.
bool postcode_after_a_town(const Scan& s, size_t ws, size_t we) {
  auto upper = [&](size_t i) { return s.at(i) >= 'A' && s.at(i) <= 'Z'; };
  auto inward_letter = [&](size_t i) { return upper(i) && std::string_view("CIKMOV").find(static_cast<char>(s.at(i))) == std::string_view::npos; };
  auto canadian_letter = [&](size_t i) { return upper(i) && std::string_view("DFIOQU").find(static_cast<char>(s.at(i))) == std::string_view::npos; };
  const size_t in = we + 1;
  for (size_t i = ws; i < we; ++i) {
    if (!upper(i) && !s.digit(i)) return false;
  }
  const bool british = upper(ws) && inward_letter(in + 1) && inward_letter(in + 2);
  const bool canadian = we - ws == 3 && canadian_letter(ws) && s.at(ws) != 'W' && s.at(ws) != 'Z' && s.digit(ws + 1) &&
                        canadian_letter(ws + 2) && canadian_letter(in + 1) && s.digit(in + 2);
  // It ends the address: no word after it on its line ("B52 1AB variant").
  if (!british && !canadian) return false;
  if (s.at(in + 3) == ' ' && s.alpha(in + 4)) return false;
  // The word before: a town's (capitalised, a small letter after its
  // first), or a province's code of two capitals after a comma.
  const WordBefore town = word_before(s, ws, ",");
  if (town.end - town.begin < 2 || !upper(town.begin)) return false;
  if (town.end - town.begin == 2 && upper(town.begin + 1)) {
    return canadian && town.begin >= 2 && s.at(town.begin - 2) == ',' && s.blank(town.begin - 1);
  }
  return s.at(town.begin + 1) >= 'a' && s.at(town.begin + 1) <= 'z';
}

void detect_postcode(Scan& s, size_t ws, size_t we) {
  // The outward code: one or two letters, a digit, maybe a letter or digit
  // (British: "M1", "SW1A", "EC2V"; Canadian: letter, digit, letter).
  size_t i = ws;
  while (i < we && i - ws < 2 && s.alpha(i)) ++i;
  if (i == ws || i == we || !s.digit(i)) return;
  ++i;
  if (i < we && s.alnum(i)) ++i;
  if (i != we || !s.numeric_left_ok(ws)) return;
  // The inward code, one blank after: a digit and two letters (British,
  // "1AA") or a digit, a letter and a digit (Canadian, "0B1").
  const size_t in = we + 1;
  if (!s.blank(we) || !s.digit(in) || !s.alpha(in + 1) || !(s.alpha(in + 2) || s.digit(in + 2)) || s.alnum(in + 3)) {
    return;
  }
  if (!cue_before(s, ws, kPostcodeWordsBefore) && !postcode_after_a_town(s, ws, we)) return;
  s.add(PiiType::kZipCode, ws, in + 3);
}

}  // namespace tiergate::pii_scan
