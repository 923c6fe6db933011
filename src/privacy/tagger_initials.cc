// The tagger's passes after decoding that read names written in ways the
// dev rows never write them. With initials (PiiTagger::join_initials()):
// "John F. Kennedy", "william m. tweed", "A. J. Ayer", "J. Smith"; the dev
// rows hold no initial, so the decoder stops a name at the initial's stop
// and types what follows by itself, or takes "J. Smith" for a firm, which
// leaves the device under a policy that lets organisations out. In
// capitals on a line of their own (PiiTagger::add_names_in_capitals()):
// "JOHN SMITH" heading a résumé, which the decoder reads as acronyms.
#include "tiergate/privacy/pii_tagger.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "tagger_rules.h"

namespace tiergate {

using namespace tagger_rules;

namespace {

// Pronouns and the words that open a sentence after a letter's stop ("Farm
// Y. He has", "pressing A. It can"), in any case, that neither
// kNeverInAName nor function_word() holds: no surname after an initial.
constexpr WordSet kOpensASentence(std::array<std::string_view, 8>{"he", "it", "they", "him", "them", "us", "me",
                                                                  "there"});

// The words before a colon that label a person's field in mail headers,
// forms, records and signatures ("From: R. Okafor", "Signed: M.
// Vasquez", "Patient: J. Doe"), in any case: a letter after one that opens
// its line, on that line, is an initial, not an answer's (as after
// "discovered by:" at a question's end), and the capitalised word after it
// the surname, whatever else the lists know it as ("Doe", "Baker").
constexpr WordSet kPersonLabels(std::array<std::string_view, 38>{
    "from",      "to",        "cc",        "bcc",       "signed",      "author",      "authors",  "by",
    "contact",   "attn",      "name",      "sender",    "recipient",   "reviewer",    "editor",   "approver",
    "assignee",  "reporter",  "patient",   "client",    "customer",    "employee",    "tenant",   "applicant",
    "candidate", "student",   "member",    "witness",   "defendant",   "plaintiff",   "physician", "doctor",
    "owner",     "guest",     "attendee",  "participant", "beneficiary", "insured"});

// Nouns that a letter names the instance of ("Section S.", "Appendix B.",
// "vitamin D.", "Plan B."), in any case: the letter after one is no
// initial of a surname that no list knows ("Section S. Truax follows").
constexpr WordSet kLetteredNouns(std::array<std::string_view, 36>{
    "section", "table", "figure", "fig", "appendix", "part", "chapter", "schedule", "exhibit", "annex", "plan", "type",
    "class", "grade", "vitamin", "group", "option", "step", "phase", "level", "row", "column", "block", "unit", "zone",
    "building", "room", "gate", "wing", "model", "series", "category", "article", "paragraph", "item", "version"});

}  // namespace

void PiiTagger::join_initials(std::string_view text, std::span<const uint32_t> capitals_before_a_stop,
                              std::vector<PiiSpan>& out, size_t first, bool mixed) const {
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  // Whether token k is a letter alone (a capital in text with capitals; in
  // text without, not the "v." of "gideon v. wainwright") and its stop
  // right after it.
  auto letter_and_stop = [&](size_t k) {
    if (k + 1 >= n) return false;
    const Token& t = tokens[k];
    const char c = text[t.begin];
    if (t.end - t.begin != 1 || !(mixed ? c >= 'A' && c <= 'Z' : c >= 'a' && c <= 'z' && c != 'v')) return false;
    const Token& stop = tokens[k + 1];
    return stop.begin == t.end && stop.end == stop.begin + 1 && text[stop.begin] == '.';
  };
  // The letters of an abbreviation written as initials glued together
  // ("U.S.", "e.g.", "a.m.", a ship's "U.S.S.", the "G.I. Bill"), in small
  // letters: no name's.
  static constexpr WordSet kAbbreviationsOfInitials(std::array<std::string_view, 23>{
      "us", "uk", "eu", "un", "dc", "ny", "la", "ad", "bc", "am", "pm", "ie", "eg", "ps", "nb", "nz", "sa", "usa",
      "uae", "bce", "uss", "hms", "gi"});
  // Whether token k is an initial: a letter_and_stop(), one space, then a
  // token on the line; or glued to further initials, up to three, that
  // end so ("J.R. Hollingsworth"), their letters no abbreviation's.
  auto initial = [&](size_t k) {
    std::array<char, 3> letters{};
    size_t count = 0;
    for (size_t j = k; letter_and_stop(j) && count < letters.size(); j += 2) {
      letters[count++] = static_cast<char>(text[tokens[j].begin] | 0x20);
      const Token& stop = tokens[j + 1];
      if (stop.end < text.size() && text[stop.end] == ' ') {
        const bool word_after = j + 2 < n && tokens[j + 2].begin == stop.end + 1 && !tokens[j + 2].newline_before;
        const std::string_view glued(letters.data(), count);
        const Token all_letters{0, static_cast<uint32_t>(count), false, false};
        return word_after && (count == 1 || !kAbbreviationsOfInitials.contains(glued, all_letters));
      }
      if (j + 2 >= n || tokens[j + 2].begin != stop.end) return false;
    }
    return false;
  };
  // The token after the initials that open at token k, up to three ("A. J.
  // Ayer"); k when none does.
  auto past_initials = [&](size_t k) {
    for (size_t count = 0; count < 3 && initial(k); ++count) k += 2;
    return k;
  };
  // Whether token k may be the surname after initials: a word of two
  // letters or more, no pronoun, no word that stands in no name, no title;
  // in text with capitals capitalised and not in capitals throughout. After
  // a name's first word and its initial (`after_a_name`) any such word
  // ("William M. Tweed"); else, in text with capitals no everyday word but
  // one the census's surnames hold ("J. Doe"), in
  // text without capitals a word a name list knows or the everyday lists
  // do not.
  auto surname = [&](size_t k, bool after_a_name) {
    const Token& t = tokens[k];
    const auto c = static_cast<unsigned char>(text[t.begin]);
    if (t.end - t.begin < 2 || !is_word_byte(c) || (c >= '0' && c <= '9')) return false;
    if (mixed && (!opens_with_a_capital(text.substr(t.begin, t.end - t.begin)) || all_capitals(text, t))) return false;
    // (In any case: "Farm Y. He has".)
    if (function_word(text, t) || kNeverInAName.contains(text, t) || kOpensASentence.contains(text, t)) return false;
    const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, t));
    if (is_title(m)) return false;  // "Dr. Z. Dr. X"
    if (after_a_name) return true;
    // (An everyday word the census's surnames hold too: "J. Doe", "R.
    // Baker".)
    if (mixed) return !everyday(m) || listed_surname(text, t.begin, t.end);
    return (m.full & name_categories_) != 0 || (m.full & common_categories_) == 0;
  };
  // The surname that opens at token k: its first word past up to two
  // particles ("van der Meulen", "de la Cruz", "Di Palma"), a surname()
  // word, and its last token, past up to three words joined to it by
  // hyphens ("Hackett-Lind"); {n, n} where none opens there.
  struct Surname {
    size_t main, last;
  };
  auto surname_words = [&](size_t k, bool after_a_name) {
    for (size_t particles = 0; particles < 2 && k + 1 < n && kSurnameParticles.contains(text, tokens[k]) &&
                               tokens[k + 1].begin == tokens[k].end + 1 && !tokens[k + 1].newline_before;
         ++particles) {
      ++k;
    }
    if (!surname(k, after_a_name)) return Surname{n, n};
    const size_t main = k;
    for (size_t parts = 1; parts < 4 && k + 2 < n && token_is(text, tokens[k + 1], "-") &&
                           tokens[k + 1].begin == tokens[k].end && tokens[k + 2].begin == tokens[k + 1].end &&
                           surname(k + 2, true);
         ++parts) {
      k += 2;
    }
    return Surname{main, k};
  };
  // The end of the name whose surname's words are tokens [from, last]:
  // the last without its possessive ending, or the end of a name (or of a
  // place that no list of places knows: "Di Dio") of this tagging that
  // opens at `from` ("Luevano Martínez"), then of a name of this tagging
  // one space after ("Rael" and "Delarosa").
  auto name_end = [&](size_t from, size_t last) {
    const Token& t = tokens[last];
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
    uint32_t end = t.begin + static_cast<uint32_t>(possessive_stem(b, t.end - t.begin));
    const size_t s = span_over(out, from);
    if (s >= first && s < out.size() && out[s].begin == tokens[from].begin &&
        (out[s].type == PiiType::kPerson ||
         (out[s].type == PiiType::kLocation && !listed_place(text, out[s])))) {
      end = std::max(end, out[s].end);
    }
    const size_t next = first_token_from(tokens, end);
    if (next < n && tokens[next].begin == end + 1 && text[end] == ' ' && !tokens[next].newline_before) {
      const size_t after = span_over(out, next);
      if (after >= first && after < out.size() && out[after].type == PiiType::kPerson &&
          out[after].begin == tokens[next].begin) {
        end = out[after].end;
      }
    }
    return end;
  };
  // The names found, applied to `out` at the end: reading the spans as
  // decoded keeps the pass linear in a long text of many names (changing
  // `out` at each would make the cover be built again).
  struct Name {
    uint32_t begin, end;
    size_t keep;  // the span that becomes the name, or kNew
  };
  constexpr size_t kNew = SIZE_MAX;
  std::vector<Name> names;
  std::vector<uint32_t> inside;  // the spans that names take in, to go
  // Makes [begin, end) a name, out[keep] (out.size() for none) set to it,
  // the names, places and organisations of this tagging inside it dropped.
  // Nothing changes where another span overlaps it (found before tagging,
  // of another type, or running past its end), nor before "&" or a company
  // suffix.
  auto make_name = [&](uint32_t begin, uint32_t end, size_t keep) {
    // (A firm named after a person: "H. J. Wilson & Company".)
    const size_t after = first_token_from(tokens, end);
    if (after < n && !tokens[after].newline_before &&
        (token_is(text, tokens[after], "&") ||
         (gazetteer_.lookup(word_hash(text, tokens[after])).full & company_categories_) != 0)) {
      return;
    }
    const size_t inside_before = inside.size();
    for (size_t t = first_token_from(tokens, begin); t < n && tokens[t].begin < end; ++t) {
      const size_t s = span_over(out, t);
      if (s == out.size() || s == keep) continue;
      if (s < first || out[s].begin < begin || out[s].end > end ||
          !(out[s].type == PiiType::kPerson || out[s].type == PiiType::kOrganization ||
            out[s].type == PiiType::kLocation)) {
        inside.resize(inside_before);
        return;
      }
      inside.push_back(static_cast<uint32_t>(s));
    }
    names.push_back({begin, end, keep < out.size() ? keep : kNew});
  };
  // Whether token k is a capitalised word that a first-name list knows and
  // the everyday lists do not know alone.
  auto first_name = [&](size_t k) {
    if (tokens[k].end - tokens[k].begin < 2 ||
        (mixed && !opens_with_a_capital(text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin)))) {
      return false;
    }
    const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[k]));
    return (m.full & first_name_categories_) != 0 && !everyday(m) && !is_title(m);
  };
  // An address of this tagging with no digit and no street's word, whose
  // first word a first-name list knows and that holds an initial, is a
  // name, or names joined ("Anna K. Smith", "Maria L. and Tom B."): the
  // decoder learnt letters before stops from addresses ("P.O. Box", "St.").
  if (mixed) {
    for (const uint32_t k : capitals_before_a_stop) {
      const size_t s = span_over(out, k);
      if (s < first || s == out.size() || out[s].type != PiiType::kStreetAddress) continue;
      const size_t from = first_token_from(tokens, out[s].begin);
      if (from == n || tokens[from].begin != out[s].begin || !first_name(from)) continue;
      const std::string_view value = text.substr(out[s].begin, out[s].end - out[s].begin);
      bool plain = std::none_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
      for (size_t t = from; plain && t < n && tokens[t].begin < out[s].end; ++t) {
        plain = (gazetteer_.lookup(word_hash(text, tokens[t])).full & street_categories_) == 0;
      }
      if (plain) out[s].type = PiiType::kPerson;
    }
  }
  // A name, place or organisation of this tagging whose first word or two
  // a middle initial follows, inside it or a space after it, then the
  // surname: "John F" and "Kennedy" of "John F. Kennedy" are one name; so
  // are "Haskell R. Abbott", taken for a firm, and "Arden I", taken for a
  // place, before "Satterfield", where a first-name list knows the first
  // word. A place or firm may open with a rank or office (kRanks) before
  // that word, which the name leaves out: "President Franklin D", taken for
  // a place, and "Roosevelt" are the name "Franklin D. Roosevelt".
  for (size_t s = first; s < out.size(); ++s) {
    const PiiType type = out[s].type;
    if (type != PiiType::kPerson && type != PiiType::kOrganization && type != PiiType::kLocation) continue;
    // (Most spans have no stop in them or just after them: one test before
    // the search for their tokens.)
    const size_t reach = std::min<size_t>(out[s].end + 3, text.size());
    if (text.substr(out[s].begin, reach - out[s].begin).find('.') == std::string_view::npos) continue;
    size_t from = first_token_from(tokens, out[s].begin);
    if (from + 1 >= n || tokens[from].begin != out[s].begin) continue;
    if (type != PiiType::kPerson && from + 2 < n && tokens[from + 1].begin == tokens[from].end + 1 &&
        kRanks.contains(text, tokens[from])) {
      ++from;
    }
    // The initial: the second or third token of the span, or the token
    // one space after a span of one or two words.
    size_t k = from + 1;
    if (!initial(k)) {
      if (!(k + 1 < n && tokens[k].begin == tokens[from].end + 1 && initial(k + 1))) continue;
      ++k;
    }
    if (tokens[k].begin > out[s].end + 1 || (tokens[k].begin == out[s].end + 1 && text[out[s].end] != ' ')) continue;
    if (type != PiiType::kPerson && !first_name(from)) continue;
    const size_t surname_from = past_initials(k);
    const Surname surname_of = surname_words(surname_from, true);
    if (surname_of.last == n) continue;
    make_name(tokens[from].begin, std::max(name_end(surname_from, surname_of.last), out[s].end), s);
  }
  // Whether token k, a letter, follows a kPersonLabels word and its colon
  // that open its line, on that line.
  auto after_a_person_label = [&](size_t k) {
    return k >= 2 && !tokens[k].newline_before && token_is(text, tokens[k - 1], ":") &&
           (k == 2 || tokens[k - 2].newline_before) && kPersonLabels.contains(text, tokens[k - 2]);
  };
  // Whether token k, a letter, is addressed or signs: after a greeting, a
  // closing or "cc" on its line, maybe with a comma between ("Dear J. Doe,",
  // "Thanks, J. Baker", "cc J. Doe"), or opening the line after a closing
  // line ("Regards,\nJ. Doe"). As after a person's label, the capitalised
  // word after it is then the surname whatever else the lists know it as.
  auto addressed = [&](size_t k) {
    if (k == 0) return false;
    size_t p = k - 1;
    const bool comma = token_is(text, tokens[p], ",");
    if (tokens[k].newline_before) return comma && p > 0 && ends_a_closing_line(text, tokens, p - 1);
    if (comma && p > 0 && !tokens[p].newline_before) --p;
    return kGreetings.contains(text, tokens[p]) || kClosings.contains(text, tokens[p]) || token_is(text, tokens[p], "cc");
  };
  // Whether a title and its stop come right before token k ("Mr. J").
  auto title_before = [&](size_t k) {
    return k >= 2 && tokens[k - 1].begin == tokens[k - 2].end && token_is(text, tokens[k - 1], ".") &&
           is_title(gazetteer_.lookup(word_hash(text, tokens[k - 2])));
  };
  // Whether the text lists answers: two lines or more open with a letter
  // that labels before a stop ("A.", "B."). A letter alone that opens a
  // line is then an answer's, not an initial.
  size_t labels = 0;
  for (size_t c = 0; c < capitals_before_a_stop.size() && labels < 2; ++c) {
    const uint32_t k = capitals_before_a_stop[c];
    if ((k == 0 || tokens[k].newline_before) && letter_label(text, tokens, k)) ++labels;
  }
  const bool lists_answers = labels >= 2;
  // Initials that open a name ("A. J. Ayer", "J. Smith"), with the first
  // name before them that no span covers ("Ida B. Wells" where the decoder
  // took only the surname). In text with capitals, one initial alone only
  // after such a first name ("Harry S. Truman": no list need know the
  // surname) or before a surname a last-name list knows (or the census's,
  // after a plain word) or that this tagging took for a name or a firm; in
  // text without capitals only after such a first name ("hannah i.
  // kirlin") or, after a comma, a colon, "by" or "and" on its line, before
  // a surname this tagging took for a name ("attendees: j. okonkwo, m.
  // lindqvist"). Not an answer's letter ("B. Leitch and Neilson", "C. B. F.
  // Skinner": a letter that labels, after "?" or ":", or opening a line of
  // a text that lists answers), nor a letter glued to the token before
  // ("U.S. Grant" is an abbreviation's end there), after a number ("124 N.
  // Stadion": a street's direction), nor a compass point's before a place,
  // listed or found ("N. America").
  // (After a person's label, kPersonLabels, a letter is no answer's; nor
  // is one after a colon that opens a list of names with initials, maybe
  // with a word in brackets after the first: "Board members present: A.
  // Smith, K. Lee", "J. Whitaker (chair), R. Osei".)
  auto opens_a_list_of_initials = [&](size_t k) {
    if (k == 0 || !mark_at(text, tokens, k - 1, ':') || k + 5 >= n) return false;
    const auto surname_letter = static_cast<unsigned char>(text[tokens[k + 2].begin]);
    if (surname_letter < 'A' || surname_letter > 'Z') return false;
    size_t comma = k + 3;
    if (comma + 3 < n && mark_at(text, tokens, comma, '(') && mark_at(text, tokens, comma + 2, ')')) comma += 3;
    return mark_at(text, tokens, comma, ',') && initial(comma + 1);
  };
  auto answer_letter = [&](size_t k) {
    return letter_label(text, tokens, k) && !after_a_person_label(k) &&
           (lists_answers || (k > 0 && !tokens[k].newline_before)) && !opens_a_list_of_initials(k);
  };
  // (An opening bracket or quote mark may be glued to the initial: "male
  // (R. Okafor)".)
  auto glued_before = [&](size_t k) {
    return k > 0 && tokens[k - 1].end == tokens[k].begin &&
           !(tokens[k - 1].end - tokens[k - 1].begin == 1 && std::string_view("([\"'").find(text[tokens[k - 1].begin]) !=
                                                               std::string_view::npos);
  };
  auto initials_at = [&](size_t k) {
    if (!initial(k) || glued_before(k) || (k > 0 && all_digits(text, tokens[k - 1])) ||
        answer_letter(k) || (k >= 2 && initial(k - 2) && !answer_letter(k - 2))) {
      return;
    }
    // A name over the initial is the name's own, but for one of the letter
    // alone, or of a title and the letter, that the decoder ended at the
    // letter or its stop ("Mr. J" of "Mr. J. Smith"): the name becomes it.
    const size_t over = span_over(out, k);
    const bool name_over = over < out.size() && out[over].type == PiiType::kPerson;
    const bool letter_name = name_over && over >= first &&
                             (out[over].end == tokens[k].end || out[over].end == tokens[k + 1].end) &&
                             (out[over].begin == tokens[k].begin ||
                              (out[over].begin == tokens[k - (k >= 2 ? 2 : 0)].begin && title_before(k)));
    if (name_over && !letter_name) return;
    const bool first_name_before = k > 0 && tokens[k - 1].end + 1 == tokens[k].begin && text[tokens[k].begin - 1] == ' ' &&
                                   !tokens[k].newline_before && span_over(out, k - 1) == out.size() && first_name(k - 1);
    // (Without capitals, or before a surname this tagging took for a name,
    // where the letter follows on its line a comma, a colon, "by" or "and":
    // "attendees: j. okonkwo, m. lindqvist"; not an answer's letter that
    // opens a line, "\nb. pascal's principle".)
    auto listed_apart = [&] {
      return k > 0 && !tokens[k].newline_before &&
             (token_is(text, tokens[k - 1], ",") || token_is(text, tokens[k - 1], ":") ||
              token_is(text, tokens[k - 1], "by") || token_is(text, tokens[k - 1], "and"));
    };
    if (!mixed && !first_name_before && !listed_apart()) return;
    const size_t surname_from = past_initials(k);
    const bool one_initial = surname_from - k == 2;
    const bool named_here = after_a_person_label(k) || addressed(k);
    const Surname surname_of = surname_words(surname_from, named_here);
    if (surname_of.last == n) return;
    const size_t taken = span_over(out, surname_of.main);
    const bool found = taken >= first && taken < out.size() &&
                       (out[taken].type == PiiType::kPerson || out[taken].type == PiiType::kOrganization);
    if (!mixed && !first_name_before && !(found && out[taken].type == PiiType::kPerson)) return;
    const Gazetteer::Match listed = gazetteer_.lookup_all(word_hash(text, tokens[surname_of.main]));
    // (A name the decoder found over the letter, or a person's label, is
    // as good as a listed surname: "Mr. T. Nakamura", "From: R. Okafor";
    // so is a word of three letters or more that no list knows at all,
    // after a letter inside a sentence that names no noun's instance:
    // "Contact R. Okafor", where the decoder, which learnt no initials,
    // found nothing.)
    const Token& main = tokens[surname_of.main];
    const bool inside_a_sentence = k > 0 && !tokens[k].newline_before && !kLetteredNouns.contains(text, tokens[k - 1]);
    // (Or opening the text or a line, as a sentence's subject, where the
    // sentence goes on in small letters: "R. Okafor was admitted on
    // Monday"; not a heading's letter alone on its line, "B. Kubernetes",
    // nor in a text that lists answers.)
    const bool subject = (k == 0 || tokens[k].newline_before) && !lists_answers && surname_of.last + 1 < n &&
                         !tokens[surname_of.last + 1].newline_before &&
                         tokens[surname_of.last + 1].begin == tokens[surname_of.last].end + 1 &&
                         small_word(text, tokens[surname_of.last + 1], 2);
    const bool unlisted = (listed.full | listed.part) == 0 && main.end - main.begin >= 3 && (inside_a_sentence || subject);
    // (So is a surname of the census's that is an everyday word too, where
    // the letter follows a word in small letters that is no article, a
    // comma or a sentence's first word: "forward this to J. Doe", "Contact
    // R. Baker"; not "an A. Baker", "B. Old C. New".)
    auto after_a_plain_word = [&](size_t p) {
      const auto c = static_cast<unsigned char>(text[tokens[p].begin]);
      if (c >= 'a' && c <= 'z') return !token_is(text, tokens[p], "a") && !kDeterminers.contains(text, tokens[p]);
      return token_is(text, tokens[p], ",") || (c >= 'A' && c <= 'Z' && opens_a_sentence(text, tokens, p));
    };
    const bool census_surname = inside_a_sentence && (listed.full & last_name_categories_) == 0 &&
                                listed_surname(text, main.begin, main.end) && after_a_plain_word(k - 1);
    if (mixed && one_initial && !found && !first_name_before && !letter_name && !named_here &&
        (listed.full & last_name_categories_) == 0 && !census_surname && !unlisted) {
      return;
    }
    // (A compass point before a place: "N. America", "S. Korea".)
    const char letter = static_cast<char>(text[tokens[k].begin] & ~0x20);
    if (one_initial && (letter == 'N' || letter == 'S' || letter == 'E' || letter == 'W') &&
        ((taken < out.size() && out[taken].type == PiiType::kLocation) || kRegions.contains(text, tokens[surname_of.main]) ||
         (listed.full & (place_categories_ | world_city_categories_)) != 0)) {
      return;
    }
    const uint32_t begin = letter_name ? out[over].begin : first_name_before ? tokens[k - 1].begin : tokens[k].begin;
    make_name(begin, name_end(surname_from, surname_of.last), letter_name ? over : out.size());
  };
  if (mixed) {
    for (const uint32_t k : capitals_before_a_stop) initials_at(k);
  } else {
    // (Few tokens are a letter alone before a stop: they are picked out
    // here, without a call.)
    for (size_t k = 0; k < n; ++k) {
      const char c = text[tokens[k].begin];
      if (tokens[k].end - tokens[k].begin == 1 && c >= 'a' && c <= 'z' && tokens[k].end < text.size() &&
          text[tokens[k].end] == '.') {
        initials_at(k);
      }
    }
  }
  if (names.empty()) return;
  // In order of begin; a name that overlaps one before it stays out.
  std::sort(names.begin(), names.end(), [](const Name& a, const Name& b) { return a.begin < b.begin; });
  std::vector<uint8_t> gone(out.size(), 0);
  for (const uint32_t s : inside) gone[s] = 1;
  uint32_t taken_to = 0;
  for (const Name& name : names) {
    if (name.begin < taken_to) continue;
    taken_to = name.end;
    if (name.keep != kNew) {
      out[name.keep] = {PiiType::kPerson, name.begin, name.end};
      gone[name.keep] = 0;
    } else {
      out.push_back({PiiType::kPerson, name.begin, name.end});
      gone.push_back(0);
    }
  }
  size_t kept = 0;
  for (size_t s = 0; s < out.size(); ++s) {
    if (gone[s] == 0) out[kept++] = out[s];
  }
  out.resize(kept);
  sort_by_begin(out, first);
}

void PiiTagger::add_surname_initials(std::string_view text, std::span<const uint32_t> capitals_before_a_stop,
                                     std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  for (const uint32_t k : capitals_before_a_stop) {
    if (k == 0 || k + 1 >= n || tokens[k].newline_before || tokens[k - 1].end + 1 != tokens[k].begin ||
        text[tokens[k].begin - 1] != ' ' || !mark_at(text, tokens, k + 1, '.') || tokens[k + 1].begin != tokens[k].end) {
      continue;
    }
    // (The decoder's name may hold the letter without its stop.)
    const size_t s = span_over(out, k - 1);
    if (s < first || s == out.size() || out[s].type != PiiType::kPerson ||
        !(out[s].end == tokens[k].end || (out[s].end == tokens[k - 1].end && span_over(out, k) == out.size()))) {
      continue;
    }
    // What follows the stop: nothing on its line, a mark, or a word that
    // opens no surname.
    const size_t after = k + 2;
    if (after < n && !tokens[after].newline_before) {
      const auto c = static_cast<unsigned char>(text[tokens[after].begin]);
      const bool word = is_word_byte(c);
      if (word && !(c >= 'a' && c <= 'z') && !everyday(gazetteer_.lookup(word_hash(text, tokens[after])))) continue;
    }
    out[s].end = tokens[k + 1].end;
  }
}

void PiiTagger::add_names_in_capitals(std::string_view text, std::span<const uint32_t> line_starts,
                                      std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  constexpr size_t kMaxWords = 3;
  const auto not_a_name = static_cast<uint16_t>(place_categories_ | street_categories_ | company_categories_);
  auto name_at_line = [&](size_t k) {
    // The line's words: in capitals throughout, one space apart, alone on it.
    size_t last = k;
    while (last + 1 < n && !tokens[last + 1].newline_before && last + 1 - k < kMaxWords) ++last;
    if (last == k || (last + 1 < n && !tokens[last + 1].newline_before)) return;
    for (size_t w = k; w <= last; ++w) {
      if (!all_capitals(text, tokens[w]) || (w > k && tokens[w].begin != tokens[w - 1].end + 1)) return;
      const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[w]));
      if ((m.full & not_a_name) != 0) return;
      if (w == k ? (m.full & first_name_categories_) == 0
                 : (m.full | m.part) != 0 && (m.full & name_categories_) == 0) {
        return;
      }
    }
    const PiiSpan name{PiiType::kPerson, tokens[k].begin, tokens[last].end};
    // The spans of this tagging inside the line go; any other overlapping
    // it keeps the line as it is.
    size_t from = first;
    while (from < out.size() && out[from].end <= name.begin) ++from;
    size_t to = from;
    for (; to < out.size() && out[to].begin < name.end; ++to) {
      if (out[to].begin < name.begin || out[to].end > name.end || !names_by_a_proper_name(out[to].type)) return;
    }
    for (size_t s = 0; s < first; ++s) {
      if (out[s].begin < name.end && name.begin < out[s].end) return;
    }
    out.erase(out.begin() + static_cast<ptrdiff_t>(from), out.begin() + static_cast<ptrdiff_t>(to));
    out.insert(out.begin() + static_cast<ptrdiff_t>(from), name);
    reset_cover();
  };
  // (A line opens at token 0 or at one of line_starts; most lines open
  // with no word in capitals, which two bytes tell.)
  auto opens_in_capitals = [&](size_t k) {
    const Token& t = tokens[k];
    return t.end - t.begin >= 2 && text[t.begin] >= 'A' && text[t.begin] <= 'Z' && text[t.begin + 1] >= 'A' &&
           text[t.begin + 1] <= 'Z';
  };
  if (n > 0 && !tokens[0].newline_before && opens_in_capitals(0)) name_at_line(0);
  for (const uint32_t k : line_starts) {
    if (opens_in_capitals(k)) name_at_line(k);
  }
  // Inside a line: a name, place or organisation of this tagging in
  // capitals throughout, a first name and then surnames' words.
  auto surname_in_capitals = [&](size_t w) {
    if (!all_capitals(text, tokens[w]) || tokens[w].end - tokens[w].begin < 2) return false;
    const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[w]));
    return (m.full & not_a_name) == 0 &&
           ((m.full & name_categories_) != 0 || listed_surname(text, tokens[w].begin, tokens[w].end));
  };
  // A surname's particle in capitals ("DE", "VAN"), and the word after one:
  // a surname's, or in capitals and no everyday or company list's ("CRUZ"
  // of "DE LA CRUZ" is a place's too).
  auto particle = [&](size_t w) {
    return all_capitals(text, tokens[w]) && kSurnameParticles.contains(text, tokens[w]);
  };
  auto after_a_particle = [&](size_t w) {
    if (surname_in_capitals(w)) return true;
    if (!all_capitals(text, tokens[w]) || tokens[w].end - tokens[w].begin < 2) return false;
    return (gazetteer_.lookup(word_hash(text, tokens[w])).full & (common_categories_ | company_categories_)) == 0;
  };
  // Whether token w, one space after the name's word before it, goes on
  // the name.
  auto goes_on = [&](size_t w) {
    return particle(w) || (particle(w - 1) ? after_a_particle(w) : surname_in_capitals(w));
  };
  auto capital = [&](uint32_t at) { return text[at] >= 'A' && text[at] <= 'Z'; };
  for (size_t s = first; s < out.size(); ++s) {
    // (Two capitals open it: most spans are turned away before a search.)
    if (!names_by_a_proper_name(out[s].type) || out[s].end - out[s].begin < 2 || !capital(out[s].begin) ||
        !capital(out[s].begin + 1)) {
      continue;
    }
    const size_t from = first_token_from(tokens, out[s].begin);
    if (from >= n || tokens[from].begin != out[s].begin || !all_capitals(text, tokens[from])) continue;
    const Gazetteer::Match given = gazetteer_.lookup(word_hash(text, tokens[from]));
    if ((given.full & first_name_categories_) == 0 || (given.full & not_a_name) != 0) continue;
    size_t last = from, words = 1;  // (particles apart)
    bool names = true;
    while (names && last + 1 < n && tokens[last + 1].begin < out[s].end) {
      ++last;
      names = tokens[last].begin == tokens[last - 1].end + 1 && goes_on(last);
      words += particle(last) ? 0 : 1;
    }
    if (!names || tokens[last].end != out[s].end) continue;
    // The surnames right after it that no span covers ("AHMED" of "AHMED
    // KHAN", "CRUZ" of "MARIA JOSE DE LA CRUZ"), up to kMaxWords words in
    // all and the particles between them.
    while (last + 1 < n && (words < kMaxWords || particle(last)) && tokens[last + 1].begin == tokens[last].end + 1 &&
           text[tokens[last].end] == ' ' && (s + 1 == out.size() || out[s + 1].begin >= tokens[last + 1].end) &&
           goes_on(last + 1)) {
      ++last;
      words += particle(last) ? 0 : 1;
    }
    // (A word alone in capitals is an acronym as often: "CIA", "NAND". A
    // name ends with no particle.)
    if (last == from || particle(last) || (out[s].type == PiiType::kPerson && tokens[last].end == out[s].end)) continue;
    set_span(out, s, {PiiType::kPerson, out[s].begin, tokens[last].end});
  }
}

void PiiTagger::add_booked_names(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const {
  static constexpr WordSet kBookedTitles(std::array<std::string_view, 6>{"mr", "mrs", "ms", "miss", "mstr", "dr"});
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  auto glued = [&](size_t k) { return glued_to_the_one_before(tokens, k); };
  // A name's word: letters only, two or more; the surname may follow a
  // passenger's number ("1.1HAUGEN"): where its letters open, or 0.
  auto letters_from = [&](size_t k, bool after_digits) -> uint32_t {
    uint32_t b = tokens[k].begin;
    while (after_digits && b < tokens[k].end && text[b] >= '0' && text[b] <= '9') ++b;
    if (tokens[k].end - b < 2) return 0;
    for (uint32_t c = b; c < tokens[k].end; ++c) {
      const char ch = text[c];
      if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z'))) return 0;
    }
    return b;
  };
  // The name before the title at token t, or none: the given names (one
  // or two, one space apart, the last one space before the title), a "/"
  // glued between the first of them and the surname, all opening with
  // capitals or all with small letters; a first name or a surname a list
  // knows among them ("TCP/IP MS" names no one). (The tagger reads a text
  // in capitals throughout in small letters: there no word may be an
  // everyday one.)
  auto booked_name = [&](size_t t) -> PiiSpan {
    const PiiSpan none{PiiType::kPerson, 0, 0};
    if (t < 3 || !one_blank_after(text, tokens, t) || letters_from(t - 1, false) == 0) return none;
    size_t given = t - 1;
    if (!glued(given) && one_blank_after(text, tokens, given) && given >= 3 && letters_from(given - 1, false) != 0) {
      --given;
    }
    if (given < 2 || !glued(given) || !mark_at(text, tokens, given - 1, '/') || !glued(given - 1)) return none;
    const size_t surname = given - 2;
    const uint32_t begin = letters_from(surname, true);
    if (begin == 0 || (glued(surname) && is_word_byte(static_cast<unsigned char>(text[tokens[surname - 1].begin])))) {
      return none;
    }
    const bool small = text[begin] >= 'a' && text[begin] <= 'z';
    for (size_t k = given; k < t; ++k) {
      const bool opens_small = text[tokens[k].begin] >= 'a' && text[tokens[k].begin] <= 'z';
      if (opens_small != small ||
          (small && (gazetteer_.lookup(word_hash(text, tokens[k])).full & common_categories_) != 0)) {
        return none;
      }
    }
    const Gazetteer::Match g = gazetteer_.lookup(word_hash(text, tokens[given]));
    const uint64_t surname_hash = word_hash(text, Token{begin, tokens[surname].end, false, false});
    const bool everyday_surname = small && (gazetteer_.lookup(surname_hash).full & common_categories_) != 0;
    const bool known = (g.full & first_name_categories_) != 0 || only_a_given_name(text, given) ||
                       listed_surname(text, begin, tokens[surname].end);
    // (Or, in text with capitals, words in capitals of three letters or
    // more that no list knows, where the title ends its clause, as a
    // manifest writes a passenger: "ADEYEMI/TUNDE MR;".)
    auto unknown_word = [&](const Token& word) {
      if (word.end - word.begin < 3 || !all_capitals(text, word)) return false;
      const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, word));
      return (m.full | m.part) == 0;
    };
    auto unknown = [&] {
      if (!mixed || (t + 1 < n && !tokens[t + 1].newline_before &&
                     is_word_byte(static_cast<unsigned char>(text[tokens[t + 1].begin])))) {
        return false;
      }
      if (!unknown_word(Token{begin, tokens[surname].end, false, false})) return false;
      for (size_t k = given; k < t; ++k) {
        if (!unknown_word(tokens[k])) return false;
      }
      return true;
    };
    return (known && !everyday_surname) || unknown() ? PiiSpan{PiiType::kPerson, begin, tokens[t - 1].end} : none;
  };
  // Adds the name whose "/" is token d, where it is one; whether it did.
  auto add_at_slash = [&](size_t d) {
    if (d + 2 >= n || !mark_at(text, tokens, d, '/')) return false;
    for (size_t t = d + 2; t <= d + 3 && t < n; ++t) {
      if (!kBookedTitles.contains(text, tokens[t])) continue;
      const PiiSpan name = booked_name(t);
      if (name.end == 0) continue;
      // The spans of this tagging over the name and its title give way
      // (one that runs on past the title, from the word after it: "SOLVEIG
      // MS SEAT 14C" was an address); any other keeps it out, and so does
      // the name found already.
      bool free = true;
      for (size_t k = 0; k < out.size() && free; ++k) {
        if (out[k].end <= name.begin || out[k].begin >= tokens[t].end) continue;
        free = k >= first && out[k].begin >= name.begin &&
               !(out[k].type == PiiType::kPerson && out[k].begin == name.begin && out[k].end == name.end);
      }
      if (!free) return false;
      for (size_t k = first; k < out.size(); ++k) {
        if (out[k].end <= name.begin || out[k].begin >= tokens[t].end) continue;
        if (out[k].end > tokens[t].end && t + 1 < n && tokens[t + 1].begin < out[k].end) {
          out[k].begin = tokens[t + 1].begin;
        } else {
          mark_dropped(out, k);
        }
      }
      drop_marked_spans(out);
      add_span(out, name);
      sort_by_begin(out, first);
      return true;
    }
    return false;
  };
  // The "/"s inside the spans of this tagging or shortly before, which the
  // decoder puts somewhere over such a name ("HAUGEN", "SOLVEIG MS", "MR");
  // in text with capitals, of the spans that open with two capitals only
  // (most spans have none).
  constexpr uint32_t kReachBefore = 24;
  auto capital = [&](uint32_t at) { return at < text.size() && text[at] >= 'A' && text[at] <= 'Z'; };
  // (Where one is added the spans move: they are read again from the
  // first; each name is added once.)
  bool changed = false;
  for (size_t s = first; s < out.size();) {
    const PiiSpan span = out[s];
    bool added = false;
    if (!mixed || (capital(span.begin) && capital(span.begin + 1))) {
      const char* from = text.data() + (span.begin > kReachBefore ? span.begin - kReachBefore : 0);
      const char* to = text.data() + std::min<size_t>(text.size(), span.end + 1);
      for (const char* p = from; !added && (p = static_cast<const char*>(std::memchr(p, '/', static_cast<size_t>(to - p))));
           ++p) {
        added = add_at_slash(first_token_over(tokens, static_cast<uint32_t>(p - text.data())));
      }
    }
    changed = changed || added;
    s = added ? first : s + 1;
  }
  if (changed) reset_cover();
}

}  // namespace tiergate
