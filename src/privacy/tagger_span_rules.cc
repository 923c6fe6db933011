// What a span the tagger found may be: finish_span() trims and retypes it
// and plausible() keeps it or not; the word lists' categories the rules ask
// (find_categories()).
#include "tiergate/privacy/pii_tagger.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>
#include <vector>

#include "tagger_rules.h"

namespace tiergate {

using namespace tagger_rules;

void PiiTagger::find_categories() {
  prefix_categories_ = categories_named(gazetteer_, "name_prefix");
  street_categories_ = categories_named(gazetteer_, "street");
  street_suffix_categories_ = categories_named(gazetteer_, "street_suffix");
  common_categories_ = categories_named(gazetteer_, "common");
  company_categories_ = categories_named(gazetteer_, "company");
  first_name_categories_ = categories_named(gazetteer_, "first_name");
  last_name_categories_ = categories_named(gazetteer_, "last_name");
  name_categories_ = first_name_categories_ | last_name_categories_;
  country_categories_ = categories_named(gazetteer_, "country");
  state_categories_ = categories_named(gazetteer_, "state");
  place_categories_ = categories_named(gazetteer_, "city") | country_categories_ | state_categories_;
  proper_adjective_categories_ = categories_named(gazetteer_, "proper_adjective");
  world_city_categories_ = categories_named(gazetteer_, "world_city");
  census_surname_categories_ = categories_named(gazetteer_, "census_surname");
  given_name_categories_ = categories_named(gazetteer_, "given_name");
  gazetteer_.hide(static_cast<uint16_t>(proper_adjective_categories_ | world_city_categories_ |
                                        census_surname_categories_ | given_name_categories_));
  gazetteer_.set_apart(static_cast<uint16_t>(census_surname_categories_ | given_name_categories_));
}

bool PiiTagger::compound_of_words(std::string_view text, uint32_t begin, uint32_t end) const {
  constexpr uint32_t kMinPart = 4, kMaxLength = 24;
  if (end - begin < 2 * kMinPart || end - begin > kMaxLength) return false;
  for (uint32_t k = begin; k < end; ++k) {
    const auto c = static_cast<unsigned char>(text[k] | 0x20);
    if (c < 'a' || c > 'z') return false;  // letters only
  }
  auto everyday_part = [&](uint32_t b, uint32_t e) {
    return (gazetteer_.lookup(word_hash(text, Token{b, e, false, false})).full & common_categories_) != 0;
  };
  for (uint32_t k = begin + kMinPart; k + kMinPart <= end; ++k) {
    if (everyday_part(begin, k) && everyday_part(k, end)) return true;
  }
  return false;
}

namespace {

// The months and weekdays written out of the detectors' lexicon ("june",
// "sunday"), as a word set.
constexpr size_t kMonthAndWeekdayCount = [] {
  size_t count = 0;
  for (const pii_scan::LexEntry& e : pii_scan::kLexicon) count += e.kind != pii_scan::Lex::kMonthAbbrev ? 1 : 0;
  return count;
}();
constexpr WordSet kMonthsAndWeekdays([] {
  std::array<std::string_view, kMonthAndWeekdayCount> words{};
  size_t k = 0;
  for (const pii_scan::LexEntry& e : pii_scan::kLexicon) {
    if (e.kind != pii_scan::Lex::kMonthAbbrev) words[k++] = e.word;
  }
  return words;
}());

// The words of capitalised_sentence_opener().
constexpr WordSet kSentenceOpeners(std::array<std::string_view, 43>{
    "it",    "he",    "she",     "we",      "they",  "you",   "the",  "this",  "these", "that",  "those",
    "there", "then",  "however", "our",     "my",    "your",  "his",  "her",   "their", "its",   "what",
    "which", "who",   "when",    "where",   "why",   "how",   "if",   "also",  "but",   "so",    "please",
    "neither", "nor", "after",   "before",  "while", "although", "since", "thus", "hence", "is"});

}  // namespace

bool tagger_rules::capitalised_sentence_opener(std::string_view text, const Token& t) {
  return text[t.begin] >= 'A' && text[t.begin] <= 'Z' && kSentenceOpeners.contains(text, t);
}

size_t tagger_rules::abbreviated_streets_at_a_corner(std::string_view text, Tokens tokens, size_t from, size_t also) {
  constexpr size_t kMaxSecondStreet = 4;
  // A word of the street's name: letters, no digit, on the corner's line.
  auto name_word = [&](size_t k) {
    return !tokens[k].newline_before && opens_with_a_letter(text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin)) &&
           !has_digit(text, tokens[k]);
  };
  // "St" at token k, right before its stop, after a word on its line.
  auto st_at = [&](size_t k) {
    return k + 1 < tokens.size() && !tokens[k].newline_before && token_is(text, tokens[k], "st") &&
           tokens[k + 1].begin == tokens[k].end && text[tokens[k + 1].begin] == '.';
  };
  if (also < from + 3 || !st_at(also - 2) || tokens[also - 1].end != tokens[also - 1].begin + 1) return 0;
  for (size_t k = from; k + 2 < also; ++k) {
    if (!name_word(k)) return 0;
  }
  for (size_t k = also + 1; k < tokens.size() && k <= also + kMaxSecondStreet; ++k) {
    if (k > also + 1 && st_at(k)) return k;
    if (!name_word(k)) return 0;
  }
  return 0;
}

std::array<size_t, 4> tagger_rules::first_tokens_of_lines_around(std::string_view text, Tokens tokens, size_t j) {
  std::array<size_t, 4> firsts;
  firsts.fill(tokens.size());
  size_t at = tokens[j].begin;
  for (size_t line = 0; line < 2 && at > 0; ++line) {
    const size_t feed = text.rfind('\n', at - 1);  // the one before the line at `at`
    if (feed == std::string_view::npos || feed == 0) break;
    const size_t previous = text.rfind('\n', feed - 1);
    const size_t k = first_token_from(tokens, static_cast<uint32_t>(previous == std::string_view::npos ? 0 : previous + 1));
    if (k < j && tokens[k].begin < feed) firsts[line] = k;  // (none on a blank line)
    at = feed;
  }
  at = tokens[j].begin;
  for (size_t line = 2; line < 4; ++line) {
    const size_t feed = text.find('\n', at);
    if (feed == std::string_view::npos) break;
    const size_t k = first_token_from(tokens, static_cast<uint32_t>(feed + 1));
    if (k < tokens.size() && tokens[k].begin < text.find('\n', feed + 1)) firsts[line] = k;
    at = feed + 1;
  }
  return firsts;
}

bool tagger_rules::after_a_place_label(std::string_view text, Tokens tokens, size_t from) {
  if (from < 2 || tokens[from].newline_before || tokens[from - 1].newline_before || !token_is(text, tokens[from - 1], ":") ||
      tokens[from - 1].begin != tokens[from - 2].end) {
    return false;
  }
  const Token& label = tokens[from - 2];
  return token_is(text, label, "city") || token_is(text, label, "town") || token_is(text, label, "village");
}

bool tagger_rules::moved_from_a_place_to(std::string_view text, Tokens tokens, size_t to) {
  static constexpr WordSet kMoves(std::array<std::string_view, 8>{"moved", "move", "moving", "relocated", "flew",
                                                                   "traveled", "travelled", "came"});
  constexpr size_t kMaxPlaceWords = 2;
  size_t k = to;  // back over the place's words to "from"
  while (k > 0 && to - k < kMaxPlaceWords && !tokens[k].newline_before &&
         opens_with_a_capital(text.substr(tokens[k - 1].begin))) {
    --k;
  }
  if (k == to || k < 2 || tokens[k].newline_before || tokens[k - 1].newline_before ||
      !token_is(text, tokens[k - 1], "from")) {
    return false;
  }
  size_t verb = k - 2;
  if (verb > 0 && token_is(text, tokens[verb], "here")) --verb;  // "moved here from"
  return !tokens[verb + 1].newline_before && kMoves.contains(text, tokens[verb]);
}

bool tagger_rules::after_i_am(std::string_view text, Tokens tokens, size_t j) {
  if (j == 0 || tokens[j].newline_before || tokens[j - 1].end + 1 != tokens[j].begin) return false;
  return token_is(text, tokens[j - 1], "i'm") || token_is(text, tokens[j - 1], "i\xe2\x80\x99m") ||
         (j >= 2 && !tokens[j - 1].newline_before && token_is(text, tokens[j - 1], "am") &&
          token_is(text, tokens[j - 2], "i"));
}

bool tagger_rules::after_a_travel_cue(std::string_view text, Tokens tokens, size_t from) {
  // Before "to": a way of travelling there ("flying to", "tickets to").
  // Not a going that may be to a person, whom a place's name may name
  // ("went to Mary for help", "back to Charlotte", "visiting Florence in
  // hospital"): a person taken for a place leaves the device, where a
  // place taken for a person is only redacted.
  static constexpr WordSet kTravelling(std::array<std::string_view, 22>{
      "drive", "drives", "driving", "drove", "fly", "flies", "flying", "travel", "travels", "traveling", "travelling",
      "trips", "flights", "train", "trains", "bus", "ticket", "tickets", "sailed", "vacation", "holiday", "cruise"});
  // Before "in": a stay or a seat ("stayed in", "based in", "work in").
  static constexpr WordSet kStaying(std::array<std::string_view, 26>{
      "stay",    "stays",   "stayed",   "staying", "live",    "living",    "based",    "located", "headquartered",
      "work",    "works",   "worked",   "working", "study",   "studied",   "studying", "landed",  "arrive",
      "arrives", "arriving", "vacation", "holiday", "layover", "stopover", "settled", "offices"});
  // Before "from": a way from there ("the flight from Paris").
  static constexpr WordSet kLeaving(std::array<std::string_view, 8>{"flight", "flights", "train", "trains", "bus",
                                                                    "ferry", "drive", "journey"});
  if (from < 2 || tokens[from].newline_before || tokens[from - 1].newline_before) return false;
  const Token& cue = tokens[from - 1];
  const Token& verb = tokens[from - 2];
  return (token_is(text, cue, "to") && kTravelling.contains(text, verb)) ||
         (token_is(text, cue, "in") && kStaying.contains(text, verb)) ||
         (token_is(text, cue, "from") && kLeaving.contains(text, verb));
}

bool tagger_rules::address_may_run_onto_its_line(std::string_view text, Tokens tokens, size_t from, size_t i) {
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  size_t lines = 1;
  bool digit = false;
  for (uint32_t b = tokens[from].begin; b < tokens[i - 1].end; ++b) {
    lines += text[b] == '\n' ? 1 : 0;
    digit = digit || is_digit(text[b]);
  }
  if (lines >= kMaxAddressLines) return false;
  // Past a blank line, only onto a line that holds a digit itself.
  size_t breaks_before = 0;
  for (uint32_t b = tokens[i - 1].end; b < tokens[i].begin; ++b) breaks_before += text[b] == '\n' ? 1 : 0;
  const bool past_a_blank_line = breaks_before >= 2;
  digit = digit && !past_a_blank_line;
  size_t breaks = 0;
  for (size_t b = tokens[i].begin; !digit && b < text.size() && breaks < (past_a_blank_line ? 1u : 2u); ++b) {
    breaks += text[b] == '\n' ? 1 : 0;
    digit = is_digit(text[b]);
  }
  return digit;
}

bool tagger_rules::ends_a_place_after_its_cue(std::string_view text, Tokens tokens, size_t last) {
  static constexpr WordSet kAfterAPlace(std::array<std::string_view, 11>{
      "on", "in", "last", "this", "next", "yesterday", "today", "tomorrow", "tonight", "at", "from"});
  const size_t after = last + 1;
  return after >= tokens.size() || tokens[after].newline_before ||
         !is_word_byte(static_cast<unsigned char>(text[tokens[after].begin])) || kAfterAPlace.contains(text, tokens[after]);
}

bool tagger_rules::may_name_a_place(std::string_view text, const Token& t, bool caseless_values) {
  const std::string_view word = text.substr(t.begin, t.end - t.begin);
  return opens_with_a_letter(word) && !month_or_weekday(text, t) &&
         (caseless_values || !holds_a_caseless_letter(reinterpret_cast<const unsigned char*>(word.data()), word.size()));
}

uint32_t tagger_rules::end_before_a_glued_clause(std::string_view text, const PiiSpan& span) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  // (Most spans are ASCII, or end in 8 bytes of it that are not all small
  // letters: no mark is glued to their last small letters. The 8 bytes
  // before span.end, read at once, may open before the span.)
  const uint32_t length = span.end - span.begin;
  if (length == 0) return span.end;
  if (span.end >= 8) {
    uint64_t last8;  // little-endian: the span's last byte is the highest
    std::memcpy(&last8, bytes + span.end - 8, sizeof last8);
    const uint64_t in_span = length >= 8 ? ~uint64_t{0} : ~uint64_t{0} << (8 * (8 - length));
    const unsigned char first = bytes[span.end - 8];
    if ((last8 & in_span & 0x8080808080808080ull) == 0 && (length <= 8 || !(first >= 'a' && first <= 'z'))) {
      return span.end;
    }
  }
  uint32_t small = span.end;  // the small letters that end the span open here
  while (small > span.begin && bytes[small - 1] >= 'a' && bytes[small - 1] <= 'z') --small;
  if (small == span.end || small < span.begin + 4 || pii_tokens::mark_length(bytes + small - 3, 3) != 3) return span.end;
  const bool apostrophe = bytes[small - 1] == 0x99;  // U+2019
  return !apostrophe || (span.end == small + 1 && bytes[small] == 's') ? small - 3 : span.end;
}

uint32_t tagger_rules::end_before_a_sentence_stop(std::string_view text, const PiiSpan& span) {
  // The abbreviations of four letters the stop stays with.
  static constexpr WordSet kLongAbbreviations(
      std::array<std::string_view, 9>{"corp", "blvd", "pkwy", "bros", "dept", "assn", "univ", "capt", "prof"});
  if (span.end - span.begin < 5 || text[span.end - 1] != '.') return span.end;
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  // Where the word before the stop opens: letters, ASCII or beyond it.
  uint32_t word = span.end - 1;
  auto letter = [](unsigned char c) { return c >= 0x80 || (kByteView[c].lower >= 'a' && kByteView[c].lower <= 'z'); };
  while (word > span.begin && letter(bytes[word - 1])) --word;
  const Token before_the_stop{word, span.end - 1, false, false};
  if (span.end - 1 - word < 4 || street_abbreviation(text, before_the_stop) ||
      kLongAbbreviations.contains(text, before_the_stop)) {
    return span.end;
  }
  return span.end - 1;
}

bool tagger_rules::sentence_opener(std::string_view text, Tokens tokens, size_t i) {
  const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + tokens[i].begin;
  const bool capital = (b[0] >= 'A' && b[0] <= 'Z') || pii_tokens::opens_with_a_capital_letter(b, tokens[i].end - tokens[i].begin);
  if (!capital || i + 1 >= tokens.size()) return false;
  const Token& next = tokens[i + 1];
  const auto* n = reinterpret_cast<const unsigned char*>(text.data()) + next.begin;
  const size_t next_length = next.end - next.begin;
  if (next.newline_before || next_length < 2 || !((n[0] >= 'a' && n[0] <= 'z') || opens_with_a_small_letter(n, next_length))) {
    return false;
  }
  if (tokens[i].newline_before || opens_a_sentence(text, tokens, i)) return true;
  if (tokens[i - 1].end - tokens[i - 1].begin != 1) return false;
  const char mark = text[tokens[i - 1].begin];
  return !is_word_byte(static_cast<unsigned char>(mark)) && mark != ',' && mark != '-' && mark != '.' && mark != '&';
}

bool tagger_rules::cyrillic_sentence_opener(std::string_view text, Tokens tokens, size_t i) {
  const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + tokens[i].begin;
  if (b[0] < 0xd0 || b[0] > 0xd1 || i + 1 >= tokens.size()) return false;
  const unsigned char next = static_cast<unsigned char>(text[tokens[i + 1].begin]);
  return next >= 0xd0 && next <= 0xd1 && sentence_opener(text, tokens, i);
}

bool tagger_rules::a_recent_year(std::string_view text, const Token& t) {
  const std::string_view number = text.substr(t.begin, t.end - t.begin);
  return number.size() == 4 && (number.starts_with("19") || number.starts_with("20"));
}

namespace {


}  // namespace

size_t tagger_rules::company_of_an_executive(std::string_view text, Tokens tokens, size_t from, size_t to) {
  static constexpr WordSet kExecutives(std::array<std::string_view, 10>{
      "ceo", "cfo", "cto", "coo", "founder", "cofounder", "chairman", "chairwoman", "chairperson", "owner"});
  if (to - from < 3 || !token_is(text, tokens[from + 1], "of") || !kExecutives.contains(text, tokens[from])) return from;
  // The words after "of", on its line, capitalised: "Oranje Media".
  for (size_t k = from + 2; k < to; ++k) {
    if (tokens[k].newline_before || !opens_with_a_capital(text.substr(tokens[k].begin))) return from;
  }
  return from + 2;
}

bool tagger_rules::formula_or_code(std::string_view value) {
  if (value.size() < 2 || value.size() > 8) return false;
  bool digit = false, capital = false;
  for (const char c : value) {
    if (c >= '0' && c <= '9') {
      digit = true;
    } else if (c >= 'A' && c <= 'Z') {
      capital = true;
    } else {
      return false;
    }
  }
  return digit && capital;
}

bool tagger_rules::modal_before_a_verb(std::string_view text, Tokens tokens, size_t i, const Gazetteer& gazetteer,
                                       uint16_t everyday, uint16_t names) {
  static constexpr WordSet kModalVerbs(std::array<std::string_view, 4>{"may", "will", "can", "might"});
  if (i + 1 >= tokens.size() || tokens[i + 1].newline_before || !kModalVerbs.contains(text, tokens[i])) return false;
  const Gazetteer::Match next = gazetteer.lookup(word_hash(text, tokens[i + 1]));
  return (next.full & everyday) != 0 && (next.full & names) == 0;
}

size_t tagger_rules::past_a_compass_point(std::string_view text, Tokens tokens, size_t k) {
  if (k >= tokens.size() || tokens[k].newline_before) return k;
  static constexpr std::array<std::string_view, 8> kCompassPoints = {"n", "s", "e", "w", "ne", "nw", "se", "sw"};
  if (std::none_of(kCompassPoints.begin(), kCompassPoints.end(),
                   [&](std::string_view point) { return token_is(text, tokens[k], point); })) {
    return k;
  }
  size_t after = k + 1;
  if (after < tokens.size() && tokens[after].begin == tokens[k].end && token_is(text, tokens[after], ".")) ++after;
  return after < tokens.size() && one_blank_after(text, tokens, after) ? after : k;
}

size_t tagger_rules::street_by_its_suffix(std::string_view text, Tokens tokens, size_t j, const Gazetteer& gazetteer,
                                          uint16_t suffixes, bool mixed) {
  constexpr size_t kMaxNameWords = 3;
  // A word of two letters or more, one space after the token before it on
  // its line: capitalised, or in text without capitals a small word that
  // stands in no name ("at 3259 juniper way", not "the 3 that road", "2
  // hours to drive", "30 points included the drive").
  auto word = [&](size_t k) {
    if (!one_blank_after(text, tokens, k) || tokens[k].end - tokens[k].begin < 2) return false;
    if (street_ordinal(text, tokens[k])) return true;  // "310 East 46th Street"
    return mixed ? opens_with_a_capital(text.substr(tokens[k].begin))
                 : small_word(text, tokens[k], 2) && !function_word(text, tokens[k]);
  };
  // Without capitals, only a suffix that only streets have ("road", not
  // "court": "the 3 supreme court justices"), after no unit ("10 mile
  // road").
  // A street word of the Romance languages in small letters, then the
  // name: capitalised words, particles between them, joined by hyphens
  // ("3 rue des Lilas", "8 boulevard Saint-Michel").
  if (mixed && one_blank_after(text, tokens, j + 1) && kStreetWordsBeforeTheName.contains(text, tokens[j + 1]) &&
      text[tokens[j + 1].begin] >= 'a' && text[tokens[j + 1].begin] <= 'z') {
    auto capitalised = [&](size_t k) {
      return tokens[k].end - tokens[k].begin >= 2 && opens_with_a_capital(text.substr(tokens[k].begin)) &&
             !all_capitals(text, tokens, k);
    };
    size_t last = 0;
    for (size_t k = j + 2; k < tokens.size() && k <= j + 6 && one_blank_after(text, tokens, k); ++k) {
      if (!capitalised(k)) {
        if (!kStreetParticles.contains(text, tokens[k])) break;
        continue;
      }
      last = k;
      while (glued_hyphen(text, tokens, last + 1) && capitalised(last + 2)) {
        last += 2;
      }
      k = last;
    }
    if (last != 0) return last;
  }
  // Without capitals, the name in small letters where the clause ends
  // after it: particles, then a word or two ("j'habite 4 impasse des
  // mûriers.", "12 calle gran via,"; not "4 rue des lilas depuis 2010", nor
  // "67 rue de genville 178", whose number after the name the rules below
  // read); not English's "avenue" and "boulevard" ("4 avenue options").
  // With capitals too after a word that leads to a place, as a phone types
  // it ("the flat at 4 rue de la paix.").
  if ((!mixed || led_to_a_place(text, tokens, j)) && one_blank_after(text, tokens, j + 1) &&
      kStreetWordsBeforeTheName.contains(text, tokens[j + 1]) && !token_is(text, tokens[j + 1], "avenue") &&
      !token_is(text, tokens[j + 1], "boulevard")) {
    auto name_word = [&](size_t k) {
      return k < tokens.size() && one_blank_after(text, tokens, k) && small_word(text, tokens[k], 2) &&
             !function_word(text, tokens[k]);
    };
    // A name word's last token: words in small letters joined to it by
    // hyphens go with it ("48 rue sainte-catherine,").
    auto joined_end = [&](size_t k) {
      while (k + 2 < tokens.size() && glued_hyphen(text, tokens, k + 1) && small_word(text, tokens[k + 2], 2)) k += 2;
      return k;
    };
    size_t k = j + 2;
    while (k < tokens.size() && one_blank_after(text, tokens, k) && kStreetParticles.contains(text, tokens[k])) ++k;
    if (name_word(k)) {
      const size_t first_end = joined_end(k);
      if (clause_ends_after(text, tokens, first_end)) return first_end;
      if (name_word(first_end + 1)) {
        const size_t second_end = joined_end(first_end + 1);
        if (clause_ends_after(text, tokens, second_end)) return second_end;
      }
    }
  }
  const size_t name = past_a_compass_point(text, tokens, j + 1);
  if (!mixed && (!word(name) || unit_of_measure(text, tokens[name]) || token_is(text, tokens[name], "mile") ||
                 token_is(text, tokens[name], "miles"))) {
    return 0;
  }
  const bool year = a_recent_year(text, tokens[j]);
  // The number of a building's unit after token k ("Apt. 898", "Suite
  // 12"), or 0.
  auto unit_number_after = [&](size_t k) -> size_t {
    size_t number = k + 2;
    if (number < tokens.size() && token_is(text, tokens[number], ".") && tokens[number].begin == tokens[k + 1].end) {
      ++number;
    }
    const bool unit = word(k + 1) && kUnitsOfABuilding.contains(text, tokens[k + 1]) &&
                      one_blank_after(text, tokens, number) && all_digits(text, tokens[number]);
    return unit ? number : 0;
  };
  // "Dr" is a drive's where no name follows it: a comma, the line's or the
  // text's end, a unit, or a stop before the end or a word in small
  // letters ("4821 Oak Dr, Austin", "at 55 Oak Dr."; not "the 3 Oak Dr.
  // Smith"). The lists know it as a title.
  auto drive = [&](size_t w) {
    if (!token_is(text, tokens[w], "dr")) return false;
    size_t after = w + 1;
    if (after < tokens.size() && !tokens[after].newline_before && token_is(text, tokens[after], ".") &&
        tokens[after].begin == tokens[w].end) {
      ++after;
    } else if (after < tokens.size() && !tokens[after].newline_before &&
               (token_is(text, tokens[after], ",") || token_is(text, tokens[after], ";") ||
                unit_number_after(w) != 0 || token_is(text, tokens[after], "#"))) {
      return true;
    }
    if (after >= tokens.size() || tokens[after].newline_before) return true;
    const auto c = static_cast<unsigned char>(text[tokens[after].begin]);
    return (c >= 'a' && c <= 'z') || c == ',' || c == ')';
  };
  // The last suffix within reach: "Mill" and "Road" of "Old Mill Road" are
  // both suffixes. (Without capitals, one of the lists' that everyday
  // words share before a unit too: "at 12 west way apt. 3".)
  size_t k = 0;
  for (size_t w = name + 1; w <= name + kMaxNameWords && word(w - 1) && word(w); ++w) {
    // (The lists write suffixes in full: "Ave", "Rd" and "Blvd" are
    // kCommonStreetSuffixes'.)
    const bool suffix = kCommonStreetSuffixes.contains(text, tokens[w]) ||
                        ((mixed || unit_number_after(w) != 0) &&
                         (gazetteer.lookup(word_hash(text, tokens[w])).full & suffixes) != 0) ||
                        (mixed && drive(w));
    if (suffix) k = w;
  }
  // A year before a place named by an everyday suffix is no address: "the
  // 2012 Olympic Park".
  if (k == 0 || (year && !kCommonStreetSuffixes.contains(text, tokens[k]))) return 0;
  // A city's quadrant after the suffix is the street's: "1600 Pennsylvania
  // Ave NW"; without capitals where the clause ends after it, "3100 sandy
  // boulevard ne, portland" (quadrant_after_a_street()).
  static constexpr WordSet kQuadrants(std::array<std::string_view, 4>{"nw", "ne", "sw", "se"});
  if (mixed ? one_blank_after(text, tokens, k + 1) && kQuadrants.contains(text, tokens[k + 1]) &&
                  all_capitals(text, tokens, k + 1)
            : quadrant_after_a_street(text, tokens, k)) {
    ++k;
  }
  // The unit after the street goes with it; in text without capitals after
  // a comma too ("402 harbor view rd, unit 7"), which the decoder leaves
  // out there. (With capitals the decoder reads it.)
  if (const size_t unit_number = unit_number_after(k); unit_number != 0) return unit_number;
  if (!mixed && k + 1 < tokens.size() && tokens[k + 1].begin == tokens[k].end && token_is(text, tokens[k + 1], ",")) {
    if (const size_t unit_number = unit_number_after(k + 1); unit_number != 0) return unit_number;
  }
  // So does a number sign and the unit's number right after it: "#210",
  // "#2R" (after an abbreviated suffix's stop too: "St. #4"; not "Road.
  // #4").
  const bool abbreviation_stop = k + 1 < tokens.size() && token_is(text, tokens[k + 1], ".") &&
                                 tokens[k + 1].begin == tokens[k].end &&
                                 (tokens[k].end - tokens[k].begin <= 3 || token_is(text, tokens[k], "blvd") ||
                                  token_is(text, tokens[k], "pkwy"));
  const size_t sign = abbreviation_stop ? k + 2 : k + 1;
  const bool numbered_unit = sign + 1 < tokens.size() && one_blank_after(text, tokens, sign) &&
                             token_is(text, tokens[sign], "#") && tokens[sign + 1].begin == tokens[sign].end &&
                             house_number(text, tokens[sign + 1]);
  if (numbered_unit) return sign + 1;
  // A street's own number after it makes the first the building's ("40
  // Maple Street 21"): street_before_its_number() reads that.
  const bool numbered = one_blank_after(text, tokens, k + 1) && is_number(text, tokens, k + 1);
  return numbered ? 0 : k;
}

size_t tagger_rules::street_before_its_number(std::string_view text, Tokens tokens, size_t j, const Gazetteer& gazetteer,
                                              uint16_t suffixes, uint16_t places, bool mixed) {
  constexpr size_t kMaxWords = 4;
  const size_t none = tokens.size();
  // One space after the word before it on its line, digits, and nothing
  // glued after them but a mark that ends a clause ("Calle Mayor 5486.",
  // "Calle del Sol 14?"; not "Psalm Street 23:4", "Delacroix Avenue 3.5").
  if (j < 2 || !one_blank_after(text, tokens, j) || !all_digits(text, tokens[j])) return none;
  if (j + 1 < tokens.size() && !tokens[j + 1].newline_before && tokens[j + 1].begin == tokens[j].end) {
    const char mark = text[tokens[j + 1].begin];
    const uint32_t past = tokens[j + 1].end;
    const bool digit_after = past < text.size() && text[past] >= '0' && text[past] <= '9';
    // (A flat's number after a slash is the address's: "Długa 5/7".)
    const bool ends_a_clause = mark == ',' || mark == '.' || mark == ';' || mark == ')' || mark == '?' || mark == '!';
    if (!(mark == '/' && digit_after) && (!ends_a_clause || digit_after)) {
      return none;
    }
  }
  // A street word abbreviated with its stop before the number: one word
  // that ends so ("Friedrichstr. 43"), or a word of its own after the
  // name ("Grosse Praesidenten Str. 20", Hungarian "Király u. 15").
  const bool abbreviated = mark_at(text, tokens, j - 1, '.') && tokens[j - 1].begin == tokens[j - 2].end &&
                           street_abbreviation(text, tokens[j - 2]);
  // (Without capitals, the one word after a word that leads to a place:
  // "at friedrichstr. 43".)
  if (abbreviated) {
    const std::string_view word = text.substr(tokens[j - 2].begin, tokens[j - 2].end - tokens[j - 2].begin);
    if (mixed && word.size() >= 6 && word[0] >= 'A' && word[0] <= 'Z' && !all_capitals(text, tokens, j - 2)) return j - 2;
    if (!mixed && word.size() >= 6 && small_word(text, tokens[j - 2], 6) && led_to_a_place(text, tokens, j - 2)) return j - 2;
  }
  // The end of the street's words: the number, or the abbreviation's stop.
  const size_t end = abbreviated ? j - 1 : j;
  // Nor a quantity: "Davis Street 100 feet", "Track Two 3 times".
  if (one_blank_after(text, tokens, j + 1)) {
    const Token& after = tokens[j + 1];
    // (Of four letters or more: not "was", "has".)
    const bool plural = small_word(text, after, 1) && after.end - after.begin >= 4 && text[after.end - 1] == 's';
    if (plural || unit_of_measure(text, after) || token_is(text, after, "feet")) return none;
  }
  // Without capitals, one word that ends as streets do after a word that
  // leads to a place, German's article before a street or a comma between
  // an address's fields ("on corellistraat 178", "wohnt in der lindenallee
  // 8", "rasmus kjeldsen, nørregade 12"), or after any word
  // where its ending is one of five letters or more and the word no ending
  // alone ("moves into hauptstraße 17"; not "strasse 44" of "gumpendorfer
  // strasse 44"). With capitals, such a word
  // capitalised, anywhere: "Lindenstraße 12, 10115 Berlin" (the decoder
  // took it for a firm).
  if (one_blank_after(text, tokens, j - 1)) {
    const std::string_view street = text.substr(tokens[j - 1].begin, tokens[j - 1].end - tokens[j - 1].begin);
    if (!mixed && small_word(text, tokens[j - 1], 4) && ends_as_a_street(street) &&
        (kLeadToAPlace.contains(text, tokens[j - 2]) || token_is(text, tokens[j - 2], "der") ||
         token_is(text, tokens[j - 2], "dem") || mark_at(text, tokens, j - 2, ',') ||
         ends_as_a_street(street.substr(1), 5))) {
      return j - 1;
    }
    if (mixed && street.size() >= 6 && street[0] >= 'A' && street[0] <= 'Z' && !all_capitals(text, tokens, j - 1) &&
        ends_as_a_street(street.substr(1))) {
      return j - 1;
    }
  }
  // "via" after a word that leads to a place or after a comma, as an
  // address's fields are written ("to via roma 15", "pellegrino & sons, via
  // garibaldi 22"), not "paid via paypal 20".
  auto via_to_a_place = [&](size_t k) {
    return token_is(text, tokens[k], "via") &&
           (led_to_a_place(text, tokens, k) || (k > 0 && mark_at(text, tokens, k - 1, ',')));
  };
  // With capitals, a Romance street word in small letters before the name,
  // as running text writes it: "vive en la calle Mayor 12", "a via Roma
  // 5"; via_to_a_place().
  auto small_street_word_first = [&](size_t k) {
    return k + 1 < end && text[tokens[k].begin] >= 'a' && text[tokens[k].begin] <= 'z' &&
           (kStreetWordsBeforeTheName.contains(text, tokens[k]) || via_to_a_place(k));
  };
  // The street's words, one space apart: with capitals, capitalised words
  // of two letters or more, not all capitals ("Track ID 1"); without them,
  // small words of four letters or more that stand in no name ("at
  // chestnut boulevard 6499", not "at" nor "the") or a Romance street word
  // ("rua augusta 100"). In both, a particle between them ("Calle de
  // Alcalá 48", "dirk de derdelaan 149"), not first; last, an
  // abbreviation before its stop or a street word that its language writes
  // in small letters after the name ("Erzsébet tér 92", "nordahl rolfsens
  // vei 187"); with capitals, small_street_word_first() too.
  auto word = [&](size_t k) {
    const bool small = text[tokens[k].begin] >= 'a' && text[tokens[k].begin] <= 'z';
    if (k + 1 < end && small && kStreetParticles.contains(text, tokens[k])) return true;
    if (k + 1 == end && (abbreviated || street_word_after_its_name(text, tokens[k]))) return true;
    if (!mixed) {
      return (small_word(text, tokens[k], 4) && !kNeverInAName.contains(text, tokens[k])) ||
             kStreetWordsBeforeTheName.contains(text, tokens[k]) || token_is(text, tokens[k], "via");
    }
    return (tokens[k].end - tokens[k].begin >= 2 && opens_with_a_capital(text.substr(tokens[k].begin)) &&
            !all_capitals(text, tokens, k)) ||
           small_street_word_first(k);
  };
  size_t first = end;
  while (first > 0 && end - first < kMaxWords && word(first - 1) && (first == end || one_blank_after(text, tokens, first))) {
    --first;
  }
  // A street word abbreviated with a mark before the name, in any case
  // ("C/ Alcalá 45", "ul. Długa 5/7", "Avda. de América 5"): the street
  // from there; not before a year ("et al. Nature 2019").
  if (first < end && !abbreviated && street_word_before_its_name(text, tokens, first) && !a_recent_year(text, tokens[j])) {
    return first - 2;
  }
  while (first < end && kStreetParticles.contains(text, tokens[first])) ++first;
  while (end - first > 2 && capitalised_sentence_opener(text, tokens[first])) ++first;  // "In Calle Mayor 5486"
  if (end - first < 2) return none;
  // Last, an abbreviation, a street word in small letters or a word that
  // ends as streets do ("Søndre Havnevej 65"); without capitals, otherwise
  // only a suffix that only streets have, last, or a Romance street word
  // before the name ("calle mayor 23"; via_to_a_place()).
  auto suffix = [&](size_t k) {
    const bool last = k + 1 == end;
    if (last && (abbreviated || street_word_after_its_name(text, tokens[k]) ||
                 ends_as_a_street(text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin)))) {
      return true;
    }
    if (!mixed) {
      if (last) return kCommonStreetSuffixes.contains(text, tokens[k]);
      return kStreetWordsBeforeTheName.contains(text, tokens[k]) || via_to_a_place(k);
    }
    return (gazetteer.lookup(word_hash(text, tokens[k])).full & suffixes) != 0 || small_street_word_first(k);
  };
  // Named by its suffix last ("Birchwood Lane 1368"), or by a street word
  // before its name ("Calle Mayor 5486", "Via Garibaldi 3504").
  size_t start = none, named_by = none;
  if (suffix(end - 1)) {
    start = first;
    named_by = end - 1;
  } else {
    for (size_t k = first; k + 1 < end && start == none; ++k) {
      if (suffix(k)) start = named_by = k;
    }
  }
  if (start == none) return none;
  // Not a place's name and its postcode ("Cape Verde 12844", "Solomon
  // Islands 32262"), nor a year after a suffix that everyday words share
  // ("Champions Park 2012").
  uint64_t phrase = word_hash(text, tokens[start]);
  for (size_t k = start + 1; k < end; ++k) {
    phrase = phrase_hash_continued(phrase, text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin), true);
  }
  const bool year = a_recent_year(text, tokens[j]);
  if ((gazetteer.lookup(phrase).full & places) != 0 || (year && !kCommonStreetSuffixes.contains(text, tokens[named_by]))) {
    return none;
  }
  return start;
}

bool tagger_rules::replace_with_an_address(std::vector<PiiSpan>& out, size_t first, uint32_t begin, uint32_t end) {
  auto inside = [&](const PiiSpan& span) { return span.begin >= begin && span.end <= end; };
  // Whether out[k], where it overlaps the address, lets it stand.
  auto gives_way = [&](size_t k) {
    const PiiSpan& span = out[k];
    if (span.begin >= end || span.end <= begin) return true;
    const bool address = span.type == PiiType::kStreetAddress;
    return inside(span) && (address || (k >= first && names_by_a_proper_name(span.type))) &&
           !(address && span.begin == begin && span.end == end);
  };
  const Tokens tokens = tagger_tokens();
  const size_t from = first_token_over(tokens, begin);
  size_t to = from;
  while (to < tokens.size() && tokens[to].begin < end) ++to;
  // Each token over the address has one span at most where none of them is
  // shared: then a span holds a run of them, read once.
  SpanCover* cover = out.size() > kSpansReadThrough ? &built_cover(out) : nullptr;
  if (cover != nullptr && std::none_of(cover->first_span.begin() + static_cast<ptrdiff_t>(from),
                                       cover->first_span.begin() + static_cast<ptrdiff_t>(to),
                                       [](uint32_t c) { return (c & SpanCover::kShared) != 0; })) {
    uint32_t last = 0;
    for (size_t t = from; t < to; ++t) {
      const uint32_t c = cover->first_span[t];
      if (c == 0 || c == last) continue;
      last = c;
      if (!gives_way(c - 1)) return false;
    }
    last = 0;
    for (size_t t = from; t < to; ++t) {
      const uint32_t c = cover->first_span[t];
      if (c == 0 || c == last) continue;
      last = c;
      if (c - 1 >= first && inside(out[c - 1])) mark_dropped(out, c - 1);
    }
    // The tokens of the spans emptied are the address's alone; an address
    // found before tagging stays first where it lies.
    const auto own = static_cast<uint32_t>(out.size() + 1);
    out.push_back({PiiType::kStreetAddress, begin, end});
    for (size_t t = from; t < to; ++t) {
      uint32_t& c = cover->first_span[t];
      c = c == 0 || c - 1 >= first ? own : c | SpanCover::kShared;
    }
    return true;
  }
  for (size_t k = 0; k < out.size(); ++k) {
    if (!gives_way(k)) return false;
  }
  for (size_t k = first; k < out.size(); ++k) {
    if (inside(out[k])) mark_dropped(out, k);
  }
  reset_cover();
  out.push_back({PiiType::kStreetAddress, begin, end});
  return true;
}

tagger_rules::CamelCase tagger_rules::camel_case(std::string_view value) {
  CamelCase c;
  if (value.size() < 6 || value[0] < 'A' || value[0] > 'Z') return c;
  size_t small_run = 0;
  for (const char ch : value.substr(1)) {
    if (ch >= 'a' && ch <= 'z') {
      ++small_run;
    } else if (ch >= 'A' && ch <= 'Z') {
      c.camel = c.camel || small_run >= 4;
      small_run = 0;
    } else if (ch >= '0' && ch <= '9') {
      small_run = 0;
    } else {
      return CamelCase{};
    }
  }
  c.digits_last = value.back() >= '0' && value.back() <= '9';
  return c;
}

bool tagger_rules::visual_basic_block_end(std::string_view value) {
  static constexpr std::array<std::string_view, 12> kBlockEnds = {
      "End If",  "End Sub",   "End Function", "End With", "End Select",    "End While",
      "End Try", "End Class", "End Module",   "Exit Sub", "Exit Function", "Exit For"};
  return std::find(kBlockEnds.begin(), kBlockEnds.end(), value) != kBlockEnds.end();
}

bool tagger_rules::union_of_states(std::string_view value) {
  const Token whole{0, static_cast<uint32_t>(value.size()), false, false};
  return token_is(value, whole, "european union") || token_is(value, whole, "african union");
}

bool tagger_rules::law_or_war(std::string_view value) {
  if (value.ends_with("'s")) value.remove_suffix(2);
  if (value.ends_with("s")) value.remove_suffix(1);
  if (value == "World War") return true;
  if (value.starts_with("World War ")) {
    const std::string_view which = value.substr(10);
    return which == "I" || which == "II" || which == "One" || which == "Two";
  }
  if (!value.ends_with(" Amendment")) return false;
  const std::string_view number = value.substr(0, value.size() - 10);
  // (The ordinals up to "Twenty-Seventh", in words or in figures: "14th".)
  static constexpr std::array<std::string_view, 14> kOrdinalEnds = {
      "First",  "Second", "Third", "Fourth",   "Fifth",   "Sixth",  "Seventh",
      "Eighth", "Ninth",  "Tenth", "Eleventh", "Twelfth", "teenth", "Twentieth"};
  return ends_in_an_ordinal_in_figures(number) ||
         std::any_of(kOrdinalEnds.begin(), kOrdinalEnds.end(), [&](std::string_view e) { return number.ends_with(e); });
}

bool tagger_rules::holiday(std::string_view text, uint32_t begin, uint32_t end) {
  static constexpr WordSet kHolidays(std::array<std::string_view, 27>{
      "christmas", "xmas",     "easter",  "thanksgiving", "halloween", "hanukkah",  "chanukah", "hanukah",  "kwanzaa",
      "diwali",    "deepavali", "ramadan", "passover",     "pesach",    "purim",     "sukkot",   "shavuot",  "pentecost",
      "epiphany",  "juneteenth", "hogmanay", "oktoberfest", "navratri",  "vesak",     "nowruz",   "songkran", "eid"});
  static constexpr WordSet kGreetings(std::array<std::string_view, 2>{"merry", "happy"});
  // The words after a feast's name that name its day or what it holds.
  static constexpr WordSet kFeastWords(std::array<std::string_view, 33>{
      "day",   "eve",   "sunday",  "monday",   "egg",     "eggs",    "hunt",     "party",   "parties", "dinner", "lunch",
      "break", "weekend", "holiday", "holidays", "card",  "cards",   "tree",     "trees",   "market",  "parade", "season",
      "lights", "carol", "carols",  "bonus",    "gifts",   "candy",   "costume",  "costumes", "vacation", "shopping", "feast"});
  // A possessive's 's goes with the word ("Valentine's Day").
  auto stem = [&](Token t) {
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
    t.end = t.begin + static_cast<uint32_t>(possessive_stem(b, t.end - t.begin));
    return t;
  };
  // (Most spans are asked: their first word first.)
  uint32_t first_end = begin;
  while (first_end < end && text[first_end] != ' ') ++first_end;
  const Token first = stem(Token{begin, first_end, false, false});
  const bool greeting = kGreetings.contains(text, first);
  if (!greeting && !kHolidays.contains(text, first) && !token_is(text, first, "valentine")) return false;
  // The span's words, one blank apart ("Christmas, so" is none).
  std::array<Token, 4> words{};
  size_t count = 0;
  for (uint32_t at = begin; at < end;) {
    uint32_t stop = at;
    while (stop < end && text[stop] != ' ') ++stop;
    if (stop == at || count == words.size()) return false;
    words[count++] = Token{at, stop, false, false};
    at = stop + 1;
  }
  const size_t head = count > 1 && greeting ? 1 : 0;
  if (head == count) return false;
  const Token name = stem(words[head]);
  if (token_is(text, name, "valentine")) {
    // (The "'s Day" after it, in the span or right after it.)
    const bool possessive = name.end != words[head].end;
    const bool day_in_span = possessive && head + 1 < count && token_is(text, words[head + 1], "day");
    const std::string_view after = text.substr(end);
    const bool day_after = head + 1 == count && (after.starts_with("'s Day") || after.starts_with("\u2019s Day"));
    return day_in_span || day_after;
  }
  if (!kHolidays.contains(text, name)) return false;
  for (size_t k = head + 1; k < count; ++k) {
    if (!kFeastWords.contains(text, words[k])) return false;
  }
  return true;
}

bool tagger_rules::month_or_weekday(std::string_view text, const Token& t) {
  return kMonthsAndWeekdays.contains(text, t);
}

bool tagger_rules::month_in_a_date(std::string_view text, Tokens tokens, size_t i) {
  static constexpr WordSet kBeforeATime(std::array<std::string_view, 21>{
      "in", "on", "of", "for", "by", "until", "till", "since", "during", "throughout", "next", "last", "this", "every",
      "early", "late", "mid", "before", "through", "from", "each"});
  if (!month_or_weekday(text, tokens[i])) return false;
  // A word before it on its line, with no mark between: "the month of
  // June", "married next June" (not "Brandon, and April").
  const bool time_word_before = one_blank_after(text, tokens, i) && kBeforeATime.contains(text, tokens[i - 1]);
  // A day's number after it ("June 1"), or another month next to it in a
  // list, past a comma or a conjunction ("June, July, and August").
  auto joining = [&](size_t k) {
    return token_is(text, tokens[k], ",") || token_is(text, tokens[k], "and") || token_is(text, tokens[k], "or");
  };
  size_t after = i + 1, before = i;
  for (size_t skipped = 0; after < tokens.size() && skipped < 2 && joining(after); ++skipped) ++after;
  for (size_t skipped = 0; before > 0 && skipped < 2 && joining(before - 1); ++skipped) --before;
  const bool date_after = after < tokens.size() && !tokens[after].newline_before &&
                          ((after == i + 1 && is_number(text, tokens, after)) || month_or_weekday(text, tokens[after]));
  const bool month_before =
      before < i && before > 0 && !tokens[i].newline_before && month_or_weekday(text, tokens[before - 1]);
  return time_word_before || date_after || month_before;
}

bool PiiTagger::only_a_name(std::string_view text, size_t i) const {
  return only_a_name(text, i, tagger_views()[i].gazetteer);
}

bool PiiTagger::only_a_name(std::string_view text, size_t i, const Gazetteer::Match& m) const {
  const Token& t = tagger_tokens()[i];
  const uint16_t not_names =
      common_categories_ | place_categories_ | street_categories_ | company_categories_ | prefix_categories_;
  // (One word of a longer place's name is no matter: "Timur" of "Jawa
  // Timur", "Vincent" of "Saint Vincent".)
  if ((m.full & name_categories_) == 0 || ((m.full & not_names) | (m.part & not_names & ~place_categories_)) != 0) {
    return false;
  }
  const std::string_view word = text.substr(t.begin, t.end - t.begin);
  if (all_capitals(text, tagger_tokens(), i) || pii_scan::is_group_word(word)) return false;
  // A month or a weekday ("in June", "on Sunday") more often than a name.
  return !month_or_weekday(text, t);
}

bool PiiTagger::counts_after(std::string_view text, size_t number) const {
  const Tokens tokens = tagger_tokens();
  const size_t next = number + 1;
  if (next >= tokens.size() || tokens[next].newline_before || tokens[next].begin == tokens[number].end ||
      !all_digits(text, tokens[number]) || !small_word(text, tokens[next], 1)) {
    return false;
  }
  // A plural ("minutes", "units"): "206 last night" follows a street.
  const Token& word = tokens[next];
  if (word.end - word.begin < 3 || text[word.end - 1] != 's') return false;
  return everyday(gazetteer_.lookup(word_hash(text, word)));
}

bool PiiTagger::finish_span(std::string_view text, PiiSpan& span, size_t from, size_t to, bool mixed) const {
  const Tokens tokens = tagger_tokens();
  // An opening bracket inside the span that no closing one in it matches
  // opens an aside the value is no part of: the span ends before it
  // ("Tomas Novak (DOB" of "Patient Tomas Novak (DOB 1961-07-14)", which
  // the number after it made an address).
  {
    size_t unmatched = to;
    int open = 0;
    for (size_t t = from + 1; t < to; ++t) {
      if (tokens[t].end - tokens[t].begin != 1) continue;
      const char c = text[tokens[t].begin];
      if (c == '(' || c == '[') {
        if (open++ == 0) unmatched = t;
      } else if ((c == ')' || c == ']') && open > 0 && --open == 0) {
        unmatched = to;
      }
    }
    if (unmatched < to) {
      to = unmatched;
      span.end = tokens[to - 1].end;
    }
  }
  if (!trim_function_words(text, tokens, span, from, to)) return false;
  // An address in text without capitals that holds "at" or "to" before a
  // house number, after a function word in it, opens at the number: the
  // clause before it is the writer's ("wenonah and i live at 19 cedar ridge
  // road", where "wenonah" was lost inside the address).
  if (span.type == PiiType::kStreetAddress && !mixed && to - from >= 4) {
    for (size_t t = from + 1; t + 1 < to; ++t) {
      const auto digit = static_cast<unsigned char>(text[tokens[t + 1].begin]);
      if (!(token_is(text, tokens[t], "at") || token_is(text, tokens[t], "to")) || digit < '1' || digit > '9') continue;
      if (std::any_of(tokens.begin() + static_cast<ptrdiff_t>(from), tokens.begin() + static_cast<ptrdiff_t>(t),
                      [&](const Token& w) { return function_word(text, w); })) {
        from = t + 1;
        span.begin = tokens[from].begin;
      }
      break;
    }
  }
  // An office's abbreviation before a first name is no part of a firm or a
  // place: the name after it is the person ("Our CEO Satya Nadella will
  // speak" gave the firm "CEO Satya Nadella", which the default policy
  // lets out).
  if ((span.type == PiiType::kOrganization || span.type == PiiType::kLocation) && to - from >= 2 &&
      kOfficeAbbreviations.contains(text, tokens[from]) && tokens[from + 1].begin == tokens[from].end + 1 &&
      (tagger_views()[from + 1].gazetteer.full & first_name_categories_) != 0) {
    ++from;
    span = {PiiType::kPerson, tokens[from].begin, span.end};
  }
  // A name, place or organisation "CEO of Oranje Media" is the company, not
  // the office. (Most spans are shorter: not asked.)
  if (const size_t company = to - from >= 3 ? company_of_an_executive(text, tokens, from, to) : from;
      company != from &&
      names_by_a_proper_name(span.type)) {
    span = {PiiType::kOrganization, tokens[company].begin, span.end};
    from = company;
  }
  // An address of one word without digits, not in capitals ("SME"), that
  // a city or country list knows and no street or name list does is the
  // place: the decoder took "Lisbon" of "Lisbon bridge is falling down"
  // for the street of a "Lisbon Bridge".
  if (span.type == PiiType::kStreetAddress && to - from == 1) {
    const Gazetteer::Match& m = tagger_views()[from].gazetteer;
    if ((m.full & (place_categories_ & ~state_categories_)) != 0 &&
        ((m.full | m.part) & (street_categories_ | name_categories_)) == 0 && !has_digit(text, tokens[from]) &&
        !all_capitals(text, tokens, from)) {
      span.type = PiiType::kLocation;
    }
  }
  if (!plausible(text, span, from, to, mixed)) return false;
  // A name ends at its possessive: "Elizabeth Mitchell's Cautionary Tales"
  // names a person and her book. So does a place or organisation whose
  // words before the possessive are two or more, the first one a name list
  // knows ("Tony Shervashidze's Cautionary Tales"; not "People's Republic
  // of China", nor "McDonald's Restaurant").
  if (names_by_a_proper_name(span.type)) {
    for (size_t t = from; t + 1 < to; ++t) {
      const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + tokens[t].begin;
      const size_t stem = possessive_stem(b, tokens[t].end - tokens[t].begin);
      if (stem == tokens[t].end - tokens[t].begin) continue;
      if (span.type != PiiType::kPerson && (t == from || (tagger_views()[from].gazetteer.full & name_categories_) == 0)) break;
      span.type = PiiType::kPerson;
      span.end = tokens[t].begin + static_cast<uint32_t>(stem);
      to = t + 1;
      break;
    }
  }
  // A rank or office after "the" stands for its holder: no name, place or
  // organisation ("the King granted", "the King and Queen").
  if (to - from == 1 &&
      names_by_a_proper_name(span.type) && mixed && from > 0 &&
      token_is(text, tokens[from - 1], "the") && kRanks.contains(text, tokens[from])) {
    return false;
  }
  // A nationality, religion or party alone that no name list knows is a
  // group, not a name, place or organisation ("Muslim"; "Christian" is also
  // a first name), and so is one that a name list knows after an article,
  // which seldom comes before a name ("The German engineer", "a Christian"),
  // or, in text with capitals, before a word in small letters that is no
  // preposition, verb (kAfterAParty) or adverb (kAdverbsAfterAName): an
  // adjective before its noun ("German history", "Christian missionaries";
  // not "Christian had given", "call Christian tomorrow"); and a religion's
  // name ("Islam", also a first name).
  const std::string_view only_word = text.substr(tokens[from].begin, tokens[from].end - tokens[from].begin);
  auto adjective_before_a_noun = [&] {
    const size_t next = from + 1;
    return mixed && next < tokens.size() && !tokens[next].newline_before && tokens[from].end + 1 == tokens[next].begin &&
           small_word(text, tokens[next], 2) && !kAfterAParty.contains(text, tokens[next]) &&
           !kAdverbsAfterAName.contains(text, tokens[next]);
  };
  if (to - from == 1 && names_by_a_proper_name(span.type) && pii_scan::is_group_word(only_word) &&
      ((tagger_views()[from].gazetteer.full & name_categories_) == 0 ||
       after_an_article(text, tokens, from) ||
       adjective_before_a_noun() || token_is(text, tokens[from], "islam"))) {
    span.type = PiiType::kNrp;
    return true;
  }
  // So is a group of two words, one space apart ("Costa Rican", "South
  // African"; not "South Africa"), but for the first words of a longer
  // name, a capitalised word one space after ("North American Van Lines").
  auto capital_after = [&] {
    return to < tokens.size() && tokens[to].begin == tokens[to - 1].end + 1 && text[tokens[to - 1].end] == ' ' &&
           text[tokens[to].begin] >= 'A' && text[tokens[to].begin] <= 'Z';
  };
  if (to - from == 2 && names_by_a_proper_name(span.type) && tokens[from].end + 1 == tokens[from + 1].begin &&
      text[tokens[from].end] == ' ' && !capital_after() &&
      pii_scan::is_two_word_group(only_word,
                                  text.substr(tokens[from + 1].begin, tokens[from + 1].end - tokens[from + 1].begin))) {
    span.type = PiiType::kNrp;
    return true;
  }
  // A word alone that a city or country list knows, or a state list (of
  // four letters or more: "AR" and "DJ" are codes), or that names a
  // continent or a region of the world (kRegions), and that no name list
  // knows is a place, not a name or an organisation ("Norway was super fun
  // to visit!", "How far is Tampere from Brno", "Pennsylvania law", "Europe
  // currently faces"; not "Israel" nor "Chad", first names too:
  // type_continents() makes "Asia" a place in the end); so is a world_city()
  // ("How far is Mombasa"). The dev rows label
  // 37 such city words a place and one a name ("Bakar"); a surname that
  // the name lists miss is lost to the places ("Hammond"). So are "North
  // America" and its like.
  if (to - from == 1 && (span.type == PiiType::kPerson || span.type == PiiType::kOrganization)) {
    const Gazetteer::Match& m = tagger_views()[from].gazetteer;
    const bool state = (m.full & state_categories_) != 0 && tokens[from].end - tokens[from].begin >= 4;
    if (((m.full | m.part) & name_categories_) == 0 &&
        ((m.full & (place_categories_ & ~state_categories_)) != 0 || state || kRegions.contains(text, tokens[from]) ||
         world_city(text, tokens[from].begin, tokens[from].end))) {
      span.type = PiiType::kLocation;
    }
  }
  if (to - from == 2 && (span.type == PiiType::kPerson || span.type == PiiType::kOrganization) &&
      kRegionsOfAmerica.contains(text, tokens[from]) && token_is(text, tokens[from + 1], "america")) {
    span.type = PiiType::kLocation;
  }
  // A full stop after a word of four letters or more that is neither a
  // company suffix nor a street word (as "Corp." is) ends the sentence,
  // not the value: "Cautionary Tales.", "Belarus.".
  if (to - from >= 2 && text[tokens[to - 1].begin] == '.' && tokens[to - 1].end - tokens[to - 1].begin == 1 &&
      span.end == tokens[to - 1].end) {
    const Token& word = tokens[to - 2];
    const uint16_t full = tagger_views()[to - 2].gazetteer.full;
    if (word.end == tokens[to - 1].begin && word.end - word.begin > 3 &&
        (full & (company_categories_ | street_categories_)) == 0) {
      span.end = word.end;
    }
  }
  // A name of one word that no name list knows and that is two everyday
  // words of four letters or more run together is a brand, an
  // organisation: "Simpletuition", "Karmadata" (not "Woodward", which the
  // lists know as a name).
  if (span.type == PiiType::kPerson && to - from == 1 && (tagger_views()[from].gazetteer.full & name_categories_) == 0 &&
      compound_of_words(text, tokens[from].begin, tokens[from].end)) {
    span.type = PiiType::kOrganization;
  }
  // A place or an organisation of one word that is only a name is a name:
  // the tagger read the sentence, not the word ("shouted at Billy", "than
  // early Czarnecki"); so is an organisation of one word that is only a
  // given name, where no article, determiner, "at", "of" or "in" opens it
  // ("a toast for Ciaran and Aoife", "Greta and Celinda are baking";
  // brands are given names too, "book an Uber", "I work at Uber", and
  // lands, "the kings of Xia"). (A place of a given name alone is
  // type_places_ending_in_a_surname()'s.) Not several such words: "Davis,
  // Reynolds and Williamson" is a firm.
  if ((span.type == PiiType::kLocation || span.type == PiiType::kOrganization) && to - from == 1) {
    const TokenView& view = tagger_views()[from];
    auto firm_of_a_given_name = [&] {
      return span.type == PiiType::kOrganization && from > 0 &&
             only_a_given_name(text, from, view.gazetteer, view.word) && !after_an_article(text, tokens, from) &&
             !kDeterminers.contains(text, tokens[from - 1]) && !token_is(text, tokens[from - 1], "at") &&
             !token_is(text, tokens[from - 1], "of") && !token_is(text, tokens[from - 1], "in");
    };
    if (only_a_name(text, from) || firm_of_a_given_name()) span.type = PiiType::kPerson;
  }
  // A name or an organisation after words or a form's label that announce
  // a place is one ("grew up in Monroe", "home city Florida", "City:
  // Bergen"), even a word only a name list knows ("grew up in grasse").
  if ((span.type == PiiType::kPerson || span.type == PiiType::kOrganization) &&
      (after_a_place_cue(text, tokens, from) || after_a_place_label(text, tokens, from))) {
    span.type = PiiType::kLocation;
  }
  // So is one after "near", "toward" or "towards", or a cue of travel
  // (after_a_travel_cue(): "flying to Austin", "stayed in Sydney"), that the
  // place lists hold whole ("near Paris", "drove toward Florence"; "near
  // John" stays a name): a weaker cue, which does not make a place of a
  // name alone.
  if ((span.type == PiiType::kPerson || span.type == PiiType::kOrganization) && from > 0 &&
      !tokens[from].newline_before &&
      (near_or_toward(text, tokens[from - 1]) || after_a_travel_cue(text, tokens, from)) && listed_place(text, span)) {
    span.type = PiiType::kLocation;
  }
  // A name with a number in it or right after it on its line (in the same cell:
  // no tab between, "Anna Berg\t34" is a table's name and age) is a street and
  // its house number ("Família Marques 19", "Sorlaskeid 32"); so is an
  // organisation right before a number ("Auenweg 85"). Not one before a count
  // of things (counts_after(): "Tony 2 times more", "It takes John 5 minutes"),
  // nor one whose last word is a possessive: the number is the owner's ("George
  // Orwell's 1984", "Kate's 6 friends"), nor one before a chapter and its verse
  // or an hour and its minutes ("Matthew 1:1", "2 Samuel 11:4", "Anna 5:30"),
  // nor one between the numbers of a list's items ("1. Ana Souza 2. Ben
  // Carter").
  const Token& last_word = tokens[to - 1];
  const bool owner = possessive_stem(reinterpret_cast<const unsigned char*>(text.data()) + last_word.begin,
                                     last_word.end - last_word.begin) != last_word.end - last_word.begin;
  const bool number_after = is_number(text, tokens, to) && !tokens[to].newline_before &&
                            tokens[to].begin > last_word.end && !owner && !tab_between(text, tokens, to);
  auto chapter_and_verse = [&] {
    const uint32_t e = tokens[to].end;
    return e + 1 < text.size() && text[e] == ':' && text[e + 1] >= '0' && text[e + 1] <= '9';
  };
  // Or the next item's number of a list on one line that numbered this
  // one before it ("1. Ana Souza 2. Ben Carter").
  auto next_item = [&] {
    auto enumerator = [&](size_t k) {
      if (k + 1 >= tokens.size() || !all_digits(text, tokens[k]) || tokens[k].end - tokens[k].begin > 3 ||
          tokens[k + 1].begin != tokens[k].end || !(token_is(text, tokens[k + 1], ".") || token_is(text, tokens[k + 1], ")"))) {
        return -1;
      }
      int value = 0;
      for (uint32_t b = tokens[k].begin; b < tokens[k].end; ++b) value = value * 10 + (text[b] - '0');
      return value;
    };
    const int before = from >= 2 ? enumerator(from - 2) : -1;
    return before >= 0 && enumerator(to) == before + 1;
  };
  // So is one that opens with a house number and a street word that the
  // Romance languages write before the name ("at 3 Chemin du Lac,", a
  // firm to the decoder after a name).
  if (names_by_a_proper_name(span.type) && to - from >= 3 && all_digits(text, tokens[from]) &&
      text[tokens[from].begin] != '0' && tokens[from].end - tokens[from].begin <= 5 &&
      one_blank_after(text, tokens, from + 1) && kStreetWordsBeforeTheName.contains(text, tokens[from + 1])) {
    span.type = PiiType::kStreetAddress;
    return true;
  }
  if ((span.type == PiiType::kPerson || span.type == PiiType::kOrganization) && number_after &&
      !counts_after(text, to) && !chapter_and_verse() && !next_item()) {
    span.type = PiiType::kStreetAddress;
    return true;
  }
  if (span.type == PiiType::kPerson) {
    for (size_t t = from; t < to; ++t) {
      if (is_number(text, tokens, t)) {
        span.type = PiiType::kStreetAddress;
        return true;
      }
    }
  }
  // A name or a place that ends in a company suffix ("Smith Ltd") is an
  // organisation; a name that ends in a street suffix that is no name
  // ("Andreassen Street", not "Benny Hill") is an address, unless it opens
  // with a listed name and ends in no "Street", "Road", "Avenue" or
  // "Boulevard" ("Rosa Parks", "John Stuart Mill", "Francis Place"); so is a place or
  // an organisation of two words or more that ends in "Street", "Road",
  // "Avenue" or "Boulevard" ("Bezrukov Street Street": every labelled
  // value that ends in such a word is an address, 64 of 64).
  if (span.type != PiiType::kPerson && span.type != PiiType::kLocation && span.type != PiiType::kOrganization) {
    return true;
  }
  for (size_t t = to; t > from; --t) {
    const Token& last = tokens[t - 1];
    if (!is_word_byte(static_cast<unsigned char>(text[last.begin]))) continue;
    const uint16_t full = tagger_views()[t - 1].gazetteer.full;
    const bool thoroughfare = token_is(text, last, "street") || token_is(text, last, "road") ||
                              token_is(text, last, "avenue") || token_is(text, last, "boulevard");
    if (span.type != PiiType::kOrganization &&
        ((full & company_categories_) != 0 || (t - 1 > from && kOrganisationNouns.contains(text, last)))) {
      span.type = PiiType::kOrganization;
    } else if (t - 1 > from &&
               ((span.type == PiiType::kPerson && (full & street_suffix_categories_) != 0 && (full & name_categories_) == 0 &&
                 (thoroughfare || (tagger_views()[from].gazetteer.full & name_categories_) == 0)) ||
                (span.type != PiiType::kPerson && thoroughfare))) {
      span.type = PiiType::kStreetAddress;
      return true;
    }
    break;
  }
  if (span.type != PiiType::kPerson && span.type != PiiType::kLocation) return true;
  // A person's or a place's possessive ending is not part of the name: "[PERSON_1]'s address".
  if (span.end == tagger_tokens()[to - 1].end) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data()) + span.begin;
    span.end = span.begin + static_cast<uint32_t>(possessive_stem(s, span.end - span.begin));
  }
  return true;
}

namespace {

// The word hash (word_hash()) of the n bytes at s, a word that opens with a
// small Cyrillic letter, with that letter capitalised ("иван" as "Иван").
uint64_t capitalised_cyrillic_hash(const unsigned char* s, size_t n) {
  // а-п (D0 B0-BF) -> А-П (D0 90-9F); р-я (D1 80-8F) -> Р-Я (D0 A0-AF);
  // ѐ-џ (D1 90-9F) -> Ѐ-Џ (D0 80-8F).
  const unsigned char capital = s[0] == 0xd0 ? static_cast<unsigned char>(s[1] - 0x20)
                                : s[1] < 0x90 ? static_cast<unsigned char>(s[1] + 0x20)
                                              : static_cast<unsigned char>(s[1] - 0x10);
  const char head[2] = {'\xd0', static_cast<char>(capital)};
  const uint64_t word = phrase_hash_continued(kFnvOffset, std::string_view(head, 2), false);
  return phrase_hash_continued(word, std::string_view(reinterpret_cast<const char*>(s) + 2, n - 2), false);
}

}  // namespace

void PiiTagger::split_two_full_names(std::string_view text, std::vector<PiiSpan>& out, size_t s) const {
  const Tokens tokens = tagger_tokens();
  const size_t j = first_token_from(tokens, out[s].begin);
  size_t also = j, last = j;  // the "and", the span's last token
  while (last + 1 < tokens.size() && tokens[last + 1].end <= out[s].end) ++last;
  while (also <= last && !token_is(text, tokens[also], "and")) ++also;
  constexpr size_t kMaxFirmWords = 5;
  if (tokens[last].end != out[s].end || also == j || also >= last || also - j > kMaxFirmWords || last - also > 3) {
    return;
  }
  // Each side capitalised words one space apart ("Tariq Yilmaz and Mei
  // Fitzgerald"), the second opening with a first name that no company
  // list knows.
  for (size_t k = j; k <= last; ++k) {
    if (k > j && !one_blank_after(text, tokens, k)) return;
    if (k != also && !opens_with_a_capital(text.substr(tokens[k].begin))) return;
  }
  auto first_name = [&](size_t k) {
    const Gazetteer::Match m = view_of(text, tokens[k], gazetteer_).gazetteer;
    return (m.full & first_name_categories_) != 0 && ((m.full | m.part) & company_categories_) == 0;
  };
  if (!first_name(also + 1)) return;
  // A firm, up to its company suffix, and a person: "Acme Holdings Ltd and
  // John Paul Jones", a contract's parties. As one organisation the
  // person's name would leave the device where organisations may.
  if (also - 1 > j && (view_of(text, tokens[also - 1], gazetteer_).gazetteer.full & company_categories_) != 0) {
    out[s] = {PiiType::kOrganization, tokens[j].begin, tokens[also - 1].end};
    out.push_back({PiiType::kPerson, tokens[also + 1].begin, tokens[last].end});
    return;
  }
  if (also - j > 2 || last - also > 2 || (also - j == 1 && last - also == 1) || !first_name(j)) {
    return;  // not "Georgia and Virginia", two words
  }
  out[s] = {PiiType::kPerson, tokens[j].begin, tokens[also - 1].end};
  out.push_back({PiiType::kPerson, tokens[also + 1].begin, tokens[last].end});
}

bool PiiTagger::unlisted_capitalised_name(std::string_view text, const PiiSpan& span) const {
  const Tokens tokens = tagger_tokens();
  const auto blanks = std::count(text.begin() + span.begin, text.begin() + span.end, ' ');
  const size_t j = first_token_from(tokens, span.begin);
  if (blanks < 1 || blanks > 2 || j >= tokens.size() || tokens[j].begin != span.begin) return false;
  for (size_t k = j; k < tokens.size() && tokens[k].begin < span.end; ++k) {
    // (The world's cities too, which the decoder's view leaves out:
    // "Kuala Lumpur".)
    const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, tokens[k]));
    if (!opens_with_a_capital(text.substr(tokens[k].begin)) ||
        ((m.full | m.part) & (company_categories_ | place_categories_ | world_city_categories_ | common_categories_)) != 0 ||
        (k == j && (m.full & (name_categories_ | given_name_categories_ | census_surname_categories_)) == 0 &&
         (m.full | m.part) != 0)) {
      return false;
    }
  }
  return true;
}

void PiiTagger::type_signatures(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  for (size_t s = first; s < out.size(); ++s) {
    PiiSpan& span = out[s];
    if ((span.type != PiiType::kLocation && span.type != PiiType::kOrganization) || span.begin < 2) continue;
    // (A line's start or ", " before it, asked before its tokens.)
    if (text[span.begin - 1] != '\n' && (text[span.begin - 1] != ' ' || text[span.begin - 2] != ',')) continue;
    const size_t j = first_token_from(tokens, span.begin);
    if (j == 0 || j >= tokens.size() || tokens[j].begin != span.begin) continue;
    if (text[span.begin - 1] == '\n') {
      size_t last = j - 1;  // the closing's last word, before its comma
      if (last > 0 && token_is(text, tokens[last], ",") && !tokens[last].newline_before) --last;
      if (ends_a_closing_line(text, tokens, last)) span.type = PiiType::kPerson;
      continue;
    }
    // On the closing's line, after its comma, a name set off by a comma or
    // the line's end: "Signed, Cassius Oyelaran, Head of Operations" (the
    // title after it made a firm of it). Not "Thanks, Acme Support",
    // "Cheers, New York".
    const bool after_a_closing = j >= 2 && token_is(text, tokens[j - 1], ",") && !tokens[j].newline_before &&
                                 tokens[j].begin == tokens[j - 1].end + 1 && !tokens[j - 1].newline_before &&
                                 ends_a_closing_line(text, tokens, j - 2);
    const bool set_off = span.end == text.size() || text[span.end] == '\n' || text[span.end] == ',';
    if (after_a_closing && set_off && unlisted_capitalised_name(text, span)) span.type = PiiType::kPerson;
  }
}

void PiiTagger::type_senders(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  // The nouns of what a person sends: "an email from", "a voicemail from".
  static constexpr WordSet kSentThings(std::array<std::string_view, 10>{
      "email", "message", "letter", "note", "text", "voicemail", "call", "reply", "memo", "invitation"});
  const Tokens tokens = tagger_tokens();
  for (size_t s = first; s < out.size(); ++s) {
    PiiSpan& span = out[s];
    // (" from " before it, asked before its tokens.)
    if ((span.type != PiiType::kLocation && span.type != PiiType::kOrganization) || span.begin < 6 ||
        text.substr(span.begin - 6, 6) != " from ") {
      continue;
    }
    const size_t j = first_token_from(tokens, span.begin);
    if (j < 2 || j >= tokens.size() || tokens[j].begin != span.begin || !token_is(text, tokens[j - 1], "from") ||
        !one_blank_after(text, tokens, j) || !one_blank_after(text, tokens, j - 1) ||
        !kSentThings.contains(text, tokens[j - 2])) {
      continue;
    }
    if (unlisted_capitalised_name(text, span)) span.type = PiiType::kPerson;
  }
}

void PiiTagger::type_people_of_an_age(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  // Whether "age" or "aged" (any case), a blank and a digit 1-9 stand at
  // text[at...].
  auto age_word_at = [&](size_t at) {
    for (const std::string_view word : {std::string_view("age"), std::string_view("aged")}) {
      const size_t digit = at + word.size() + 1;
      const Token t{static_cast<uint32_t>(at), static_cast<uint32_t>(at + word.size()), false, false};
      if (digit < text.size() && text[digit - 1] == ' ' && text[digit] >= '1' && text[digit] <= '9' &&
          token_is(text, t, word)) {
        return true;
      }
    }
    return false;
  };
  for (size_t s = first; s < out.size(); ++s) {
    PiiSpan& span = out[s];
    if (span.type != PiiType::kLocation && span.type != PiiType::kOrganization) continue;
    const std::string_view after = text.substr(span.end, 2);
    if ((after == ", " || after == " (") && age_word_at(span.end + 2) && !listed_place(text, span)) {
      span.type = PiiType::kPerson;
    }
  }
}

bool PiiTagger::plausible(std::string_view text, const PiiSpan& span, size_t from, size_t to, bool mixed) const {
  const Tokens tokens = tagger_tokens();
  // A closing bracket inside the span that no opening one before it in
  // the span matches ends a clause the span runs over ("33 PM) Marcus" of
  // "(10:33 PM) Marcus:"), as a line break would. (One at its end goes
  // with the marks cut from spans' ends: "(Australia)".)
  int open = 0;
  for (size_t t = from; t + 1 < to; ++t) {
    if (tokens[t].end - tokens[t].begin != 1) continue;
    const char c = text[tokens[t].begin];
    if (c == '(' || c == '[') ++open;
    if ((c == ')' || c == ']') && --open < 0) return false;
  }
  if (to - from == 1 && (pronoun_contraction(text.substr(tokens[from].begin, tokens[from].end - tokens[from].begin)) ||
                         kAbbreviations.contains(text, tokens[from]) || names_a_language(text, tokens, from) ||
                         formula_or_code(text.substr(tokens[from].begin, tokens[from].end - tokens[from].begin)))) {
    return false;
  }
  if (to - from == 1 && text[tokens[from].begin] >= 'a' && text[tokens[from].begin] <= 'z' &&
      modal_before_a_verb(text, tokens, from, gazetteer_, common_categories_, name_categories_)) {
    return false;
  }
  bool word = false, digit = false, letter = false, street = false, capitalised_street = false, everyday = true;
  // Whether its words but numbers are all small ("42 and a", "6379 и"),
  // and all of them small letters of two bytes ("до 15": Cyrillic, Greek,
  // Latin-1); whether it has numbers, and none right after another.
  bool small_words_only = true, two_byte_small_words_only = true;
  bool numbers = false, words = false, numbers_apart = true, number_before = false;
  // Whether its words are all small Cyrillic ones and no name, place or
  // street list knows any of them.
  bool unlisted_cyrillic_words_only = true;
  for (size_t t = from; t < to; ++t) {
    const auto first = static_cast<unsigned char>(text[tokens[t].begin]);
    if (!is_word_byte(first)) continue;
    word = word || tokens[t].end - tokens[t].begin >= 2 || (first >= '0' && first <= '9');
    const bool number = first >= '0' && first <= '9';
    if (number) {
      numbers_apart = numbers_apart && !number_before;
      numbers = true;
    } else {
      words = true;
      small_words_only = small_words_only && small_word(text, tokens[t], 1);
      const auto* bytes = reinterpret_cast<const unsigned char*>(text.data()) + tokens[t].begin;
      two_byte_small_words_only = two_byte_small_words_only && first >= 0x80 &&
                                  opens_with_a_small_letter(bytes, tokens[t].end - tokens[t].begin);
    }
    number_before = number;
    for (uint32_t b = tokens[t].begin; b < tokens[t].end && !digit; ++b) digit = text[b] >= '0' && text[b] <= '9';
    // (A word opens with a letter or a byte >= 0x80; a number may hold one: "6Sigma".)
    for (uint32_t b = tokens[t].begin; b < tokens[t].end && number && !letter; ++b) {
      const auto c = static_cast<unsigned char>(text[b]);
      letter = (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
    }
    letter = letter || !number;
    const Gazetteer::Match m = tagger_views()[t].gazetteer;
    if (unlisted_cyrillic_words_only && !mixed) {
      const auto* bytes = reinterpret_cast<const unsigned char*>(text.data()) + tokens[t].begin;
      const size_t length = tokens[t].end - tokens[t].begin;
      // (The lists write names capitalised, and a word's hash lower-cases
      // A-Z alone: "иван" is looked up as "Иван".)
      unlisted_cyrillic_words_only =
          (first == 0xd0 || first == 0xd1) && opens_with_a_small_letter(bytes, length) &&
          (gazetteer_.lookup(capitalised_cyrillic_hash(bytes, length)).full &
           (name_categories_ | place_categories_ | street_categories_)) == 0;
    }
    // A street word of three letters or more: single letters ("C" of "C/ Mayor") prove nothing.
    const bool street_word = tokens[t].end - tokens[t].begin >= 3 && ((m.full | m.part) & street_categories_) != 0;
    street = street || street_word;
    capitalised_street = capitalised_street || (street_word && !(first >= 'a' && first <= 'z'));
    everyday = everyday && this->everyday(m);
  }
  if (!word || !has_letter_or_digit(text.substr(span.begin, span.end - span.begin))) return false;
  if (everyday && to - from == 1 && !all_capitals(text, tokens, from)) return false;
  // Nor are words that the everyday lists alone know, opening their line
  // before a colon: a form's label ("Personal Info:", "Home Phone:").
  if (everyday && mixed && to < tokens.size() && (from == 0 || tokens[from].newline_before) &&
      tokens[to].begin == tokens[to - 1].end && text[tokens[to].begin] == ':') {
    return false;
  }
  // A name, place or organisation has letters ("1819" alone is a year, not
  // "6Sigma"). One word alone is no name or place that the everyday lists
  // alone know in full and no place's name holds ("Church", "Sources"; a
  // company may be named by one: "Canon"), nor a month or a weekday as a
  // place or organisation ("December").
  const bool name = names_by_a_proper_name(span.type);
  if (name && !letter) return false;
  if (name && to - from == 1) {
    const Gazetteer::Match& m = tagger_views()[from].gazetteer;
    const bool only_everyday = (m.full & common_categories_) != 0 && (m.full & ~common_categories_) == 0;
    // (Not a word of a place's name the lists hold, which the passes after
    // decoding may complete: "United Kingdom", "Isle of Man".)
    if (span.type != PiiType::kOrganization && only_everyday && (m.part & place_categories_) == 0 &&
        !all_capitals(text, tokens, from)) {
      return false;
    }
    // Nor, after "the", such a word that a place's name holds: an
    // institution ("the Republic", "the State"), though a region may be
    // named so ("the South").
    if (span.type == PiiType::kLocation && only_everyday && from > 0 && token_is(text, tokens[from - 1], "the") &&
        !kPartsOfAContinent.contains(text, tokens[from]) && !all_capitals(text, tokens, from)) {
      return false;
    }
    // In text without capitals, nor one that the everyday lists know (a name
    // list may know it too) right after "the", "a" or "an" or a possessive
    // determiner: a noun ("the price of a house", "a green light", "in its
    // mission", "your king"; the lists know "mission" as a town).
    if (!mixed && (m.full & common_categories_) != 0 && !tokens[from].newline_before &&
        (after_an_article(text, tokens, from) || after_a_possessive_determiner(text, tokens, from))) {
      return false;
    }
    if (span.type != PiiType::kPerson && month_or_weekday(text, tokens[from])) return false;
    if (span.type == PiiType::kPerson && month_in_a_date(text, tokens, from)) return false;
    // A unit of measure after a number is a quantity's ("440 Hz").
    if (from > 0 && quantity_at(text, tokens, from - 1)) return false;
  }
  // In text without capitals the everyday lists (English) cannot tell a
  // Russian word from a name; the name, place and street lists hold
  // Russian ones. Words they do not know are no value there ("напиши
  // басню про оливье").
  if (!mixed && words && unlisted_cyrillic_words_only) return false;
  // A word of three letters at most after a number and a unit of measure is
  // the unit's: "120/80 mm Hg".
  if (to - from == 1 && tokens[from].end - tokens[from].begin <= 3 && from >= 2 && !tokens[from].newline_before &&
      quantity_at(text, tokens, from - 2)) {
    return false;
  }
  if (span.type != PiiType::kStreetAddress && in_a_formula(text, span)) return false;
  if (span.type == PiiType::kTitle) return names_a_role(text, tokens[to - 1]);
  if (span.type != PiiType::kStreetAddress) return true;
  if (next_to_a_math_sign(text, span) || year_of_an_era(text, tokens, from, to) || dated_names(text, tokens, from, to)) {
    return false;
  }
  // A number that counts or joins numbers opens no address without a
  // street's word ("in 10 years, melanie will be": the name under such a
  // span would be left to it, and out of the passes that find names).
  if (!street && opens_with_a_count(text, tokens, from, span.end)) return false;
  // Nor an hour ("at 5 o'clock").
  if (an_hour_at(text, tokens, from)) return false;
  // In text with capitals, small words that are no street words and
  // numbers make no address: after a number, with no two numbers in a row
  // ("42 and a", "18 red, 18", "6379 и"; not "16 34 quai", a building's and
  // a street's number), or when the words are in another script ("или 15",
  // "числа 65 получиться число 43").
  if (mixed && numbers && words && small_words_only && !street &&
      ((is_number(text, tokens, from) && numbers_apart) || two_byte_small_words_only)) {
    return false;
  }
  // Nor does a number and one word (maybe then its stop) that is a unit of
  // measure, a letter alone or an everyday word, a street suffix or not: a
  // quantity ("400 Hz", "10 V", "7 points", "40 points."). A street has a
  // name.
  const bool stop_after =
      to - from == 3 && tokens[to - 1].end - tokens[to - 1].begin == 1 && text[tokens[to - 1].begin] == '.';
  if ((to - from == 2 || stop_after) && all_digits(text, tokens[from])) {
    const Token& after = tokens[from + 1];
    // (A letter before its stop or slash opens a street's name: "38 C/
    // Señores Curas", "30 N. Stadion".)
    const bool abbreviation = after.end < text.size() && (text[after.end] == '/' || text[after.end] == '.');
    if (!(after.end - after.begin == 1 && abbreviation) &&
        (after.end - after.begin == 1 || unit_of_measure(text, after) ||
         (tagger_views()[from + 1].gazetteer.full & common_categories_) != 0)) {
      return false;
    }
  }
  // In text with capitals an address without a number has a capitalised
  // street word ("Adams Street"): not "Kant's view", "JIT approach".
  if (mixed && !digit) return capitalised_street;
  return digit || street;
}

}  // namespace tiergate
