// The names after a capitalised title of address that the name-prefix lists
// do not hold ("Professor Smith", "Judge Harlan", "Sgt. Reyes"):
// add_names_after_titles_of_address(). The decoder learnt the prefixes of
// the lists ("Dr.", "Mrs."); after these it left names out or took them for
// firms.
#include "tiergate/privacy/pii_tagger.h"

#include <array>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "tagger_rules.h"
#include "word_filter.h"

namespace tiergate {

using namespace tagger_rules;

namespace {

// The titles of address that are verbs too ("nurse young", "coach smith
// told"): an everyday word after them is the verb's object as often.
constexpr WordSet kTitlesThatAreVerbs(std::array<std::string_view, 6>{"nurse", "coach", "judge", "father", "doctor",
                                                                      "captain"});

// The titles of address and their abbreviations, as a filter over every
// token of a text without capitals.
constexpr WordFilter kTitleFilter(joined(kTitleOfAddressWords, kAbbreviatedTitleWords));

}  // namespace

bool PiiTagger::titled_name(std::string_view title, const Gazetteer::Match& m, std::string_view word) const {
  if (is_title(m)) return false;
  if ((m.full & common_categories_) != 0) {
    return (m.full & last_name_categories_) != 0 && (m.full & first_name_categories_) == 0 &&
           !kTitlesThatAreVerbs.contains(title, Token{0, static_cast<uint32_t>(title.size()), false, false});
  }
  if ((m.full & name_categories_) != 0 || listed_surname(word, 0, static_cast<uint32_t>(word.size()))) return true;
  // (Or a given name only that list knows, "nurse adaeze", or a word of
  // four letters or more that no list knows at all, "judge whitcombe";
  // not after a kin's word, which names things too: "sister chromatids".)
  if (title == "sister" || title == "father") return false;
  const uint64_t hash = word_hash(word, Token{0, static_cast<uint32_t>(word.size()), false, false});
  if (!gazetteer_.knows(hash)) return word.size() >= 4;
  const Gazetteer::Match all = gazetteer_.lookup_all(hash), hidden = gazetteer_.lookup_hidden(hash);
  return (all.full | all.part) == 0 && (hidden.full & given_name_categories_) != 0 &&
         (hidden.full & ~given_name_categories_) == 0;
}

void PiiTagger::add_names_after_titles_of_address(std::string_view text, std::span<const uint32_t> candidates,
                                                  std::vector<PiiSpan>& out, size_t first, bool mixed) const {
  if (name_categories_ == 0) return;
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  constexpr size_t kMaxWords = 3;
  // In text with capitals a title and a name are capitalised; without
  // them, in small letters.
  auto written_as_a_name = [&](size_t k) {
    const auto c = static_cast<unsigned char>(text[tokens[k].begin]);
    if (tokens[k].end - tokens[k].begin < 2) return false;
    return mixed ? c >= 'A' && c <= 'Z' && !all_capitals(text, tokens, k) : c >= 'a' && c <= 'z';
  };
  auto word_of = [&](const Token& t) { return text.substr(t.begin, t.end - t.begin); };
  size_t title = 0;  // the title's token, of the name_word()s asked
  // Whether token k, right after token `before` one space apart, is a
  // name's word; `end`: its end without a possessive's 's. Without
  // capitals, a titled_name() ("professor hendricks"; not "coach class").
  // (`glued`: right after it, as after a hyphen.)
  auto name_word = [&](size_t k, size_t before, uint32_t& end, bool glued = false) {
    if (k >= n || !written_as_a_name(k) ||
        (glued ? tokens[k].begin != tokens[before].end
               : tokens[k].begin != tokens[before].end + 1 || text[tokens[before].end] != ' ')) {
      return false;
    }
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + tokens[k].begin;
    end = tokens[k].begin + static_cast<uint32_t>(possessive_stem(b, tokens[k].end - tokens[k].begin));
    const Token stem{tokens[k].begin, end, false, false};
    if (pii_scan::is_group_word(text.substr(stem.begin, stem.end - stem.begin)) ||
        kOrganisationNouns.contains(text, stem) || (!mixed && never_in_a_name(text, stem))) {
      return false;
    }
    const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, stem));
    if (!mixed) return titled_name(word_of(tokens[title]), m, word_of(stem));
    if (is_title(m)) return false;
    if ((m.full & name_categories_) != 0 || listed_surname(text, stem.begin, stem.end)) return true;
    return common_categories_ != 0 && (m.full | m.part) == 0;
  };
  auto in_a_line = [&](const PiiSpan& span) {
    return std::memchr(text.data() + span.begin, '\n', span.end - span.begin) == nullptr;
  };
  // Whether the token before title t, or before its comma, is a number
  // that a span found before tagging (out[0, first)) covers.
  auto number_of_an_earlier_span = [&](size_t t) {
    size_t j = t - 1;
    if (j > 0 && mark_at(text, tokens, j, ',')) --j;
    const size_t k = span_over(out, j);
    return is_number(text, tokens, j) && k < first;
  };
  auto title_at = [&](size_t t) {
    // (Its first letter's case, then the title's words, then the rest.)
    const auto c = static_cast<unsigned char>(text[tokens[t].begin]);
    if (t + 1 >= n || (mixed ? c < 'A' || c > 'Z' : c < 'a' || c > 'z') ||
        !(kTitlesOfAddress.contains(text, tokens[t]) || kAbbreviatedTitles.contains(text, tokens[t]) ||
          (mixed && kRoles.contains(text, tokens[t]))) ||
        !written_as_a_name(t)) {
      return;
    }
    // A role written as a title ("Tenant", "Uncle") retypes a span of this
    // tagging only: add_introduced_names() reads the names after it.
    const bool role = !kTitlesOfAddress.contains(text, tokens[t]) && !kAbbreviatedTitles.contains(text, tokens[t]);
    // (Not after an article, "the Inspector", but for the title the
    // article goes with: "the Honourable Cordelia Ashworth".)
    static constexpr WordSet kTitlesAfterAnArticle(std::array<std::string_view, 2>{"honourable", "honorable"});
    if (!tokens[t].newline_before && !kTitlesAfterAnArticle.contains(text, tokens[t]) &&
        (after_an_article(text, tokens, t) || (t > 0 && token_is(text, tokens[t - 1], "this")))) {
      return;
    }
    title = t;
    // The title's last token: its stop, for an abbreviation.
    size_t title_end = t;
    if (kAbbreviatedTitles.contains(text, tokens[t])) {
      if (!mark_at(text, tokens, t + 1, '.') || tokens[t + 1].begin != tokens[t].end) return;
      title_end = t + 1;
    }
    // (A title of the lists with its stop may follow: "Herr Dr. Wagner",
    // "Frau Prof. Schmidt".)
    if (title_end + 3 < n && tokens[title_end + 1].begin == tokens[title_end].end + 1 &&
        mark_at(text, tokens, title_end + 2, '.') && tokens[title_end + 2].begin == tokens[title_end + 1].end &&
        is_title(gazetteer_.lookup(word_hash(text, tokens[title_end + 1])))) {
      title_end += 2;
    }
    uint32_t end = 0;
    if (!name_word(title_end + 1, title_end, end)) return;
    const size_t from = title_end + 1;
    size_t to = from;
    // (A possessive ends the name: "Professor Lindqvist's comments". A
    // hyphen glued to a word of it joins the next word, which must be a
    // name's too: "Tenant Camille Laurent-Petit", not "Patient
    // Self-Determination Act".)
    for (size_t words = 1; end == tokens[to].end;) {
      uint32_t next_end = 0;
      if (to + 2 < n && mark_at(text, tokens, to + 1, '-') && tokens[to + 1].begin == tokens[to].end) {
        if (!name_word(to + 2, to + 1, next_end, true)) return;
        to += 2;
      } else if (words < kMaxWords && name_word(to + 1, to, next_end)) {
        ++to;
        ++words;
      } else {
        break;
      }
      end = next_end;
    }
    const size_t k = span_over(out, from);
    if (k == out.size()) {
      // The words after the first are free, or a name of this tagging
      // covers some of them, which takes the whole ("Professor Smith-Jones"
      // where the tagger found "Jones").
      size_t name = out.size();
      bool free = true;
      for (size_t j = from + 1; j <= to && free; ++j) {
        const size_t covering = span_over(out, j);
        if (covering == out.size() || covering == name) continue;
        free = name == out.size() && covering >= first && out[covering].type == PiiType::kPerson &&
               out[covering].end <= end;
        name = covering;
      }
      if (!free || role) return;
      if (name == out.size()) {
        add_span(out, {PiiType::kPerson, tokens[from].begin, end});
      } else {
        set_span(out, name, {PiiType::kPerson, tokens[from].begin, end});
      }
    } else if (k >= first && (out[k].end == end || out[k].end == tokens[to].end) &&
               (((out[k].type == PiiType::kLocation || out[k].type == PiiType::kOrganization) &&
                 (out[k].begin == tokens[from].begin || (out[k].begin <= tokens[t].begin && in_a_line(out[k])))) ||
                (out[k].type == PiiType::kStreetAddress && out[k].begin < tokens[t].begin && in_a_line(out[k]) &&
                 number_of_an_earlier_span(t)))) {
      // (A place or firm of this tagging over the name alone, or from the
      // title or words before it on its line: "Kannst du Herrn Becker"; an
      // address that ends with the name, no street's word, from a number
      // that a span found before tagging holds: the day of a date, "On
      // April 2, Officer Delgado".)
      set_span(out, k, {PiiType::kPerson, tokens[from].begin, end});
    }
  };
  if (mixed) {
    for (const uint32_t t : candidates) title_at(t);
  } else {
    thread_local IndexList titles;
    kTitleFilter.find(text, tokens, titles);
    for (const uint32_t t : titles) title_at(t);
  }
}

}  // namespace tiergate
