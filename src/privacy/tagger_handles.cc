// People named by a handle rather than by their name as written:
// add_handles_of_people(). A mention ("cc @bashir.ahmadi", "@priya can you
// review", "@dvorakova-lucie" in a chat or a code review) and a first name
// and surname joined by a stop ("[10:02] mirela.popescu: deploy is done",
// a chat's export or a log's account) went out whole: in text with
// capitals the decoder reads only the marked tokens, and where it read the
// words it left the marks between them out.
#include "tiergate/privacy/pii_tagger.h"

#include <string_view>
#include <vector>

#include "handle_joins.h"
#include "tagger_rules.h"

namespace tiergate {

using namespace tagger_rules;

namespace {

// The marks that join a handle's words: "bashir.ahmadi", "lucie-dvorakova",
// "kwame_mensah".
bool joins_a_handle(char c) { return c == '.' || c == '-' || c == '_'; }

}  // namespace

void PiiTagger::add_handles_of_people(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  if (name_categories_ == 0 || common_categories_ == 0) return;
  thread_local std::vector<uint32_t> joins;
  pii_handles::find_handle_joins(text, joins);
  if (joins.empty()) return;
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  constexpr size_t kMaxWords = 3;
  auto glued = [&](size_t k) { return glued_to_the_one_before(tokens, k); };
  auto joiner_at = [&](size_t k) {
    return k < n && tokens[k].end - tokens[k].begin == 1 && joins_a_handle(text[tokens[k].begin]);
  };
  // A word of two letters or more, no digit, and no capital but the first:
  // a handle's word ("dvorakova", "Priya"), not code's ("bytesToSend").
  auto plain_word = [&](size_t k) {
    if (k >= n || tokens[k].end - tokens[k].begin < 2) return false;
    for (uint32_t b = tokens[k].begin; b < tokens[k].end; ++b) {
      const auto c = static_cast<unsigned char>(text[b]);
      if (!is_word_byte(c) || (c >= '0' && c <= '9') || (b > tokens[k].begin && c >= 'A' && c <= 'Z')) {
        return false;
      }
    }
    return true;
  };
  auto matches = [&](size_t k) { return gazetteer_.lookup(word_hash(text, tokens[k])); };
  // A first name that no place's list knows and no title, or a given name
  // alone (only_a_given_name()); `everyday`: an everyday list knows it
  // ("maria", "mark").
  auto first_name = [&](size_t k, const Gazetteer::Match& m, bool& everyday) {
    everyday = (m.full & common_categories_) != 0;
    if ((m.full & first_name_categories_) != 0) return (m.full & place_categories_) == 0 && !is_title(m);
    return only_a_given_name(text, k, m, word_hash(text, tokens[k]));
  };
  // A surname a last names' list knows that no everyday one does (not
  // PiiTagger::listed_surname(), which asks the census's too).
  auto surname_of_the_lists = [&](const Gazetteer::Match& m) {
    return (m.full & last_name_categories_) != 0 && (m.full & common_categories_) == 0 && !is_title(m);
  };
  // Whether the handle's words end at token k: no mark glued after it that
  // joins a word (a longer identifier, a domain, an email's local part).
  auto ends_after = [&](size_t k) {
    if (!glued(k + 1)) return true;
    const char c = text[tokens[k + 1].begin];
    if (c == '@' || c == '(') return false;
    return !(joins_a_handle(c) || c == '/') || !glued(k + 2) ||
           !is_word_byte(static_cast<unsigned char>(text[tokens[k + 2].begin]));
  };
  bool changed = false;
  // Makes tokens [from, to] one person, where no span of another kind or of
  // the structured scan covers one of them: the names of this tagging over
  // its words become the handle's.
  auto add_handle = [&](size_t from, size_t to) {
    const PiiSpan handle{PiiType::kPerson, tokens[from].begin, tokens[to].end};
    std::vector<size_t> inside;
    for (size_t k = from; k <= to; ++k) {
      const size_t s = span_over(out, k);
      if (s == out.size()) continue;
      if (s < first || out[s].type != PiiType::kPerson || out[s].begin < handle.begin || out[s].end > handle.end) {
        return;
      }
      if (inside.empty() || inside.back() != s) inside.push_back(s);
    }
    if (inside.size() == 1 && out[inside[0]].begin == handle.begin && out[inside[0]].end == handle.end) return;
    for (const size_t s : inside) mark_dropped(out, s);
    if (!inside.empty()) drop_marked_spans(out);
    add_span(out, handle);
    sort_by_begin(out, first);
    changed = true;
  };
  // Whether the words k = from, from + 2, ..., to (joined by marks) name a
  // person: one a first name (the first, with `first_first`), each other
  // no title, and no everyday word but a surname after a first name that
  // is none, and of at most kMaxUnlistedLetters bytes
  // unless a surname's list knows it ("popescu", not "jsondecodeerror");
  // the first name an everyday word too only beside a surname_of_the_lists()
  // ("@mark.ruffalo", not "@pytest.mark").
  constexpr uint32_t kMaxUnlistedLetters = 12;
  auto names_a_person = [&](size_t from, size_t to, bool first_first) {
    bool named = false, everyday_named = false, surname = false;
    for (size_t k = from; k <= to; k += 2) {
      const Gazetteer::Match m = matches(k);
      bool everyday = false;
      if (!named && (k == from || !first_first) && first_name(k, m, everyday)) {
        named = true;
        everyday_named = everyday;
        continue;
      }
      // (An everyday word that the census or a list knows as a surname
      // after a first name that is none: "ezekiel_marsh".)
      if (is_title(m)) return false;
      if ((m.full & common_categories_) != 0) {
        if (!named || everyday_named || !listed_surname(text, tokens[k].begin, tokens[k].end)) return false;
        surname = true;
        continue;
      }
      const bool listed = surname_of_the_lists(m);
      if (!listed && tokens[k].end - tokens[k].begin > kMaxUnlistedLetters) return false;
      surname = surname || listed;
    }
    return named && (!everyday_named || surname);
  };
  // A mention: "@" not glued after a word or a stop (an email's), then up to
  // kMaxWords words joined by joins_a_handle() marks that names_a_person()
  // ("@priya", "@bashir.ahmadi", "@dvorakova-lucie"; not "@app.route",
  // "@types/node").
  auto mention_at = [&](size_t a) {
    if (glued(a) && (is_word_byte(static_cast<unsigned char>(text[tokens[a - 1].begin])) ||
                     text[tokens[a - 1].begin] == '.')) {
      return;
    }
    if (!glued(a + 1) || !plain_word(a + 1)) return;
    size_t last = a + 1;
    while (last + 2 < n && joiner_at(last + 1) && glued(last + 1) && glued(last + 2) && plain_word(last + 2)) {
      if ((last + 2 - (a + 1)) / 2 + 1 > kMaxWords) return;
      last += 2;
    }
    if (ends_after(last) && names_a_person(a + 1, last, false)) add_handle(a + 1, last);
  };
  // A first name and a surname in small letters joined by a stop or an
  // underscore, alone ("mirela.popescu", "priya.raman", "DM from
  // ezekiel_marsh"): names_a_person(), the first name
  // first, the surname in small letters throughout; not after a stop, "@",
  // "-" or "_" (a path of code's, an email's host).
  auto dotted_name_at = [&](size_t d) {
    if (d < 1 || !glued(d) || !glued(d + 1) || !small_word(text, tokens[d - 1], 2) || !plain_word(d - 1) ||
        !plain_word(d + 1)) {
      return;
    }
    for (uint32_t b = tokens[d + 1].begin; b < tokens[d + 1].end; ++b) {
      if (text[b] >= 'A' && text[b] <= 'Z') return;
    }
    if (glued(d - 1) && (joins_a_handle(text[tokens[d - 2].begin]) || text[tokens[d - 2].begin] == '@')) return;
    // (Joined by an underscore, as code's names are, "mel_spectrogram",
    // only a surname that the lists or the census know.)
    if (text[tokens[d].begin] == '_' && !listed_surname(text, tokens[d + 1].begin, tokens[d + 1].end)) return;
    if (ends_after(d + 1) && names_a_person(d - 1, d + 1, true)) add_handle(d - 1, d + 1);
  };
  for (const uint32_t at : joins) {
    const size_t k = first_token_over(tokens, at);
    if (text[at] == '@') {
      mention_at(k);
    } else {
      dotted_name_at(k);
    }
  }
  if (changed) reset_cover();
}

}  // namespace tiergate
