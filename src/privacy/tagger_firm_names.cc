// The tagger's pass after decoding that finds firms named after their
// partners (PiiTagger::join_surname_firms()): "Davis, Reynolds and
// Williamson", "Sanders-Gill". A file of its own: in the name passes' file
// it changed what GCC inlined into them.
#include "tiergate/privacy/pii_tagger.h"

#include <string_view>
#include <vector>

#include "tagger_rules.h"

namespace tiergate {

using namespace tagger_rules;

void PiiTagger::join_surname_firms(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const {
  // (Most texts have no hyphen and fewer than three spans: nothing to do.)
  const size_t first_hyphen = mixed ? text.find('-') : text.npos;
  if (first_hyphen == text.npos && out.size() < first + 3) return;
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  auto match = [&](size_t k) { return view_of(text, tokens[k], gazetteer_).gazetteer; };
  auto surname = [&](const Gazetteer::Match& m) { return (m.full & last_name_categories_) != 0; };
  auto only_a_place = [&](const Gazetteer::Match& m) {
    return (m.full & place_categories_) != 0 && (m.full & name_categories_) == 0;
  };
  auto is = [&](size_t k, char c) { return tokens[k].end - tokens[k].begin == 1 && text[tokens[k].begin] == c; };
  // A word of two letters or more, in text with capitals capitalised and
  // no acronym.
  auto name_word = [&](size_t k) {
    const std::string_view w = text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin);
    return w.size() >= 2 && opens_with_a_letter(w) &&
           (!mixed || (opens_with_a_capital(w) && !all_capitals(text, tokens[k])));
  };
  auto surname_alone = [&](const Gazetteer::Match& m) { return surname(m) && (m.full & first_name_categories_) == 0; };
  auto blank_apart = [&](size_t k) {
    return k + 1 < n && !tokens[k + 1].newline_before && tokens[k].end + 1 == tokens[k + 1].begin;
  };
  // Hyphenated firms, kept in order of begin: spans of this tagging inside
  // one give way to it. (The hyphens are looked for in the text: a few
  // texts in four have one, and the marked tokens are many more.)
  thread_local std::vector<PiiSpan> firms;
  firms.clear();
  for (size_t at = first_hyphen; at != text.npos; at = text.find('-', at + 1)) {
    const size_t hyphen = first_token_from(tokens, static_cast<uint32_t>(at));
    if (hyphen == 0 || hyphen + 1 >= n || tokens[hyphen].begin != at || !is(hyphen, '-')) continue;
    const size_t j = hyphen - 1;
    if (tokens[j].end != at || tokens[j + 2].begin != tokens[j + 1].end) continue;
    if (!name_word(j) || !name_word(j + 2) || (j + 3 < n && tokens[j + 3].begin == tokens[j + 2].end && is(j + 3, '-'))) {
      continue;
    }
    if (j > 0 && blank_apart(j - 1) && (name_word(j - 1) || (is(j - 1, '.') && j > 1 && is_title(match(j - 2))))) continue;
    // Nor a term among others: next to a slash or in brackets ("Dickey-Fuller
    // / Engle-Granger", "[Post-Chorus]"), or an answer's option ("C.
    // Chan-Zen" opening its line).
    const bool among_terms = (j > 0 && (is(j - 1, '/') || is(j - 1, '['))) ||
                             (j + 3 < n && !tokens[j + 3].newline_before && (is(j + 3, '/') || is(j + 3, ']')));
    const bool option = j >= 2 && !tokens[j].newline_before && is(j - 1, '.') && tokens[j - 2].end == tokens[j - 1].begin &&
                        tokens[j - 2].end - tokens[j - 2].begin == 1 && text[tokens[j - 2].begin] >= 'A' &&
                        text[tokens[j - 2].begin] <= 'H' && (j == 2 || tokens[j - 2].newline_before);
    if (among_terms || option) continue;
    if (blank_apart(j + 2) && opens_with_a_letter(text.substr(tokens[j + 3].begin)) &&
        (name_word(j + 3) || !kAfterAParty.contains(text, tokens[j + 3]))) {
      continue;
    }
    const Gazetteer::Match left = match(j), right = match(j + 2);
    const bool first_name_alone = (right.full & first_name_categories_) != 0 && !surname(right);
    if (!(surname(left) || surname(right)) || only_a_place(left) || only_a_place(right) || first_name_alone) continue;
    const PiiSpan firm{PiiType::kOrganization, tokens[j].begin, tokens[j + 2].end};
    bool free = true;
    for (size_t k = j; k <= j + 2 && free; ++k) {
      const size_t c = span_over(out, k);
      free = c == out.size() || (c >= first && out[c].begin >= firm.begin && out[c].end <= firm.end &&
                                 (out[c].type == PiiType::kPerson || out[c].type == PiiType::kOrganization ||
                                  out[c].type == PiiType::kLocation));
    }
    if (free) firms.push_back(firm);
  }
  // The one-word name or organisation out[s], at token `k`.
  auto one_word = [&](size_t s, size_t& k) {
    if (out[s].type != PiiType::kPerson && out[s].type != PiiType::kOrganization) return false;
    k = first_token_from(tokens, out[s].begin);
    return k < n && tokens[k].end == out[s].end && name_word(k);
  };
  auto firm_of_three = [&](size_t s) {
    // (The text between the spans first: it rules out nearly all.)
    if (out[s + 1].begin != out[s].end + 2 || text.substr(out[s].end, 2) != ", " ||
        out[s + 2].begin != out[s + 1].end + 5 || text.substr(out[s + 1].end, 5) != " and ") [[likely]] {
      return false;
    }
    size_t a = 0, b = 0, c = 0;
    if (!one_word(s, a) || !one_word(s + 1, b) || !one_word(s + 2, c) || b != a + 2 || c != b + 2) {
      return false;
    }
    // Where a firm stands, not people: a line of its own (an envelope's), a
    // place or client ("at", "for"), or the subject of a singular verb.
    const bool own_line = (a == 0 || tokens[a].newline_before) && (c + 1 == n || tokens[c + 1].newline_before);
    const bool at_or_for = a > 0 && !tokens[a].newline_before && tokens[a - 1].end + 1 == tokens[a].begin &&
                           (token_is(text, tokens[a - 1], "at") || token_is(text, tokens[a - 1], "for"));
    const bool singular = blank_apart(c) && (token_is(text, tokens[c + 1], "is") ||
                                             token_is(text, tokens[c + 1], "was") || token_is(text, tokens[c + 1], "has"));
    if (!own_line && !at_or_for && !singular) return false;
    size_t surnames = 0, surnames_alone = 0, everyday_words = 0;
    for (const size_t k : {a, b, c}) {
      const Gazetteer::Match m = match(k);
      if (only_a_place(m)) return false;
      surnames += surname(m) ? 1 : 0;
      surnames_alone += surname_alone(m) ? 1 : 0;
      everyday_words += (m.full & common_categories_) != 0 ? 1 : 0;
    }
    return surnames_alone >= 1 && (mixed ? surnames >= 2 : surnames == 3 && everyday_words <= 1);
  };
  // Most texts have neither: their spans are not copied down.
  size_t s = first;
  while (s + 2 < out.size() && !firm_of_three(s)) ++s;
  if (firms.empty() && s + 2 >= out.size()) return;
  size_t kept = first, f = 0;
  bool changed = !firms.empty();
  for (s = first; s < out.size(); ++s) {
    while (f < firms.size() && firms[f].end <= out[s].begin) ++f;
    if (f < firms.size() && out[s].begin >= firms[f].begin && out[s].end <= firms[f].end) continue;
    if (s + 2 < out.size() && firm_of_three(s)) {
      out[kept++] = {PiiType::kOrganization, out[s].begin, out[s + 2].end};
      s += 2;
      changed = true;
    } else {
      out[kept++] = out[s];
    }
  }
  out.resize(kept);
  if (!firms.empty()) {
    out.insert(out.end(), firms.begin(), firms.end());
    sort_by_begin(out, first);
  }
  if (changed) reset_cover();
}

}  // namespace tiergate
