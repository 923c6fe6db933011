// People named beside their mailbox: add_mailbox_names(). A mailbox as
// mail headers and git write it, a display name before an address in
// angle brackets ("From: Zorvath Quill <zq@northwind.com>",
// `--author="ruairi brennan <ruairi@brennan.dev>"`), went out as a firm or
// in part: the decoder reads the words, not the address that spells them.
#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "tagger_rules.h"
#include "tiergate/privacy/pii_tagger.h"

namespace tiergate {

using namespace tagger_rules;

namespace {

constexpr size_t kMaxDisplayWords = 4;

// A byte that may stand in a display name's word after its first letter:
// "O'Brien", "Laurent-Petit", "J.".
bool display_word_byte(char c) {
  return is_word_byte(static_cast<unsigned char>(c)) || c == '-' || c == '\'' || c == '.';
}

// The marks after which a display name opens: a header's colon, a list's
// comma, a quote, an option's "=".
bool opens_a_display_name(char c) {
  return c == '\n' || c == ':' || c == ',' || c == ';' || c == '"' || c == '\'' || c == '=' || c == '(';
}

// ASCII letters of `s` in small letters; the rest left out ("o'brien" ->
// "obrien", "ruairi.brennan" -> "ruairibrennan").
std::string small_ascii_letters(std::string_view s) {
  std::string letters;
  for (const char c : s) {
    if (c >= 'a' && c <= 'z') letters += c;
    if (c >= 'A' && c <= 'Z') letters += static_cast<char>(c - 'A' + 'a');
  }
  return letters;
}

}  // namespace

void PiiTagger::add_mailbox_names(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const {
  bool changed = false;
  for (size_t e = 0; e < first; ++e) {
    const PiiSpan email = out[e];
    if (email.type != PiiType::kEmailAddress || email.begin < 3 || email.end >= text.size() ||
        text[email.begin - 1] != '<' || text[email.end] != '>' || text[email.begin - 2] != ' ') {
      continue;
    }
    // The words before "<", one blank apart, back to a mark that opens a
    // display name or the text's start; a quoted name's closing quote
    // after them.
    uint32_t end = email.begin - 2;
    if (text[end - 1] == '"') --end;
    std::array<Token, kMaxDisplayWords> words{};
    size_t count = 0;
    uint32_t at = end;
    bool bounded = false;
    while (count < kMaxDisplayWords) {
      uint32_t begin = at;
      while (begin > 0 && display_word_byte(text[begin - 1])) --begin;
      const auto opening = static_cast<unsigned char>(text[begin]);
      if (begin == at || !is_word_byte(opening) || (opening >= '0' && opening <= '9')) break;
      words[count++] = Token{begin, at, false, false};
      if (begin == 0 || opens_a_display_name(text[begin - 1])) {
        bounded = true;
        break;
      }
      if (text[begin - 1] != ' ' || begin < 2) break;
      if (opens_a_display_name(text[begin - 2])) {
        bounded = true;
        break;
      }
      at = begin - 1;
    }
    if (!bounded || count == 0) continue;
    std::reverse(words.begin(), words.begin() + static_cast<ptrdiff_t>(count));
    const std::string local = small_ascii_letters(text.substr(email.begin, text.find('@', email.begin) - email.begin));
    if (local.empty()) continue;
    // The name's words: the last of the words that the local part holds
    // (of three letters or more) or, in text with capitals, that are
    // capitalised, or, in text without, that no everyday list alone knows
    // ("email Zorvath Quill <zq@...>" names "Zorvath Quill"); none a
    // company's word. The address spells them: one that no everyday list
    // alone knows is in the local part ("olivia" of "olivia.bennett", not
    // "support" of "support@"), or the local part is their initials
    // ("zq"), a first initial and the surname ("jsmith"), or a first name
    // and the surname's initial.
    std::array<std::string, kMaxDisplayWords> letters;
    size_t from = count;
    bool spelled = false;
    while (from > 0) {
      const Token& w = words[from - 1];
      letters[from - 1] = small_ascii_letters(text.substr(w.begin, w.end - w.begin));
      const std::string& word = letters[from - 1];
      const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, w));
      const bool everyday_alone = (m.full & common_categories_) != 0 && (m.full & name_categories_) == 0;
      const bool held = word.size() >= 3 && local.find(word) != std::string::npos;
      // (In text with capitals, a word in small letters before the
      // surname that the local part holds after the word's initial, "o" +
      // "ferraro": the first name, "ottavia ferraro <o.ferraro@...>".)
      const bool initial_of_the_local_part = from < count && !word.empty() && !everyday_alone &&
                                             letters[from] == local.substr(1) && local[0] == word[0];
      const bool name_like =
          held || (mixed ? (text[w.begin] >= 'A' && text[w.begin] <= 'Z') || initial_of_the_local_part : !everyday_alone);
      if (!name_like || ((m.full | m.part) & company_categories_) != 0 || kOrganisationNouns.contains(text, w)) break;
      spelled = spelled || (held && !everyday_alone);
      --from;
    }
    if (from == count) continue;
    if (!spelled && count - from >= 2) {
      std::string initials;
      for (size_t k = from; k < count; ++k) initials += letters[k].empty() ? '?' : letters[k][0];
      const std::string& first_word = letters[from];
      const std::string& last_word = letters[count - 1];
      spelled = local == initials || (!first_word.empty() && !last_word.empty() &&
                                      (local == first_word[0] + last_word || local == first_word + last_word[0]));
    }
    if (!spelled) continue;
    // One person over the name, in place of this tagging's names, firms
    // and places inside it; nothing where a span of another kind, or one
    // running past the name, covers a word.
    const PiiSpan name{PiiType::kPerson, words[from].begin, words[count - 1].end};
    bool blocked = false;
    std::vector<size_t> inside;
    for (size_t s = 0; s < out.size(); ++s) {
      const PiiSpan& span = out[s];
      if (span.end <= name.begin || span.begin >= name.end || span.end == span.begin) continue;
      if (s < first || span.begin < name.begin || span.end > name.end ||
          (span.type != PiiType::kPerson && span.type != PiiType::kOrganization && span.type != PiiType::kLocation)) {
        blocked = true;
        break;
      }
      inside.push_back(s);
    }
    if (blocked) continue;
    if (inside.size() == 1 && out[inside[0]].type == PiiType::kPerson && out[inside[0]].begin == name.begin &&
        out[inside[0]].end == name.end) {
      continue;
    }
    for (const size_t s : inside) mark_dropped(out, s);
    out.push_back(name);
    changed = true;
  }
  if (changed) {
    drop_marked_spans(out);
    sort_by_begin(out, first);
  }
}

}  // namespace tiergate
