// People named before their relation in brackets: add_names_before_bracketed_
// relatives(). A form's or a note's "ravindra pillai (husband)", "perpetua
// okoro (my mother)" went out where no cue word came before the name: in
// text with capitals the decoder reads only the marked tokens, and in text
// without the name lists did not know the words.
#include <cstring>
#include <string_view>
#include <vector>

#include "tagger_rules.h"
#include "tiergate/privacy/pii_tagger.h"

namespace tiergate {

using namespace tagger_rules;

void PiiTagger::add_names_before_bracketed_relatives(std::string_view text, std::vector<PiiSpan>& out,
                                                     size_t first) const {
  if (name_categories_ == 0 || common_categories_ == 0) return;
  constexpr size_t kMaxWords = 3;
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  bool added = false;
  // (Opening brackets are few in most texts: found by memchr(), not asked
  // of every token; a blank is too common a byte to look for first.)
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  for (const char* at = begin; (at = static_cast<const char*>(std::memchr(at, '(', static_cast<size_t>(end - at))));
       ++at) {
    if (at == begin || at[-1] != ' ') continue;
    const size_t bracket = first_token_from(tokens, static_cast<uint32_t>(at - begin));
    if (bracket == 0 || bracket + 2 >= n || !mark_at(text, tokens, bracket, '(')) continue;
    size_t relative = bracket + 1;
    if (kPossessiveDeterminers.contains(text, tokens[relative])) ++relative;
    if (relative + 1 >= n || !glued_to_the_one_before(tokens, bracket + 1) ||
        !kRelatives.contains(text, tokens[relative]) || !mark_at(text, tokens, relative + 1, ')') ||
        !glued_to_the_one_before(tokens, relative + 1)) {
      continue;
    }
    // The words before the bracket, back to the first that is none of a
    // name's: in small letters on the bracket's line, one blank apart, no
    // function word, no title, no word only the everyday lists know and no
    // place's.
    size_t from = bracket;
    while (from > 0 && bracket - from < kMaxWords) {
      const size_t k = from - 1;
      if (tokens[k + 1].newline_before || tokens[k + 1].begin != tokens[k].end + 1 || !small_word(text, tokens[k], 2) ||
          function_word(text, tokens[k]) || span_over(out, k) != out.size()) {
        break;
      }
      const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[k]));
      if (everyday(m) || is_title(m) || ((m.full | m.part) & place_categories_) != 0) break;
      from = k;
    }
    if (from == bracket) continue;
    // (Not a word glued to a mark before it: "x.y (parent)", a path's or
    // code's.)
    if (from > 0 && glued_to_the_one_before(tokens, from) &&
        !is_word_byte(static_cast<unsigned char>(text[tokens[from - 1].begin]))) {
      continue;
    }
    // The first word opens a name: a first name of the lists, a given name
    // alone, a name's word of any list, or a word no list knows.
    const uint64_t hash = word_hash(text, tokens[from]);
    const Gazetteer::Match m = gazetteer_.lookup(hash);
    if ((m.full & name_categories_) == 0 && !only_a_given_name(text, from, m, hash) && gazetteer_.knows(hash) &&
        !listed_surname(text, tokens[from].begin, tokens[from].end)) {
      continue;
    }
    add_span(out, {PiiType::kPerson, tokens[from].begin, tokens[bracket - 1].end});
    added = true;
  }
  if (added) sort_by_begin(out, first);
}

}  // namespace tiergate
