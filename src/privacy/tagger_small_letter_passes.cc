// The rules for text without capitals, where the decoder has no capitals
// to go by: the places, companies and streets that the word lists and the
// words of companies' names and of streets tell
// (add_places_in_small_letters(), add_organisations_in_small_letters(),
// street_in_small_letters()); the capitalised names the word lists tell
// where the decoder took them for everyday words
// (add_capitalised_surnames(), add_capitalised_first_names(),
// add_full_names_of_listed_words()); and world_city(), listed_surname()
// and listed_place(), which the rules of any text ask. Their own file: in
// tagger_span_rules.cc, they changed what GCC inlines into plausible().
#include "tiergate/privacy/pii_tagger.h"

#include <algorithm>
#include <array>
#include <span>
#include <string_view>
#include <vector>

#include "data_labels.h"
#include "tagger_rules.h"

namespace tiergate {

using namespace tagger_rules;

namespace {

// Whether token t is an ASCII capital and then ASCII small letters only,
// `letters` letters at least ("Hopper", "Savannah"; not "McRae", "SMITH").
bool capital_then_small_letters(std::string_view text, const Token& t, size_t letters) {
  const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
  const size_t length = t.end - t.begin;
  return length >= letters && b[0] >= 'A' && b[0] <= 'Z' &&
         std::all_of(b + 1, b + length, [](unsigned char c) { return c >= 'a' && c <= 'z'; });
}

}  // namespace

void PiiTagger::add_places_in_small_letters(std::string_view text, std::span<const uint8_t> viewed,
                                            std::vector<PiiSpan>& out) const {
  const Tokens tokens = tagger_tokens();
  const ViewList& views = tagger_views();
  const auto places = static_cast<uint16_t>(place_categories_ & ~state_categories_);
  for (size_t j = 0; j < tokens.size(); ++j) {
    const Gazetteer::Match& m = views[j].gazetteer;
    if (viewed[j] != 2 || ((m.full | m.part) & (name_categories_ | common_categories_)) != 0 ||
        !small_word(text, tokens[j], 4)) {
      continue;
    }
    // (Without a possessive's 's, as the lists are read: "germany's".)
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + tokens[j].begin;
    const auto stem_end = tokens[j].begin + static_cast<uint32_t>(possessive_stem(b, tokens[j].end - tokens[j].begin));
    const Token stem{tokens[j].begin, stem_end, false, false};
    if (((m.full & places) != 0 || world_city(text, stem.begin, stem.end)) && !kPlanets.contains(text, stem) &&
        span_over(out, j) == out.size()) {
      add_span(out, {PiiType::kLocation, stem.begin, stem.end});
    }
  }
}

void PiiTagger::add_listed_names_in_small_letters(std::string_view text, std::span<const uint32_t> name_words,
                                                  std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  const ViewList& views = tagger_views();
  // Where a word that is only a given name, weaker evidence than the name
  // lists', may stand for one alone: not before a street's word ("and
  // maclean street"), after an article or a determiner ("the cadi", "your
  // venice"), after a word that leads to a format or a tool more than to a
  // person ("as json", "in json", "import json"), as an answer's choice
  // ("c. taiga"), nor touching a path's or a file's mark
  // ("application/json;", "config.json").
  static constexpr WordSet kBeforeAThing(std::array<std::string_view, 6>{"in", "as", "into", "via", "using", "import"});
  auto may_be_a_given_name_alone = [&](size_t j) {
    const Token& t = tokens[j];
    if (j + 1 < tokens.size() &&
        (gazetteer_.lookup(word_hash(text, tokens[j + 1])).full & street_categories_) != 0) {
      return false;
    }
    if (j > 0 && (kDeterminers.contains(text, tokens[j - 1]) || after_an_article(text, tokens, j) ||
                  kBeforeAThing.contains(text, tokens[j - 1]))) {
      return false;
    }
    if (j >= 2 && tokens[j - 2].end - tokens[j - 2].begin == 1 && text[tokens[j - 2].begin] >= 'a' &&
        text[tokens[j - 2].begin] <= 'z' && (j == 2 || tokens[j - 2].newline_before) &&
        (mark_at(text, tokens, j - 1, '.') || mark_at(text, tokens, j - 1, ')'))) {
      return false;
    }
    auto path_mark = [](char c) { return c == '/' || c == '.' || c == '_' || c == '\\'; };
    return !(t.begin > 0 && path_mark(text[t.begin - 1])) && !(t.end + 1 < text.size() && path_mark(text[t.end]) &&
                                                                  is_word_byte(static_cast<unsigned char>(text[t.end + 1])));
  };
  for (const uint32_t j : name_words) {
    const Token& t = tokens[j];
    if (!small_word(text, t, 4) || pii_scan::data_label(text.substr(t.begin, t.end - t.begin))) continue;
    const size_t over = span_over(out, j);
    // A name of this tagging that is the word alone is one whatever else
    // the lists know the word as ("robert", a place too): a surname may
    // still join it, below.
    const bool tagged_alone = over >= first && over < out.size() && out[over].type == PiiType::kPerson &&
                              out[over].begin == t.begin && out[over].end == t.end;
    if (!tagged_alone && !only_a_name(text, j, views[j].gazetteer) &&
        (!only_a_given_name(text, j, views[j].gazetteer, views[j].word) || !may_be_a_given_name_alone(j))) {
      continue;
    }
    // Not a part of a word with a hyphen ("becker-shaffer"): the decoder
    // reads the whole.
    if ((t.begin > 0 && text[t.begin - 1] == '-') || (t.end < text.size() && text[t.end] == '-')) continue;
    // (Without a possessive's 's, as the lists are read: "takeda's".)
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
    const auto end = t.begin + static_cast<uint32_t>(possessive_stem(b, t.end - t.begin));
    // Right after a name of this tagging, one space apart on its line, it
    // is the same person's ("anna takeda"). A name of this tagging that is
    // the word alone may still take a surname after it, below.
    const size_t k = j > 0 ? span_over(out, j - 1) : out.size();
    if (over != out.size()) {
      if (!tagged_alone) continue;
    } else if (k >= first && k < out.size() && out[k].type == PiiType::kPerson && out[k].end == tokens[j - 1].end &&
               tokens[j - 1].end + 1 == t.begin && text[tokens[j - 1].end] == ' ') {
      set_span(out, k, {PiiType::kPerson, out[k].begin, end});
    } else {
      add_span(out, {PiiType::kPerson, t.begin, end});
    }
    // A surname of the census right after it, one space apart, that no
    // list the tagger learns from knows is the same person's ("sherrie
    // haddad"; a name list's surname is a name word of its own, joined as
    // above).
    if (end != t.end || j + 1 >= tokens.size()) continue;
    const Token& next = tokens[j + 1];
    // A surname with a hyphen right after it, one space apart ("abdulrahman
    // al-farsi", "sarah smith-jones"): a surname's particle or a word a
    // name list knows and no everyday list does, or two words name lists
    // know, or two words of three letters or more that no list knows at
    // all ("folasade adeyemi-okoro"), the hyphen glued to both, that no
    // span covers.
    if (one_blank_after(text, tokens, j + 1) && glued_hyphen(text, tokens, j + 2) && small_word(text, next, 2) &&
        small_word(text, tokens[j + 3], 2) && span_over(out, j + 1) == out.size() &&
        span_over(out, j + 3) == out.size()) {
      const Gazetteer::Match before = gazetteer_.lookup(word_hash(text, next));
      const Gazetteer::Match after = gazetteer_.lookup(word_hash(text, tokens[j + 3]));
      const bool named = (before.full & name_categories_) != 0;
      auto unknown = [&](const Token& w) { return w.end - w.begin >= 3 && !gazetteer_.knows(word_hash(text, w)); };
      if (kSurnameParticles.contains(text, next) || (named && (before.full & common_categories_) == 0) ||
          (named && (after.full & name_categories_) != 0) || (unknown(next) && unknown(tokens[j + 3]))) {
        const Token& last = tokens[j + 3];
        const auto* lb = reinterpret_cast<const unsigned char*>(text.data()) + last.begin;
        const size_t name = span_over(out, j);
        set_span(out, name,
                 {PiiType::kPerson, out[name].begin,
                  last.begin + static_cast<uint32_t>(possessive_stem(lb, last.end - last.begin))});
        continue;
      }
    }
    const auto* nb = reinterpret_cast<const unsigned char*>(text.data()) + next.begin;
    const Token surname{next.begin, next.begin + static_cast<uint32_t>(possessive_stem(nb, next.end - next.begin)),
                        false, false};
    if (next.newline_before || next.begin != t.end + 1 || text[t.end] != ' ' || !small_word(text, surname, 2) ||
        function_word(text, surname) || span_over(out, j + 1) != out.size()) {
      continue;
    }
    const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, surname));
    // So is a surname of a last-name list or the census that the everyday
    // lists know too before a bracket or a comma that sets something off,
    // or a quote mark glued to it that closes a value ("jane doe (the
    // tenant)", "judith butler (1999)", "name = 'robert mills'"): before a
    // word, a stop or a hyphen it is as often the everyday word ("anna long
    // ago", "a huge hannah rangel fan.", "perrin numbers.", "rita
    // hand-picks").
    const bool set_off =
        surname.end == next.end && j + 2 < tokens.size() && !tokens[j + 2].newline_before &&
        ((tokens[j + 2].begin == next.end + (text[next.end] == ' ' ? 1 : 0) &&
          (text[tokens[j + 2].begin] == '(' || text[tokens[j + 2].begin] == ',')) ||
         (tokens[j + 2].begin == next.end && (text[next.end] == '\'' || text[next.end] == '"') && t.begin > 0 &&
          text[t.begin - 1] == text[next.end]));
    const bool surname_set_off =
        set_off && (m.full & (place_categories_ | first_name_categories_)) == 0 &&
        ((m.full & last_name_categories_) != 0 || listed_surname(text, surname.begin, surname.end));
    // And a word of three letters or more that no list knows at all where
    // the clause ends after it or an everyday word follows it, but chat's
    // shorthand ("my former student, thandiwe mokoena?", "dorothea
    // whitcombe for"; not "sarah pls help").
    const bool clause_ends = j + 2 == tokens.size() || tokens[j + 2].newline_before ||
                             (tokens[j + 2].begin == next.end && tokens[j + 2].end - tokens[j + 2].begin == 1 &&
                              std::string_view(".,?!;)").find(text[tokens[j + 2].begin]) != std::string_view::npos);
    const bool unlisted_last = (m.full | m.part) == 0 && surname.end == next.end && next.end - next.begin >= 3 &&
                               (clause_ends || everyday_word_after(text, j + 1)) &&
                               !kChatShorthand.contains(text, next);
    if (!surname_set_off && !unlisted_last &&
        ((m.full | m.part) != 0 || !listed_surname(text, surname.begin, surname.end))) {
      continue;
    }
    const size_t name = span_over(out, j);
    set_span(out, name, {PiiType::kPerson, out[name].begin, surname.end});
  }
}

void PiiTagger::add_organisations_in_small_letters(std::string_view text, std::span<const uint8_t> viewed,
                                                   std::vector<PiiSpan>& out, size_t first) const {
  static constexpr WordSet kLegalSuffixes(std::array<std::string_view, 6>{"inc", "corp", "llc", "ltd", "plc", "gmbh"});
  constexpr size_t kMaxWords = 3;
  const Tokens tokens = tagger_tokens();
  const ViewList& views = tagger_views();
  auto name_word = [&](size_t k) {
    return small_word(text, tokens[k], 3) && !function_word(text, tokens[k]);
  };
  // An everyday word, or one written as adjectives and participles end
  // ("abelian group", "translational systems", "multiprogrammed"), or with
  // an apostrophe ("shouldn't", "wallis's"): no company's own name.
  auto everyday_word = [&](size_t k) {
    const std::string_view w = text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin);
    return viewed[k] != 2 || (views[k].gazetteer.full & common_categories_) != 0 ||
           w.find('\'') != std::string_view::npos || w.ends_with("al") || w.ends_with("ian") || w.ends_with("ed") ||
           w.ends_with("ic") || w.ends_with("ous") || w.ends_with("ive");
  };
  for (size_t j = 1; j < tokens.size(); ++j) {
    // (Not "group" nor "systems", which in small letters name a science's
    // objects more often than a company: "ketone group", "linear systems".)
    if (tokens[j].end - tokens[j].begin < 3 || token_is(text, tokens[j], "group") ||
        token_is(text, tokens[j], "systems") ||
        !(kOrganisationNouns.contains(text, tokens[j]) || kLegalSuffixes.contains(text, tokens[j]))) {
      continue;
    }
    size_t from = j;
    while (from > 0 && j - from < kMaxWords && one_blank_after(text, tokens, from) && name_word(from - 1)) --from;
    while (from < j && everyday_word(from)) ++from;
    if (from == j) continue;
    const PiiSpan organisation{PiiType::kOrganization, tokens[from].begin, tokens[j].end};
    // A legal suffix ends a company's name: an organisation of this
    // tagging over the words that runs on past it and its stop ends there
    // ("birchfield holdings ltd and yetunde adebayo", a firm "and" a person
    // to the decoder; "morningstar inc." stays).
    if (kLegalSuffixes.contains(text, tokens[j])) {
      const uint32_t suffix_end = mark_at(text, tokens, j + 1, '.') && glued_to_the_one_before(tokens, j + 1)
                                      ? tokens[j + 1].end
                                      : tokens[j].end;
      const size_t c = span_over(out, j);
      if (c != out.size() && c >= first && out[c].type == PiiType::kOrganization && out[c].end > suffix_end &&
          out[c].begin <= organisation.begin) {
        set_span(out, c, {PiiType::kOrganization, out[c].begin, suffix_end});
        continue;
      }
    }
    // The one span over the words, if any: this tagging's name, place or
    // organisation over just them.
    size_t k = out.size();
    bool free = true;
    for (size_t t = from; t <= j && free; ++t) {
      const size_t c = span_over(out, t);
      if (c == out.size()) continue;
      free = (k == out.size() || c == k) && c >= first && names_by_a_proper_name(out[c].type) &&
             out[c].begin >= organisation.begin && out[c].end <= tokens[j - 1].end;
      k = c;
    }
    if (!free) continue;
    if (k == out.size()) {
      add_span(out, organisation);
    } else {
      set_span(out, k, organisation);
    }
  }
}

size_t tagger_rules::street_in_small_letters(std::string_view text, Tokens tokens, size_t j, const Gazetteer& gazetteer,
                                             uint16_t suffixes, uint16_t places) {
  static constexpr WordSet kStreetWordsFirst(std::array<std::string_view, 16>{
      "rue", "via", "viale", "calle", "carrer", "camino", "paseo", "rua", "avenida", "travessa", "largo", "strada",
      "piazza", "ulica", "aleja", "plaza"});
  constexpr size_t kMaxWords = 3;
  const size_t n = tokens.size();
  if (a_recent_year(text, tokens[j])) return 0;
  // (Or after "of" or a comma, a resident's street, "a tenant of 8 aspen
  // way", "leopold hartmann, 3 castle mews, york", where the suffix is no
  // plural of another: "14 red squares, 4 more blue squares than".)
  const bool led = led_to_a_place(text, tokens, j);
  const bool resident = !led && one_blank_after(text, tokens, j) &&
                        (token_is(text, tokens[j - 1], "of") || token_is(text, tokens[j - 1], ","));
  if (!led && !resident) return 0;
  // A word of a street's name: small letters, two or more, one blank after
  // the token before it on its line, and no word that stands in no name.
  auto word = [&](size_t k) {
    return k < n && one_blank_after(text, tokens, k) && small_word(text, tokens[k], 2) && !function_word(text, tokens[k]);
  };
  // Whether the street ends at token k: its clause goes on with no word of
  // a name after it.
  auto ends_after = [&](size_t k) {
    if (k + 1 >= n || tokens[k + 1].newline_before) return true;
    const Token& after = tokens[k + 1];
    return !is_word_byte(static_cast<unsigned char>(text[after.begin])) || never_in_a_name(text, after) ||
           kNeverLastInAName.contains(text, after) || token_is(text, after, "last");  // ("last year")
  };
  if (!word(j + 1)) return 0;
  // One word ending as streets do (ends_as_a_street()).
  const std::string_view first = text.substr(tokens[j + 1].begin, tokens[j + 1].end - tokens[j + 1].begin);
  if (ends_as_a_street(first) && ends_after(j + 1)) {
    return j + 1;
  }
  // A street word first, then one or two words.
  if (kStreetWordsFirst.contains(text, tokens[j + 1]) && word(j + 2)) {
    if (word(j + 3) && ends_after(j + 3)) return j + 3;
    return ends_after(j + 2) ? j + 2 : 0;
  }
  // Words, then a suffix the street lists know; not "close" before "to" or
  // "by", the adverb ("a farm of 50 acres close to the town").
  for (size_t k = j + 2; k <= j + kMaxWords + 1 && word(k); ++k) {
    if ((gazetteer.lookup(word_hash(text, tokens[k])).full & suffixes) == 0) continue;
    const bool town_after = k + 1 < n && one_blank_after(text, tokens, k + 1) && small_word(text, tokens[k + 1], 2) &&
                            (gazetteer.lookup(word_hash(text, tokens[k + 1])).full & places) != 0;
    // (A quadrant's compass point after the suffix, before the clause's
    // end, goes with it: "1600 pennsylvania avenue nw, washington".)
    const bool quadrant_after = quadrant_after_a_street(text, tokens, k);
    if (!ends_after(k) && !town_after && !quadrant_after) continue;
    auto plural = [&] {
      const Token singular{tokens[k].begin, tokens[k].end - 1, false, false};
      return text[singular.end] == 's' && (gazetteer.lookup(word_hash(text, singular)).full & suffixes) != 0;
    };
    if (resident && plural()) continue;
    const bool adverb = token_is(text, tokens[k], "close") && k + 1 < n &&
                        (token_is(text, tokens[k + 1], "to") || token_is(text, tokens[k + 1], "by"));
    if (!adverb) return quadrant_after ? k + 1 : k;
  }
  return 0;
}

void PiiTagger::add_surnames_in_small_letters(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  for (size_t k = first; k < out.size(); ++k) {
    if (out[k].type != PiiType::kPerson) continue;
    size_t j = first_token_from(tokens, out[k].begin);
    if (j + 1 >= tokens.size() || tokens[j].begin != out[k].begin) continue;
    // (Or of two first names, the second a middle name that no last-name
    // list knows: "john michael doe"; not "percy jackson book".)
    if (tokens[j].end != out[k].end) {
      if (tokens[j + 1].end != out[k].end || tokens[j + 1].begin != tokens[j].end + 1 ||
          (gazetteer_.lookup(word_hash(text, tokens[j])).full & first_name_categories_) == 0 ||
          (gazetteer_.lookup(word_hash(text, tokens[j + 1])).full & last_name_categories_) != 0) {
        continue;
      }
      ++j;
      if (j + 1 >= tokens.size()) continue;
    }
    const Token& name = tokens[j];
    // (Without a possessive's 's, as the lists are read: "sarah fine's".)
    const Token& next = tokens[j + 1];
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + next.begin;
    const Token surname{next.begin, next.begin + static_cast<uint32_t>(possessive_stem(b, next.end - next.begin)),
                        next.newline_before, false};
    if (surname.newline_before || surname.begin != name.end + 1 || text[name.end] != ' ' ||
        !small_word(text, surname, 2) || function_word(text, surname) || is_number(text, tokens, j + 2) ||
        (gazetteer_.lookup(word_hash(text, name)).full & first_name_categories_) == 0 ||
        span_over(out, j + 1) != out.size()) {
      continue;
    }
    // An everyday word of three letters or more that the last-name lists
    // or the census's surnames know too is the surname where the name ends
    // there: a possessive, or before a mark that ends a clause, the line's
    // or the text's end ("teresa walker's tales", "this is chad farmer.";
    // not "than kyle so _", "rita hand-picks"): redaction would let it out
    // otherwise.
    const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, surname));
    if ((m.full & common_categories_) != 0) {
      auto ends_a_clause = [&](const Token& t) {
        const char c = text[t.begin];
        return t.end - t.begin == 1 && (c == '.' || c == ',' || c == '!' || c == '?' || c == ';' || c == ':' || c == ')');
      };
      const bool ends_there = surname.end != next.end || j + 2 == tokens.size() || tokens[j + 2].newline_before ||
                              ends_a_clause(tokens[j + 2]);
      if (surname.end - surname.begin < 3 || !ends_there || never_in_a_name(text, surname) ||
          !listed_surname(text, surname.begin, surname.end)) {
        continue;
      }
    }
    set_span(out, k, {PiiType::kPerson, out[k].begin, surname.end});
  }
}

void PiiTagger::add_gaelic_surnames_in_small_letters(std::string_view text, std::vector<PiiSpan>& out,
                                                     size_t first) const {
  const Tokens tokens = tagger_tokens();
  bool dropped = false;  // whether a span was marked to go (mark_dropped())
  for (size_t k = first; k < out.size(); ++k) {
    if (out[k].type != PiiType::kPerson || out[k].end + 3 >= text.size() || text[out[k].end] != ' ') continue;
    // (The bytes asked first: "o'", "o’" or "mc" opens the word after, which
    // few do; the token's search is a call.)
    const std::string_view after = text.substr(out[k].end + 1, 3);
    if (!after.starts_with("o'") && !after.starts_with("o\xe2") && !after.starts_with("mc")) continue;
    const size_t next = first_token_from(tokens, out[k].end + 1);
    if (next == tokens.size() || tokens[next].begin != out[k].end + 1 || tokens[next].newline_before ||
        !gaelic_surname_in_small_letters(text.substr(tokens[next].begin, tokens[next].end - tokens[next].begin))) {
      continue;
    }
    // (A name of this tagging over the surname alone joins it.)
    const size_t over = span_over(out, next);
    if (over != out.size()) {
      if (over < first || out[over].type != PiiType::kPerson || out[over].begin != tokens[next].begin ||
          out[over].end > tokens[next].end) {
        continue;
      }
      mark_dropped(out, over);
      reset_cover();
      dropped = true;
    }
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + tokens[next].begin;
    set_span(out, k,
             {PiiType::kPerson, out[k].begin,
              tokens[next].begin + static_cast<uint32_t>(possessive_stem(b, tokens[next].end - tokens[next].begin))});
  }
  if (dropped) drop_marked_spans(out);
  // A surname of "o'" and small letters that no span covers, with the
  // word before it one blank apart where that is a word in small letters
  // that no everyday or place's list knows: "has ruairi o'sullivan
  // confirmed". (Found by a search for the apostrophe, fewer than the
  // letter "o".)
  for (size_t quote = text.find('\''); quote != std::string_view::npos; quote = text.find('\'', quote + 1)) {
    if (quote == 0 || text[quote - 1] != 'o') continue;
    const size_t at = quote - 1;
    const size_t j = first_token_from(tokens, static_cast<uint32_t>(at));
    if (j == tokens.size() || tokens[j].begin != at ||
        !gaelic_surname_in_small_letters(text.substr(tokens[j].begin, tokens[j].end - tokens[j].begin)) ||
        span_over(out, j) != out.size()) {
      continue;
    }
    uint32_t begin = tokens[j].begin;
    if (j > 0 && one_blank_after(text, tokens, j) && small_word(text, tokens[j - 1], 2) &&
        !function_word(text, tokens[j - 1]) && span_over(out, j - 1) == out.size()) {
      const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, tokens[j - 1]));
      if ((m.full & (common_categories_ | place_categories_ | world_city_categories_)) == 0) begin = tokens[j - 1].begin;
    }
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + tokens[j].begin;
    add_span(out, {PiiType::kPerson, begin,
                   tokens[j].begin + static_cast<uint32_t>(possessive_stem(b, tokens[j].end - tokens[j].begin))});
  }
}

void PiiTagger::add_initialled_names_in_small_letters(std::string_view text, std::vector<PiiSpan>& out) const {
  static constexpr WordSet kBeforeInitials(std::array<std::string_view, 6>{"by", "mr", "mrs", "ms", "dr", "prof"});
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  // An initial: a small letter (not "i", a numeral), its stop glued to it,
  // one blank before the next token on the line.
  auto initial = [&](size_t k) {
    return k + 2 < n && tokens[k].end - tokens[k].begin == 1 && text[tokens[k].begin] >= 'a' &&
           text[tokens[k].begin] <= 'z' && text[tokens[k].begin] != 'i' && mark_at(text, tokens, k + 1, '.') &&
           tokens[k + 1].begin == tokens[k].end && one_blank_after(text, tokens, k + 2);
  };
  for (size_t k = 1; k + 2 < n; ++k) {
    if (!initial(k)) continue;
    // After "by" or a title (its stop too: "mrs. j. doe"), one blank apart.
    size_t cue = k - 1;
    if (cue >= 1 && mark_at(text, tokens, cue, '.') && tokens[cue].begin == tokens[cue - 1].end) --cue;
    if (tokens[k].newline_before || tokens[k].begin != tokens[cue].end + 1 + (cue + 1 < k ? 1 : 0) ||
        !kBeforeInitials.contains(text, tokens[cue])) {
      continue;
    }
    size_t last = k + 2;  // the surname, after one more initial at most: "j. k. rowling"
    if (initial(last)) last += 2;
    if (last >= n || !small_word(text, tokens[last], 2) || function_word(text, tokens[last]) ||
        span_over(out, last) != out.size()) {
      continue;
    }
    // The surname: a word the last-name lists or the census know, two
    // words joined by a hyphen ("t. abernathy-singh"), or a word no list
    // knows that ends the clause ("signed by p. okafor."; not "by e. coli
    // bacteria").
    uint32_t end = tokens[last].end;
    const bool hyphenated =
        last + 2 < n && glued_hyphen(text, tokens, last + 1) && small_word(text, tokens[last + 2], 2);
    if (hyphenated) end = tokens[last + 2].end;
    const bool unknown_at_the_end = !gazetteer_.knows(word_hash(text, tokens[last])) &&
                                    tokens[last].end - tokens[last].begin >= 3 && clause_ends_after(text, tokens, last);
    if (!hyphenated && !listed_surname(text, tokens[last].begin, tokens[last].end) && !unknown_at_the_end) continue;
    if (span_over(out, k) != out.size()) continue;
    add_span(out, {PiiType::kPerson, tokens[k].begin, end});
    k = last;
  }
}

void PiiTagger::join_small_initials_to_names(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  // Whether an initial ends one blank before byte b: a letter that is no
  // numeral, versus nor compass point, its stop, the letter after a blank.
  auto initial_before = [&](uint32_t b) {
    return b >= 4 && text[b - 1] == ' ' && text[b - 2] == '.' && text[b - 3] >= 'a' && text[b - 3] <= 'z' &&
           std::string_view("ivnsew").find(text[b - 3]) == std::string_view::npos && text[b - 4] == ' ';
  };
  for (size_t k = first; k < out.size(); ++k) {
    // (The bytes asked first: few names have an initial before them.)
    if (out[k].type != PiiType::kPerson || !initial_before(out[k].begin)) continue;
    size_t j = first_token_from(tokens, out[k].begin);
    if (j >= n || tokens[j].begin != out[k].begin) continue;
    // Back over the initials ("j. p. taylor"), then a first name a list
    // knows before them ("john f. kennedy").
    while (j >= 2 && initial_before(tokens[j].begin) && mark_at(text, tokens, j - 1, '.') &&
           tokens[j - 2].end == tokens[j - 1].begin && span_over(out, j - 2) == out.size()) {
      j -= 2;
    }
    if (tokens[j].begin == out[k].begin) continue;
    if (j >= 1 && one_blank_after(text, tokens, j) && small_word(text, tokens[j - 1], 2) &&
        !function_word(text, tokens[j - 1]) && span_over(out, j - 1) == out.size() &&
        ((gazetteer_.lookup(word_hash(text, tokens[j - 1])).full & first_name_categories_) != 0 ||
         only_a_given_name(text, j - 1))) {
      --j;
    }
    set_span(out, k, {PiiType::kPerson, tokens[j].begin, out[k].end});
  }
}

void PiiTagger::add_surname_initials_in_small_letters(std::string_view text, std::vector<PiiSpan>& out,
                                                      size_t first) const {
  auto small_letter = [&](size_t b) { return b < text.size() && text[b] >= 'a' && text[b] <= 'z'; };
  for (size_t k = first; k < out.size(); ++k) {
    const uint32_t end = out[k].end;
    if (out[k].type != PiiType::kPerson || end + 3 > text.size() || !small_letter(end - 1) || text[end] != ' ' ||
        !small_letter(end + 1) || text[end + 1] == 'v' || text[end + 1] == 'i' || text[end + 2] != '.') {
      continue;
    }
    if (end + 3 == text.size() || (!is_word_byte(static_cast<unsigned char>(text[end + 3])) && text[end + 3] != '.')) {
      set_span(out, k, {PiiType::kPerson, out[k].begin, end + 3});
    }
  }
}

void PiiTagger::add_family_names_in_small_letters(std::string_view text, std::vector<PiiSpan>& out) const {
  const Tokens tokens = tagger_tokens();
  constexpr std::string_view kFamily = " family";
  for (size_t at = text.find(kFamily); at != std::string_view::npos; at = text.find(kFamily, at + kFamily.size())) {
    const size_t j = first_token_from(tokens, static_cast<uint32_t>(at + 1));
    if (j < 2 || j >= tokens.size() || tokens[j].begin != at + 1 || tokens[j - 1].end != at) continue;
    // The surname's parts, back over hyphens glued to them.
    size_t from = j - 1;
    while (from >= 2 && mark_at(text, tokens, from - 1, '-') && tokens[from - 1].begin == tokens[from - 2].end &&
           tokens[from].begin == tokens[from - 1].end) {
      from -= 2;
    }
    if (!between_the_and_family(text, tokens, from, tokens[j - 1].end)) continue;
    bool surnames = true;
    for (size_t k = from; k < j && surnames; k += 2) {
      const Token& part = tokens[k];
      // (Not an everyday word: "the human family", "the new family".)
      const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, part));
      surnames = small_word(text, part, 2) && (m.full & (first_name_categories_ | common_categories_)) == 0 &&
                 listed_surname(text, part.begin, part.end) && span_over(out, k) == out.size();
    }
    if (surnames) add_span(out, {PiiType::kPerson, tokens[from].begin, tokens[j - 1].end});
  }
}

void PiiTagger::add_names_before_who_in_small_letters(std::string_view text, std::span<const uint32_t> whos,
                                                      std::vector<PiiSpan>& out, size_t first) const {
  if (first_name_categories_ == 0 || common_categories_ == 0) return;
  const Tokens tokens = tagger_tokens();
  // (Not "from" or "by", after which "who" is often of the people of a
  // place: "two monks from corfu, who told us".)
  static constexpr WordSet kPrepositions(std::array<std::string_view, 4>{"for", "to", "with", "about"});
  // "who" asking, before its clause's subject: "confesses to thor who she
  // is".
  static constexpr WordSet kSubjects(std::array<std::string_view, 6>{"you", "he", "she", "we", "they", "it"});
  for (const uint32_t w : whos) {
    // The word before, maybe glued to a comma.
    const bool comma = w >= 1 && mark_at(text, tokens, w - 1, ',');
    const size_t j = comma ? w - 2 : w - 1;
    if (w < 2 || j < 1 || j >= tokens.size() || tokens[j].newline_before || (comma && tokens[w - 1].begin != tokens[j].end)) {
      continue;
    }
    const Token& t = tokens[j];
    if (t.end - t.begin < 3 || !std::all_of(text.begin() + t.begin, text.begin() + t.end, [](char c) {
          return c >= 'a' && c <= 'z';
        })) {
      continue;
    }
    if (tokens[j - 1].end + 1 != t.begin || !kPrepositions.contains(text, tokens[j - 1]) ||
        !said_of_people_after(text, tokens, j, "who") || kSubjects.contains(text, tokens[w + 1]) ||
        token_is(text, tokens[w + 1], "i")) {
      continue;
    }
    const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, t));
    const bool unknown = (m.full | m.part) == 0;
    const bool first_name = (m.full & first_name_categories_) != 0 &&
                            (m.full & (common_categories_ | place_categories_)) == 0 && !is_title(m);
    if (!unknown && !first_name) continue;
    const size_t over = span_over(out, j);
    if (over == out.size()) {
      add_span(out, {PiiType::kPerson, t.begin, t.end});
    } else if (own_place_or_organisation(out, over, first, t.begin, t.end)) {
      out[over].type = PiiType::kPerson;
    }
  }
}

void PiiTagger::add_capitalised_surnames(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  const auto not_a_surname = static_cast<uint16_t>(place_categories_ | world_city_categories_ | street_categories_ |
                                                   company_categories_ | proper_adjective_categories_ |
                                                   prefix_categories_);
  for (size_t k = first; k < out.size(); ++k) {
    // (A blank and a capital after the name first: most names have none.)
    const uint32_t end = out[k].end;
    if (out[k].type != PiiType::kPerson || end + 2 >= text.size() || text[end] != ' ' || text[end + 1] < 'A' ||
        text[end + 1] > 'Z') {
      continue;
    }
    const size_t j = first_token_from(tokens, out[k].begin);
    if (j + 1 >= tokens.size() || tokens[j].begin != out[k].begin || tokens[j].end != out[k].end) continue;
    const Token& next = tokens[j + 1];
    if (next.newline_before || next.begin != tokens[j].end + 1 || text[tokens[j].end] != ' ' ||
        !capital_then_small_letters(text, next, 2) ||
        (j + 2 < tokens.size() && !tokens[j + 2].newline_before && tokens[j + 2].begin == next.end + 1 &&
         opens_with_a_capital(text.substr(tokens[j + 2].begin))) ||
        span_over(out, j + 1) != out.size() || kOrganisationNouns.contains(text, next) ||
        kCompanyPlaceNouns.contains(text, next) || never_in_a_name(text, next) ||
        pii_scan::is_group_word(text.substr(next.begin, next.end - next.begin))) {
      continue;
    }
    const Gazetteer::Match name = gazetteer_.lookup_all(word_hash(text, tokens[j]));
    const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, next));
    // (Or the family name first, as Chinese names are written: a surname
    // that no other list knows, then a given name of two to four letters,
    // no title nor a building's unit: "I met Wang Lei", where "lei" is an
    // everyday word; not "Byrtus Apt.", "Bidaud Mr.".)
    const bool family_name_first = (name.full & last_name_categories_) != 0 &&
                                   (name.full & (first_name_categories_ | not_a_surname | common_categories_)) == 0 &&
                                   next.end - next.begin <= 4 && (m.full & not_a_surname) == 0 && !is_title(m) &&
                                   !kUnitsOfABuilding.contains(text, next);
    if (family_name_first) {
      set_span(out, k, {PiiType::kPerson, out[k].begin, next.end});
      continue;
    }
    if ((name.full & first_name_categories_) == 0) continue;
    if ((m.full & not_a_surname) != 0 || (m.full & first_name_categories_) != 0) continue;
    set_span(out, k, {PiiType::kPerson, out[k].begin, next.end});
  }
}

void PiiTagger::add_capitalised_first_names(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  bool merged = false;
  for (size_t k = first; k < out.size(); ++k) {
    // (A blank before the name first, and a small letter before that.)
    const uint32_t begin = out[k].begin;
    if (out[k].type != PiiType::kPerson || begin < 4 || text[begin - 1] != ' ' || text[begin - 2] < 'a' ||
        text[begin - 2] > 'z') {
      continue;
    }
    const size_t j = first_token_from(tokens, begin);
    if (j == 0 || j >= tokens.size() || tokens[j].begin != begin || tokens[j].newline_before) continue;
    const Token& before = tokens[j - 1];
    if (before.end + 1 != begin || !capital_then_small_letters(text, before, 3) ||
        (j >= 2 && !before.newline_before && kPlacePrepositions.contains(text, tokens[j - 2]))) {
      continue;
    }
    const size_t covered = span_over(out, j - 1);
    const std::string_view word = text.substr(before.begin, before.end - before.begin);
    if (pii_scan::is_group_word(word)) continue;
    // Within a sentence (after a word in small letters on its line), a
    // word no list knows at all before a full name of two words: the first
    // of three ("belongs to Abdullahi Musa Bello"), whether no span covers
    // it or a name of its own does; not one that ends as a doer's noun
    // does ("Cognitivist Albert Ellis"). (A capitalised word that opens a
    // sentence may be any word, "Ask", "Dear"; without the everyday lists
    // no list knows most words.)
    const std::string_view name = text.substr(begin, out[k].end - begin);
    const bool word_alone = covered == out.size() ||
                            (covered + 1 == k && covered >= first && out[covered].type == PiiType::kPerson &&
                             out[covered].begin == before.begin && out[covered].end == before.end);
    const bool within_a_sentence = j >= 2 && !before.newline_before && text[tokens[j - 2].begin] >= 'a' &&
                                   text[tokens[j - 2].begin] <= 'z';
    if (common_categories_ != 0 && word_alone && within_a_sentence && std::count(name.begin(), name.end(), ' ') == 1 &&
        name.find_first_of("\n\t") == std::string_view::npos) {
      const Gazetteer::Match all = gazetteer_.lookup_all(word_hash(text, before));
      if ((all.full | all.part) == 0 && !names_a_role(text, before)) {
        // (The name of the word alone goes; its token is the grown name's
        // in the cover, which stays built: rebuilding it for each such name
        // would cost a long list of them time in the square of its length.)
        if (covered != out.size()) {
          mark_dropped(out, covered);
          SpanCover& cover = tagger_cover();
          if (cover.built && cover.first_span[j - 1] == covered + 1) {
            cover.first_span[j - 1] = 0;
          } else {
            reset_cover();  // (another span covers the token too)
          }
          merged = true;
        }
        set_span(out, k, {PiiType::kPerson, before.begin, out[k].end});
        continue;
      }
    }
    if (covered != out.size()) continue;
    // After a role or a title of address, a capitalised word before the
    // name is its first name, whatever else the lists know it as:
    // "Employee Hyacinth Mbeki", "Officer Daisy Mbeki". Not a role or title
    // itself, nor an organisation's noun ("Customer Service").
    if (j >= 2 && !before.newline_before && tokens[j - 2].end + 1 == before.begin &&
        (kRoles.contains(text, tokens[j - 2]) || kTitlesOfAddress.contains(text, tokens[j - 2])) &&
        !kRoles.contains(text, before) && !kTitlesOfAddress.contains(text, before) &&
        !kOrganisationNouns.contains(text, before) && !is_title(gazetteer_.lookup(word_hash(text, before)))) {
      set_span(out, k, {PiiType::kPerson, before.begin, out[k].end});
      continue;
    }
    if (!listed_surname(text, tokens[j].begin, tokens[j].end)) continue;
    // (Not an auxiliary that opens a question: "Can Will come?", where
    // "Can" is a first name too.)
    if (kQuestionOpeners.contains(text, before) && (before.newline_before || opens_a_sentence(text, tokens, j - 1))) {
      continue;
    }
    const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, before));
    if ((m.full & first_name_categories_) == 0 || is_title(m)) continue;
    set_span(out, k, {PiiType::kPerson, before.begin, out[k].end});
  }
  if (merged) drop_marked_spans(out);
}

void PiiTagger::add_full_names_of_listed_words(std::string_view text, std::span<const uint32_t> marked,
                                                std::vector<PiiSpan>& out) const {
  const Tokens tokens = tagger_tokens();
  const auto not_a_name = static_cast<uint16_t>(place_categories_ | world_city_categories_ | street_categories_ |
                                                company_categories_ | prefix_categories_);
  // Whether token k is a capitalised word right next to token `next`, one
  // space apart.
  auto capitalised_next_to = [&](size_t k, size_t next) {
    const Token& a = tokens[std::min(k, next)];
    const Token& b = tokens[std::max(k, next)];
    return b.begin == a.end + 1 && text[a.end] == ' ' && text[tokens[k].begin] >= 'A' && text[tokens[k].begin] <= 'Z';
  };
  // (A name seldom takes an article or a determiner: "the Will Power to
  // finish", "The Princess Royal arrived".)
  auto determiner = [&](size_t k) { return kDeterminers.contains(text, tokens[k]) || token_is(text, tokens[k], "a"); };
  // Whether token k opens its sentence or line and is an everyday word that
  // no name list knows: "Tell" of "Tell Bill Gray that".
  auto opens_the_sentence = [&](size_t k) {
    if (!tokens[k].newline_before && !opens_a_sentence(text, tokens, k)) return false;
    const Gazetteer::Match word = gazetteer_.lookup(word_hash(text, tokens[k]));
    return (word.full & common_categories_) != 0 && (word.full & name_categories_) == 0;
  };
  for (size_t m = 0; m + 1 < marked.size(); ++m) {
    const size_t j = marked[m];
    if (marked[m + 1] != j + 1 || !capitalised_next_to(j, j + 1) || !capital_then_small_letters(text, tokens[j], 2) ||
        !capital_then_small_letters(text, tokens[j + 1], 2) || (j > 0 && determiner(j - 1))) {
      continue;
    }
    const bool word_after = j + 2 < tokens.size() && tokens[j + 2].end - tokens[j + 2].begin >= 2;  // not "I"
    if ((j > 0 && capitalised_next_to(j - 1, j) && !opens_the_sentence(j - 1)) ||
        (word_after && capitalised_next_to(j + 2, j + 1))) {
      continue;
    }
    if (span_over(out, j) != out.size() || span_over(out, j + 1) != out.size()) continue;
    const std::string_view surname = text.substr(tokens[j + 1].begin, tokens[j + 1].end - tokens[j + 1].begin);
    if (pii_scan::is_group_word(surname) || kOrganisationNouns.contains(text, tokens[j + 1])) continue;
    const Gazetteer::Match given = gazetteer_.lookup_all(word_hash(text, tokens[j]));
    if ((given.full & first_name_categories_) == 0 || (given.full & not_a_name) != 0) continue;
    const Gazetteer::Match family = gazetteer_.lookup_all(word_hash(text, tokens[j + 1]));
    if ((family.full & not_a_name) != 0 || !listed_surname(text, tokens[j + 1].begin, tokens[j + 1].end)) continue;
    add_span(out, {PiiType::kPerson, tokens[j].begin, tokens[j + 1].end});
  }
}

bool PiiTagger::world_city(std::string_view text, uint32_t begin, uint32_t end) const {
  return world_city_categories_ != 0 &&
         (gazetteer_.lookup_hidden(word_hash(text, Token{begin, end, false, false})).full & world_city_categories_) != 0;
}

bool PiiTagger::listed_surname(std::string_view text, uint32_t begin, uint32_t end) const {
  const uint64_t hash = word_hash(text, Token{begin, end, false, false});
  return (gazetteer_.lookup(hash).full & last_name_categories_) != 0 ||
         (census_surname_categories_ != 0 && (gazetteer_.lookup_hidden(hash).full & census_surname_categories_) != 0);
}

bool PiiTagger::everyday_word_after(std::string_view text, size_t k) const {
  const Tokens tokens = tagger_tokens();
  return one_blank_after(text, tokens, k + 1) && small_word(text, tokens[k + 1], 2) &&
         everyday(gazetteer_.lookup(word_hash(text, tokens[k + 1])));
}

bool PiiTagger::only_a_given_name(std::string_view text, size_t i) const {
  const uint64_t word = word_hash(text, tagger_tokens()[i]);
  return only_a_given_name(text, i, gazetteer_.lookup(word), word);
}

bool PiiTagger::only_a_given_name(std::string_view text, size_t i, const Gazetteer::Match& m, uint64_t word) const {
  if (given_name_categories_ == 0 || (m.full | (m.part & ~place_categories_)) != 0) return false;
  const Gazetteer::Match hidden = gazetteer_.lookup_hidden(word);
  if ((hidden.full & given_name_categories_) == 0 ||
      ((hidden.full | hidden.part) & (world_city_categories_ | proper_adjective_categories_)) != 0) {
    return false;
  }
  const Tokens tokens = tagger_tokens();
  const Token& t = tokens[i];
  return !all_capitals(text, tokens, i) && !pii_scan::is_group_word(text.substr(t.begin, t.end - t.begin)) &&
         !month_or_weekday(text, t);
}

bool PiiTagger::listed_place(std::string_view text, const PiiSpan& span) const {
  return (gazetteer_.lookup_all(phrase_hash(text.substr(span.begin, span.end - span.begin))).full &
          (place_categories_ | world_city_categories_)) != 0;
}

}  // namespace tiergate
