// In text with capitals, the names written in small letters after a word
// that introduces a person ("my landlord, kevin o'brien", "Please remind
// maria garcia", "my name is david"): add_small_letter_names_after_cues().
// The decoder and the other name passes of such text read only the marked
// tokens (capitals, digits), so a name typed in small letters in a prompt
// that has capitals elsewhere went out whole.
#include "tiergate/privacy/pii_tagger.h"

#include <array>
#include <string_view>
#include <vector>

#include "tagger_rules.h"
#include "word_filter.h"

namespace tiergate {

using namespace tagger_rules;

namespace {


// Verbs whose object is as often a thing as a person ("call center", "email
// marketing", "text message"): only a name that no everyday list knows
// follows them here.
constexpr std::array<std::string_view, 12> kContactVerbWords = {"call", "email", "text",  "message", "contact",  "ping",
                                                                "cc",   "meet",  "gave", "given",   "handed", "starring"};
constexpr WordSet kContactVerbs(kContactVerbWords);
// The verbs before "at" and a person: "shouted at samantha".
constexpr std::array<std::string_view, 6> kAtPersonWords = {"shouted", "yelled", "screamed", "smiled", "waved", "winked"};
constexpr WordSet kAtPerson(kAtPersonWords);

// The commonest of the words written or spoken "to" a person ("an email
// to john", "reply to jessica"; "email", "text" and "message" are contact
// verbs), of the verbs of speech after a speaker ("what kevin said"), and
// of the roles whose form field holds a name ("Patient: luis fernandez"):
// a word more in the filter lets more tokens through it, each asked again.
constexpr std::array<std::string_view, 13> kWrittenToCueWords = {
    "letter", "note", "reply", "respond", "write",   "wrote",    "talk",
    "talked", "speak", "spoke", "introduce", "explain", "explained"};
constexpr std::array<std::string_view, 6> kSaidWords = {"said", "says", "asked", "told", "replied", "added"};
constexpr WordSet kSaid(kSaidWords);
// The words before a person met, heard from or whose work it is ("lunch
// with derek", "the notes from rachel", "a draft by priya"): as often
// before a thing, a place or a team ("with python", "from paris"), so only
// a first name no everyday or place's list knows follows them here. ("by"
// costs the filter nothing more: it shares the bit of "with".) With them
// "me", whose company is named beside it as such a first name ("me and
// kevin", "kevin and me"): a branch of its own in the loop over the
// filter's hits cost 5M instructions more on the dev prompts than one
// inside theirs.
constexpr std::array<std::string_view, 4> kCompanyWords = {"with", "from", "by", "me"};
constexpr WordSet kCompany(kCompanyWords);
// The keys of an account's field in a log or a form ("user=dmitri.volkov",
// "login: priya").
constexpr std::array<std::string_view, 3> kAccountWords = {"user", "username", "login"};
constexpr WordSet kAccounts(kAccountWords);
constexpr std::array<std::string_view, 10> kFieldRoleWords = {
    "patient", "customer", "employee", "student", "tenant", "applicant", "landlord", "plaintiff", "defendant", "witness"};
constexpr WordSet kFieldRoles(kFieldRoleWords);

// The relatives of kRelatives named together, whose names come in a series:
// "my daughters elowen and marigold".
constexpr WordSet kPluralRelatives(std::array<std::string_view, 12>{
    "parents", "grandparents", "kids", "children", "sons", "daughters", "twins", "siblings", "friends", "cousins",
    "brothers", "sisters"});

// The verbs of making a work before "by" and its maker: "directed by".
constexpr WordSet kCreditVerbs(std::array<std::string_view, 9>{
    "directed", "written", "produced", "composed", "painted", "narrated", "illustrated", "authored", "edited"});

// The notes of code that name their owner in brackets: "// TODO(marguerite):
// remove", "# FIXME(jdoe)".
constexpr std::array<std::string_view, 2> kCodeNoteWords = {"todo", "fixme"};
constexpr WordSet kCodeNotes(kCodeNoteWords);

// The words that end or open a cue below but the relatives, which follow a
// possessive determiner: the filter finds the determiner. (The verbs of
// speech follow the name.)
constexpr auto kCueWordList = joined(
    joined(joined(joined(joined(joined(joined(kPossessiveDeterminerWords, kAddressVerbWords), kContactVerbWords),
                                joined(kEnglishTitleWords, kTitleOfAddressWords)),
                         joined(kCalledVerbWords, kKinTitleWords)),
                  joined(joined(kNameWordsElsewhere, kWrittenToCueWords), kAtPersonWords)),
           joined(joined(kClosingWords, kSaidWords), joined(joined(kFieldRoleWords, kNamingWords), kAccountWords))),
    std::array<std::string_view, 11>{"name", "name's", "surname", "hi", "hello", "hey", "dear", "starring", "birthday",
                                     "congratulations", "congrats"});
// The filter over every token, and the exact test of the tokens it lets
// through ("I'm" apart: WordSet reads only words whose first two bytes are
// letters). The filter lets the abbreviated titles of address through too,
// for add_names_after_titles_of_address(), and "who", for
// add_names_before_who_in_small_letters().
constexpr WordFilter kCueWords(joined(
    joined(joined(kCueWordList, std::array<std::string_view, 3>{"i'm", "i\u2019m", "who"}), kAbbreviatedTitleWords),
    joined(kCompanyWords, kCodeNoteWords)));
constexpr WordSet kCueWordSet(kCueWordList);

// The labels of a form's fields whose value is a person's name, opening
// their line before a colon, that the cue words' filter does not find
// ("Emergency contact: perpetua okoro (mother)", "Ship to: thabo nkosi,
// 22 jan smuts avenue"): in small letters, one blank apart.
// (Not a payment's or a letter's "Recipient:" or "Sender:", as often a
// firm.)
constexpr std::array<std::string_view, 23> kPersonLabels = {
    "emergency contact", "contact person", "contact", "next of kin", "case worker", "caseworker", "insured",
    "policyholder", "policy holder", "account holder", "beneficiary", "assignee", "reviewer", "attention", "attn",
    "ship to", "bill to", "sold to", "invoice to", "deliver to", "return to sender", "full name", "guest"};

// The last words of kPersonLabels, asked first.
constexpr WordSet kPersonLabelEnds(std::array<std::string_view, 17>{
    "contact", "person", "kin", "worker", "caseworker", "insured", "policyholder", "holder", "beneficiary", "assignee",
    "reviewer", "attention", "attn", "to", "sender", "name", "guest"});

// Whether tokens [from, to] of one line, one blank apart, are one of
// kPersonLabels.
bool person_label(std::string_view text, Tokens tokens, size_t from, size_t to) {
  if (!kPersonLabelEnds.contains(text, tokens[to])) return false;
  char label[24];
  size_t size = 0;
  for (size_t k = from; k <= to; ++k) {
    if (k > from && (tokens[k].newline_before || tokens[k].begin != tokens[k - 1].end + 1)) return false;
    const size_t n = tokens[k].end - tokens[k].begin;
    if (size + n + (k > from ? 1 : 0) > sizeof label) return false;
    if (k > from) label[size++] = ' ';
    for (size_t b = 0; b < n; ++b) {
      label[size++] = static_cast<char>(kByteView[static_cast<unsigned char>(text[tokens[k].begin + b])].lower);
    }
  }
  const std::string_view word(label, size);
  return std::find(kPersonLabels.begin(), kPersonLabels.end(), word) != kPersonLabels.end();
}

// The first words of a key, joined to "name" by an underscore, whose value
// is a person's name ("last_name", "patient_name"; not "file_name").
constexpr WordSet kPersonNameKeys(std::array<std::string_view, 14>{
    "first", "last", "full", "given", "family", "middle", "maiden", "patient", "customer", "client", "contact",
    "employee", "student", "guest"});

// How strongly a cue says that a person follows, which decides the words
// it accepts as a name (PiiTagger::add_small_letter_names_after_cues()).
enum class Cue {
  kNone,
  kNamed,               // "name is", "name's", "dr.": any word but an everyday one
  kTitledWithoutAStop,  // "dr", "ms" (milliseconds too): a name a list knows
  kTitledInFull,        // "professor", "judge": PiiTagger::titled_name()
  kRelative,            // "my friend": a word no everyday list knows
  kAddressed,           // "remind": a first name a list knows
  kAskedFor,            // "ask for": so, or a capitalised firm or place of the tagger's
  kContacted,           // "call", "I'm", "hi": such a first name, no everyday word
  kRoleOrCalled,        // "patient" without a colon, "called": such a first name, no everyday word
  kRoleSetOff,          // "the witness,": a first name or a word no list knows, set off by a comma
  kSigned,              // a closing's line ("Thanks,"): the next line, a name alone
  kAccount,             // "user=": such a first name, and a surname after "."
  kField,               // "Name:" opening its line: as kNamed, the name alone in its clause
};

}  // namespace

void PiiTagger::add_small_letter_names_after_cues(std::string_view text, std::span<const uint32_t> i_after_and,
                                                  std::span<const uint32_t> line_starts, std::vector<PiiSpan>& out,
                                                  size_t first) const {
  if (name_categories_ == 0 || common_categories_ == 0) return;
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  constexpr size_t kMaxWords = 3;
  auto mark_is = [&](size_t j, char c) { return mark_at(text, tokens, j, c); };
  auto is = [&](size_t j, std::string_view w) { return token_is(text, tokens[j], w); };
  // "I'm", "i’m".
  auto i_am = [&](size_t c) {
    const std::string_view w = text.substr(tokens[c].begin, tokens[c].end - tokens[c].begin);
    return (w.size() == 3 || w.size() == 5) && (w[0] == 'I' || w[0] == 'i') &&
           (w.substr(1) == "'m" || w.substr(1) == "\u2019m");
  };
  // Whether token k is a word in small letters with a possessive's 's:
  // "neighbour's".
  auto possessive = [&](size_t k) {
    return text[tokens[k].begin] >= 'a' && text[tokens[k].begin] <= 'z' && ends_in_a_possessive(text, tokens[k]);
  };
  // The cue that token c ends, and the token where the name would open.
  auto cue_at = [&](size_t c, size_t& name) {
    name = c + 1;
    if (i_am(c)) return Cue::kContacted;
    // A work's maker ("directed by mark roseby", "written by zorvath
    // quill"): as after a relative, a first name that is an everyday word
    // too, or any word no everyday list knows.
    // (The loop below asks for the verb before "by", which no other path
    // brings here.)
    if (is(c, "by")) return Cue::kRelative;
    // The cast of a film or a play: "and starring söderberg".
    if (is(c, "starring")) return Cue::kRelative;
    // Wished well: "happy birthday zorvath!", "happy birthday to zorvath",
    // "congratulations to zorvath on".
    if (is(c, "birthday")) {
      if (c == 0 || !is(c - 1, "happy")) return Cue::kNone;
      if (c + 1 < n && is(c + 1, "to")) name = c + 2;
      return Cue::kRelative;
    }
    if (is(c, "congratulations") || is(c, "congrats")) {
      name = c + 2;
      return c + 1 < n && is(c + 1, "to") ? Cue::kRelative : Cue::kNone;
    }
    // Written or spoken to: "an email to john", "reply to jessica",
    // "shouted at samantha".
    if (c + 1 < n && ((is(c + 1, "to") && kWrittenTo.contains(text, tokens[c])) ||
                      (is(c + 1, "at") && kAtPerson.contains(text, tokens[c])))) {
      name = c + 2;
      return Cue::kContacted;
    }
    // A form's field that holds a person's name, its label opening its
    // line (line_labels below asks these): "Emergency contact: perpetua
    // okoro (mother)".
    if (mark_is(c + 1, ':') && tokens[c + 1].begin == tokens[c].end) {
      for (size_t l = c - std::min<size_t>(c, 2); l <= c; ++l) {
        if ((l == 0 || tokens[l].newline_before) && person_label(text, tokens, l, c)) {
          name = c + 2;
          return Cue::kField;
        }
      }
    }
    // A code's, a log's or a record's key for a person's name, its words
    // joined by an underscore, then ':' or '=' and maybe a quote: the
    // value is a form's field ("last_name=engelhardt", "patient_name =
    // 'ebenezer okafor'"); not "file_name=".
    if (is(c, "name") && c >= 2 && c + 2 < n && mark_is(c - 1, '_') && tokens[c - 1].begin == tokens[c - 2].end &&
        tokens[c].begin == tokens[c - 1].end && kPersonNameKeys.contains(text, tokens[c - 2]) &&
        (mark_is(c + 1, ':') || mark_is(c + 1, '='))) {
      name = c + 2;
      if (mark_is(name, '\'') || mark_is(name, '"')) ++name;
      return Cue::kField;
    }
    // A form's field: "name: john smith", "Patient: luis fernandez" (not
    // "Customer: will be"); its label opening its line, any words of a
    // name that end its clause, "Name: leocadia brandt" (not "name: mark
    // as read").
    if ((mark_is(c + 1, ':') || mark_is(c + 1, '=')) && tokens[c + 1].begin == tokens[c].end &&
        (is(c, "name") || kRoles.contains(text, tokens[c]) || kAccounts.contains(text, tokens[c]))) {
      name = c + 2;
      if (kAccounts.contains(text, tokens[c])) return Cue::kAccount;
      return (c == 0 || tokens[c].newline_before) && mark_is(c + 1, ':') ? Cue::kField : Cue::kContacted;
    }
    // (A booking's "under the name": "a table under the name xiaoling
    // zhang".)
    if (is(c, "name") && c >= 2 && is(c - 1, "the") && is(c - 2, "under")) return Cue::kNamed;
    if (is(c, "name") || kNamesElsewhere.contains(text, tokens[c])) {
      name = c + 2;
      return c + 1 < n && (is(c + 1, "is") || is(c + 1, "was") || kIsElsewhere.contains(text, tokens[c + 1]))
                 ? Cue::kNamed
                 : Cue::kNone;
    }
    // A surname's "is", "was" or "to": "correct the spelling of my surname
    // to wojciechowska".
    if (is(c, "surname")) {
      name = c + 2;
      return c + 1 < n && (is(c + 1, "is") || is(c + 1, "was") || is(c + 1, "to")) ? Cue::kNamed : Cue::kNone;
    }
    if (is(c, "name's") || kCalledVerbs.contains(text, tokens[c])) return Cue::kNamed;
    if (kEnglishTitles.contains(text, tokens[c])) {
      if (!mark_is(c + 1, '.') || tokens[c + 1].begin != tokens[c].end) return Cue::kTitledWithoutAStop;
      name = c + 2;
      return Cue::kNamed;
    }
    // (A relative after a possessive determiner; "doctor" and "coach"
    // alone are titles, below.)
    // (Or after a possessive that follows one, "my neighbour's kid,
    // lucian"; an in-law's words are the relative's, "my mother-in-law,
    // gwendoline".)
    if (kRelatives.contains(text, tokens[c]) && c > 0 &&
        (kPossessiveDeterminers.contains(text, tokens[c - 1]) ||
         (c > 1 && (possessive(c - 1) || (small_word(text, tokens[c - 1], 2) && !function_word(text, tokens[c - 1]))) &&
          kPossessiveDeterminers.contains(text, tokens[c - 2])))) {
      if (in_law_after(text, tokens, c)) name = c + 5;
      if (mark_is(name, ',')) ++name;  // "my landlord, kevin"
      return Cue::kRelative;
    }
    if (kClosings.contains(text, tokens[c])) {
      // (Its comma, then the line's end: "Best regards,\nkevin"; or its
      // comma and the name on its line, "signed, cassius oyelaran, head of
      // operations", read below.)
      const bool comma = mark_is(c + 1, ',');
      name = c + (comma ? 2 : 1);
      return name < n && (tokens[name].newline_before || comma) && ends_a_closing_line(text, tokens, c) ? Cue::kSigned
                                                                                                      : Cue::kNone;
    }
    if (kAddressVerbs.contains(text, tokens[c])) {
      if (!is(c, "ask") || c + 1 >= n || !is(c + 1, "for")) return Cue::kAddressed;
      name = c + 2;
      return Cue::kAskedFor;
    }
    if (kGreetings.contains(text, tokens[c])) {
      // (Or the caller's "it's" or "this is" after it, maybe after a comma:
      // "hi it's dominika from the school", "hi, this is dagfinn from
      // accounting", where any word but an everyday one is the caller's
      // name, as after "name is".) At the text's or a line's start; so
      // introduced, after a quote's opening mark too: "reply to this: 'hi
      // it's dominika".
      const size_t after = c + 1 < n && mark_is(c + 1, ',') ? c + 2 : c + 1;
      const bool its = after < n && (is(after, "it's") || is(after, "it\u2019s"));
      const bool this_is = after + 1 < n && is(after, "this") && is(after + 1, "is");
      if (its || this_is) name = after + (its ? 1 : 2);
      const bool quoted = (its || this_is) && c > 0 && (is(c - 1, "'") || is(c - 1, "\"") || is(c - 1, "\u201c")) &&
                          tokens[c].begin == tokens[c - 1].end;
      if (c != 0 && !tokens[c].newline_before && !quoted) return Cue::kNone;
      return its || this_is ? Cue::kNamed : Cue::kContacted;
    }
    if (kTitlesOfAddress.contains(text, tokens[c])) return Cue::kTitledInFull;
    if (kKinTitles.contains(text, tokens[c])) return Cue::kRelative;  // "aunt linda"
    // A form's role without its colon, or a word that gives a name, before
    // a first name: "patient rosalind mbeki, 54,", "someone called
    // evangeline" (not "patient care", "the plaintiff will", "a function
    // called max": kRoleOrCalled).
    // (Or a role and its comma before a name set off by another: "The
    // witness, prudence okwuosa, lives at".)
    if (kFieldRoles.contains(text, tokens[c]) && mark_is(c + 1, ',') && tokens[c + 1].begin == tokens[c].end) {
      name = c + 2;
      return Cue::kRoleSetOff;
    }
    // (A naming word gives a person's name after a person noun: "a man
    // called barnaby"; alone, as often a thing's, "a function called max".)
    if (after_a_person_called(text, tokens, c + 1)) return Cue::kNamed;
    // (Or after "him" or "her", as one names a child: "She named him
    // bartholomew"; not "called her yesterday", an everyday word.)
    if (kNaming.contains(text, tokens[c]) && c + 2 < n && one_blank_after(text, tokens, c + 1) &&
        (is(c + 1, "him") || is(c + 1, "her"))) {
      name = c + 2;
      return Cue::kNamed;
    }
    if (kFieldRoles.contains(text, tokens[c]) || kNaming.contains(text, tokens[c])) return Cue::kRoleOrCalled;
    // ("given" a verb after an auxiliary, "had given mary"; not the
    // adjective of "the given line".)
    if (is(c, "given") && !(c > 0 && (is(c - 1, "had") || is(c - 1, "has") || is(c - 1, "have") || is(c - 1, "was")))) {
      return Cue::kNone;
    }
    return kContactVerbs.contains(text, tokens[c]) ? Cue::kContacted : Cue::kNone;
  };
  // A word in small letters on the line of the token before it (that opens
  // a line, with `opens_a_line`), that is no
  // word standing in no name, no title and no word only the everyday lists
  // know, nor a contraction's ("didn" of "didn't") or code's ("else {"):
  // a word, a mark that ends a clause or the line's end follows it. Its
  // matches in `m`, without a possessive's 's.
  auto small_name_word = [&](size_t k, Gazetteer::Match& m, uint32_t& end, bool opens_a_line = false) {
    if (k >= n || tokens[k].newline_before != opens_a_line) return false;
    const Token& t = tokens[k];
    const auto c = static_cast<unsigned char>(text[t.begin]);
    if (c < 'a' || c > 'z' || t.end - t.begin < 2 || function_word(text, t)) return false;
    if (k + 1 < n && !tokens[k + 1].newline_before) {
      const auto next = static_cast<unsigned char>(text[tokens[k + 1].begin]);
      // (Or a bracket a blank apart, "perpetua okoro (mother)"; not a
      // call's, "print(".)
      const bool bracket_after_a_blank = next == '(' && tokens[k + 1].begin > t.end;
      if (!is_word_byte(next) && !bracket_after_a_blank &&
          std::string_view(".,;:!?)'\"").find(static_cast<char>(next)) == std::string_view::npos) {
        return false;
      }
    }
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
    end = t.begin + static_cast<uint32_t>(possessive_stem(b, t.end - t.begin));
    m = gazetteer_.lookup(word_hash(text, Token{t.begin, end, false, false}));
    return !is_title(m) && !everyday(m);
  };
  // A surname in small letters of a Gaelic shape: "o'brien", "mcallister".
  auto gaelic_surname = [&](size_t k) {
    return gaelic_surname_in_small_letters(text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin));
  };
  // Whether token k, a small_name_word() of matches `m` whose name ends at
  // `end` (without a possessive's 's), is a first name a list knows or a
  // given name alone, and no place's.
  auto first_name_not_a_place = [&](size_t k, const Gazetteer::Match& m, uint32_t end) {
    if ((m.full & place_categories_) != 0) return false;
    return (m.full & first_name_categories_) != 0 ||
           only_a_given_name(text, k, m, word_hash(text, Token{tokens[k].begin, end, false, false}));
  };
  // Adds the first names coordinated with a name this pass added, whose
  // last token is `last` ("to jessica and tom", "invite carlos, maria, and
  // jen"): after a comma, "and" or "or", a word in small letters that a
  // first names' list knows, or a given name alone, that no place's list
  // knows, is no verb that names people too ("and will") and no span
  // covers. After relatives named together (`relatives`: "my daughters"),
  // the last of the series, after "and" where its clause ends, may be an
  // everyday word too: "my daughters elowen and marigold" (not a function
  // word: "my sons and I"). The last token of the last name.
  auto coordinated_first_names = [&](size_t last, bool relatives = false) {
    for (size_t k = last + 1; k < n && !tokens[k].newline_before;) {
      const bool comma = mark_is(k, ',');
      if (comma) ++k;
      const bool and_before = k < n && is(k, "and");
      if (k < n && (and_before || is(k, "or"))) {
        ++k;
      } else if (!comma) {
        break;
      }
      Gazetteer::Match m;
      uint32_t end = 0;
      const bool name_word = small_name_word(k, m, end);
      bool everyday_last = false;
      if (!name_word && relatives && and_before && k < n && !tokens[k].newline_before && small_word(text, tokens[k], 3) &&
          !function_word(text, tokens[k]) && clause_ends_after(text, tokens, k)) {
        m = gazetteer_.lookup(word_hash(text, tokens[k]));
        end = tokens[k].end;
        everyday_last = everyday(m) && (m.full & place_categories_) == 0 && !is_title(m);
      }
      if (!(name_word || everyday_last) || kVerbsNamedAsPeople.contains(text, tokens[k]) ||
          !(everyday_last || first_name_not_a_place(k, m, end)) || span_over(out, k) != out.size()) {
        break;
      }
      add_span(out, {PiiType::kPerson, tokens[k].begin, end});
      last = k++;
    }
    return last;
  };
  // An account's name: a first name in small letters that no everyday
  // list knows, maybe then "." and a surname glued to it that no everyday
  // list knows either, the value's end after it ("user=dmitri",
  // "user=dmitri.volkov", "login: priya.raman"; not "user=anna.berg.example").
  // (Joined by "_" it reads as code's identifier: drop_code_identifiers().)
  // Out of line: few cues are an account's, and name_after_a_cue() runs
  // for every cue.
  auto account_name = [&](size_t c, size_t j) __attribute__((noinline)) {
    auto unlisted_elsewhere = [&](size_t k, uint16_t categories) {
      if (k >= n || !small_word(text, tokens[k], 2)) return false;
      const Gazetteer::Match listed = gazetteer_.lookup(word_hash(text, tokens[k]));
      return (listed.full & categories) == categories && (listed.full & common_categories_) == 0;
    };
    auto glued = [&](size_t k) { return glued_to_the_one_before(tokens, k); };
    auto value_ends_after = [&](size_t k) {
      return !glued(k + 1) || !(mark_is(k + 1, '.') || mark_is(k + 1, '_') || mark_is(k + 1, '@')) ||
             !glued(k + 2) || !is_word_byte(static_cast<unsigned char>(text[tokens[k + 2].begin]));
    };
    if (j >= n || (tokens[j].begin != tokens[j - 1].end && !one_blank_after(text, tokens, j)) ||
        !unlisted_elsewhere(j, first_name_categories_) ||
        span_over(out, j) != out.size()) {
      return c;
    }
    size_t last = j;
    if (mark_is(j + 1, '.') && glued(j + 1) && glued(j + 2) && unlisted_elsewhere(j + 2, 0) &&
        span_over(out, j + 2) == out.size()) {
      last = j + 2;
    }
    if (!value_ends_after(last)) return c;
    add_span(out, {PiiType::kPerson, tokens[j].begin, tokens[last].end});
    return last;
  };
  // Adds the name after the cue that token c ends, if any; the last token
  // of the name, or c.
  auto name_after_a_cue = [&](size_t c) {
    size_t j = 0;
    const Cue cue = cue_at(c, j);
    if (cue == Cue::kNone) return c;
    // A capitalised word asked for ("Ask for Siobhan at the desk"): a place
    // or firm of this tagging over just the word that no place's, company's
    // or everyday list knows, not in capitals throughout, is the person, as
    // after the address verbs themselves (add_introduced_names()).
    if (cue == Cue::kAskedFor && j < n && !tokens[j].newline_before && text[tokens[j].begin] >= 'A' &&
        text[tokens[j].begin] <= 'Z') {
      const size_t k = span_over(out, j);
      if (k == out.size() || !own_place_or_organisation(out, k, first, tokens[j].begin, tokens[j].end) ||
          all_capitals(text, tokens, j)) {
        return c;
      }
      const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, tokens[j]));
      if ((m.full & (place_categories_ | world_city_categories_ | company_categories_ | common_categories_)) == 0) {
        out[k].type = PiiType::kPerson;
      }
      return j;
    }
    // A capitalised first name that no span covers, one space after a verb
    // that addresses or contacts someone ("Tell Pat I said hi", "remind
    // Bill", "and cc Kwame"): the decoder took it for the everyday word, or
    // for nothing. Not one before another capitalised word, a full name
    // add_full_names_of_listed_words() reads. A given name alone counts
    // (only_a_given_name()).
    if ((cue == Cue::kAddressed || cue == Cue::kContacted) && j < n && tokens[j].begin == tokens[c].end + 1 &&
        text[tokens[j].begin] >= 'A' && text[tokens[j].begin] <= 'Z') {
      const bool capitalised_after = j + 1 < n && tokens[j + 1].begin == tokens[j].end + 1 &&
                                     tokens[j + 1].end - tokens[j + 1].begin >= 2 && text[tokens[j + 1].begin] >= 'A' &&
                                     text[tokens[j + 1].begin] <= 'Z';
      if (capitalised_after || all_capitals(text, tokens, j) || span_over(out, j) != out.size()) return c;
      const Gazetteer::Match listed = gazetteer_.lookup_all(word_hash(text, tokens[j]));
      if (((listed.full & first_name_categories_) == 0 && !only_a_given_name(text, j)) || is_title(listed)) {
        return c;
      }
      add_span(out, {PiiType::kPerson, tokens[j].begin, tokens[j].end});
      return j;
    }
    if (cue == Cue::kAccount) return account_name(c, j);
    Gazetteer::Match m;
    uint32_t end = 0;
    // (A form's value may stand further off, aligned by blanks: "Name:
    // phillip grant".)
    auto far_off = [&] {
      if (tokens[j].begin <= tokens[j - 1].end + 2) return false;
      return cue != Cue::kField ||
             text.find_first_not_of(" \t", tokens[j - 1].end) != tokens[j].begin;
    };
    if (cue == Cue::kSigned ? !small_name_word(j, m, end, j < n && tokens[j].newline_before)
                            : !small_name_word(j, m, end) || far_off()) {
      return c;
    }
    const bool common = (m.full & common_categories_) != 0;
    // The name's first word without a possessive's 's (`end` moves on
    // over the surnames below).
    const Token first_word{tokens[j].begin, end, false, false};
    const uint64_t first_word_hash = word_hash(text, first_word);
    // (A given name alone counts: "tell bartek that".)
    const bool first_name = (m.full & first_name_categories_) != 0 || only_a_given_name(text, j, m, first_word_hash);
    // The surnames after it, one space apart: a word a last-name list knows
    // (an everyday one too after "name is" or a title, or where the clause
    // ends after it), or of a Gaelic shape.
    size_t to = j;
    // (A possessive ends the name: "my son kevin's keys".)
    while (to + 1 < n && to + 1 - j < kMaxWords && end == tokens[to].end && tokens[to + 1].begin == tokens[to].end + 1 &&
           text[tokens[to].end] == ' ') {
      Gazetteer::Match s;
      uint32_t s_end = 0;
      if (!small_name_word(to + 1, s, s_end)) break;
      // A word of three letters or more that no list knows at all but
      // chat's shorthand, where the clause ends after it or an everyday
      // word follows it: "patient rosalind mbeki, 54", "my neighbour
      // barnaby whitcombe keeps", not "call kevin asap, please".
      auto unknown_last_word = [&] {
        const bool ends_the_name = clause_ends_after(text, tokens, to + 1) ||
                                   (s_end == tokens[to + 1].end && everyday_word_after(text, to + 1));
        if (s_end - tokens[to + 1].begin < 3 || !ends_the_name || kChatShorthand.contains(text, tokens[to + 1])) {
          return false;
        }
        return !gazetteer_.knows(word_hash(text, Token{tokens[to + 1].begin, s_end, false, false}));
      };
      // A first name's second word that only a given name's list knows,
      // no everyday or place's list, where the clause ends after it: a
      // surname that is a given name too, as many are ("our new intern,
      // chukwudi obi, starts"; "obi" and "chukwudi" are given names).
      auto given_name_ending_the_name = [&] {
        if (!first_name || to != j || s_end != tokens[to + 1].end || !clause_ends_after(text, tokens, to + 1) ||
            ((s.full | s.part) & (common_categories_ | place_categories_)) != 0) {
          return false;
        }
        return (s.full & first_name_categories_) != 0 ||
               only_a_given_name(text, to + 1, s, word_hash(text, tokens[to + 1]));
      };
      // (On a closing's next line, alone there after a first word that is
      // no everyday one, any word no everyday list knows: "priya raman".)
      const bool surname = ((s.full & last_name_categories_) != 0 &&
                            ((s.full & common_categories_) == 0 || cue == Cue::kNamed || clause_ends_after(text, tokens, to + 1))) ||
                           (cue == Cue::kSigned && !common && (s.full & common_categories_) == 0) ||
                           (cue == Cue::kField && (s.full & (common_categories_ | place_categories_)) == 0) ||
                           unknown_last_word() || given_name_ending_the_name();
      if (!surname && !gaelic_surname(to + 1)) break;
      ++to;
      end = s_end;
    }
    // An everyday word that is a first name too ("john", "will", "baby") is
    // the name where a surname follows it or nothing follows its words in
    // the clause ("my boss, john,"), or, written or spoken to, where what
    // is said of it follows ("an email to john about the meeting"); after
    // "name is" or a title, whatever follows.
    static constexpr WordSet kWhatIsSaid(std::array<std::string_view, 4>{"about", "regarding", "asking", "saying"});
    const bool what_is_said_follows = to + 1 < n && !tokens[to + 1].newline_before &&
                                      tokens[to + 1].begin == tokens[to].end + 1 && kWhatIsSaid.contains(text, tokens[to + 1]);
    const bool said_to = j >= 2 && is(j - 1, "to") && kWrittenTo.contains(text, tokens[j - 2]) && what_is_said_follows;
    // Explained to, before what is explained: "explain to orsolya why the
    // sky is blue" (not "explain to them": a word some list knows).
    static constexpr WordSet kExplained(std::array<std::string_view, 5>{"why", "how", "what", "that", "where"});
    const bool explained_to = j >= 2 && is(j - 1, "to") && (is(j - 2, "explain") || is(j - 2, "explained")) &&
                              to + 1 < n && !tokens[to + 1].newline_before &&
                              tokens[to + 1].begin == tokens[to].end + 1 && kExplained.contains(text, tokens[to + 1]);
    const bool confirmed = to > j || clause_ends_after(text, tokens, to) || said_to;
    // Contacted with what is said: "text mike that I'm late".
    const bool said_that = to + 1 < n && !tokens[to + 1].newline_before && is(to + 1, "that");
    // A word of three letters or more that no list knows, before "who"
    // ("help me respond to fenella who asked", "a guy called zorvath
    // who"), or, contacted, before what the speaker says of themselves
    // ("tell bartek i'll be there").
    // (The lists asked last, where the words around ask for it.)
    const bool said_by_the_speaker = to + 1 < n && !tokens[to + 1].newline_before &&
                                     tokens[to + 1].begin == tokens[to].end + 1 && speaker_as_subject(text, tokens[to + 1]);
    auto unknown = [&] { return first_word.end - first_word.begin >= 3 && !gazetteer_.knows(first_word_hash); };
    // A word of a name's list, a surname of the census too ("fergus",
    // "bartholomew"), that no everyday or place's list knows.
    auto names_word = [&] {
      return !common && ((m.full | m.part) & place_categories_) == 0 &&
             ((m.full & name_categories_) != 0 || listed_surname(text, first_word.begin, first_word.end));
    };
    auto unknown_before_who = [&] { return who_follows(text, tokens, to) && unknown(); };
    // Addressed, before "to" and a verb, one blank apart: "could you ask
    // fenella to send me the slides", "remind zorvath to call" (not "tell
    // nginx to the", where no verb follows; a word some list knows, "ask
    // users to", was turned away above or is read as such).
    auto asked_to_do = [&] {
      return end == tokens[to].end && to + 2 < n && !tokens[to + 2].newline_before &&
             tokens[to + 1].begin == tokens[to].end + 1 && is(to + 1, "to") &&
             tokens[to + 2].begin == tokens[to + 1].end + 1 && text[tokens[to + 2].begin] >= 'a' &&
             text[tokens[to + 2].begin] <= 'z' && tokens[to + 2].end - tokens[to + 2].begin >= 2 &&
             !function_word(text, tokens[to + 2]);
    };
    // Addressed, before what one wishes or says to them: "tell zorvath
    // happy birthday", "tell zorvath thanks".
    auto wished_well = [&] {
      static constexpr WordSet kWishes(std::array<std::string_view, 9>{
          "happy", "merry", "congrats", "congratulations", "thanks", "hi", "hello", "sorry", "goodbye"});
      return to + 1 < n && !tokens[to + 1].newline_before && tokens[to + 1].begin == tokens[to].end + 1 &&
             kWishes.contains(text, tokens[to + 1]);
    };
    // After a role, a word no list knows before a surname that a list or
    // the census knows, one blank apart, which the loop above left out as
    // an everyday word's or a place's too: "Patient horatio blackwood,
    // 67,".
    const bool unknown_before_a_surname = cue == Cue::kRoleOrCalled && to == j && end == tokens[j].end && j + 1 < n &&
                                          one_blank_after(text, tokens, j + 1) && small_word(text, tokens[j + 1], 3) &&
                                          !function_word(text, tokens[j + 1]) &&
                                          listed_surname(text, tokens[j + 1].begin, tokens[j + 1].end) && unknown();
    // In a form's field, a surname that the lists or the census know where
    // the clause ends after it, which the loop above left out as an
    // everyday word's too: "Name: ysolde marsh".
    const bool surname_ending_a_field = cue == Cue::kField && to == j && end == tokens[j].end && j + 1 < n &&
                                        one_blank_after(text, tokens, j + 1) && small_word(text, tokens[j + 1], 3) &&
                                        !function_word(text, tokens[j + 1]) && clause_ends_after(text, tokens, j + 1) &&
                                        listed_surname(text, tokens[j + 1].begin, tokens[j + 1].end);
    if (unknown_before_a_surname || surname_ending_a_field) {
      to = j + 1;
      end = tokens[to].end;
    }
    bool name = false;
    switch (cue) {
      case Cue::kNamed: name = !common || (m.full & name_categories_) != 0; break;
      // ("mr" and "mrs" have no other sense: any word no everyday list
      // knows, "mr petrakis"; "ms" is milliseconds too, "dr" a drive.)
      case Cue::kTitledWithoutAStop:
        name = (m.full & name_categories_) != 0 || ((is(c, "mr") || is(c, "mrs")) && !common);
        break;
      case Cue::kTitledInFull:
        name = titled_name(text.substr(tokens[c].begin, tokens[c].end - tokens[c].begin), m,
                           text.substr(tokens[j].begin, end - tokens[j].begin));
        break;
      // (A relative's possessive is the name's too: "my gf jasmine's
      // birthday". A first name that is an everyday word is one anywhere
      // but a verb or adverb that follows a relative as often: "my boss
      // mike said", not "my son will".)
      // (Nor at the clause's end: "we told my son will", "her husband, sue
      // and be sued".)
      case Cue::kRelative:
        name = !common ||
               (first_name && (to > j || end != tokens[to].end || !kVerbsNamedAsPeople.contains(text, tokens[j])));
        break;
      // (Or a word no list knows before what is said of it: "remind
      // ysolde about the rent", "call fenwick regarding the invoice".)
      case Cue::kAddressed:
        name = first_name || unknown_before_who() ||
               ((said_by_the_speaker || asked_to_do() || what_is_said_follows || wished_well()) &&
                (unknown() || names_word()));
        break;
      case Cue::kAskedFor: name = first_name || unknown_before_who(); break;
      case Cue::kContacted:
        name = (first_name && (!common || confirmed || said_that)) || unknown_before_who() ||
               ((said_by_the_speaker || what_is_said_follows || explained_to) && unknown());
        break;
      // (Or two words or more, the first no list knows, before a verb of
      // speech: "customer oyelaran adebayo says".)
      case Cue::kRoleOrCalled:
        name = (first_name && !common) || unknown_before_who() || unknown_before_a_surname ||
               (to > j && unknown() && one_blank_after(text, tokens, to + 1) && kSaid.contains(text, tokens[to + 1]));
        break;
      // (A name of two words or more, or of one that no everyday list
      // knows, then the comma that sets it off: not "the defendant,
      // however, said".)
      // (Or, of two words or more, a first word that a name's list knows
      // and no everyday or place's list: "the landlord, fergus
      // mcallister, and"; "fergus" is a surname of the census.)
      case Cue::kRoleSetOff:
        name = to + 1 < n && mark_is(to + 1, ',') && tokens[to + 1].begin == end &&
               (first_name || unknown() || (to > j && names_word())) &&
               (to > j || !common);
        break;
      // (On the closing's line, set off by a comma or the line's end: a
      // first name that is no everyday word, or two words or more, the
      // first no list knows. Not "thanks, everyone", "cheers, lol".)
      case Cue::kSigned: {
        const bool ends = to + 1 >= n || tokens[to + 1].newline_before;
        name = tokens[j].newline_before ? (!common || first_name) && ends
                                        : ((first_name && !common) || (to > j && unknown())) &&
                                              end == tokens[to].end && (ends || mark_is(to + 1, ','));
        break;
      }
      // (Not "name: mark as read": the clause ends after the name.)
      // (Nor a title's abbreviation: "Attn: lt. col. hamish").
      case Cue::kField:
        name = (!common || (m.full & name_categories_) != 0) && end == tokens[to].end &&
               clause_ends_after(text, tokens, to) && !kAbbreviatedTitles.contains(text, tokens[j]) &&
               !kEnglishTitles.contains(text, tokens[j]);
        break;
      case Cue::kAccount:  // (read above)
      case Cue::kNone: break;
    }
    if (!name) return c;
    const bool relatives = cue == Cue::kRelative && kPluralRelatives.contains(text, tokens[c]);
    // (A place or firm of this tagging over just the name's words becomes
    // the name after a cue that names people alone: "my father-in-law,
    // rangi, who", "name is", a title in full, a closing as
    // type_signatures() reads one in text with capitals.)
    // (Or over the title too, which the name leaves out: "the complaint
    // from mrs. adaeze nwosu", a place to the decoder.)
    const size_t over = span_over(out, j);
    const bool titled =
        cue == Cue::kTitledInFull || cue == Cue::kTitledWithoutAStop || kEnglishTitles.contains(text, tokens[c]);
    if ((cue == Cue::kRelative || cue == Cue::kNamed || cue == Cue::kField || cue == Cue::kTitledInFull ||
         cue == Cue::kSigned) &&
        over != out.size() &&
        (own_place_or_organisation(out, over, first, tokens[j].begin, end) ||
         (titled && own_place_or_organisation(out, over, first, tokens[c].begin, end)))) {
      set_span(out, over, {PiiType::kPerson, tokens[j].begin, end});
      return coordinated_first_names(to, relatives);
    }
    // (A name of this tagging over the first words alone takes the rest:
    // "my neighbour barnaby whitcombe keeps", where the decoder named
    // "barnaby"; not a verb that names people too, "mrs. villanueva will
    // pick up".)
    const bool named_shorter = over != out.size() && over >= first && out[over].type == PiiType::kPerson &&
                               out[over].begin == tokens[j].begin && out[over].end < end &&
                               std::none_of(tokens.begin() + static_cast<ptrdiff_t>(j + 1),
                                            tokens.begin() + static_cast<ptrdiff_t>(to + 1),
                                            [&](const Token& t) { return kVerbsNamedAsPeople.contains(text, t); });
    for (size_t k = j; k <= to; ++k) {
      const size_t covering = span_over(out, k);
      if (covering == out.size() || (named_shorter && covering == over)) continue;
      // (A name another pass found there, just over these words, is this
      // one: the names in series with it are read on, "my daughters elowen
      // and marigold".)
      const bool found = out[covering].type == PiiType::kPerson && out[covering].begin == tokens[j].begin &&
                         out[covering].end == end;
      return found && relatives ? coordinated_first_names(to, true) : to;
    }
    if (named_shorter) {
      set_span(out, over, {PiiType::kPerson, out[over].begin, end});
    } else {
      add_span(out, {PiiType::kPerson, tokens[j].begin, end});
    }
    return coordinated_first_names(to, relatives);
  };
  // Whether token j is a first name in small letters that no everyday or
  // place's list knows, or a given name alone, that no span covers; its
  // end without a possessive's 's in `end`. (The words before it are
  // common: the token's shape turns most away before a list is asked.)
  auto unlisted_elsewhere_first_name = [&](size_t j, uint32_t& end) {
    if (j >= n || tokens[j].end - tokens[j].begin < 3 || text[tokens[j].begin] < 'a' || text[tokens[j].begin] > 'z') {
      return false;
    }
    Gazetteer::Match m;
    return small_name_word(j, m, end) && (m.full & common_categories_) == 0 && first_name_not_a_place(j, m, end) &&
           span_over(out, j) == out.size();
  };
  // Whether token j is a word in small letters of three letters or more
  // that no list knows and no span covers; its end without a possessive's
  // 's in `end`.
  auto unknown_word = [&](size_t j, uint32_t& end) {
    if (j >= n || tokens[j].end - tokens[j].begin < 3 || text[tokens[j].begin] < 'a' || text[tokens[j].begin] > 'z') {
      return false;
    }
    Gazetteer::Match m;
    return small_name_word(j, m, end) && end - tokens[j].begin >= 3 &&
           !gazetteer_.knows(word_hash(text, Token{tokens[j].begin, end, false, false})) && span_over(out, j) == out.size();
  };
  // Whether token j is a capitalised word of three letters or more, not in
  // capitals throughout nor a possessive, that no span covers and that no
  // list knows, or only a first-name list does.
  auto capitalised_unlisted_name = [&](size_t j) {
    const Token& t = tokens[j];
    if (t.end - t.begin < 3 || text[t.begin] < 'A' || text[t.begin] > 'Z' || all_capitals(text, tokens, j) ||
        span_over(out, j) != out.size()) {
      return false;
    }
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
    if (possessive_stem(b, t.end - t.begin) != t.end - t.begin) return false;
    const uint64_t hash = word_hash(text, t);
    if (!gazetteer_.knows(hash)) return true;
    const Gazetteer::Match m = gazetteer_.lookup_all(hash);
    return (m.full & first_name_categories_) != 0 &&
           ((m.full | m.part) & (common_categories_ | place_categories_ | company_categories_)) == 0;
  };
  // Adds the person one space after token c and the names coordinated with
  // it, where unlisted_elsewhere_first_name(): after a word of kCompany
  // ("lunch with derek", "the notes from rachel") or after "me and" ("me
  // and kevin went"), where a word no list knows counts too
  // (`unknown_too`: "me and ruairi will cover"); the last token of the
  // names, or c.
  auto person_after = [&](size_t c, bool unknown_too) {
    uint32_t end = 0;
    if (!one_blank_after(text, tokens, c + 1) ||
        !(unlisted_elsewhere_first_name(c + 1, end) || (unknown_too && unknown_word(c + 1, end)))) {
      return c;
    }
    add_span(out, {PiiType::kPerson, tokens[c + 1].begin, end});
    return coordinated_first_names(c + 1);
  };
  // Adds the person before "and" and a pronoun of the speaker at token p
  // ("priya and I", "kevin and me"), one space apart each: a word in small
  // letters, unlisted_elsewhere_first_name() or no list knows it ("can
  // ravindra and I split"), with no possessive; or, in text with capitals,
  // a capitalised word, not in capitals throughout, that no list knows or
  // only a first-name list does, which the decoder left out ("Can Ravindra
  // and I split the rent"). The speaker names their company beside them.
  auto person_before_and_me = [&](size_t p) {
    if (p < 2 || !one_blank_after(text, tokens, p) || !one_blank_after(text, tokens, p - 1) || !is(p - 1, "and")) return;
    const size_t j = p - 2;
    uint32_t end = 0;
    // (A word no list knows only after a mark, a function word or a word
    // an everyday list knows, not as a name's last word: "i am ruairí ó
    // dochartaigh and I".)
    auto opens_its_words = [&] {
      return j == 0 || !is_word_byte(static_cast<unsigned char>(text[tokens[j - 1].begin])) ||
             function_word(text, tokens[j - 1]) ||
             (gazetteer_.lookup(word_hash(text, tokens[j - 1])).full & common_categories_) != 0;
    };
    const bool listed = unlisted_elsewhere_first_name(j, end) && end == tokens[j].end;
    if (!listed && !((unknown_word(j, end) && end == tokens[j].end) || capitalised_unlisted_name(j))) return;
    if (!listed && !opens_its_words()) return;
    add_span(out, {PiiType::kPerson, tokens[j].begin, tokens[j].end});
  };
  // The speaker before a verb of speech at token v, in small letters: a
  // first name no everyday list knows, or such a first name and a surname
  // a list knows ("what kevin said", "priya raman said"), that no span
  // covers, from token `from` on.
  auto speaker_before = [&](size_t v, size_t from) {
    if (v < 1 || v - 1 < from || tokens[v].begin != tokens[v - 1].end + 1) return;
    Gazetteer::Match m;
    uint32_t end = 0;
    if (!small_name_word(v - 1, m, end) || end != tokens[v - 1].end || (m.full & common_categories_) != 0 ||
        span_over(out, v - 1) != out.size()) {
      return;
    }
    size_t j = v - 1;
    if ((m.full & first_name_categories_) == 0) {
      Gazetteer::Match given;
      uint32_t given_end = 0;
      if ((m.full & last_name_categories_) == 0 || j < 1 || j - 1 < from || tokens[j].begin != tokens[j - 1].end + 1 ||
          !small_name_word(j - 1, given, given_end) || given_end != tokens[j - 1].end ||
          (given.full & first_name_categories_) == 0 || (given.full & common_categories_) != 0 ||
          span_over(out, j - 1) != out.size()) {
        return;
      }
      --j;
    }
    add_span(out, {PiiType::kPerson, tokens[j].begin, tokens[v - 1].end});
  };
  // The tokens that may be cue words first, in a loop of no calls, which
  // every token of the text passes through.
  thread_local IndexList cues;
  cues.clear();
  kCueWords.find(text, tokens, cues);
  size_t next = 0;  // the first token a cue may end: past the last name's
  // The capitalised hits: the titles of address among them are read below.
  thread_local IndexList capitalised;
  capitalised.clear();
  thread_local IndexList whos;
  whos.clear();
  // The owner of a note of code, its word glued in brackets after it, no
  // word an everyday list knows ("TODO(marguerite)", "FIXME(jdoe)"; not
  // "TODO(cleanup)"): an account's name, as after "user=".
  auto owner_of_a_code_note = [&](size_t d) {
    if (d + 3 >= n || !mark_is(d + 1, '(') || !mark_is(d + 3, ')') || tokens[d + 1].begin != tokens[d].end ||
        tokens[d + 2].begin != tokens[d + 1].end || tokens[d + 3].begin != tokens[d + 2].end ||
        tokens[d + 2].end - tokens[d + 2].begin < 2 ||
        !opens_with_a_letter(text.substr(tokens[d + 2].begin, tokens[d + 2].end - tokens[d + 2].begin)) ||
        span_over(out, d + 2) != out.size()) {
      return;
    }
    const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[d + 2]));
    if ((m.full & common_categories_) != 0 || is_title(m)) return;
    add_span(out, {PiiType::kPerson, tokens[d + 2].begin, tokens[d + 2].end});
  };
  for (const uint32_t d : cues) {
    if (text[tokens[d].begin] >= 'A' && text[tokens[d].begin] <= 'Z') capitalised.push_back(d);
    if (is(d, "who")) whos.push_back(d);
    if (d < next) continue;
    if (kCodeNotes.contains(text, tokens[d])) {
      owner_of_a_code_note(d);
      continue;
    }
    // A possessive determiner opens a relative's cue ("my friend") or "my
    // name is"; a verb of speech follows a name; the filter's other hits
    // end a cue, or are none.
    if (kPossessiveDeterminers.contains(text, tokens[d])) {
      if (kRelatives.contains(text, tokens[d + 1]) || is(d + 1, "name")) {
        next = name_after_a_cue(d + 1) + 1;
      } else if (d + 2 < n && kRelatives.contains(text, tokens[d + 2]) &&
                 (possessive(d + 1) || (one_blank_after(text, tokens, d + 2) && small_word(text, tokens[d + 1], 2) &&
                                        !function_word(text, tokens[d + 1])))) {
        // (After a possessive, "my neighbour's kid", or a word in small
        // letters, "our new neighbour tadeusz", "my pen pal hiroko".)
        next = name_after_a_cue(d + 2) + 1;
      }
    } else if (kSaid.contains(text, tokens[d])) {
      speaker_before(d, next);
    } else if (kCompany.contains(text, tokens[d])) {
      if (is(d, "by") && d > 0 && one_blank_after(text, tokens, d) && kCreditVerbs.contains(text, tokens[d - 1])) {
        next = name_after_a_cue(d) + 1;
      } else if (!is(d, "me")) {
        next = person_after(d, false) + 1;
      } else {
        person_before_and_me(d);
        if (d + 1 < n && tokens[d + 1].begin == tokens[d].end + 1 && is(d + 1, "and")) next = person_after(d + 1, true) + 1;
      }
    } else if (kCueWordSet.contains(text, tokens[d]) || i_am(d)) {
      next = name_after_a_cue(d) + 1;
    }
  }
  // A place or firm of this tagging that is the whole line after a label
  // that ends its line is the person ("Ship to:\nfarrukh tashkentov\n77
  // willowbrook crescent", a place to the decoder in small letters); not
  // one with a company's word ("Acme Corp").
  auto name_on_the_next_line = [&](size_t first_token) {
    size_t last = first_token;
    while (last + 1 < n && !tokens[last + 1].newline_before) ++last;
    const size_t k = span_over(out, first_token);
    if (k == out.size() || !own_place_or_organisation(out, k, first, tokens[first_token].begin, tokens[last].end)) {
      return;
    }
    for (size_t j = first_token; j <= last; ++j) {
      if ((gazetteer_.lookup(word_hash(text, tokens[j])).full & company_categories_) != 0 ||
          kOrganisationNouns.contains(text, tokens[j])) {
        return;
      }
    }
    out[k].type = PiiType::kPerson;
  };
  // The labels of kPersonLabels, each at a line's start, whose last word
  // is before a colon. (Words alone: most lines of code open otherwise.)
  auto line_label = [&](size_t l) {
    for (size_t c = l; c < n && c <= l + 2; ++c) {
      const auto letter = static_cast<unsigned char>(text[tokens[c].begin] | 0x20);
      if (letter < 'a' || letter > 'z') return;
      if (mark_is(c + 1, ':')) {
        if (!person_label(text, tokens, l, c)) return;
        if (c + 2 < n && tokens[c + 2].newline_before) {
          name_on_the_next_line(c + 2);
        } else {
          name_after_a_cue(c);
        }
        return;
      }
    }
  };
  if (n > 0) line_label(0);
  for (const uint32_t l : line_starts) line_label(l);
  for (const uint32_t p : i_after_and) person_before_and_me(p);
  // The filter's hits hold the capitalised titles of address too: that
  // pass reads them here rather than asking every marked token.
  if (!capitalised.empty()) add_names_after_titles_of_address(text, capitalised, out, first, true);
  if (!whos.empty()) add_names_before_who_in_small_letters(text, whos, out, first);
}

}  // namespace tiergate
