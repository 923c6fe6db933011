// The tagger's passes after decoding that find, join, cut and drop the
// names of people, places and organisations (PiiTagger::tag() calls them in
// its order): introduced and joined names, titles, organisations by their
// noun, places of several words, words that name no one.
#include "tiergate/privacy/pii_tagger.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>
#include <vector>

#include "tagger_rules.h"

namespace tiergate {

using namespace tagger_rules;

void PiiTagger::add_appositive_titles(std::string_view text, std::vector<PiiSpan>& out, size_t first,
                                      size_t decoded) const {
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  constexpr size_t kMaxWords = 6;
  auto is = [&](size_t j, std::string_view w) { return token_is(text, tokens[j], w); };
  const size_t spans = out.size();
  for (size_t s = first; s < spans; ++s) {
    if (out[s].type != PiiType::kPerson) continue;
    const size_t j = first_token_from(tokens, out[s].end);
    if (j + 3 >= n || !is(j, ",") || !is(j + 1, "the")) continue;
    const size_t from = j + 2;
    size_t end = from, words = 0;
    bool fits = true;
    for (; end < n && !is(end, ",") && fits; ++end) {
      const auto c = static_cast<unsigned char>(text[tokens[end].begin]);
      words += is_word_byte(c) ? 1 : 0;
      fits = !tokens[end].newline_before && words <= kMaxWords && end - from < 2 * kMaxWords &&
             (c == '-' || (is_word_byte(c) && !(c >= '0' && c <= '9')));
    }
    if (!fits || end == n || end == from || !names_a_role(text, tokens[end - 1])) continue;
    // The decoder's guess over the title's first words, if any.
    const size_t k = span_over(out, from);
    bool free = true;
    for (size_t t = from + 1; t < end && free; ++t) {
      const size_t c = span_over(out, t);
      free = c == out.size() || c == k;
    }
    if (!free) continue;
    const PiiSpan title{PiiType::kTitle, tokens[from].begin, tokens[end - 1].end};
    if (k == out.size()) {
      add_span(out, title);
    } else if (k >= first && k < decoded && out[k].begin == title.begin && out[k].end <= title.end) {
      set_span(out, k, title);
    }
  }
}

namespace {


}  // namespace

void PiiTagger::add_introduced_names(std::string_view text, std::span<const uint32_t> marked, std::vector<PiiSpan>& out,
                                     size_t first, bool mixed) const {
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  auto mark_is = [&](size_t j, char c) { return mark_at(text, tokens, j, c); };
  auto word = [&](size_t j) {
    const auto c = static_cast<unsigned char>(text[tokens[j].begin]);
    return is_word_byte(c) && !(c >= '0' && c <= '9') && (!mixed || (c >= 'A' && c <= 'Z') || c >= 0x80);
  };
  // Whether "pick up" (or "picked", "picking") comes right before token j,
  // one blank apart, in text with capitals.
  auto picked_up = [&](size_t j) {
    return mixed && j >= 2 && token_is(text, tokens[j - 1], "up") && one_blank_after(text, tokens, j) &&
           one_blank_after(text, tokens, j - 1) &&
           (token_is(text, tokens[j - 2], "pick") || token_is(text, tokens[j - 2], "picked") ||
            token_is(text, tokens[j - 2], "picking"));
  };
  // Tokens [from, to] are a name: a span of their own unless one covers the
  // first; a place or organisation of this tagger that covers just them
  // becomes a name, where the cue is strong enough (`retype`).
  auto name = [&](size_t from, size_t to, bool retype = true) {
    const size_t k = span_over(out, from);
    if (k == out.size()) {
      for (size_t j = from + 1; j <= to; ++j) {
        if (span_over(out, j) != out.size()) to = j - 1;
      }
      add_span(out, {PiiType::kPerson, tokens[from].begin, tokens[to].end});
    } else if (retype && own_place_or_organisation(out, k, first, tokens[from].begin, tokens[to].end)) {
      out[k].type = PiiType::kPerson;
    }
  };
  constexpr size_t kMaxWords = 3;
  // In text with capitals, titles and speakers are capitalised: only the
  // marked tokens need a look.
  const size_t candidates = mixed ? marked.size() : n;
  // The English titles written in small letters in text with capitals.
  auto english_title = [&](size_t j) { return kEnglishTitles.contains(text, tokens[j]); };
  // A title and its stop at token j, then a word: "Mr. Young", "dr.
  // freeman". The list writes some titles with their stop ("Mr."), which
  // makes the title alone a part match.
  auto introduced_by_title = [&](size_t j) {
    if (!(j + 2 < n && mark_is(j + 1, '.') && tokens[j + 1].begin == tokens[j].end && tokens[j].end - tokens[j].begin >= 2 &&
          tokens[j].end - tokens[j].begin <= 5 && !tokens[j + 2].newline_before && word(j + 2) &&
          is_title(gazetteer_.lookup(word_hash(text, tokens[j]))))) {
      return false;
    }
    // (A hyphen glued to a word of the name joins the next: "Mrs.
    // Kowalczyk-Nowak", a firm to the decoder.)
    auto past_hyphens = [&](size_t k) {
      while (glued_hyphen(text, tokens, k + 1) && word(k + 2)) {
        k += 2;
      }
      return k;
    };
    size_t to = past_hyphens(j + 2);
    size_t before_a_hyphen = to == j + 2 ? n : j + 2;  // the last word before the first hyphen
    for (size_t words = 1; mixed && to + 1 < n && words < kMaxWords && !tokens[to + 1].newline_before && word(to + 1) &&
                           !everyday(gazetteer_.lookup(word_hash(text, tokens[to + 1])));
         ++words) {
      const size_t next = past_hyphens(to + 1);
      if (next != to + 1 && before_a_hyphen == n) before_a_hyphen = to + 1;
      to = next;
    }
    name(j + 2, to);
    // (Where the tagger's spans part the words a hyphen joins, the words
    // before the first hyphen, as without it.)
    const size_t k = span_over(out, j + 2);
    if (before_a_hyphen != n && (k == out.size() || out[k].type != PiiType::kPerson)) name(j + 2, before_a_hyphen);
    return true;
  };
  // Token j, a possessive that is no everyday word, before a word of
  // personal data (address, phone, email, birthday, number, name), an
  // ordinal ("Seraphina's 30th") or a relative (kRelatives: "Zorvath's
  // teacher"): its owner is a person, a
  // span of its own without the 's, or the place or organisation of this
  // tagger over just the word (or over the relative too) becomes one.
  auto owner_of_personal_data = [&](size_t j) {
    const Token& t = tokens[j];
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
    const auto stem = static_cast<uint32_t>(possessive_stem(b, t.end - t.begin));
    if (stem == t.end - t.begin || stem < 2 || j + 1 >= n || tokens[j + 1].newline_before || !word(j)) return false;
    const Token& next = tokens[j + 1];
    // (An ordinal is an age's or a birthday's: "Seraphina's 30th".)
    const bool ordinal = ordinal_in_digits(text, next);
    const bool personal_thing = kPersonalThings.contains(text, next) || ordinal;
    const bool relative = kRelatives.contains(text, next);
    if (!personal_thing && !relative) return false;
    const Token owner{t.begin, t.begin + stem, false, false};
    // (Not an everyday word, "the user's email", but in text with capitals
    // one a first-name list knows too: "Phoenix's recital"; not "the
    // sister's boyfriend". Before a relative that is no personal thing, in
    // text without capitals only a word a first-name list knows, everyday
    // or not, "jasper's mom" (not "the offeror's manager"), and in text
    // with capitals an everyday word capitalised inside a sentence too,
    // "Tuesday Wren's dad"; not a relative's own word, "Mother's husband".)
    const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, owner));
    const bool first_name = (m.full & first_name_categories_) != 0;
    const bool owner_is_a_relative = kRelatives.contains(text, owner);
    if (!personal_thing && ((!mixed && !first_name) || owner_is_a_relative)) return false;
    // (Not after an article: "the Order's physician".)
    const bool named_inside_a_sentence = mixed && text[t.begin] >= 'A' && text[t.begin] <= 'Z' && j > 0 &&
                                         !tokens[j].newline_before &&
                                         is_word_byte(static_cast<unsigned char>(text[tokens[j - 1].begin])) &&
                                         !after_an_article(text, tokens, j);
    const bool owns_a_relative = relative && !owner_is_a_relative && (first_name || named_inside_a_sentence);
    if ((m.full & common_categories_) != 0 && !(mixed && first_name) && !owns_a_relative) return false;
    if (mixed && std::none_of(text.begin() + owner.begin, text.begin() + owner.end, [](char c) { return c >= 'a' && c <= 'z'; })) {
      return false;  // an acronym's: "NASA's address"
    }
    const size_t k = span_over(out, j);
    if (k == out.size()) {
      // (With a first name one blank before it that a list knows, or a
      // given name alone, and no everyday list: "is this chidi okafor's
      // laptop?".)
      uint32_t begin = owner.begin;
      if (j > 0 && one_blank_after(text, tokens, j) && word(j - 1) && span_over(out, j - 1) == out.size()) {
        const Gazetteer::Match before = gazetteer_.lookup(word_hash(text, tokens[j - 1]));
        if ((before.full & common_categories_) == 0 &&
            ((before.full & first_name_categories_) != 0 || only_a_given_name(text, j - 1))) {
          begin = tokens[j - 1].begin;
        }
      }
      add_span(out, {PiiType::kPerson, begin, owner.end});
    } else if (k >= first && out[k].begin == owner.begin &&
               (out[k].end == owner.end || out[k].end == t.end || ((relative || ordinal) && out[k].end == next.end)) &&
               (out[k].type == PiiType::kLocation || out[k].type == PiiType::kOrganization)) {
      // (Over the relative too: "Zorvath's dad", a firm to the decoder.)
      set_span(out, k, {PiiType::kPerson, owner.begin, owner.end});
    }
    return true;
  };
  // Token j, a word no everyday, place's or company's list knows (in text
  // with capitals capitalised, no acronym; without them a first name of
  // the lists or a given name alone: not "carrying sextuplets and her
  // mother"), then "and", "his", "her" or "their" and a relative, one
  // blank apart each: a person ("Nkechi and her husband moved"; not
  // "Berlin and her sister city"); a span of its own, or a place or firm
  // of this tagging over just it becomes one.
  auto kin_of_the_word_before = [&](size_t j) __attribute__((noinline)) {
    if (!word(j) || tokens[j].end - tokens[j].begin < 2 || (mixed && all_capitals(text, tokens, j)) ||
        !one_blank_after(text, tokens, j + 1) || !one_blank_after(text, tokens, j + 2) ||
        !one_blank_after(text, tokens, j + 3) || !kPersonsPossessives.contains(text, tokens[j + 2]) ||
        !kRelatives.contains(text, tokens[j + 3])) {
      return false;
    }
    const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, tokens[j]));
    if ((m.full & (common_categories_ | place_categories_ | world_city_categories_ | company_categories_)) != 0 ||
        (!mixed && (m.full & first_name_categories_) == 0 && !only_a_given_name(text, j))) {
      return false;
    }
    const size_t k = span_over(out, j);
    if (k == out.size()) {
      add_span(out, {PiiType::kPerson, tokens[j].begin, tokens[j].end});
      return true;
    }
    if (!own_place_or_organisation(out, k, first, tokens[j].begin, tokens[j].end)) return false;
    out[k].type = PiiType::kPerson;
    return true;
  };
  // Whether out[k], a place or organisation of this tagging, is the verb
  // that addresses someone before token j, where it opens a sentence, and
  // the name after it: capitalised words of the line, up to three, the
  // first a first name of the lists or a given name alone, none a word
  // the everyday, place or company lists know ("Congratulate Priyanka
  // Venkataraman on", a firm to the decoder; not "Ask Google Cloud").
  auto verb_and_name_of_this_tagging = [&](size_t k, size_t j) __attribute__((noinline)) {
    if (!own_place_or_organisation(out, k, first, tokens[j - 1].begin, out[k].end)) return false;
    size_t last = j;
    while (last + 1 < n && tokens[last + 1].end <= out[k].end) ++last;
    if (tokens[last].end != out[k].end || last + 1 - j > kMaxWords) return false;
    for (size_t w = j; w <= last; ++w) {
      if (!word(w) || (w > j && !one_blank_after(text, tokens, w)) || all_capitals(text, tokens, w)) return false;
      const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, tokens[w]));
      if ((m.full & (common_categories_ | place_categories_ | world_city_categories_ | company_categories_)) != 0 ||
          (w == j && (m.full & first_name_categories_) == 0 && !only_a_given_name(text, j))) {
        return false;
      }
    }
    return true;
  };
  // Token j, no everyday word nor a letter alone, after "name is", "name's",
  // a relative ("my son", "her wife") or a role ("Customer", "Uncle"): a
  // name, with the capitalised words after it in text with capitals ("My
  // name is Andrew Arnoux", "my kid Mali": a country too; not "I told my
  // boss I had"). In text without capitals no word the everyday lists know
  // at all, as everyday() allows a word another list knows too ("my son is
  // 5": "IS" is a state's code).
  auto after_a_name_cue = [&](size_t j) {
    // (A title and its stop after the cue are introduced_by_title()'s, below:
    // "my landlord mr. papadopoulos".)
    if (j + 2 < n && mark_is(j + 1, '.') && tokens[j + 1].begin == tokens[j].end &&
        is_title(gazetteer_.lookup(word_hash(text, tokens[j])))) {
      return false;
    }
    // A role ("Customer Lysander Okoro called", "the patient Cressida
    // Alvarenga"), capitalised too, one space before the name; in text
    // with capitals alone, as without them any word may follow a role
    // ("the defendant didn't", "the tenant corporation").
    // Without capitals, a relative written as a title alone ("call uncle
    // fitzgerald"), whose name asks as much as a role's below.
    const bool role = j >= 1 && !tokens[j].newline_before && tokens[j - 1].end + 1 == tokens[j].begin &&
                      (mixed ? kRoles.contains(text, tokens[j - 1]) && !all_capitals(text, tokens, j - 1) &&
                                   opens_with_a_capital(text.substr(tokens[j].begin))
                             : kKinTitles.contains(text, tokens[j - 1]));
    // (A verb that addresses someone may open the text: "Tell Priyanka".
    // "Pick up" says as much of the one picked up: "Pick up Persephone from
    // ballet".)
    const bool address_verb = mixed && j >= 1 && !tokens[j].newline_before &&
                              (kAddressVerbs.contains(text, tokens[j - 1]) || kHelpVerbs.contains(text, tokens[j - 1]) ||
                               picked_up(j));
    // A speaker who says who they are: "I'm" or "I am" one space before
    // ("Hi, I'm Marco from the Rome office", taken for a place, which the
    // default policy lets out); in text without capitals where the name
    // ends a clause ("i'm priyanka and i need help", below), where "im"
    // without its apostrophe says the same ("hi im tyler and"; with
    // capitals, German's "im Januar").
    const bool i_am = after_i_am(text, tokens, j) ||
                      (!mixed && j >= 1 && !tokens[j].newline_before && tokens[j - 1].end + 1 == tokens[j].begin &&
                       token_is(text, tokens[j - 1], "im"));
    // (In text with capitals the other cues' words are in small letters:
    // not marked.)
    const bool opens = role || address_verb || i_am;
    if ((j < 2 && !opens) || tokens[j].newline_before || (j >= 1 && tokens[j - 1].newline_before && !opens) ||
        (mixed && tokens[j - 1].marked && !opens) || !word(j) || tokens[j].end - tokens[j].begin < 2) {
      return false;
    }
    const Token& a = tokens[j >= 2 ? j - 2 : j - 1];
    const Token& b = tokens[j - 1];
    // (And as other languages write it: "Mein Name ist", "me llamo".)
    // (And a booking's "under the name", "by the name": "a table under the
    // name Okafor"; and a person called so, "a man called Barnaby Quince".)
    const bool name_is = token_is(text, b, "name's") || kCalledVerbs.contains(text, b) ||
                         ((token_is(text, a, "name") || kNamesElsewhere.contains(text, a)) &&
                          (token_is(text, b, "is") || kIsElsewhere.contains(text, b))) ||
                         (j >= 3 && token_is(text, b, "name") && token_is(text, a, "the") &&
                          (token_is(text, tokens[j - 3], "under") || token_is(text, tokens[j - 3], "by"))) ||
                         after_a_person_called(text, tokens, j);
    // (Or the relative and a comma, "my manager, Priyanka Raghunathan",
    // where the word after the comma is no contraction nor in capitals,
    // which open the next clause: "your mother, I'll pay", "my friend,
    // don't".)
    // (Or "the" before the relative, where a comma sets the name off after
    // it too, within three words: "The plumber, Gwilym, will come".)
    auto set_off_after = [&] {
      for (size_t k = j + 1; k < n && k <= j + 3 && !tokens[k].newline_before; ++k) {
        if (mark_is(k, ',')) return true;
        if (!word(k)) return false;
      }
      return false;
    };
    // (An in-law's relative is the one before "-in-law": "My mother-in-law,
    // Gráinne, is visiting".)
    const size_t kin = j >= 7 && in_law_after(text, tokens, j - 6) ? j - 6 : j - 2;
    const bool relative_apart = j >= 3 && mark_is(j - 1, ',') && !tokens[j - 2].newline_before &&
                                kRelatives.contains(text, tokens[kin]) && !contraction(text, tokens[j]) &&
                                !all_capitals(text, tokens, j) &&
                                (kPossessiveDeterminers.contains(text, tokens[kin - 1]) ||
                                 (token_is(text, tokens[kin - 1], "the") && set_off_after()));
    // (Or, in text with capitals, "the" before the relative one blank
    // before a name: "Call the plumber Dafydd about"; not in text without
    // capitals, "the friend drew a pistol", "the attorney general".)
    const bool after_the = mixed && token_is(text, a, "the") && one_blank_after(text, tokens, j - 1) &&
                           one_blank_after(text, tokens, j) && opens_with_a_capital(text.substr(tokens[j].begin));
    // (Or a word in small letters between them: "my pen pal Hiroko", "my
    // little sister Wren".)
    const bool relative = kRelatives.contains(text, b) &&
                          (kPossessiveDeterminers.contains(text, a) || after_the ||
                           (j >= 3 && kPossessiveDeterminers.contains(text, tokens[j - 3]) &&
                            one_blank_after(text, tokens, j - 2) && small_word(text, a, 2) && !function_word(text, a)));
    // A verb that addresses someone ("Tell Priyanka that", "remind
    // Siobhan"): a place or organisation of this tagging over just the
    // word is the person; nothing is added where the tagger found none
    // ("Ask Google").
    if (address_verb && !name_is && !relative && !relative_apart && !role) {
      const size_t k = span_over(out, j);
      if (k != out.size() && verb_and_name_of_this_tagging(k, j)) {
        set_span(out, k, {PiiType::kPerson, tokens[j].begin, out[k].end});
        return true;
      }
      if (k == out.size() || !own_place_or_organisation(out, k, first, tokens[j].begin, tokens[j].end)) return false;
      const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, tokens[j]));
      // (A place's name that a first-name list knows too is the person
      // before "that" or "about": "remind Guadalupe that she owes me".)
      const bool told_something = j + 1 < n && !tokens[j + 1].newline_before &&
                                  (m.full & first_name_categories_) != 0 &&
                                  (token_is(text, tokens[j + 1], "that") || token_is(text, tokens[j + 1], "about"));
      const uint16_t places = told_something ? 0 : place_categories_ | world_city_categories_;
      if ((m.full & (places | company_categories_ | common_categories_)) != 0 || all_capitals(text, tokens, j)) {
        return false;
      }
      out[k].type = PiiType::kPerson;
      return true;
    }
    if (!name_is && !relative && !relative_apart && !role && !i_am) return false;
    // (After a relative, no contraction nor an acronym: "my kids don't
    // miss it", "my brothers ID".)
    if (relative && !name_is &&
        (contraction(text, tokens[j]) || (all_capitals(text, tokens, j) && tokens[j].end - tokens[j].begin <= 3))) {
      return false;
    }
    // A role alone ("Uncle Desmond", not "his cousin Bob") asks more of the
    // words after it below.
    const bool role_alone = role && !name_is && !relative && !relative_apart;
    const bool i_am_alone = i_am && !name_is && !relative && !relative_apart && !role;
    if ((role_alone || i_am_alone) && all_capitals(text, tokens, j)) return false;
    // (Without capitals, "i'm" comes before most words: the name, of three
    // letters or more, ends a clause, "i'm priyanka and", "i'm sam."; not
    // "i'm sooo tired".)
    if (i_am_alone && !mixed) {
      const size_t after = j + 1;
      const bool ends_a_clause = after == n || tokens[after].newline_before || mark_is(after, ',') ||
                                 mark_is(after, '.') || mark_is(after, '!') || token_is(text, tokens[after], "and");
      if (!ends_a_clause || tokens[j].end - tokens[j].begin < 3) return false;
    }
    const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[j]));
    // (After "I'm" only a first name of the lists, a surname of the lists
    // that no everyday or place's list knows (a family name said first:
    // "I'm Nguyen Van An", a place) or a word no list knows: not a group,
    // "I'm American", nor "I'm Late".)
    const bool listed_name = (m.full & first_name_categories_) != 0 ||
                             ((m.full & last_name_categories_) != 0 &&
                              (m.full & (common_categories_ | place_categories_)) == 0);
    if (i_am_alone && ((!listed_name && (m.full | m.part) != 0) ||
                       pii_scan::is_group_word(text.substr(tokens[j].begin, tokens[j].end - tokens[j].begin)))) {
      return false;
    }
    // (After a role, no word the everyday lists know at all: "Student
    // Union", where "Union" is a town too. Without capitals neither, but a
    // first name that is a word too right after "name is" or a relative:
    // "my boss mike", "his cousin bob", "my name is grace"; not a verb or
    // adverb that follows a relative as often, kVerbsNamedAsPeople: "my
    // son will", "his wife even", "her mom can".)
    const bool listed_first_name = !mixed && (name_is || relative) && (m.full & first_name_categories_) != 0 &&
                                   !kVerbsNamedAsPeople.contains(text, tokens[j]);
    if (everyday(m) || (((!mixed && !listed_first_name) || role_alone) && (m.full & common_categories_) != 0)) {
      return false;
    }
    size_t to = j;
    while (mixed && to + 1 < n && to + 1 - j < kMaxWords && !tokens[to + 1].newline_before && word(to + 1) &&
           !everyday(gazetteer_.lookup(word_hash(text, tokens[to + 1])))) {
      ++to;
    }
    // After a role, no company's words ("the customer Acme Corp"), nor a
    // possessive, which a work's title holds ("Uncle Tom's Cabin").
    for (size_t k = j; role_alone && k <= to; ++k) {
      if ((gazetteer_.lookup_all(word_hash(text, tokens[k])).full & company_categories_) != 0 ||
          kOrganisationNouns.contains(text, tokens[k]) || ends_in_a_possessive(text, tokens[k])) {
        return false;
      }
    }
    // A place or organisation of this tagger that opens with the name and
    // stops short of its words ("Zorvath" of "Zorvath Quillborne") becomes
    // the name, up to a word another span covers.
    const size_t k = span_over(out, j);
    if (k != out.size() && own_place_or_organisation(out, k, first, tokens[j].begin, out[k].end) && out[k].end < tokens[to].end) {
      size_t last = j;
      while (last < to && (tokens[last + 1].end <= out[k].end || span_over(out, last + 1) == out.size())) ++last;
      set_span(out, k, {PiiType::kPerson, tokens[j].begin, tokens[last].end});
      return true;
    }
    // One of this tagging that the cue opens, over the name's words or the
    // first of them with no other span over the rest, is the name without
    // it ("Mein Name ist Klaus Becker und ich", "Mein Name ist Jürgen",
    // firms: the decoder learnt no German).
    if (name_is && k != out.size() && k >= first && out[k].begin < tokens[j].begin && out[k].end >= tokens[j].end &&
        names_by_a_proper_name(out[k].type) && out[k].begin >= tokens[j >= 3 ? j - 3 : 0].begin) {
      size_t last = j;
      while (last < to && (tokens[last + 1].end <= out[k].end || span_over(out, last + 1) == out.size())) ++last;
      set_span(out, k, {PiiType::kPerson, tokens[j].begin, tokens[last].end});
      return true;
    }
    // One over the role and the name's words is the person, without the
    // role ("Uncle Desmond", a place).
    if (role_alone && k != out.size() && own_place_or_organisation(out, k, first, tokens[j - 1].begin, tokens[to].end)) {
      set_span(out, k, {PiiType::kPerson, tokens[j].begin, tokens[to].end});
      return true;
    }
    // One that opens with the name and runs on over capitalised words of
    // its line is the person whole ("my landlord Bartholomew Quill", an
    // organisation, where "quill" is an everyday word).
    if (mixed && k != out.size() && own_place_or_organisation(out, k, first, tokens[j].begin, out[k].end) &&
        out[k].end > tokens[to].end) {
      size_t last = to;
      while (last + 1 < n && tokens[last + 1].end <= out[k].end && !tokens[last + 1].newline_before && word(last + 1)) {
        ++last;
      }
      if (tokens[last].end == out[k].end && last + 1 - j <= kMaxWords) {
        out[k].type = PiiType::kPerson;
        return true;
      }
    }
    // A group's word of this tagging over just the name, after "name is"
    // or a relative, is the name ("my friend Christian called", read as an
    // adjective before its noun).
    if ((name_is || relative || relative_apart) && k != out.size() && k >= first && out[k].type == PiiType::kNrp &&
        out[k].begin == tokens[j].begin && out[k].end == tokens[to].end) {
      out[k].type = PiiType::kPerson;
      return true;
    }
    name(j, to);
    return true;
  };
  // Words before or after a verb of speech: the speaker ("Aki shouted at
  // Amanda", "said Keiko to Jessica", "says manna."), where nothing else
  // covers them: words of two letters or more, none a word the everyday
  // lists know (not "He said", "Police said") nor a title ("tells Dr.
  // Goodwill"), in text with capitals capitalised, no acronym, up to three
  // that no span covers; after the verb, the words end the clause or come
  // before "to" or "in". An organisation speaks too ("Reuters said"): what
  // the tagger found stays as it is. Token j is the word next to the verb.
  auto name_word = [&](size_t k) {
    const Token& t = tokens[k];
    if (!word(k) || t.end - t.begin < 2 || (mixed && all_capitals(text, tokens, k))) return false;
    // Not a quote mark (U+201C...), a possessive ("Majesty's said").
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
    if (b[0] == 0xe2 && b[1] == 0x80) return false;
    if (ends_in_a_possessive(text, t)) return false;
    const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, t));
    const bool place = (m.full & place_categories_) != 0 && (m.full & name_categories_) == 0;
    return (m.full & common_categories_) == 0 && !is_title(m) && !place;
  };
  // Token j, a first name that the everyday lists know too, as the subject
  // that opens a sentence or a line or follows "and" or a comma ("Dawn said
  // no", "grace told me"): no place's, month's, weekday's nor title's word,
  // nor a group's. (Not before "wrote": a firm writes costs off, "dawn
  // wrote the variances off".)
  auto everyday_first_name_opening = [&](size_t j) {
    if (!word(j) || tokens[j].end - tokens[j].begin < 3 || (mixed && all_capitals(text, tokens, j)) ||
        !(tokens[j].newline_before || opens_a_sentence(text, tokens, j) || token_is(text, tokens[j - 1], "and") ||
          mark_is(j - 1, ','))) {
      return false;
    }
    const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, tokens[j]));
    return (m.full & first_name_categories_) != 0 && (m.full & (place_categories_ | world_city_categories_)) == 0 &&
           !is_title(m) && !month_or_weekday(text, tokens[j]) &&
           !pii_scan::is_group_word(text.substr(tokens[j].begin, tokens[j].end - tokens[j].begin));
  };
  auto speaker = [&](size_t j) {
    if (common_categories_ == 0) return false;  // without the everyday lists, "We said" would name "We"
    // (In text with capitals a verb is in small letters: not marked.)
    if (j + 1 < n && !tokens[j + 1].newline_before && !(mixed && tokens[j + 1].marked) &&
        kSpeechVerbs.contains(text, tokens[j + 1]) &&
        (name_word(j) || (everyday_first_name_opening(j) && !token_is(text, tokens[j + 1], "wrote") &&
                          !token_is(text, tokens[j + 1], "writes")))) {
      if (span_over(out, j) != out.size()) return false;
      size_t from = j;
      while (mixed && j - from + 1 < kMaxWords && from > 0 && !tokens[from].newline_before && name_word(from - 1) &&
             span_over(out, from - 1) == out.size()) {
        --from;
      }
      name(from, j, false);
      return true;
    }
    if (j == 0 || tokens[j].newline_before || (mixed && tokens[j - 1].marked) || !kSpeechVerbs.contains(text, tokens[j - 1]) ||
        !name_word(j)) {
      return false;
    }
    size_t to = j;
    while (mixed && to + 1 - j < kMaxWords && to + 1 < n && !tokens[to + 1].newline_before && name_word(to + 1)) ++to;
    const size_t after = to + 1;
    if (after < n && !tokens[after].newline_before && is_word_byte(static_cast<unsigned char>(text[tokens[after].begin])) &&
        !token_is(text, tokens[after], "to") && !token_is(text, tokens[after], "in")) {
      return false;
    }
    name(j, to, false);
    return true;
  };
  // Whether token k, on the greeting's line, may be a word of the name it
  // introduces: two letters or more; the first word no everyday word nor
  // acronym ("Hi all,", "Dear Sir or Madam", "Hi AI!"), in text without
  // capitals none an everyday word ("hi i moved.").
  auto greeted_word = [&](size_t k, bool first_word) {
    // (Not a contraction: "hi i'm sam.", nor in text without capitals the
    // same without its apostrophe, "hi im sam.")
    if (tokens[k].newline_before || !word(k) || tokens[k].end - tokens[k].begin < 2 || contraction(text, tokens[k]) ||
        (!mixed && token_is(text, tokens[k], "im"))) {
      return false;
    }
    if (mixed && !first_word) return true;
    return !everyday(gazetteer_.lookup(word_hash(text, tokens[k]))) && !(mixed && all_capitals(text, tokens, k));
  };
  // Tokens [j, to], none an everyday word (in text without capitals none the
  // everyday lists know), are a person after a cue: a name, place or
  // organisation of this tagger that opens with them becomes the name, one
  // that stops short of their words ("Zorvath" of "Zorvath Quillborne")
  // where no other span covers them, or that ran on to token `until`
  // ("Zorvath her" before "her keys").
  auto named_after_a_cue = [&](size_t j, size_t to, size_t until) {
    for (size_t k = j; k <= to; ++k) {
      const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[k]));
      if (everyday(m) || (!mixed && (m.full & common_categories_) != 0)) return false;
    }
    const size_t k = span_over(out, j);
    if (k >= first && k < out.size() && out[k].begin == tokens[j].begin && out[k].end <= tokens[until].end &&
        names_by_a_proper_name(out[k].type)) {
      bool free = true;
      for (size_t t = j + 1; t <= to && free; ++t) free = tokens[t].end <= out[k].end || span_over(out, t) == out.size();
      if (!free) return false;
      set_span(out, k, {PiiType::kPerson, tokens[j].begin, tokens[to].end});
      return true;
    }
    name(j, to);
    return true;
  };
  // The words of a name that opens at token j, after a cue at j - 1 (in
  // small letters) on its line: in text with capitals the capitalised words,
  // up to three; without capitals the word, past a joining word ("de
  // vaan"). The last of them, or tokens.size() when there is none.
  auto name_words_after_a_cue = [&](size_t j) {
    if (j < 1 || tokens[j].newline_before || (mixed && tokens[j - 1].marked) || !word(j) ||
        tokens[j].end - tokens[j].begin < 2) {
      return n;
    }
    size_t to = j;
    if (mixed) {
      while (to + 1 < n && to + 1 - j < kMaxWords && !tokens[to + 1].newline_before && word(to + 1)) ++to;
    } else if (to + 1 < n && !tokens[to + 1].newline_before && word(to + 1) &&
               joining_word(text.substr(tokens[j].begin, tokens[j].end - tokens[j].begin))) {
      ++to;
    }
    return to;
  };
  // Token j, after a verb of giving and before "his", "her" or "their" past
  // the name's words: the receiver, a person ("had given Selam his
  // address").
  auto given_to = [&](size_t j) {
    if (j < 1 || !kGiveVerbs.contains(text, tokens[j - 1])) return false;
    const size_t to = name_words_after_a_cue(j);
    if (to + 1 >= n || tokens[to + 1].newline_before || !kPersonsPossessives.contains(text, tokens[to + 1])) return false;
    return named_after_a_cue(j, to, to + 1);
  };
  // Token j, in text with capitals, after a word of writing or speaking
  // to someone and "to" (kWrittenTo: "Write an email to Yerlan Abenov",
  // "talk to"): the person, where none of the name's words is one the
  // everyday or company lists know, nor a place's that no name list knows
  // ("send the letter to Berlin", "forward it to Accounting" stay out).
  auto written_to = [&](size_t j) __attribute__((noinline)) {
    // (A title and its stop after the cue are introduced_by_title()'s:
    // "Reply to Mrs. Castellanos-Reyes".)
    if (j + 1 < n && mark_is(j + 1, '.') && tokens[j + 1].begin == tokens[j].end &&
        is_title(gazetteer_.lookup(word_hash(text, tokens[j])))) {
      return false;
    }
    const size_t to = name_words_after_a_cue(j);
    if (to == n) return false;
    for (size_t k = j; k <= to; ++k) {
      const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, tokens[k]));
      const bool place = (m.full & (place_categories_ | world_city_categories_)) != 0 &&
                         (m.full & (first_name_categories_ | last_name_categories_)) == 0;
      if ((m.full & (common_categories_ | company_categories_)) != 0 || place || all_capitals(text, tokens, k)) {
        return false;
      }
    }
    return named_after_a_cue(j, to, to);
  };
  // Tokens from j, in text with capitals, two or three capitalised words
  // set off by a comma after a noun in small letters that names one doer
  // ("our keynote speaker, Wangari Muta", names_a_role(); not a plural,
  // "women, African Americans"): the person, where none of the words is
  // one the everyday, company, place or street lists know, nor a group's
  // ("the developer, Zorvath Studios" and "as a designer, Visual Studio"
  // stay as they were).
  auto appositive_of_a_doer = [&](size_t j) __attribute__((noinline)) {
    const Token& doer = tokens[j - 2];
    const std::string_view doer_word = text.substr(doer.begin, doer.end - doer.begin);
    if (tokens[j - 1].newline_before || text[doer.begin] < 'a' || text[doer.begin] > 'z' ||
        !names_a_role(text, doer) || function_word(text, doer) || doer_word.ends_with('s') ||
        doer_word.ends_with("men")) {
      return false;
    }
    const size_t to = name_words_after_a_cue(j);
    if (to == n || to == j) return false;
    const auto unlike_a_name = static_cast<uint16_t>(common_categories_ | company_categories_ | place_categories_ |
                                                     world_city_categories_ | street_categories_);
    for (size_t k = j; k <= to; ++k) {
      if ((gazetteer_.lookup_all(word_hash(text, tokens[k])).full & unlike_a_name) != 0 ||
          all_capitals(text, tokens, k) || kOrganisationNouns.contains(text, tokens[k]) ||
          pii_scan::is_group_word(text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin))) {
        return false;
      }
    }
    return named_after_a_cue(j, to, to);
  };
  // Token j after "starring": an actor ("directed by Joshua Trevisano and
  // starring Morrow").
  auto starring = [&](size_t j) {
    if (j < 1 || !token_is(text, tokens[j - 1], "starring")) return false;
    const size_t to = name_words_after_a_cue(j);
    return to < n && named_after_a_cue(j, to, to);
  };
  // Token j after words that announce a place ("grew up in", "moved here
  // from": after_a_place_cue()), with the words after it that no list knows
  // as everyday words, up to three (in text with capitals, capitalised),
  // where they end the clause (a mark, the line's or the text's end) or
  // come before a word of time or another place's preposition
  // (ends_a_place_after_its_cue()): a place ("grew up in onnezies.", "flew
  // to Enugu on Tuesday"). A name, place or organisation of this tagger
  // that opens with them becomes it (the cue in finish_span() does not see
  // the names added outside the decoder's spans).
  auto place_after_a_cue = [&](size_t j) {
    // (Without the everyday lists, any word would do: "from … last year".
    // The caller asks may_end_a_place_cue() first.)
    if (common_categories_ == 0 || !after_a_place_cue(text, tokens, j)) return false;
    auto place_word = [&](size_t k) {
      if (!word(k) || tokens[k].end - tokens[k].begin < 2 || !may_name_a_place(text, tokens[k], caseless_values_)) {
        return false;
      }
      const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[k]));
      return (m.full & common_categories_) == 0;
    };
    if (!place_word(j)) return false;
    size_t to = j;
    while (to + 1 < n && to + 1 - j < kMaxWords && !tokens[to + 1].newline_before && place_word(to + 1)) ++to;
    if (!ends_a_place_after_its_cue(text, tokens, to)) return false;
    const size_t k = span_over(out, j);
    if (k == out.size()) {
      for (size_t t = j + 1; t <= to; ++t) {
        if (span_over(out, t) != out.size()) return false;
      }
      add_span(out, {PiiType::kLocation, tokens[j].begin, tokens[to].end});
      return true;
    }
    // A span of this tagger that opens with them and stops short of their
    // words, where no other span covers those ("Zrvx" of "Zrvx Qlbrn").
    if (k < first || out[k].begin != tokens[j].begin || out[k].end > tokens[to].end ||
        !(out[k].type == PiiType::kPerson || out[k].type == PiiType::kOrganization ||
          out[k].type == PiiType::kLocation)) {
      return false;
    }
    for (size_t t = j + 1; t <= to; ++t) {
      if (tokens[t].end > out[k].end && span_over(out, t) != out.size()) return false;
    }
    set_span(out, k, {PiiType::kLocation, tokens[j].begin, tokens[to].end});
    return true;
  };
  // Token j after "lives on", "live on", "living on", "lived on" or
  // "located on", after "north side of" (south, east, west), or in text
  // without capitals after "on": a street, its words (in text with
  // capitals capitalised, up to three) and then its suffix ("lives on
  // Marbury street", "lives on Elm Street", "shows on adams street"); in
  // text with capitals the suffix may be missing where the street lists know a word
  // ("the north side of Calle Mayor", "Hoffmann Ridge") or the words are no
  // everyday words and no place's ("lives on Kastanienallee.", "the north
  // side of Quinlan"; not "the north side of Chicago"), as a street's name
  // is. A suffix in small letters stays out ("Marbury" of "Marbury
  // street"), as the dev rows label a street's name before a literal
  // suffix, but for a suffix before another, the street's own ("on
  // bezrukov street street"). A name, place or organisation of this tagger
  // among the words becomes the street ("lives on Sakura Dori street").
  auto street_after_a_cue = [&](size_t j) __attribute__((noinline)) {
    if (j < 3 || tokens[j].newline_before || tokens[j - 1].newline_before) return false;
    // (Most tokens after a word of two letters follow neither "on" nor "of".)
    const char cue_end = static_cast<char>(text[tokens[j - 1].end - 1] | 0x20);
    if ((text[tokens[j - 1].begin] | 0x20) != 'o' || (cue_end != 'n' && cue_end != 'f')) return false;
    auto is = [&](size_t k, std::string_view w) { return token_is(text, tokens[k], w); };
    const bool lives_on = is(j - 1, "on") && (is(j - 2, "lives") || is(j - 2, "live") || is(j - 2, "living") ||
                                              is(j - 2, "lived") || is(j - 2, "located"));
    const bool side_of = is(j - 1, "of") && is(j - 2, "side") &&
                         (is(j - 3, "north") || is(j - 3, "south") || is(j - 3, "east") || is(j - 3, "west"));
    // (Without capitals, "on" alone before words and a suffix: "shows on
    // bezrukov street"; with them the decoder has the capitals to go by.)
    const bool on = !lives_on && !side_of && !mixed && is(j - 1, "on");
    if (!lives_on && !side_of && !on) return false;
    auto suffix = [&](size_t k) { return kCommonStreetSuffixes.contains(text, tokens[k]); };
    // (Not an owner, "Lee's farm", nor a planet, "lived on Venus".)
    auto street_word = [&](size_t k) {
      const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + tokens[k].begin;
      return k < n && !tokens[k].newline_before && word(k) && !function_word(text, tokens[k]) &&
             possessive_stem(b, tokens[k].end - tokens[k].begin) == tokens[k].end - tokens[k].begin &&
             !kPlanets.contains(text, tokens[k]);
    };
    if (!street_word(j)) return false;
    size_t to = j;
    while (to + 1 - j < kMaxWords && street_word(to + 1) && !suffix(to)) ++to;
    bool ends_in_a_suffix = to > j && suffix(to);
    if (!ends_in_a_suffix && to + 1 < n && !tokens[to + 1].newline_before && suffix(to + 1)) {
      ++to;
      ends_in_a_suffix = true;
    }
    if (!ends_in_a_suffix) {
      if (!mixed) return false;
      bool listed = false, unknown = true;
      for (size_t k = j; k <= to; ++k) {
        const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[k]));
        listed = listed || ((m.full | m.part) & street_categories_) != 0;
        unknown = unknown && !everyday(m) && (m.full & place_categories_) == 0;
      }
      if (!listed && !unknown) return false;
    }
    // A suffix before another is the street's own, the other the literal
    // one after its name ("on Bezrukov Street street").
    const bool own_suffix = ends_in_a_suffix && to + 1 < n && !tokens[to + 1].newline_before && suffix(to + 1);
    const bool small_suffix =
        ends_in_a_suffix && !own_suffix && to > j && text[tokens[to].begin] >= 'a' && text[tokens[to].begin] <= 'z';
    const size_t last = small_suffix ? to - 1 : to;
    // After "on" alone, the words before the suffix are no words the
    // everyday lists know ("on a busy city street", "on a road trip").
    for (size_t k = j; on && k < to; ++k) {
      if (tokens[k].end - tokens[k].begin < 2 ||
          (gazetteer_.lookup(word_hash(text, tokens[k])).full & common_categories_) != 0) {
        return false;
      }
    }
    const PiiSpan street{PiiType::kStreetAddress, tokens[j].begin, tokens[last].end};
    // The one span of this tagging inside the street's words, if any.
    size_t k = out.size();
    for (size_t t = j; t <= last; ++t) {
      const size_t c = span_over(out, t);
      if (c == out.size()) continue;
      if (c < first || (k != out.size() && c != k) || out[c].begin < street.begin || out[c].end > street.end ||
          !(out[c].type == PiiType::kPerson || out[c].type == PiiType::kOrganization ||
            out[c].type == PiiType::kLocation || out[c].type == PiiType::kStreetAddress)) {
        return false;
      }
      k = c;
    }
    if (k == out.size()) {
      add_span(out, street);
    } else {
      set_span(out, k, street);
    }
    return true;
  };
  // Whether a line within two of the line that token j opens (a word
  // before a colon) opens with a one-word speaker of its own: a first name
  // that no place's or everyday list knows, or a person's span over the
  // word (the decoder's, or one added before).
  auto in_a_dialogue = [&](size_t j) __attribute__((noinline)) {
    auto speaker_at = [&](size_t k) {
      k = past_a_time_stamp(text, tokens, k);  // "[10:32] Priyanka: great"
      if (k == j || k + 2 >= n || !word(k) || !mark_is(k + 1, ':') || tokens[k + 2].newline_before) return false;
      const size_t s = span_over(out, k);
      if (s != out.size()) {
        return out[s].type == PiiType::kPerson && out[s].begin == tokens[k].begin && out[s].end == tokens[k].end;
      }
      const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[k]));
      return (m.full & first_name_categories_) != 0 && (m.full & (place_categories_ | common_categories_)) == 0;
    };
    for (const size_t k : first_tokens_of_lines_around(text, tokens, j)) {
      if (k < n && speaker_at(k)) return true;
    }
    return false;
  };
  // (A cue is in small letters: in text with capitals, not marked, but
  // for a verb that opens a sentence: "Tell Priyanka".)
  auto opens_a_sentence = [&](size_t k) {
    if (k == 0 || tokens[k].newline_before) return true;
    const Token& before = tokens[k - 1];
    const char c = text[before.begin];
    return before.end - before.begin == 1 && (c == '.' || c == '!' || c == '?');
  };
  auto may_be_cue = [&](size_t k) {
    if (mixed && tokens[k].marked) {
      return opens_a_sentence(k) && (kAddressVerbs.may_contain(text, tokens[k]) || kHelpVerbs.may_contain(text, tokens[k]));
    }
    return kNameCues.may_contain(text, tokens[k]);
  };
  // Whether token k, marked, may be the "I'm" (or "I’m") before a name
  // (after_a_name_cue()): its length and first bytes. (The "am" of "I am"
  // is one of kNameCues.)
  auto may_be_i_m = [&](const Token& t) {
    const size_t len = t.end - t.begin;
    return (len == 3 || len == 5) && (text[t.begin] | 0x20) == 'i' &&
           (text[t.begin + 1] == '\'' || text[t.begin + 1] == '\xe2');
  };
  // may_be_cue(), or in text with capitals a role ("Customer Lysander")
  // or "I'm" (without capitals "im" too).
  auto may_be_cue_or_role = [&](size_t k) {
    if (!mixed) return may_be_cue(k) || may_be_i_m(tokens[k]) || token_is(text, tokens[k], "im");
    if (tokens[k].marked) return may_be_cue(k) || kRoles.may_contain(text, tokens[k]) || may_be_i_m(tokens[k]);
    return kNameCuesAndRoles.may_contain(text, tokens[k]);
  };
  // Token j, between an article and a work ("the Takuda novel", "a Kubrick
  // film"), on one line: the work's author, a person, where no span covers
  // it or a place or organisation of this tagging covers just it; a word
  // of two letters or more, not in capitals, that no everyday,
  // place, street, company or proper adjective's list knows, nor a
  // language or a group's word (in text without capitals, four
  // letters or more that no list knows at all and that does not end as
  // adjectives do, in -an, -ese, -ish, -ic or -al: "the english novel",
  // "the first film", "the tibetan book" stay out).
  auto author_of_a_work = [&](size_t j) __attribute__((noinline)) {
    if (j < 1 || j + 1 >= n || tokens[j].newline_before || tokens[j + 1].newline_before || !word(j) ||
        !kWorks.contains(text, tokens[j + 1]) || !after_an_article(text, tokens, j) ||
        tokens[j].end - tokens[j].begin < (mixed ? 2u : 4u) || (mixed && all_capitals(text, tokens, j))) {
      return false;
    }
    const size_t k = span_over(out, j);
    if (k != out.size() && !own_place_or_organisation(out, k, first, tokens[j].begin, tokens[j].end)) return false;
    const std::string_view w = text.substr(tokens[j].begin, tokens[j].end - tokens[j].begin);
    const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, tokens[j]));
    const uint16_t unlike_a_name = common_categories_ | place_categories_ | world_city_categories_ |
                                   street_categories_ | company_categories_ | proper_adjective_categories_;
    if (mixed ? (m.full & unlike_a_name) != 0 : (m.full | m.part) != 0) return false;
    if (kLanguages.contains(text, tokens[j]) || pii_scan::is_group_word(w)) return false;
    if (!mixed && (w.ends_with("an") || w.ends_with("ese") || w.ends_with("ish") || w.ends_with("ic") ||
                   w.ends_with("al"))) {
      return false;
    }
    if (k == out.size()) {
      add_span(out, {PiiType::kPerson, tokens[j].begin, tokens[j].end});
    } else {
      out[k].type = PiiType::kPerson;
    }
    return true;
  };
  for (size_t c = 0; c < candidates; ++c) {
    size_t j = mixed ? marked[c] : c;
    // A number (marked for its digit) is none of these names, nor a title:
    // every rule below needs a word there. Numbers are many of the marked
    // tokens of a prompt ("1.", "25 apples").
    if (is_number(text, tokens, j)) continue;
    // (An article before it first: a test of one load, which fewer tokens
    // pass than the works' first letters.)
    if (j >= 1 && j + 1 < n && tokens[j - 1].end - tokens[j - 1].begin <= 3 &&
        ((text[tokens[j - 1].begin] | 0x20) == 't' || (text[tokens[j - 1].begin] | 0x20) == 'a') &&
        kWorks.may_contain(text, tokens[j + 1])) [[unlikely]] {
      if (author_of_a_work(j)) continue;
    }
    const bool cue_before = j > 0 && (may_be_cue_or_role(j - 1) || (j > 1 && mark_is(j - 1, ',') && may_be_cue(j - 2)));
    // The rules run past their first tests for a few tokens in a hundred:
    // [[unlikely]] moves their code out of the loop's way (GCC's cold
    // partition), so that what every marked token runs stays small in the
    // instruction cache (callgrind: 8% fewer instructions here, 15% fewer
    // simulated instruction cache misses).
    if (cue_before) [[unlikely]] {
      if (after_a_name_cue(j) || given_to(j) || starring(j)) continue;
    }
    if (mixed && common_categories_ != 0 && j >= 2 && tokens[j - 1].end - tokens[j - 1].begin == 2 &&
        token_is(text, tokens[j - 1], "to") && kWrittenTo.contains(text, tokens[j - 2])) [[unlikely]] {
      if (written_to(j)) continue;
    }
    if (mixed && common_categories_ != 0 && j >= 2 && mark_is(j - 1, ',') && text[tokens[j - 2].end - 1] >= 'a' &&
        text[tokens[j - 2].end - 1] <= 'z' && text[tokens[j - 2].end - 1] != 's') [[unlikely]] {
      if (appositive_of_a_doer(j)) continue;
    }
    // (The rules' first tests, asked here: most tokens fail them, and the
    // rules are calls.)
    if (j > 0 && may_end_a_place_cue(text, tokens[j - 1])) [[unlikely]] {
      if (street_after_a_cue(j) || place_after_a_cue(j)) continue;
    }
    // (A verb of speech after the word, or one before it, which is a cue.)
    if (cue_before || (j + 1 < n && kSpeechVerbs.may_contain(text, tokens[j + 1]))) [[unlikely]] {
      if (speaker(j)) continue;
    }
    // In text with capitals, an English title in small letters before a
    // marked name: "ms. Wijtze" (not "mg/dL. Which", "write-miss. If").
    if (mixed && j >= 2 && !tokens[j - 2].marked && mark_is(j - 1, '.') && english_title(j - 2)) [[unlikely]] {
      if (introduced_by_title(j - 2)) continue;
    }
    // Whose address: "here's Gregorina's address", "časlav's phone".
    if ((text[tokens[j].end - 1] | 0x20) == 's') [[unlikely]] {
      if (owner_of_personal_data(j)) continue;
    }
    // Whose family: "Nkechi and her husband".
    if (j + 3 < n && tokens[j + 1].end - tokens[j + 1].begin == 3 && token_is(text, tokens[j + 1], "and")) [[unlikely]] {
      if (kin_of_the_word_before(j)) continue;
    }
    // A greeting opening a line, then up to three words and a comma, a
    // stop, '!' or the line's end: "Hi Danival, I'm contacting you".
    if ((j == 0 || tokens[j].newline_before) && j + 1 < n &&
        kGreetings.contains(text, tokens[j]) &&
        greeted_word(j + 1, true)) {
      size_t to = j + 1;
      while (to + 1 < n && to - j < kMaxWords && greeted_word(to + 1, false)) ++to;
      if (to + 1 == n || tokens[to + 1].newline_before || mark_is(to + 1, ',') || mark_is(to + 1, '!') ||
          mark_is(to + 1, '.')) {
        name(j + 1, to);
        continue;
      }
    }
    // So does a name that opens a line before a comma and a request or a
    // question: "Mimount, can I please speak to your boss?" (the words as
    // next to a verb of speech: not "Now, can I", "In Islam, what is").
    if (common_categories_ != 0 && (j == 0 || tokens[j].newline_before) &&
        (mark_is(j + 1, ',') || mark_is(j + 2, ',') || mark_is(j + 3, ',')) && name_word(j)) {
      size_t to = j;
      while (to + 1 < n && to + 1 - j < kMaxWords && !tokens[to + 1].newline_before && name_word(to + 1)) ++to;
      if (to + 2 < n && mark_is(to + 1, ',') && !tokens[to + 2].newline_before &&
          (token_is(text, tokens[to + 2], "i") || kAfterVocatives.contains(text, tokens[to + 2]))) {
        name(j, to);
        continue;
      }
    }
    if (j + 2 >= n) continue;
    // Neither a title (a stop right after it) nor a line's first word (past
    // a chat's time stamp: "[10:32] Priyanka: are you coming?").
    bool opens_line = j == 0 || tokens[j].newline_before;
    if (!opens_line && !(tokens[j + 1].begin == tokens[j].end && text[tokens[j + 1].begin] == '.')) {
      const uint32_t at = tokens[j].begin;
      if (at < 2 || !may_end_a_time_stamp(text[at - 2]) || !after_a_time_stamp(text, tokens, j)) continue;
      opens_line = true;
    }
    if (introduced_by_title(j)) continue;
    // A speaker opening a line, a colon, a quote: Troy: "Who are you?"; or
    // a word alone that no place's list nor the everyday lists know, not in
    // capitals, then a word on its line, where a name list knows the word or
    // this tagger found a place or organisation there (with the everyday
    // lists, which tell "Note:" from a name): "Kofi: Remember me?" (not
    // "Name: Anna", "Paris: the city", "JUDGE: Overruled"); or, with the
    // everyday lists, where a line near it opens with a speaker found so
    // (a dialogue: "Yuki: What a wife.\nTariq: Remember me").
    if (opens_line && word(j)) {
      size_t to = j;
      while (to + 1 < n && to + 1 - j < kMaxWords && !tokens[to + 1].newline_before && word(to + 1)) ++to;
      if (to + 2 < n && mark_is(to + 1, ':')) {
        const char q = text[tokens[to + 2].begin];
        const bool quote = q == '"' || q == '\\' || text.substr(tokens[to + 2].begin, 3) == "\xe2\x80\x9c";
        const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[j]));
        const bool first_name_alone =
            to == j && !tokens[to + 2].newline_before && is_word_byte(static_cast<unsigned char>(q)) &&
            (m.full & (place_categories_ | common_categories_)) == 0 &&
            !all_capitals(text, tokens, j) &&
            ((m.full & first_name_categories_) != 0 ||
             (common_categories_ != 0 &&
              (own_place_or_organisation(out, span_over(out, j), first, tokens[j].begin, tokens[j].end) ||
               in_a_dialogue(j))));
        if ((quote || first_name_alone) && !everyday(m)) name(j, to);
      }
    }
  }
}

void PiiTagger::join_place_names(std::string_view text, std::span<const uint32_t> place_words,
                                 std::span<const uint8_t> viewed, std::vector<PiiSpan>& out, size_t first,
                                 bool mixed) const {
  if (place_words.size() < 2) return;  // a name of several words has two
  const Tokens tokens = tagger_tokens();
  const ViewList& views = tagger_views();
  const size_t n = tokens.size();
  constexpr size_t kMaxTokens = 8;  // "Saint Vincent and the Grenadines": 5
  // Token k, viewed, is one word of a longer place's name.
  auto place_part = [&](size_t k) {
    return k < n && viewed[k] == 2 && (views[k].gazetteer.part & place_categories_) != 0;
  };
  auto word = [&](size_t k) { return is_word_byte(static_cast<unsigned char>(text[tokens[k].begin])); };
  std::vector<PiiSpan> places;
  size_t done = 0;  // the tokens before it are a place's name found
  for (size_t c = 0; c + 1 < place_words.size(); ++c) {
    const size_t t = place_words[c];
    // Another word of a place's name among the next three on the line (most
    // such words stand alone: "New", "Saint").
    if (t < done || place_words[c + 1] > t + 3) continue;
    // The longest name of the lists that opens at t, on its line: its
    // phrase_hash() grows token by token (a token's is its word hash), over
    // marks and words of places' names ("St. Petersburg", "Trinidad and
    // Tobago"), and is looked up where such a word ends it.
    size_t last = t;
    uint64_t hash = views[t].word;
    for (size_t k = t + 1; k < n && k < t + kMaxTokens && !tokens[k].newline_before; ++k) {
      if (word(k) && !place_part(k)) break;
      hash = phrase_hash_continued(hash, text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin),
                                   tokens[k].begin > tokens[k - 1].end);
      if (place_part(k) && (gazetteer_.lookup(hash).full & place_categories_) != 0) last = k;
    }
    if (last == t) continue;
    // No span found before tagging overlaps it, and the tagger's that do are
    // names, places or organisations inside it; without one, in text with
    // capitals, its words but the joining ones are capitalised.
    const uint32_t begin = tokens[t].begin, end = tokens[last].end;
    bool fits = true, found = false, named = false;
    for (size_t k = t; k <= last && fits; ++k) {
      // Where the tagger found nothing, not everyday words alone: "Country
      // Club", "Long Beach".
      if (word(k) && !named) {
        const Gazetteer::Match m = viewed[k] == 2 ? views[k].gazetteer : gazetteer_.lookup(word_hash(text, tokens[k]));
        named = (m.full & common_categories_) == 0;
      }
      const size_t s = span_over(out, k);
      if (s == out.size()) {
        fits = !mixed || !word(k) || opens_with_a_capital(text.substr(tokens[k].begin)) ||
               joining_word(text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin));
        continue;
      }
      found = true;
      fits = s >= first && out[s].begin >= begin && out[s].end <= end &&
             names_by_a_proper_name(out[s].type);
    }
    if (!fits || (!found && !named)) continue;
    for (size_t k = t; k <= last && found; ++k) {
      const size_t s = span_over(out, k);
      if (s != out.size()) mark_dropped(out, s);
    }
    places.push_back({PiiType::kLocation, begin, end});
    done = last + 1;
  }
  if (places.empty()) return;
  drop_marked_spans(out);
  out.insert(out.end(), places.begin(), places.end());
  sort_by_begin(out, first);
}

void PiiTagger::add_named_organisations(std::string_view text, std::span<const uint32_t> marked,
                                        std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  constexpr size_t kMaxWordsBefore = 3;
  // Whether token k + 1 follows token k one blank apart on its line.
  auto apart = [&](size_t k) {
    return k + 1 < n && !tokens[k + 1].newline_before && tokens[k].end + 1 == tokens[k + 1].begin &&
           text[tokens[k].end] == ' ';
  };
  // A capitalised word of two letters or more.
  auto capitalised = [&](size_t k) {
    return tokens[k].end - tokens[k].begin >= 2 && opens_with_a_capital(text.substr(tokens[k].begin));
  };
  auto capitalised_before = [&](size_t j) { return apart(j - 1) && capitalised(j - 1); };
  for (const uint32_t j : marked) {
    // (A marked token in small letters: the noun is capitalised. Most
    // marked tokens are shorter than any noun of the list.)
    if (j == 0 || tokens[j].end - tokens[j].begin < kShortestOrganisationNoun ||
        !kOrganisationNouns.contains(text, tokens[j]) || span_over(out, j) != out.size()) [[likely]] {
      continue;
    }
    // The name goes on past the noun: "The International Space Station".
    if (apart(j) && capitalised(j + 1)) continue;
    size_t from = j;
    while (from > 0 && j - from < kMaxWordsBefore && capitalised_before(from) &&
           span_over(out, from - 1) == out.size()) {
      --from;
    }
    while (from < j && (kDeterminers.contains(text, tokens[from]) || token_is(text, tokens[from], "a"))) ++from;
    // Nor an everyday word that opens the sentence: "When Corporation X pays".
    if (from < j && opens_a_sentence(text, tokens, from) &&
        (gazetteer_.lookup(word_hash(text, tokens[from])).full & common_categories_) != 0) {
      ++from;
    }
    // A name, place or organisation of this tagger right before is the
    // organisation's first words: "Hackett Publishing Company".
    if (from > 0 && capitalised_before(from)) {
      const size_t k = span_over(out, from - 1);
      if (k >= first && k < out.size() && out[k].end == tokens[from - 1].end &&
          names_by_a_proper_name(out[k].type)) {
        set_span(out, k, {PiiType::kOrganization, out[k].begin, tokens[j].end});
        continue;
      }
    }
    if (from == j) continue;
    add_span(out, {PiiType::kOrganization, tokens[from].begin, tokens[j].end});
  }
}

bool PiiTagger::listed_name(std::string_view text, size_t i) const {
  const Tokens tokens = tagger_tokens();
  const Token& t = tokens[i];
  if (t.end - t.begin < 3 || !(text[t.begin] >= 'A' && text[t.begin] <= 'Z')) return false;
  if (i == 0 || t.newline_before || is_number(text, tokens, i + 1)) return false;
  const Token& before = tokens[i - 1];
  if (before.end - before.begin == 1 && std::string_view(".?!\":").find(text[before.begin]) != std::string_view::npos) {
    return false;  // the first word of a sentence, a quote or a line after a colon
  }
  // (A given name alone not after an article or a determiner: brands are
  // given names too, "book an Uber".)
  const TokenView& view = tagger_views()[i];
  return only_a_name(text, i) || (only_a_given_name(text, i, view.gazetteer, view.word) &&
                                  !after_an_article(text, tokens, i) && !kDeterminers.contains(text, before));
}

void PiiTagger::add_joined_names(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const {
  const Tokens tokens = tagger_tokens();
  auto word_is = [&](size_t j, std::string_view w) { return token_is(text, tokens[j], w); };
  auto joiner = [&](size_t j) { return word_is(j, ",") || word_is(j, "and") || word_is(j, "or") || word_is(j, "&"); };
  // What token j, joined to a name, is: not a name (kNot); a name no span
  // covers (kFree); or a name that a place or organisation span of its own
  // covers, out[covering], which no place list knows (kRetyped): joined
  // words are of one kind. kEveryday: an everyday word no span covers (in
  // text with capitals, capitalised and known only as everyday; in
  // lower-case text, one a name list knows too), a name only between
  // names or at the head of a list of them.
  enum class Joined { kNot, kFree, kRetyped, kList, kEveryday };
  bool changed = false;  // a name was added or retyped in this round
  size_t covering = 0;
  bool joined_by_comma = false;  // the word asked about is joined by a comma alone
  // Whether out[k], of several words, may be a name the tagger took for a
  // place or organisation: up to three words one space apart on one line
  // (words joined by a hyphen count as one: "Jean-Luc Picard"), none a
  // place's, a company's suffix or a word that ends organisations' names,
  // in text with capitals each capitalised, and the whole no place's name
  // ("Barnaby Crumb" of "Ophelia Thistlewood and Barnaby Crumb"; not "Acme
  // Logistics", "Santa Clara").
  auto words_of_a_name = [&](size_t k) {
    if (!mixed) return false;
    const size_t from = first_token_from(tokens, out[k].begin);
    const size_t to = first_token_from(tokens, out[k].end) - 1;  // (out[k] holds token `from`)
    if (to == from || to - from >= 7 || tokens[to].end != out[k].end) return false;
    const auto not_a_name = static_cast<uint16_t>(place_categories_ | world_city_categories_ | company_categories_);
    // A word of two letters not in capitals matches a state's code only by
    // the lists' case-blind lookup ("Li" of "Li Wei"; codes are written
    // "LI"): that match is no place's.
    auto state_code_of = [&](const Token& t) -> uint16_t {
      return t.end - t.begin == 2 && !all_capitals(text, t) ? state_categories_ : 0;
    };
    bool first_is_a_first_name = false;
    size_t words = 0;
    for (size_t w = from; w <= to; ++w) {
      if (glued_hyphen(text, tokens, w)) continue;
      if (++words > 3) return false;
      const Token& t = tokens[w];
      const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
      const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, t));
      const bool after_a_hyphen = w > from && glued_hyphen(text, tokens, w - 1);
      if ((w > from && !after_a_hyphen && (t.newline_before || t.begin != tokens[w - 1].end + 1)) ||
          !(b[0] >= 'A' && b[0] <= 'Z') ||
          all_capitals(text, tokens, w) || (m.full & not_a_name & ~state_code_of(t)) != 0 ||
          kOrganisationNouns.contains(text, t) ||
          kPolities.contains(text, t) || pii_scan::is_group_word(text.substr(t.begin, t.end - t.begin)) ||
          ends_in_a_possessive(text, t)) {
        return false;
      }
      // The first word no everyday word ("First Inaugural Address",
      // "North Vietnamese"); after a comma, which sets off titles and works
      // too, nor the last one that only the everyday lists know
      // ("Galapagos Islands"). A first name a list knows opens a person's
      // name all the same ("Tom Baker", "Michael Baker" after "Priya
      // Raman, ").
      const bool only_everyday = (m.full & common_categories_) != 0 && (m.full & name_categories_) == 0;
      if (w == from) {
        first_is_a_first_name = (m.full & first_name_categories_) != 0;
        if ((m.full & common_categories_) != 0 && !first_is_a_first_name) return false;
      }
      if (w == to && joined_by_comma && only_everyday && !first_is_a_first_name) return false;
      // (A name's parts after a hyphen are names too, not "Neo-Colonialism".)
      if (after_a_hyphen && only_everyday) return false;
    }
    return !listed_place(text, out[k]);
  };
  // Whether out[k] is two to four single words apart by commas, each
  // capitalised and a first name a list knows or a word no list knows at
  // all ("Mei, Ravi" of "for Olu, Mei, Ravi, Sven and Hannah", an
  // organisation): names of a list, split below; list_words holds their
  // tokens.
  std::array<size_t, 4> list_words{};
  size_t list_size = 0;
  auto names_apart_by_commas = [&](size_t k) {
    if (!mixed) return false;
    const size_t from = first_token_from(tokens, out[k].begin);
    list_size = 0;
    for (size_t w = from; w < tokens.size() && tokens[w].begin < out[k].end; w += 2) {
      const Token& t = tokens[w];
      const std::string_view word = text.substr(t.begin, t.end - t.begin);
      if (list_size == list_words.size() || (w > from && (t.newline_before || t.begin != tokens[w - 1].end + 1)) ||
          word.size() < 2 || !(word[0] >= 'A' && word[0] <= 'Z') || all_capitals(text, t) ||
          pii_scan::is_group_word(word)) {
        return false;
      }
      const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, t));
      if ((m.full & first_name_categories_) == 0 && m.full != 0) return false;
      if ((m.full & (place_categories_ | world_city_categories_ | company_categories_ | common_categories_)) != 0) return false;
      list_words[list_size++] = w;
      if (t.end == out[k].end) return list_size >= 2;
      if (w + 1 >= tokens.size() || !word_is(w + 1, ",") || tokens[w + 1].begin != t.end) return false;
    }
    return false;
  };
  auto joined = [&](size_t j) {
    const Token& t = tokens[j];
    const auto c = static_cast<unsigned char>(text[t.begin]);
    if (t.end - t.begin < 2 || !is_word_byte(c) || (c >= '0' && c <= '9')) return Joined::kNot;
    if (mixed && !(c >= 'A' && c <= 'Z') && c < 0x80) return Joined::kNot;
    if (mixed && all_capitals(text, tokens, j)) return Joined::kNot;          // an acronym
    if (contraction(text, t) || kPersonalPronouns.contains(text, t)) return Joined::kNot;  // I'm, i'd, we've, Me
    if (pii_scan::is_group_word(text.substr(t.begin, t.end - t.begin))) return Joined::kNot;  // "Hindu or Sikh"
    // In lower-case text any everyday word is out ("go", "town"); with
    // capitals only a word that is nothing else ("Hill" is also a surname).
    const Gazetteer::Match m = view_of(text, t, gazetteer_).gazetteer;
    if (mixed && everyday(m)) return span_over(out, j) == out.size() ? Joined::kEveryday : Joined::kNot;
    if (!mixed && ((m.full & common_categories_) != 0 || t.end - t.begin < 3)) {
      const bool also_a_name = (m.full & name_categories_) != 0 && t.end - t.begin >= 3;
      return also_a_name && span_over(out, j) == out.size() ? Joined::kEveryday : Joined::kNot;
    }
    covering = span_over(out, j);
    if (covering == out.size()) return Joined::kFree;
    // (Not a place any list knows, the world's cities too: "Kwame Mensah,
    // Accra".)
    if (own_place_or_organisation(out, covering, first, t.begin, t.end)) {
      return (m.full & place_categories_) == 0 && !listed_place(text, out[covering]) ? Joined::kRetyped : Joined::kNot;
    }
    if (!own_place_or_organisation(out, covering, first, out[covering].begin, out[covering].end) ||
        !(out[covering].begin == t.begin || out[covering].end == t.end)) {
      return Joined::kNot;
    }
    if (words_of_a_name(covering)) return Joined::kRetyped;
    return names_apart_by_commas(covering) ? Joined::kList : Joined::kNot;
  };
  // Token j (its first word) becomes a name with up to kMaxWords - 1 more
  // free words towards `step` (-1 or +1).
  constexpr size_t kMaxWords = 3;
  // `list_goes_on`: another name is joined on after the name that token j
  // is joined to, before it (step -1).
  auto add_name = [&](size_t j, int step, bool list_goes_on) {
    joined_by_comma = word_is(step < 0 ? j + 1 : j - 1, ",");
    const Joined kind = joined(j);
    // "Mazzi, Bowman and Hill": an everyday word between the name and a
    // name that the list joins on to it.
    if (kind == Joined::kEveryday && step > 0 && j + 2 < tokens.size() && joiner(j + 1) &&
        !tokens[j + 1].newline_before && !tokens[j + 2].newline_before) {
      const Joined next = joined(j + 2);
      if (next == Joined::kFree || next == Joined::kRetyped) {
        add_span(out, {PiiType::kPerson, tokens[j].begin, tokens[j].end});
      }
      return;  // the loop over the spans comes to it: the name after it joins on
    }
    // "smit, zhang and edwards", "Rob, Royce, and Pedro": an everyday word
    // that a name list knows at the head of a list of names (not
    // "Thereupon, Ann and Bea").
    if (kind == Joined::kEveryday && step < 0 && list_goes_on &&
        (gazetteer_.lookup(word_hash(text, tokens[j])).full & name_categories_) != 0) {
      add_span(out, {PiiType::kPerson, tokens[j].begin, tokens[j].end});
      return;
    }
    if (kind == Joined::kNot || kind == Joined::kEveryday) return;
    const size_t retyped = covering;
    size_t lo = j, hi = j;
    for (size_t n = 1; kind == Joined::kFree && n < kMaxWords; ++n) {
      const size_t next = step < 0 ? lo - 1 : hi + 1;
      if (step < 0 ? lo == 0 || tokens[lo].newline_before : next >= tokens.size() || tokens[next].newline_before) break;
      if (joined(next) != Joined::kFree) break;
      (step < 0 ? lo : hi) = next;
    }
    if (is_number(text, tokens, hi + 1)) return;  // a street: "Lauren and Sorlaskeid 32"
    changed = true;
    if (kind == Joined::kRetyped) {
      out[retyped].type = PiiType::kPerson;
    } else if (kind == Joined::kList) {
      // (Read before set_span(), which may change what names_apart_by_commas() saw.)
      const std::array<size_t, 4> words = list_words;
      const size_t count = list_size;
      set_span(out, retyped, {PiiType::kPerson, tokens[words[0]].begin, tokens[words[0]].end});
      for (size_t w = 1; w < count; ++w) add_span(out, {PiiType::kPerson, tokens[words[w]].begin, tokens[words[w]].end});
    } else {
      add_span(out, {PiiType::kPerson, tokens[lo].begin, tokens[hi].end});
    }
  };
  // Whether no line break falls before any of tokens [a, b].
  auto one_line = [&](size_t a, size_t b) {
    for (size_t t = a; t <= b; ++t) {
      if (tokens[t].newline_before) return false;
    }
    return true;
  };
  // (Rounds, as a name retyped before the name it is joined to is read
  // again: "Olu" before "Mei, Ravi" before "Sven".)
  for (size_t round = 0; round < 3 && (round == 0 || changed); ++round) {
    changed = false;
    for (size_t s = first; s < out.size(); ++s) {
      if (out[s].type != PiiType::kPerson) continue;
      // Before: "X and [name]", "X, [name]", "X, and [name]".
      const size_t from = first_token_from(tokens, out[s].begin);
      size_t j = from;
      if (j >= 1 && joiner(j - 1)) --j;
      if (j >= 1 && j < from && word_is(j, "and") && word_is(j - 1, ",")) --j;
      // After: "[name] and Y", "[name], Y", "[name], and Y".
      const size_t to = first_token_from(tokens, out[s].end);
      size_t after = to;
      if (after < tokens.size() && joiner(after)) ++after;
      if (after > to && after + 1 < tokens.size() && word_is(after - 1, ",") && word_is(after, "and")) ++after;
      const bool joined_after = after > to && after < tokens.size() && one_line(to, after);
      if (j < from && j >= 1 && from < tokens.size() && one_line(j, from)) {
        const size_t next = joined_after ? span_over(out, after) : out.size();
        add_name(j - 1, -1, next < out.size() && out[next].type == PiiType::kPerson);
      }
      if (joined_after) add_name(after, +1, false);
    }
  }
}

namespace {

// Whether token t, after the hyphen at `hyphen` that ends the name `span`,
// is the second syllable of a given name written as Korean names are, after
// the surname ("Kim Ji-woo", "Park Seo-yeon"): two to five small letters,
// glued to no further word, after a capitalised word of two to four letters
// that is not the name's first. (An everyday word too, "woo"; a longer word
// before the hyphen is a surname with a suffix, "Obama-era", as one alone
// may be: "Peri-anal".)
bool second_syllable_of_a_given_name(std::string_view text, const PiiSpan& span, size_t hyphen, const Token& t) {
  const size_t n = t.end - t.begin;
  if (n < 2 || n > 5 || (t.end < text.size() && text[t.end] == '-')) return false;
  for (size_t k = t.begin; k < t.end; ++k) {
    if (text[k] < 'a' || text[k] > 'z') return false;
  }
  size_t begin = hyphen;
  while (begin > 0 && ((text[begin - 1] >= 'a' && text[begin - 1] <= 'z') || (text[begin - 1] >= 'A' && text[begin - 1] <= 'Z'))) {
    --begin;
  }
  const size_t length = hyphen - begin;
  return length >= 2 && length <= 4 && text[begin] >= 'A' && text[begin] <= 'Z' && begin > span.begin &&
         text[begin - 1] == ' ';
}

}  // namespace

void PiiTagger::join_names_across_particles(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  auto one_space_after = [&](size_t j, uint32_t end) {
    return j < n && tokens[j].begin == end + 1 && text[end] == ' ' && !tokens[j].newline_before;
  };
  // A particle in small letters: kSurnameParticles, or Irish ("ní", "ó",
  // "uí", "nic", "mac": "siobhán ní bhriain").
  auto a_particle = [&](const Token& t) {
    const std::string_view w = text.substr(t.begin, t.end - t.begin);
    return (w[0] >= 'a' && w[0] <= 'z' && kSurnameParticles.contains(text, t)) || w == "n\u00ed" || w == "\u00f3" ||
           w == "u\u00ed" || w == "nic" || w == "mac";
  };
  auto particle = [&](size_t j) { return a_particle(tokens[j]); };
  // (A small letter, or a byte of a letter beyond ASCII: "ní", "ó".)
  auto small = [&](size_t at) {
    const auto c = static_cast<unsigned char>(text[at]);
    return (c >= 'a' && c <= 'z') || c >= 0x80;
  };
  bool joined = false;
  for (size_t k = first; k < out.size(); ++k) {
    const uint32_t end = out[k].end;
    if (out[k].type != PiiType::kPerson || end == out[k].begin || end + 4 > text.size() || text[end] != ' ') continue;
    // The particle: the word after the name, or the name's last word
    // ("Leonardo da", a name of the decoder's, before "Vinci"). Read from
    // the bytes before a search for its token: most names have neither.
    uint32_t word_begin = end + 1, word_end = end + 1;
    while (word_end < text.size() && small(word_end)) ++word_end;
    bool after = word_end > word_begin && a_particle(Token{word_begin, word_end, false, false});
    if (!after) {
      word_begin = word_end = end;
      while (word_begin > out[k].begin && small(word_begin - 1)) --word_begin;
      if (word_begin == word_end || word_begin == out[k].begin || text[word_begin - 1] != ' ' ||
          !a_particle(Token{word_begin, word_end, false, false})) {
        continue;
      }
    }
    // (The particle's token: the word read, no more.)
    size_t j = first_token_from(tokens, word_begin);
    if (j >= n || tokens[j].begin != word_begin || tokens[j].end != word_end) continue;
    if (after && one_space_after(j + 1, tokens[j].end) && particle(j + 1)) ++j;  // "de la"
    const size_t q = j + 1;
    // The surname: capitalised, or in small letters after a name written
    // so ("maria de la cruz", "siobhan ní bhriain").
    const bool capitalised_surname = q < n && text[tokens[q].begin] >= 'A' && text[tokens[q].begin] <= 'Z';
    auto in_small_letters = [&] {
      return small_word(text, tokens[q], 1) && small_word(text, tokens[first_token_from(tokens, out[k].begin)], 1);
    };
    if (!one_space_after(q, tokens[j].end) || !(capitalised_surname || in_small_letters()) ||
        tokens[q].end - tokens[q].begin < 2 || (capitalised_surname && all_capitals(text, tokens, q)) ||
        particle(q) || function_word(text, tokens[q])) {
      continue;
    }
    const size_t s = span_over(out, q);
    if (s != out.size()) {
      // A name of its own, or a place or firm of this tagging over just the
      // word, joins on.
      if (s <= k || out[s].begin != tokens[q].begin ||
          !(out[s].type == PiiType::kPerson || own_place_or_organisation(out, s, first, tokens[q].begin, tokens[q].end))) {
        continue;
      }
      out[k].end = out[s].end;
      mark_dropped(out, s);
      joined = true;
      continue;
    }
    // A word no span covers: a name list's or the census's, or one no list
    // knows at all.
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + tokens[q].begin;
    const auto stem_end = tokens[q].begin + static_cast<uint32_t>(possessive_stem(b, tokens[q].end - tokens[q].begin));
    const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, Token{tokens[q].begin, stem_end, false, false}));
    if ((m.full & name_categories_) != 0 || listed_surname(text, tokens[q].begin, stem_end) ||
        (common_categories_ != 0 && (m.full | m.part) == 0)) {
      set_span(out, k, {PiiType::kPerson, out[k].begin, stem_end});
    }
  }
  if (joined) drop_marked_spans(out);
}

void PiiTagger::join_hyphenated_names(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  bool joined = false;
  for (size_t k = first; k < out.size(); ++k) {
    // A name, one space, a surname of the lists glued to a hyphen and a name
    // of this tagging right after the hyphen are one name: "rosamund
    // pike-everett", where the decoder named "rosamund" and "everett".
    // (Neither marked to go: mark_dropped().)
    // (The bytes asked first, a hyphen right before the next name: most
    // names have none, and the token's search is a call.)
    if (const PiiSpan& span = out[k]; span.type == PiiType::kPerson && span.end > span.begin && k + 1 < out.size() &&
                                      out[k + 1].type == PiiType::kPerson && out[k + 1].end > out[k + 1].begin &&
                                      span.end + 1 < text.size() && text[span.end] == ' ' &&
                                      out[k + 1].begin > span.end + 2 && text[out[k + 1].begin - 1] == '-') {
      const size_t w = first_token_from(tokens, span.end + 1);
      if (w + 2 < tokens.size() && tokens[w].begin == span.end + 1 && !tokens[w].newline_before &&
          tokens[w].end - tokens[w].begin >= 2 && glued_hyphen(text, tokens, w + 1) &&
          out[k + 1].begin == tokens[w + 2].begin && listed_surname(text, tokens[w].begin, tokens[w].end)) {
        out[k].end = out[k + 1].end;
        mark_dropped(out, k + 1);
        joined = true;
        continue;
      }
    }
    // A name, one space, an Arabic surname's article glued by a hyphen to
    // a word of three letters or more: one name ("khalid al-mutairi", where
    // the name stopped before the article), or with a name of this tagging
    // over just that word. (The bytes asked first: "al-" or "el-".)
    if (const PiiSpan& span = out[k]; span.type == PiiType::kPerson && span.end > span.begin &&
                                      span.end + 5 < text.size() && text[span.end] == ' ' &&
                                      text[span.end + 3] == '-' && (text[span.end + 2] | 0x20) == 'l' &&
                                      ((text[span.end + 1] | 0x20) == 'a' || (text[span.end + 1] | 0x20) == 'e')) {
      const size_t w = first_token_from(tokens, span.end + 1);
      if (w + 2 < tokens.size() && tokens[w].begin == span.end + 1 && tokens[w].end == span.end + 3 &&
          !tokens[w].newline_before && glued_hyphen(text, tokens, w + 1) && tokens[w + 2].end - tokens[w + 2].begin >= 3 &&
          opens_with_a_letter(text.substr(tokens[w + 2].begin, tokens[w + 2].end - tokens[w + 2].begin))) {
        const bool named_after = k + 1 < out.size() && out[k + 1].begin < tokens[w + 2].end;
        if (!named_after || (out[k + 1].type == PiiType::kPerson && out[k + 1].begin == tokens[w + 2].begin &&
                             out[k + 1].end == tokens[w + 2].end)) {
          if (named_after) mark_dropped(out, k + 1);
          out[k].end = tokens[w + 2].end;
          joined = true;
          continue;
        }
      }
    }
    // A place or firm of this tagging over one word, glued by a hyphen to a
    // name of it right after: one name ("Cassius Montgomery-Reid", where
    // the decoder read "Montgomery" as the town).
    if (const PiiSpan& span = out[k];
        k + 1 < out.size() && span.end > span.begin && span.end + 1 < text.size() && text[span.end] == '-' &&
        out[k + 1].type == PiiType::kPerson && out[k + 1].begin == span.end + 1 &&
        own_place_or_organisation(out, k, first, span.begin, span.end) &&
        std::memchr(text.data() + span.begin, ' ', span.end - span.begin) == nullptr &&
        is_word_byte(static_cast<unsigned char>(text[span.end - 1]))) {
      out[k] = {PiiType::kPerson, span.begin, out[k + 1].end};
      mark_dropped(out, k + 1);
      joined = true;
      continue;
    }
    // (The decoder's span may hold the hyphen: "Anne-" and "Marie".)
    const PiiSpan& span = out[k];
    const bool holds_it = span.end - span.begin >= 2 && text[span.end - 1] == '-';
    if (span.type != PiiType::kPerson || span.end + 2 > text.size() || (!holds_it && text[span.end] != '-')) continue;
    const uint32_t at = holds_it ? span.end : span.end + 1;  // the word after the hyphen
    const size_t j = first_token_from(tokens, at);
    if (j >= tokens.size() || tokens[j].begin != at || !is_word_byte(static_cast<unsigned char>(text[at])) ||
        (text[at] >= '0' && text[at] <= '9')) {
      continue;
    }
    if (k + 1 < out.size() && out[k + 1].begin == at) {
      // (A place or firm of this tagging over just a capitalised surname
      // after the hyphen is the name's too: "Christian Bale-Smith".)
      const bool surname = own_place_or_organisation(out, k + 1, first, at, tokens[j].end) && text[at] >= 'A' &&
                           text[at] <= 'Z' && listed_surname(text, at, tokens[j].end);
      if (out[k + 1].type != PiiType::kPerson && !surname) continue;
      out[k].end = out[k + 1].end;
      mark_dropped(out, k + 1);
      joined = true;
    } else if (k + 1 == out.size() || out[k + 1].begin >= tokens[j].end) {
      const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[j]));
      // (Or a capitalised surname of the lists or the census, whatever
      // else they know it as: "Christian Bale-Smith"; in small letters
      // after a name in small letters of two words or more, a last names'
      // list's or the census's word, whatever else it is, or a word of
      // three letters or more that no list knows at all: "bartholomew
      // achterberg-smit", "beatrix holloway-finch";
      // after a name of one word in small letters that the last names' or
      // the census's lists know, such a word: "under the name
      // vasquez-lindgren".)
      const bool capitalised = text[at] >= 'A' && text[at] <= 'Z';
      const bool long_enough = tokens[j].end - tokens[j].begin >= 2;
      bool surname = capitalised && long_enough && listed_surname(text, at, tokens[j].end);
      if (!capitalised && long_enough && text[span.begin] >= 'a' && text[span.begin] <= 'z') [[unlikely]] {
        if (std::memchr(text.data() + span.begin, ' ', span.end - span.begin) != nullptr) {
          const Gazetteer::Match all = gazetteer_.lookup_all(word_hash(text, tokens[j]));
          surname = (m.full & last_name_categories_) != 0 || listed_surname(text, at, tokens[j].end) ||
                    (tokens[j].end - tokens[j].begin >= 3 && (all.full | all.part) == 0);
        } else if (!holds_it) {
          surname = listed_surname(text, at, tokens[j].end) && listed_surname(text, span.begin, span.end);
        }
      }
      if (((m.full & first_name_categories_) != 0 && (m.full & common_categories_) == 0) || surname ||
          second_syllable_of_a_given_name(text, span, at - 1, tokens[j])) {
        set_span(out, k, {PiiType::kPerson, out[k].begin, tokens[j].end});
      }
    }
  }
  if (joined) drop_marked_spans(out);
}

namespace {

// Whether the bytes [begin, end) are a syllable of a given name written as
// Korean and Chinese ones are ("Hyun", "woo", "Mei", "Ling"): `min` to
// `max` ASCII letters, small but for the first, which is a capital where
// `capital` asks for one.
bool romanised_syllable(std::string_view text, uint32_t begin, uint32_t end, size_t min, size_t max, bool capital) {
  if (end - begin < min || end - begin > max) return false;
  const char c = text[begin];
  if (capital ? (c < 'A' || c > 'Z') : (c < 'a' || c > 'z')) return false;
  for (uint32_t k = begin + 1; k < end; ++k) {
    if (text[k] < 'a' || text[k] > 'z') return false;
  }
  return true;
}

// The syllables of given names written as Korean ones are in the Revised
// Romanisation and the older spellings ("Hyun-woo", "Seo-yeon", "Kyung-ho")
// and as Chinese ones are with a hyphen, as Taiwan writes them ("Chia-hui",
// "Hsiao-mei").
constexpr WordSet kGivenNameSyllables(std::array<std::string_view, 158>{
    "ah",    "bin",   "bo",     "bok",    "beom",   "bum",   "byung",  "byeong", "chae",  "chan",  "chang", "cheol",
    "chul",  "chun",  "da",     "dae",    "do",     "dong",  "doo",    "eun",    "gi",    "ki",    "gil",   "gyu",
    "kyu",   "gyeong", "kyung", "ha",     "hae",    "hak",   "han",    "hee",    "heon",  "ho",    "hoon",  "hun",
    "hwa",   "hwan",  "hye",    "hyo",    "hyuk",   "hyeok", "hyun",   "hyeon",  "il",    "in",    "ja",    "jae",
    "jeong", "jung",  "ji",     "jin",    "jo",     "jong",  "joo",    "ju",     "jun",   "joon",  "kwang", "gwang",
    "mi",    "min",   "myung",  "myeong", "na",     "nam",   "ok",     "pil",    "ra",    "rae",   "ri",    "rim",
    "rin",   "sang",  "seo",    "seok",   "suk",    "seon",  "sun",    "seong",  "sung",  "seung", "shin",  "sin",
    "sik",   "so",    "sol",    "soo",    "su",     "sook",  "tae",    "taek",   "ung",   "woo",   "woong", "won",
    "ye",    "yeon",  "yeong",  "young",  "yoon",   "yun",   "yong",   "yu",     "yul",   "yeol",  "chia",  "chih",
    "chien", "ching", "fang",   "feng",   "hao",    "hsiang", "hsiao", "hsin",   "hsiu",  "hsuan", "hua",   "hui",
    "hung",  "jen",   "kai",    "kuan",   "li",     "lin",   "ling",   "mei",    "ming",  "pei",   "ping",  "shan",
    "sheng", "shih",  "shu",    "ting",   "tsung",  "tzu",   "wei",    "wen",    "yi",    "ying",  "yuan",  "xiao",
    "xin",   "yan",   "jia",    "jing",   "qing",   "hong",  "lan",    "lei",    "ning",  "wan",   "zhi",   "zhen",
    "hai",   "jie"});

}  // namespace

void PiiTagger::add_hyphenated_given_names(std::string_view text, std::vector<PiiSpan>& out, size_t first,
                                           bool mixed) const {
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  bool changed = false;
  // The hyphens between two letters, found in the bytes (few texts hold
  // one), each then read as a token.
  for (const char* at = text.data(); (at = static_cast<const char*>(std::memchr(at, '-', text.data() + text.size() - at)));
       ++at) {
    const auto p = static_cast<uint32_t>(at - text.data());
    if (p == 0 || p + 1 >= text.size() || (text[p - 1] | 0x20) < 'a' || (text[p - 1] | 0x20) > 'z' ||
        (text[p + 1] | 0x20) < 'a' || (text[p + 1] | 0x20) > 'z') {
      continue;
    }
    const size_t h = first_token_from(tokens, p);
    if (h == 0 || h + 1 >= n || !glued_hyphen(text, tokens, h)) continue;
    const Token &a = tokens[h - 1], &b = tokens[h + 1];
    // (The name's first syllable opens a word: not "anti-war" of
    // "re-anti-war", nor "3-day"; the second ends it: not "Yu-Gi-Oh".)
    if (glued_to_the_one_before(tokens, h - 1) || glued_hyphen(text, tokens, h + 2)) continue;
    // (In text with capitals, syllables in small letters too, as a phone
    // types them, "Tell hyun-woo": below, a given name's alone.)
    const bool capitalised = romanised_syllable(text, a.begin, a.end, 2, 6, mixed);
    if ((!capitalised && !(mixed && romanised_syllable(text, a.begin, a.end, 2, 6, false))) ||
        !(romanised_syllable(text, b.begin, b.end, 2, 6, false) ||
          (mixed && capitalised && romanised_syllable(text, b.begin, b.end, 2, 6, true)))) {
      continue;
    }
    // A surname of the lists after syllables of up to four and five
    // letters, the first no word the everyday lists know, as "mid" of
    // "Mid-term Grant" and "long" of "long-run phillips" are, a first
    // name's too. Or no surname, where both syllables are those of a given
    // name, differ and are not both everyday words ("Tell Hyun-woo", "my
    // friend Seo-yeon", "Min-jun"; not "Pre-war", "Ha-ha", "a sin-bin").
    const bool surname_after = capitalised && h + 2 < n && a.end - a.begin <= 4 && b.end - b.begin <= 5 &&
                               one_blank_after(text, tokens, h + 2) &&
                               (!mixed || (text[tokens[h + 2].begin] >= 'A' && text[tokens[h + 2].begin] <= 'Z')) &&
                               listed_surname(text, tokens[h + 2].begin, tokens[h + 2].end) &&
                               !(glued_to_the_one_before(tokens, h + 3) && mark_at(text, tokens, h + 3, '-')) &&
                               (gazetteer_.lookup(word_hash(text, a)).full & common_categories_) == 0;
    auto everyday_syllable = [&](const Token& t) {
      return (gazetteer_.lookup(word_hash(text, t)).full & common_categories_) != 0;
    };
    const bool given_name_alone = !surname_after && kGivenNameSyllables.contains(text, a) &&
                                  kGivenNameSyllables.contains(text, b) && word_hash(text, a) != word_hash(text, b) &&
                                  !(everyday_syllable(a) && everyday_syllable(b));
    if (!surname_after && !given_name_alone) continue;
    // (After a given name alone, a surname of the lists that is itself a
    // syllable of the same case, an everyday word too, with no hyphen
    // glued after it: "Evaluate the essay by jun-ho park", "Reply to
    // Seo-yeon Park"; not "Ji-hoon Kim-Lee".)
    const bool syllable_surname_after =
        given_name_alone && h + 2 < n && one_blank_after(text, tokens, h + 2) &&
        romanised_syllable(text, tokens[h + 2].begin, tokens[h + 2].end, 2, 5,
                           text[a.begin] >= 'A' && text[a.begin] <= 'Z') &&
        listed_surname(text, tokens[h + 2].begin, tokens[h + 2].end) &&
        !(glued_to_the_one_before(tokens, h + 3) && mark_at(text, tokens, h + 3, '-'));
    const size_t last = surname_after || syllable_surname_after ? h + 2 : h + 1;
    // The spans of this tagging over the words, names, places or firms
    // that lie within them, become one name; a span found before tagging,
    // or one that runs past them, leaves them as they are.
    const PiiSpan name{PiiType::kPerson, a.begin, tokens[last].end};
    std::array<size_t, 4> over{};  // the spans over the four tokens, each once
    size_t spans = 0;
    bool fits = true;
    for (size_t t = h - 1; t <= last && fits; ++t) {
      const size_t k = span_over(out, t);
      if (k == out.size() || std::find(over.begin(), over.begin() + spans, k) != over.begin() + spans) continue;
      fits = k >= first && out[k].begin >= name.begin && out[k].end <= name.end &&
             (out[k].type == PiiType::kPerson || out[k].type == PiiType::kOrganization ||
              out[k].type == PiiType::kLocation);
      over[spans++] = k;
    }
    if (!fits) continue;
    if (spans == 0) {
      add_span(out, name);
    } else {
      set_span(out, over[0], name);
      for (size_t k = 1; k < spans; ++k) mark_dropped(out, over[k]);
    }
    changed = true;
  }
  if (!changed) return;
  drop_marked_spans(out);
  sort_by_begin(out, first);
}

void PiiTagger::split_name_titles(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  auto word_byte = [&](uint32_t b) { return is_word_byte(static_cast<unsigned char>(text[b])); };
  const size_t before = out.size();
  for (size_t s = first; s < before; ++s) {
    const PiiType type = out[s].type;
    if (type != PiiType::kPerson && type != PiiType::kPrefix && type != PiiType::kTitle) continue;
    // Read from the text, not the tokens: most names open with no title, and
    // finding a span's token is a search.
    const uint32_t begin = out[s].begin, end = out[s].end;
    uint32_t title_end = begin;
    while (title_end < end && word_byte(title_end)) ++title_end;
    // (A letter alone is an initial: "S. C. Abbott".)
    if (title_end - begin < 2 || !is_title(gazetteer_.lookup(word_hash(text, Token{begin, title_end, false, false})))) continue;
    uint32_t rest = title_end;
    auto past_blanks = [&] {
      while (rest < end && (text[rest] == ' ' || text[rest] == '\t' || text[rest] == '\r')) ++rest;
    };
    past_blanks();
    if (rest < end && text[rest] == '.') {  // the title's stop
      title_end = ++rest;
      past_blanks();
    }
    if (rest == end || !word_byte(rest)) continue;  // (a name runs over no line break)
    uint32_t name_end = end;
    if (type != PiiType::kPerson) {
      // The capitalised words after a title that the tagger typed a title
      // with it are a name ("Mrs Daisy"; "Mrs. Fairfax" of "Mrs. Fairfax of
      // her employer"), of which a name right after may be the rest ("Mrs
      // Daisy" and "Okafor").
      name_end = rest;
      while (name_end < end && text[name_end] >= 'A' && text[name_end] <= 'Z') {
        uint32_t word_end = name_end;
        while (word_end < end && (word_byte(word_end) || text[word_end] == '-' || text[word_end] == '\'')) ++word_end;
        name_end = word_end;
        if (name_end + 1 < end && text[name_end] == ' ') ++name_end;
      }
      while (name_end > rest && text[name_end - 1] == ' ') --name_end;
      if (name_end == rest) continue;
    }
    set_span(out, s, {type, begin, title_end});
    if (type != PiiType::kPerson && name_end == end && s + 1 < before && out[s + 1].type == PiiType::kPerson &&
        out[s + 1].begin == end + 1 && text[end] == ' ') {
      set_span(out, s + 1, {PiiType::kPerson, rest, out[s + 1].end});
      continue;
    }
    out.push_back({PiiType::kPerson, rest, name_end});
  }
  if (out.size() > before) {
    sort_by_begin(out, first);
  }
}

namespace {

// Whether `span` (one word) opens with two capital letters and holds a
// small one: an acronym's plural, a unit, a formula or an identifier
// ("DVDs", "MHz", "HCl", "ATPase", "SQLAlchemy"), not a name ("McKay" and
// "DeShawn" have a small second letter).
bool capitals_then_small_letters(std::string_view text, const PiiSpan& span) {
  if (span.end - span.begin < 3) return false;
  auto capital = [&](uint32_t b) { return text[b] >= 'A' && text[b] <= 'Z'; };
  if (!capital(span.begin) || !capital(span.begin + 1)) return false;
  for (uint32_t b = span.begin + 2; b < span.end; ++b) {
    if (text[b] >= 'a' && text[b] <= 'z') return true;
  }
  return false;
}

}  // namespace

bool PiiTagger::genus_of_a_species(std::string_view text, const PiiSpan& span) const {
  // (The cheap tests first: most names are followed by no such word.)
  uint32_t end = span.end + 1;
  if (end >= text.size() || text[span.end] != ' ') return false;
  while (end < text.size() && text[end] >= 'a' && text[end] <= 'z') ++end;
  if (end < text.size() && is_word_byte(static_cast<unsigned char>(text[end]))) return false;
  const std::string_view epithet = text.substr(span.end + 1, end - span.end - 1);
  if (epithet.size() < 6 || !(epithet.ends_with("us") || epithet.ends_with("is") || epithet.ends_with("ens") ||
                               epithet.ends_with("um") || epithet.ends_with("ae"))) {
    return false;
  }
  const Token genus{span.begin, span.end, false, false};
  if (all_capitals(text, genus)) return false;
  const Gazetteer::Match e = gazetteer_.lookup(word_hash(text, Token{span.end + 1, end, false, false}));
  if ((e.full | e.part) != 0) return false;
  const Gazetteer::Match g = gazetteer_.lookup(word_hash(text, genus));
  return ((g.full | g.part) & name_categories_) == 0;
}

bool PiiTagger::titles_a_work(std::string_view text, const PiiSpan& span) const {
  if (span.begin > 0) {
    const char before = text[span.begin - 1];
    const bool after_a_stop = before == ' ' && span.begin >= 2 &&
                              (text[span.begin - 2] == '.' || text[span.begin - 2] == '!' || text[span.begin - 2] == '?');
    if (before != '\n' && !after_a_stop) return false;
  }
  const Tokens tokens = tagger_tokens();
  const size_t j = first_token_from(tokens, span.end);
  if (j + 3 >= tokens.size() || tokens[j].begin != span.end + 1 ||
      !(token_is(text, tokens[j], "is") || token_is(text, tokens[j], "was")) ||
      !(token_is(text, tokens[j + 1], "a") || token_is(text, tokens[j + 1], "an"))) {
    return false;
  }
  constexpr size_t kMaxWordsBefore = 7;  // "a 2001 American action-comedy film"
  for (size_t k = j + 2; k < tokens.size() && k <= j + 2 + kMaxWordsBefore && !tokens[k].newline_before; ++k) {
    const auto c = static_cast<unsigned char>(text[tokens[k].begin]);
    if (!is_word_byte(c) && c != '-') return false;
    if (!kWorks.contains(text, tokens[k])) continue;
    if (k + 1 == tokens.size() || tokens[k + 1].newline_before) return true;
    const auto after = static_cast<unsigned char>(text[tokens[k + 1].begin]);
    return !is_word_byte(after) ? after != '-' : kAfterAWork.contains(text, tokens[k + 1]);
  }
  return false;
}

void PiiTagger::drop_words_naming_no_one(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  // Whether `span` follows a relative one space after each word ("my son
  // Caspian"): a name, whatever else the word is.
  auto after_a_relative = [&](const PiiSpan& span) {
    const Tokens tokens = tagger_tokens();
    const size_t j = first_token_from(tokens, span.begin);
    return j >= 2 && j < tokens.size() && tokens[j].begin == span.begin && one_blank_after(text, tokens, j) &&
           one_blank_after(text, tokens, j - 1) && kRelatives.contains(text, tokens[j - 1]) &&
           kPossessiveDeterminers.contains(text, tokens[j - 2]);
  };
  // Chat's abbreviations, which open a line or a request capitalised as a
  // name does ("Pls summarize:", "Thx: for the help") and name no one.
  // (Not "ty", a name too: "Ty did not pull".)
  static constexpr WordSet kChatAbbreviations(std::array<std::string_view, 17>{
      "pls", "plz", "thx", "thnx", "tldr", "btw", "fyi", "imo", "imho", "asap", "lol", "omg", "idk", "tbh", "afaik",
      "iirc", "brb"});
  auto one_word = [&](const PiiSpan& span) {
    for (uint32_t b = span.begin; b < span.end; ++b) {
      if (!is_word_byte(static_cast<unsigned char>(text[b]))) return false;
    }
    return true;
  };
  // A capital and the variables of logic: "x", maybe then "y" or "z"
  // ("Px", "Lxy", "Mxyz": predicates; not "Ty", "Cy" nor "Izzy").
  auto predicate = [&](const PiiSpan& span) {
    const std::string_view word = text.substr(span.begin, span.end - span.begin);
    return word.size() >= 2 && word.size() <= 4 && word[0] >= 'A' && word[0] <= 'Z' && word[1] == 'x' &&
           std::all_of(word.begin() + 2, word.end(), [](char c) { return c >= 'x' && c <= 'z'; });
  };
  // A word of seven letters or more with an ending of the sciences' nouns
  // that no name has ("Carboxylation", "Apoptosis", "Papillomaviruses",
  // "Constructivism"), where no list knows it: a term capitalised where a
  // sentence or an answer opens, which the decoder read as a name.
  auto term_of_a_science = [&](const PiiSpan& span) {
    static constexpr std::array<std::string_view, 13> kEndings = {"ation", "isation", "osis",   "itis",  "ysis",
                                                                  "ism",   "ology",   "ologies", "ectomy", "otomy",
                                                                  "virus", "viruses", "phobia"};
    const std::string_view word = text.substr(span.begin, span.end - span.begin);
    if (word.size() < 7) return false;
    const bool ending = std::any_of(kEndings.begin(), kEndings.end(), [&](std::string_view e) {
      return word.size() > e.size() && std::equal(e.begin(), e.end(), word.end() - static_cast<ptrdiff_t>(e.size()),
                                                  [](char a, char b) { return a == (b | 0x20); });
    });
    return ending && !gazetteer_.knows(word_hash(text, Token{span.begin, span.end, false, false}));
  };
  size_t kept = first;
  for (size_t s = first; s < out.size(); ++s) {
    const PiiSpan& span = out[s];
    const bool named = names_by_a_proper_name(span.type);
    if (named && (titles_a_work(text, span) || holiday(text, span.begin, span.end))) continue;
    if (!named || !one_word(span)) {
      const std::string_view value = text.substr(span.begin, span.end - span.begin);
      const bool no_one = (span.type == PiiType::kLocation && union_of_states(value)) ||
                          ((span.type == PiiType::kPerson || span.type == PiiType::kOrganization ||
                            span.type == PiiType::kStreetAddress) &&
                           law_or_war(value));
      if (!no_one) out[kept++] = span;
      continue;
    }
    const Token word{span.begin, span.end, false, false};
    bool no_one = capitals_then_small_letters(text, span) || genus_of_a_species(text, span) ||
                  (kPlanets.contains(text, word) && !all_capitals(text, word)) || predicate(span) ||
                  (span.type == PiiType::kPerson && kChatAbbreviations.contains(text, word));
    if (!no_one && span.type == PiiType::kPerson) {
      if (term_of_a_science(span)) {
        no_one = true;
      } else if (kNeverLastInAName.contains(text, word) || kNeverInAName.contains(text, word)) {
        no_one = !all_capitals(text, word);
      } else if (month_or_weekday(text, word)) {
        no_one = (gazetteer_.lookup(word_hash(text, word)).full & name_categories_) == 0;  // not "April", "June"
      } else if ((span.begin == 0 || text[span.begin - 1] == '\n') && span.end + 2 < text.size() && text[span.end] == ':') {
        // A label that opens its line, before a name ("Attendees: Priya
        // Raman") or a word only the everyday lists know, speaks no line
        // of a dialogue.
        const bool name_after = s + 1 < out.size() && out[s + 1].type == PiiType::kPerson &&
                                out[s + 1].begin == span.end + 2 && text[span.end + 1] == ' ';
        no_one = name_after || everyday(gazetteer_.lookup(word_hash(text, word)));
      } else if (proper_adjective_categories_ != 0) {
        // (The small table of the hidden lists first: few names are in it.)
        const uint64_t hash = word_hash(text, word);
        if ((gazetteer_.lookup_hidden(hash).full & proper_adjective_categories_) != 0) {
          const Gazetteer::Match m = gazetteer_.lookup(hash);
          no_one = ((m.full | m.part) & name_categories_) == 0 && !after_a_relative(span);
        }
      }
    }
    if (!no_one) out[kept++] = span;
  }
  if (kept != out.size()) {
    out.resize(kept);
    reset_cover();
  }
}

void PiiTagger::type_continents(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  for (size_t s = first; s < out.size(); ++s) {
    PiiSpan& span = out[s];
    if (span.type != PiiType::kPerson && span.type != PiiType::kOrganization) continue;
    uint32_t last = span.end;  // the span's last word, [last, span.end)
    while (last > span.begin && is_word_byte(static_cast<unsigned char>(text[last - 1]))) --last;
    if (!kRegions.contains(text, Token{last, span.end, false, false})) continue;
    bool parts_only = true;  // the words before it name a part of it
    for (size_t t = first_token_from(tokens, span.begin); t < tokens.size() && tokens[t].end <= last; ++t) {
      const auto c = static_cast<unsigned char>(text[tokens[t].begin]);
      if (is_word_byte(c) ? !kPartsOfAContinent.contains(text, tokens[t]) : c != '-' && c != '.') {
        parts_only = false;
        break;
      }
    }
    if (parts_only) span.type = PiiType::kLocation;
  }
}

void PiiTagger::add_names_of_states(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const {
  const Tokens tokens = tagger_tokens();
  // Words that qualify a polity before it: "Democratic Republic", "People's
  // Republic", "United Kingdom", "Islamic Republic".
  static constexpr WordSet kQualifiers(std::array<std::string_view, 10>{
      "democratic", "people's", "federal", "islamic", "socialist", "united", "arab", "plurinational",
      "bolivarian", "co-operative"});
  static constexpr WordSet kCompassPoints(std::array<std::string_view, 4>{"north", "south", "east", "west"});
  // Token t, one blank before token t + 1 on its line, as the words here are
  // written: in text with capitals capitalised.
  auto before_on_its_line = [&](size_t t) {
    const auto c = static_cast<unsigned char>(text[tokens[t].begin]);
    return !tokens[t + 1].newline_before && tokens[t].end + 1 == tokens[t + 1].begin &&
           (!mixed || (c >= 'A' && c <= 'Z'));
  };
  bool dropped = false;
  for (size_t k = first; k < out.size(); ++k) {
    if (out[k].type != PiiType::kLocation || out[k].end == out[k].begin) continue;
    const size_t j = first_token_from(tokens, out[k].begin);
    if (j == 0 || j >= tokens.size() || tokens[j].begin != out[k].begin) continue;
    size_t from = j;  // the first token of the state's name
    if (before_on_its_line(j - 1) && kCompassPoints.contains(text, tokens[j - 1])) {
      from = j - 1;
    } else {
      size_t t = j - 1;
      const bool the = token_is(text, tokens[t], "the") && !tokens[t + 1].newline_before && t >= 2;
      if (the) --t;
      if (t >= 1 && token_is(text, tokens[t], "of") && !tokens[t + 1].newline_before &&
          before_on_its_line(t - 1) && kPolities.contains(text, tokens[t - 1])) {
        from = t - 1;
        for (size_t q = 0; q < 2 && from >= 1 && before_on_its_line(from - 1) &&
                           kQualifiers.contains(text, tokens[from - 1]);
             ++q) {
          --from;
        }
      }
    }
    if (from == j) continue;
    // The words taken: free, or under spans of this tagging inside them.
    bool free = true;
    for (size_t t = from; t < j && free; ++t) {
      const size_t c = span_over(out, t);
      free = c == out.size() || (c >= first && c != k && out[c].begin >= tokens[from].begin && out[c].end <= out[k].begin);
    }
    if (!free) continue;
    for (size_t t = from; t < j; ++t) {
      const size_t c = span_over(out, t);
      if (c != out.size()) {
        mark_dropped(out, c);
        dropped = true;
      }
    }
    set_span(out, k, {PiiType::kLocation, tokens[from].begin, out[k].end});
  }
  if (dropped) drop_marked_spans(out);
}

void PiiTagger::type_polities(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  for (size_t s = first; s < out.size(); ++s) {
    PiiSpan& span = out[s];
    if (span.type != PiiType::kPerson) continue;
    uint32_t last = span.end;  // the span's last word, [last, span.end)
    while (last > span.begin && is_word_byte(static_cast<unsigned char>(text[last - 1]))) --last;
    if (last > span.begin && kPolities.contains(text, Token{last, span.end, false, false})) {
      span.type = PiiType::kOrganization;
    }
  }
}

void PiiTagger::type_places_ending_in_a_surname(std::string_view text, std::vector<PiiSpan>& out, size_t first,
                                                bool mixed) const {
  const Tokens tokens = tagger_tokens();
  const uint16_t places = static_cast<uint16_t>(place_categories_ | world_city_categories_);
  for (size_t s = first; s < out.size(); ++s) {
    PiiSpan& span = out[s];
    if (span.type != PiiType::kLocation) continue;
    const size_t from = first_token_from(tokens, span.begin);
    size_t to = from;
    while (to + 1 < tokens.size() && tokens[to + 1].begin < span.end) ++to;
    // Whether the place stands where places do, as towns named after people
    // are: after "in" or "near", or in an address, after a place or an
    // address of this tagging ("11 Paso Rivero 7301, Tomas Gomensoro", "Apt.
    // 609\n Puntas de Valdés") or before its postcode on its line.
    auto in_a_places_stead = [&] {
      if (from > 0 && (token_is(text, tokens[from - 1], "in") || token_is(text, tokens[from - 1], "near"))) return true;
      if (s > first && (out[s - 1].type == PiiType::kStreetAddress || out[s - 1].type == PiiType::kLocation)) return true;
      return to + 1 < tokens.size() && !tokens[to + 1].newline_before && is_number(text, tokens, to + 1);
    };
    // A place of one word that only a given-name list knows is the person
    // ("anneliese works hard", "However, Bea then"), unless it stands where
    // places do, or after "of" or "the" ("the Decameron").
    if (to == from && tokens[from].begin == span.begin && tokens[from].end == span.end &&
        only_a_given_name(text, from) && !in_a_places_stead() &&
        !(from > 0 && (token_is(text, tokens[from - 1], "of") || token_is(text, tokens[from - 1], "the")))) {
      span.type = PiiType::kPerson;
      continue;
    }
    if (to == from || tokens[to].end != span.end) continue;
    // The surname: the last word, or the first part of a double-barrelled
    // one ("Lopez-Garcia", "O'Connor-Healy": a hyphen is a token).
    const bool double_barrelled = to - from >= 3 && tokens[to - 1].end - tokens[to - 1].begin == 1 &&
                                  text[tokens[to - 1].begin] == '-' && tokens[to - 2].end == tokens[to - 1].begin &&
                                  tokens[to - 1].end == tokens[to].begin;
    const size_t surname = double_barrelled ? to - 2 : to;
    if (surname - from > 2) continue;
    // (A surname's particle in small letters may stand before the surname:
    // "Anouk de Vries".)
    bool words = true, particle = false;
    for (size_t k = from; k <= surname && words; ++k) {
      const std::string_view w = text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin);
      const bool apart = k == from || (tokens[k].begin == tokens[k - 1].end + 1 && text[tokens[k - 1].end] == ' ');
      if (k > from && k < surname && !particle && apart && w[0] >= 'a' && w[0] <= 'z' &&
          kSurnameParticles.contains(text, tokens[k])) {
        particle = true;
        continue;
      }
      words = w.size() >= 2 &&
              (mixed ? opens_with_a_capital(w) && !all_capitals(text, tokens[k]) : w[0] >= 'a' && w[0] <= 'z') && apart;
    }
    // (A word the everyday lists know first is a place's: "Den Haag".)
    const Gazetteer::Match first_word = gazetteer_.lookup(word_hash(text, tokens[from]));
    if (!words || (first_word.full & common_categories_) != 0) continue;
    // (A surname of a Gaelic shape needs no list: "Siobhán O'Connor-Healy",
    // a place after "a letter from". After a first name a list knows, or a
    // given name only that list knows, the census's surnames count, and a
    // surname that is a town's name too, no country's or state's: "Gregg
    // Pau", "Yuki Nakamura" below "Clean up these records:".)
    const Gazetteer::Match last = gazetteer_.lookup_all(word_hash(text, tokens[surname]));
    const bool gaelic = gaelic_surname(text.substr(tokens[surname].begin, tokens[surname].end - tokens[surname].begin));
    const bool after_a_first_name = (first_word.full & first_name_categories_) != 0 || only_a_given_name(text, from);
    if (!mixed && !after_a_first_name) continue;
    // (After a first name of the lists of three letters or more, a surname
    // of four letters or more that no list knows in full, or only a
    // last-name list in part ("de Vries"), counts too: "Anouk de Vries",
    // taken for a place after a comma. Neither that nor a particle in a
    // place's stead: "in Ming Tiao".)
    const bool unknown_surname = after_a_first_name && last.full == 0 && (last.part & ~last_name_categories_) == 0 &&
                                 tokens[from].end - tokens[from].begin >= 3 &&
                                 tokens[surname].end - tokens[surname].begin >= 4 && (first_word.full & places) == 0;
    if ((particle || unknown_surname) && in_a_places_stead()) continue;
    const bool listed = (last.full & last_name_categories_) != 0 || unknown_surname ||
                        (after_a_first_name && listed_surname(text, tokens[surname].begin, tokens[surname].end));
    const bool town_too = after_a_first_name && (last.full & (country_categories_ | state_categories_)) == 0;
    if ((!listed && !gaelic) || ((last.full & places) != 0 && !town_too)) continue;
    if (listed_place(text, span)) continue;
    span.type = PiiType::kPerson;
  }
}

namespace {

// The labels of a field that holds a person's name and never a firm's
// (a letter's "Attn:", a record's "Patient:", a form's "Tenant:"), in any
// case. Not "From", "To", "Client" or "Owner": firms are those too.
constexpr WordSet kPersonOnlyLabels(std::array<std::string_view, 17>{
    "attn", "attention", "patient", "tenant", "applicant", "candidate", "student", "witness", "defendant", "plaintiff",
    "physician", "guest", "attendee", "beneficiary", "insured", "employee", "assignee"});

// The words before a place or a group of people rather than a person: a
// place's prepositions and the determiners.
constexpr WordSet kBeforePlacesAndGroups(std::array<std::string_view, 17>{
    "in", "at", "from", "of", "near", "on", "into", "by", "across", "around", "outside", "inside", "throughout", "the",
    "an", "these", "those"});

// Whether capitalised word `w` is a particle of an Irish surname, written
// as a word of its own: "Ní Bhriain", "Nic Giolla", "Ó Súilleabháin".
bool irish_particle(std::string_view w) {
  static constexpr std::array<std::string_view, 7> kParticles = {"N\u00ed", "Nic", "\u00d3", "U\u00ed",
                                                                 "Mac", "Mhic", "Ua"};
  return std::find(kParticles.begin(), kParticles.end(), w) != kParticles.end();
}

}  // namespace

void PiiTagger::type_firms_of_a_full_name(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  const auto not_a_first_name =
      static_cast<uint16_t>(common_categories_ | place_categories_ | world_city_categories_ | company_categories_);
  const auto not_a_surname = static_cast<uint16_t>(common_categories_ | place_categories_ | world_city_categories_ |
                                                   company_categories_ | street_categories_);
  auto capitalised_word = [&](const Token& t) {
    const std::string_view w = text.substr(t.begin, t.end - t.begin);
    return w.size() >= 2 && opens_with_a_capital(w) && !all_capitals(text, t) && !pii_scan::is_group_word(w);
  };
  // Whether the tokens from token `from` to `end` are one to three
  // capitalised_word()s one blank or a hyphen apart, none an organisation's
  // noun, a state's word or a word a company list knows, and marks after
  // them (the decoder's span may hold a closing bracket until the passes
  // trim it).
  auto words_of_a_name = [&](size_t from, uint32_t end) {
    size_t words = 0;
    bool marks = false;
    for (size_t k = from; k < tokens.size() && tokens[k].begin < end; ++k) {
      if (k > from && token_is(text, tokens[k], "-") && tokens[k].begin == tokens[k - 1].end) continue;
      if (!is_word_byte(static_cast<unsigned char>(text[tokens[k].begin]))) {
        marks = true;
        continue;
      }
      if (marks) return false;
      const bool apart = k == from || tokens[k].begin == tokens[k - 1].end ||
                         (tokens[k].begin == tokens[k - 1].end + 1 && text[tokens[k - 1].end] == ' ');
      if (!apart || ++words > 3 || !capitalised_word(tokens[k]) || kOrganisationNouns.contains(text, tokens[k]) ||
          kPolities.contains(text, tokens[k])) {
        return false;
      }
      const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[k]));
      if (((m.full | m.part) & company_categories_) != 0) return false;
    }
    return words > 0;
  };
  // Whether a place's, company's, street's or everyday list knows a word of
  // the tokens from token `from` to `end`.
  auto listed_but_as_names = [&](size_t from, uint32_t end) {
    for (size_t k = from; k < tokens.size() && tokens[k].begin < end; ++k) {
      if ((gazetteer_.lookup_all(word_hash(text, tokens[k])).full & not_a_surname) != 0) return true;
    }
    return false;
  };
  // (A surname of a Gaelic shape, "O'Brien", "McAllister", "MacLeod",
  // names a person after a first name no list knows: "Siobhan O'Brien".)
  for (size_t s = first; s < out.size(); ++s) {
    PiiSpan& span = out[s];
    if (span.type != PiiType::kOrganization && span.type != PiiType::kLocation) continue;
    const size_t from = first_token_from(tokens, span.begin);
    // A firm or place set off by commas after an "I" that opens a sentence
    // or a line is the speaker's name, as a declaration writes it: "I,
    // Cassius Montgomery-Reid, hereby authorise".
    if (from >= 2 && tokens[from].begin == span.begin && token_is(text, tokens[from - 1], ",") &&
        tokens[from - 1].begin == tokens[from - 2].end && token_is(text, tokens[from - 2], "i") &&
        (opens_a_sentence(text, tokens, from - 2) || tokens[from - 2].newline_before) && span.end < text.size() &&
        text[span.end] == ',') {
      span.type = PiiType::kPerson;
      continue;
    }
    // A firm or place after a kPersonOnlyLabels word and its colon that
    // opens its line or follows a bracket, one to three capitalised words
    // none of them an organisation's noun or a company's word, is the
    // person: "(Attn: Kirra Wallace)", "Patient: Oduya".
    if (from >= 2 && tokens[from].begin == span.begin && token_is(text, tokens[from - 1], ":") &&
        tokens[from - 1].begin == tokens[from - 2].end && kPersonOnlyLabels.contains(text, tokens[from - 2]) &&
        (from == 2 || tokens[from - 2].newline_before || token_is(text, tokens[from - 3], "(")) &&
        words_of_a_name(from, span.end)) {
      span.type = PiiType::kPerson;
      continue;
    }
    // A firm or place of one to three capitalised words that no place's,
    // company's, street's or everyday list knows, before "who" or "born": a
    // person ("a birthday card for Dagny, who is turning seven", "more
    // crabs than Monic, who has", "Welcome, Persephone Maeve Callaghan,
    // born 3 March"), as firms and places take "which" or "that". Not
    // after a place's preposition or a determiner, where "who" is of the
    // people before ("two monks from Corfu, who told us", "the Aztecs,
    // who").
    // (The words after the span asked first: most firms and places have
    // neither.)
    if (tokens[from].begin == span.begin && from > 0 && !kBeforePlacesAndGroups.contains(text, tokens[from - 1])) {
      size_t last = from;
      while (last + 1 < tokens.size() && tokens[last + 1].end <= span.end) ++last;
      if (tokens[last].end == span.end &&
          (who_follows(text, tokens, last) || said_of_people_after(text, tokens, last, "born")) &&
          words_of_a_name(from, span.end) && !listed_but_as_names(from, span.end) && !listed_place(text, span)) {
        span.type = PiiType::kPerson;
        continue;
      }
    }
    // A firm or place of words of a name right after a person's "name is"
    // ("my", "his" or "her" before it; "name's") or "under the name" is
    // the person: "My name is Vasquez-Lindgren", "a table under the name
    // Vasquez-Lindgren" (the dev rows' firms of two surnames joined by a
    // hyphen taught the decoder such a name). Not "our name is", a firm's.
    // (The words before asked first: most firms and places have none.)
    if (tokens[from].begin == span.begin && from >= 2) {
      auto is = [&](size_t k, std::string_view w) { return token_is(text, tokens[k], w); };
      const auto persons = [&](size_t k) { return is(k, "my") || is(k, "his") || is(k, "her"); };
      const bool named = ((is(from - 1, "name's") || is(from - 1, "name\u2019s")) && persons(from - 2)) ||
                         (from >= 3 && is(from - 1, "is") && is(from - 2, "name") && persons(from - 3)) ||
                         (from >= 3 && is(from - 1, "name") && is(from - 2, "the") && is(from - 3, "under"));
      if (named && words_of_a_name(from, span.end)) {
        span.type = PiiType::kPerson;
        continue;
      }
      // And after "the family of", a firm of words of a name that no
      // place's list knows: "condolences to the family of Bartholomew
      // Quince" (not "the royal family of Monaco").
      if (from >= 3 && is(from - 1, "of") && is(from - 2, "family") && is(from - 3, "the") &&
          span.type == PiiType::kOrganization && words_of_a_name(from, span.end) && !listed_place(text, span)) {
        span.type = PiiType::kPerson;
        continue;
      }
    }
    // A firm or place of a capitalised word and a capital alone before a
    // stop that ends it (no letter glued after) is a first name and a
    // surname's initial, as reviews and chats sign: "Review by Elspeth M.:
    // 'The staff were lovely.'" (not "Washington D.C."). The word is a
    // first name of the lists or one no place's, company's or everyday
    // list knows ("Country A." is none); the stop goes with the name.
    if (tokens[from].begin == span.begin && from + 1 < tokens.size() && tokens[from + 1].end == span.end &&
        span.end - tokens[from + 1].begin == 1 && text[span.end - 1] >= 'A' && text[span.end - 1] <= 'Z' &&
        tokens[from + 1].begin == tokens[from].end + 1 && text[tokens[from].end] == ' ' && span.end < text.size() &&
        text[span.end] == '.' &&
        (span.end + 1 == text.size() || !is_word_byte(static_cast<unsigned char>(text[span.end + 1]))) &&
        capitalised_word(tokens[from])) {
      const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, tokens[from]));
      if ((m.full & first_name_categories_) != 0 || only_a_given_name(text, from) || (m.full & not_a_first_name) == 0) {
        set_span(out, s, {PiiType::kPerson, span.begin, span.end + 1});
        continue;
      }
    }
    // A firm or place of one word (its parts joined by hyphens) between
    // "the" and "family" is the family's surname: "a card for the
    // Abernathy-Osei family". Not a taxon's Latin plural ("the Rosaceae
    // family"), nor a maker's line of things ("the Intel family of
    // processors").
    if (tokens[from].begin == span.begin && between_the_and_family(text, tokens, from, span.end) &&
        !text.substr(span.begin, span.end - span.begin).ends_with("ae") && words_of_a_name(from, span.end) &&
        std::find(text.begin() + span.begin, text.begin() + span.end, ' ') == text.begin() + span.end) {
      span.type = PiiType::kPerson;
      continue;
    }
    // A firm of a capitalised word and two joined by a hyphen, words of a
    // name (words_of_a_name()), the first one that no place's, company's or
    // everyday list knows, is a first name and a double surname: "my call
    // with Rosamund Pike-Everett", "Gugu Mbatha-Raw". (Firms are named by
    // the double surname alone, "Becker-Shaffer", as the dev rows' are.)
    if (span.type == PiiType::kOrganization && tokens[from].begin == span.begin && from + 3 < tokens.size() &&
        tokens[from + 3].end == span.end && tokens[from + 1].begin == tokens[from].end + 1 &&
        text[tokens[from].end] == ' ' && glued_hyphen(text, tokens, from + 2) && words_of_a_name(from, span.end) &&
        (gazetteer_.lookup_all(word_hash(text, tokens[from])).full & not_a_first_name) == 0) {
      span.type = PiiType::kPerson;
      continue;
    }
    // A firm or place alone on its line, between a label's line ("Ship
    // to:", "Deliver to:") and a line that an address opens, of words of a
    // name (no company's words, words_of_a_name()) that no place's list
    // knows: the addressee ("Ship to:\nFarrukh Tashkentov\n77 Willowbrook
    // Crescent"). (Where a name's line comes between them, the firm's line
    // is the addressee's company: type_company_lines().)
    if (from >= 2 && tokens[from].newline_before && tokens[from].begin == span.begin && mark_at(text, tokens, from - 1, ':') &&
        is_word_byte(static_cast<unsigned char>(text[tokens[from - 2].begin])) && words_of_a_name(from, span.end) &&
        !listed_place(text, span)) {
      size_t next = from;
      while (next < tokens.size() && tokens[next].begin < span.end) ++next;
      const size_t street = next < tokens.size() ? span_over(out, next) : out.size();
      if (next < tokens.size() && tokens[next].newline_before && street != out.size() &&
          out[street].type == PiiType::kStreetAddress && out[street].begin == tokens[next].begin) {
        span.type = PiiType::kPerson;
        continue;
      }
    }
    // A firm or place of a first name, an Irish particle as a word of its
    // own and a capitalised word is the person: "Siobhan Ní Bhriain",
    // "Máire Nic Giolla", "Cormac Ó Súilleabháin" (no firm or place is
    // named so). The first name is one the lists know as such, or one no
    // place's, company's or everyday list knows.
    if (tokens[from].begin == span.begin && from + 2 < tokens.size() && tokens[from + 2].end == span.end &&
        one_blank_after(text, tokens, from + 1) && one_blank_after(text, tokens, from + 2) &&
        irish_particle(text.substr(tokens[from + 1].begin, tokens[from + 1].end - tokens[from + 1].begin)) &&
        capitalised_word(tokens[from]) && capitalised_word(tokens[from + 2])) {
      const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, tokens[from]));
      if ((m.full & first_name_categories_) != 0 || (m.full & not_a_first_name) == 0) {
        span.type = PiiType::kPerson;
        continue;
      }
    }
    if (span.type != PiiType::kOrganization) continue;
    // A firm of one word that is only a given name, right after "from",
    // "to", "with" or "cc", is the person ("an email from Latasha about the
    // budget": the decoder knew no such word). Not elsewhere: brands are
    // given names too ("I work at Uber", "my Acer laptop").
    if (tokens[from].begin == span.begin && tokens[from].end == span.end) {
      if (from == 0 || tokens[from].newline_before ||
          !(token_is(text, tokens[from - 1], "from") || token_is(text, tokens[from - 1], "to") ||
            token_is(text, tokens[from - 1], "with") || token_is(text, tokens[from - 1], "cc"))) {
        continue;
      }
      if (only_a_given_name(text, from)) span.type = PiiType::kPerson;
      continue;
    }
    const size_t to = from + 1;
    if (to >= tokens.size() || tokens[to].end != span.end || tokens[to].begin != tokens[from].end + 1 ||
        text[tokens[from].end] != ' ') {
      continue;
    }
    // (Nor a state or a ruling house, type_polities()'s: "Roman Empire".)
    if (!capitalised_word(tokens[from]) || !capitalised_word(tokens[to]) || kOrganisationNouns.contains(text, tokens[to]) ||
        kPolities.contains(text, tokens[to])) {
      continue;
    }
    const Gazetteer::Match given = gazetteer_.lookup_all(word_hash(text, tokens[from]));
    // (A given name alone counts: "Ayesha Siddiqui".)
    const bool given_name_alone = only_a_given_name(text, from);
    const bool listed_given = (given.full & first_name_categories_) != 0 || given_name_alone;
    const Gazetteer::Match family = gazetteer_.lookup_all(word_hash(text, tokens[to]));
    // (The census's surnames count: "Miles Hunter", "Rusty Banks", which no
    // last-name list knows; after a place's name or a given name alone,
    // not one that is an everyday word too: "Florida Keys", "Bretton
    // Woods".)
    const bool census_word = (family.full & last_name_categories_) == 0 && (family.full & common_categories_) != 0 &&
                             ((given.full & (place_categories_ | world_city_categories_)) != 0 || given_name_alone);
    const bool surname = !census_word && listed_surname(text, tokens[to].begin, tokens[to].end);
    // (A first name that a place or everyday list knows too, before a
    // surname that no company list knows: "Dallas Green and Austin Reed
    // are the new interns", "Austin Reed" a firm.)
    if (listed_given && (given.full & company_categories_) == 0 && surname &&
        ((family.full | family.part) & company_categories_) == 0) {
      span.type = PiiType::kPerson;
      continue;
    }
    // (The family name first, as Chinese names are written: a surname that
    // no other list knows, then a given name of two to four letters that no
    // place's, street's or company's list knows: "Wang Lei", "Chen Wei".
    // Here `given` holds the first word's matches, the family name's.)
    const size_t given_length = tokens[to].end - tokens[to].begin;
    if ((given.full & last_name_categories_) != 0 &&
        (given.full & (not_a_first_name | first_name_categories_ | street_categories_)) == 0 && given_length <= 4 &&
        (family.full & (place_categories_ | world_city_categories_ | street_categories_ | company_categories_)) == 0) {
      span.type = PiiType::kPerson;
      continue;
    }
    // (A full name joined by "and" to a person's full name: "Dallas Green
    // and Austin Reed founded the band", where no last-name list knows
    // "Reed".)
    const bool after_a_full_name = s > first && out[s - 1].type == PiiType::kPerson &&
                                   out[s - 1].end + 5 == span.begin && text.substr(out[s - 1].end, 5) == " and " &&
                                   std::count(text.begin() + out[s - 1].begin, text.begin() + out[s - 1].end, ' ') == 1;
    if (after_a_full_name && listed_given && ((given.full | family.full | family.part) & company_categories_) == 0 &&
        (family.full & (place_categories_ | world_city_categories_ | street_categories_)) == 0) {
      span.type = PiiType::kPerson;
      continue;
    }
    const std::string_view last_word = text.substr(tokens[to].begin, tokens[to].end - tokens[to].begin);
    // (A first name no list knows counts before a surname of a Gaelic
    // shape or of the last-name lists: "Siobhan O'Brien", "Cressida Smith
    // will join us". The decoder learnt firms from brands no list knows,
    // "Innography", "Solarlist", and takes such a name for one.)
    const bool unknown_first_name = (given.full | given.part) == 0 && tokens[from].end - tokens[from].begin >= 3;
    if ((!listed_given && !(unknown_first_name && (gaelic_surname(last_word) || (family.full & last_name_categories_) != 0))) ||
        (given.full & not_a_first_name) != 0) {
      continue;
    }
    // (A part of a longer entry is no matter: "Jefferson" of "Jefferson City".)
    if (!surname && (family.full & not_a_surname) != 0) continue;
    if ((family.full & company_categories_) != 0) continue;
    span.type = PiiType::kPerson;
  }
}

void PiiTagger::drop_code_identifiers(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  auto at = [&](size_t k) { return k < text.size() ? text[k] : '\0'; };
  auto small = [](char c) { return c >= 'a' && c <= 'z'; };
  auto alnum = [](char c) { return is_word_byte(static_cast<unsigned char>(c)); };
  // Whether the words (tokens) of `span` are all words a name list knows.
  auto listed_names = [&](const PiiSpan& span) {
    bool any = false;
    for (size_t t = first_token_from(tokens, span.begin); t < tokens.size() && tokens[t].begin < span.end; ++t) {
      if (!alnum(text[tokens[t].begin])) continue;
      if ((gazetteer_.lookup(word_hash(text, tokens[t])).full & name_categories_) == 0) return false;
      any = true;
    }
    return any;
  };
  // Letters, "-" and digits: a model, version or item number ("SSH-2",
  // "SCP-001", "F-16").
  auto model_number = [](std::string_view value) {
    // (Most values end in a letter: one test before the search.)
    if (value.empty() || value.back() < '0' || value.back() > '9') return false;
    const size_t dash = value.find('-');
    if (dash == 0 || dash == std::string_view::npos || dash + 1 == value.size()) return false;
    for (size_t k = 0; k < value.size(); ++k) {
      const auto c = static_cast<unsigned char>(value[k]);
      if (k < dash ? (c | 0x20) < 'a' || (c | 0x20) > 'z' : k > dash && (c < '0' || c > '9')) return false;
    }
    return true;
  };
  size_t kept = first;
  for (size_t s = first; s < out.size(); ++s) {
    const PiiSpan& span = out[s];
    bool code = false;
    if (names_by_a_proper_name(span.type) || span.type == PiiType::kStreetAddress || span.type == PiiType::kNrp) {
      const char before = span.begin > 0 ? text[span.begin - 1] : '\0';
      const char before2 = span.begin > 1 ? text[span.begin - 2] : '\0';
      const char after = at(span.end);
      const std::string_view value = text.substr(span.begin, span.end - span.begin);
      bool underscore = before == '_' || after == '_';
      code = after == '(' || after == '[' || (after == '.' && small(at(span.end + 1))) || before == '$' ||
             (before == ':' && before2 == ':') || (before == '>' && before2 == '-') ||
             (before == '.' && (small(before2) || (before2 >= '0' && before2 <= '9')));
      // (Most values hold none of those marks: one pass without branches
      // tells.)
      bool marks = false;
      for (const char c : value) marks |= (c == '(') | (c == '[') | (c == '_');
      for (size_t k = 1; marks && k + 1 < value.size() && !code; ++k) {
        if (!alnum(value[k - 1]) || !alnum(value[k + 1])) continue;
        code = value[k] == '(' || value[k] == '[';
        underscore = underscore || value[k] == '_';
      }
      const bool named = span.type != PiiType::kStreetAddress && span.type != PiiType::kNrp;
      code = code || (underscore && !listed_names(span)) || (named && model_number(value));
      // A word in camel case is an identifier; a company may be named so
      // ("MysticWeb"), unless a digit ends it ("PictureBox1").
      if (!code && value.size() >= 6 && value[0] >= 'A' && value[0] <= 'Z') {
        const CamelCase c = camel_case(value);
        code = c.camel && (span.type != PiiType::kOrganization || c.digits_last);
      }
      // So is the end of a block of Visual Basic ("End If").
      code = code || (value[0] == 'E' && value.size() >= 6 && value.size() <= 13 && visual_basic_block_end(value));
    }
    if (!code) out[kept++] = span;
  }
  if (kept == out.size()) return;
  out.resize(kept);
  reset_cover();
}

void PiiTagger::join_named_offices(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  auto name_or_organisation = [&](const PiiSpan& span) {
    return span.type == PiiType::kPerson || span.type == PiiType::kOrganization;
  };
  // Whether only ", ", " and ", ", and " or " & " stands between spans a and b.
  auto joined = [&](const PiiSpan& a, const PiiSpan& b) {
    if (b.begin <= a.end) return false;
    const std::string_view between = text.substr(a.end, b.begin - a.end);
    return between == ", " || between == " and " || between == ", and " || between == " & ";
  };
  // The spans are copied down over those joined away (out[first, kept)
  // kept), so that a text of many such names costs one pass.
  size_t kept = first;
  bool changed = false;
  for (size_t s = first; s < out.size(); ++s) {
    size_t e = s;
    bool office = false;
    // (follows_the() reads the text: most spans have no "the" before them.)
    if (name_or_organisation(out[s]) && follows_the(text, out[s].begin)) {
      bool person = out[s].type == PiiType::kPerson;
      while (e + 1 < out.size() && name_or_organisation(out[e + 1]) && joined(out[e], out[e + 1])) {
        ++e;
        person = person || out[e].type == PiiType::kPerson;
      }
      const size_t noun = first_token_from(tokens, out[e].end);
      office = noun < tokens.size() && tokens[noun].begin == out[e].end + 1 && text[out[e].end] == ' ' &&
               names_a_company_place(text, tokens[noun]) && (person || e > s);
    }
    if (office) {
      out[kept++] = {PiiType::kOrganization, out[s].begin, out[e].end};
      changed = true;
      s = e;
    } else {
      out[kept++] = out[s];
    }
  }
  out.resize(kept);
  if (changed) reset_cover();
}

void PiiTagger::split_coordinated_names(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  const size_t before = out.size();
  for (size_t s = first; s < before; ++s) {
    PiiSpan& span = out[s];
    if (text.substr(span.begin, span.end - span.begin).find(" and ") == std::string_view::npos) continue;
    if (span.type != PiiType::kPerson && span.type != PiiType::kOrganization) {
      if (span.type == PiiType::kLocation) split_two_full_names(text, out, s);
      continue;
    }
    const size_t j = first_token_from(tokens, span.begin);
    if (j + 2 >= tokens.size() || tokens[j + 2].end != span.end || !token_is(text, tokens[j + 1], "and")) {
      split_two_full_names(text, out, s);
      continue;
    }
    const Gazetteer::Match left = view_of(text, tokens[j], gazetteer_).gazetteer;
    const Gazetteer::Match right = view_of(text, tokens[j + 2], gazetteer_).gazetteer;
    const bool names = ((left.full | right.full) & name_categories_) != 0 &&
                       ((left.full | left.part | right.full | right.part) & company_categories_) == 0;
    if (names) span.type = PiiType::kPerson;
    span.end = tokens[j].end;
    out.push_back({span.type, tokens[j + 2].begin, tokens[j + 2].end});
  }
  if (out.size() > before) {
    sort_by_begin(out, first);
  }
}

void PiiTagger::split_places_before_names(std::string_view text, std::vector<PiiSpan>& out, size_t first,
                                          bool mixed) const {
  const Tokens tokens = tagger_tokens();
  const size_t before = out.size();
  for (size_t s = first; s < before; ++s) {
    if (out[s].type != PiiType::kLocation) continue;
    const PiiSpan span = out[s];
    // (Most places are a word or two: their bytes are searched for " for "
    // before their tokens are read.)
    const std::string_view words = text.substr(span.begin, span.end - span.begin);
    const size_t at = words.find(" for ");
    if (at == std::string_view::npos) continue;
    const size_t f = first_token_from(tokens, static_cast<uint32_t>(span.begin + at + 1));
    if (f == 0 || f + 1 >= tokens.size() || tokens[f + 1].end > span.end || !one_blank_after(text, tokens, f + 1)) continue;
    const size_t name = f + 1;
    const auto c = static_cast<unsigned char>(text[tokens[name].begin]);
    if (mixed ? !(c >= 'A' && c <= 'Z') || all_capitals(text, tokens, name) : !(c >= 'a' && c <= 'z')) continue;
    const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, tokens[name]));
    if ((m.full & first_name_categories_) == 0 ||
        (m.full & (place_categories_ | world_city_categories_ | common_categories_)) != 0) {
      continue;
    }
    out[s].end = tokens[f - 1].end;
    out.push_back({PiiType::kPerson, tokens[name].begin, span.end});
  }
  if (out.size() > before) sort_by_begin(out, first);
}

void PiiTagger::add_unlisted_full_names(std::string_view text, std::span<const uint32_t> marked,
                                        std::vector<PiiSpan>& out, size_t first) const {
  // (Without the everyday lists, no list knows "Oak Road".)
  if (common_categories_ == 0) return;
  const Tokens tokens = tagger_tokens();
  // A word of three bytes or more that opens with a capital A-Z, then a
  // small letter or a letter beyond ASCII ("Ó", "Súilleabháin").
  auto capitalised = [&](size_t k) {
    const Token& t = tokens[k];
    const auto second = static_cast<unsigned char>(text[t.begin + 1]);
    return t.end - t.begin >= 3 && text[t.begin] >= 'A' && text[t.begin] <= 'Z' &&
           ((second >= 'a' && second <= 'z') || second >= 0x80);
  };
  // Whether the words end at the text's end, a blank, or a mark that ends
  // a clause before a blank or the end: not code's "Novak_Run", "Novak.run()".
  auto ends_as_words = [&](uint32_t end) {
    if (end == text.size() || text[end] == ' ' || text[end] == '\n') return true;
    if (std::string_view(".,;:!?").find(text[end]) == std::string_view::npos) return false;
    return end + 1 == text.size() || text[end + 1] == ' ' || text[end + 1] == '\n';
  };
  // No list knows the word, and it is in no camel case ("PictureBox"); a
  // possessive ends a name ("the Guru's Vak").
  auto unlisted = [&](size_t k, bool last) {
    const Token& t = tokens[k];
    return !gazetteer_.knows(word_hash(text, t)) && !camel_case(text.substr(t.begin, t.end - t.begin)).camel &&
           (last || !ends_in_a_possessive(text, t));
  };
  auto covered = [&](uint32_t begin, uint32_t end) {
    return std::any_of(out.begin() + static_cast<ptrdiff_t>(first), out.end(),
                       [&](const PiiSpan& s) { return s.begin < end && s.end > begin; });
  };
  // Whether "and his" or "and her" follows the word ending at `end`: the
  // pronoun goes back to a person, as "and its" to a firm.
  auto before_and_a_persons = [&](uint32_t end) {
    // (Asked of most marked tokens: the bytes one by one, the likeliest
    // to differ first.)
    if (end + 9 > text.size() || text[end + 1] != 'a' || text[end] != ' ') return false;
    const std::string_view after(text.data() + end, 9);
    return after == " and his " || after == " and her ";
  };
  const size_t before = out.size();
  for (size_t m = 0; m < marked.size(); ++m) {
    const size_t j = marked[m];
    // Two or three marked tokens in a row, one blank apart, after a word
    // in small letters one blank before them; the cheap tests first (most
    // marked tokens stand alone). Or one before "and his" or "and her": "a
    // limerick about Barnabas and his goat".
    auto after_a_small_word = [&] {
      return j > 0 && text[tokens[j - 1].begin] >= 'a' && text[tokens[j - 1].begin] <= 'z';
    };
    if (m + 1 == marked.size() || marked[m + 1] != j + 1) {
      if (before_and_a_persons(tokens[j].end) && after_a_small_word() && one_blank_after(text, tokens, j) &&
          capitalised(j) && unlisted(j, false) && !covered(tokens[j].begin, tokens[j].end)) {
        out.push_back({PiiType::kPerson, tokens[j].begin, tokens[j].end});
      }
      continue;
    }
    if (!after_a_small_word()) continue;
    size_t run = 1;
    while (m + run < marked.size() && marked[m + run] == j + run && one_blank_after(text, tokens, j + run)) ++run;
    const size_t last = j + run - 1;
    m = m + run - 1;
    if (run < 2 || run > 3 || !one_blank_after(text, tokens, j) || !ends_as_words(tokens[last].end)) continue;
    bool name = true;
    for (size_t k = j; name && k <= last; ++k) name = capitalised(k);
    for (size_t k = j; name && k <= last; ++k) name = unlisted(k, k == last);
    const std::string_view value = text.substr(tokens[j].begin, tokens[last].end - tokens[j].begin);
    if (name && !visual_basic_block_end(value) && !covered(tokens[j].begin, tokens[last].end)) {
      out.push_back({PiiType::kPerson, tokens[j].begin, tokens[last].end});
    }
  }
  if (out.size() > before) sort_by_begin(out, first);
}

}  // namespace tiergate
