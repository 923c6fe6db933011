// The tagger's pass after decoding that finds a name again wherever the
// text repeats it (PiiTagger::add_other_mentions_of_names()). A file of its
// own: in the name passes' file it changed what GCC inlined into them.
#include "tiergate/privacy/pii_tagger.h"

#include <algorithm>
#include <bitset>
#include <string_view>
#include <vector>

#include "tagger_rules.h"

namespace tiergate {

using namespace tagger_rules;

bool PiiTagger::add_other_mentions_of_names(std::string_view text, std::span<const uint32_t> marked,
                                            std::vector<PiiSpan>& out, size_t first, bool mixed) const {
  if (!mixed) return false;
  const Tokens tokens = tagger_tokens();
  // A name of more bytes is not looked for again: no one's is that long.
  constexpr size_t kMaxNameBytes = 256;
  // A few names (most texts hold one or two) are compared with each
  // mention in turn, the first of them found winning; more are sorted by
  // value, each once (its first span's kept), and a mention is looked up by
  // its text, so that a text of many names costs a search per mention, not
  // a pass over the names (whose cost grew with their number squared).
  constexpr size_t kComparedInTurn = 8;
  // The names' values, with the length of their first word and the order
  // of their first span.
  struct Name {
    std::string_view value;
    uint32_t first_word;
    uint32_t order;
  };
  // (Per thread, as the other passes' lists: no allocation per text.)
  thread_local std::vector<Name> names;
  names.clear();
  for (size_t s = first; s < out.size(); ++s) {
    if (out[s].type != PiiType::kPerson || out[s].end - out[s].begin > kMaxNameBytes) continue;
    const std::string_view value = text.substr(out[s].begin, out[s].end - out[s].begin);
    const size_t j = first_token_from(tokens, out[s].begin);
    if (j == tokens.size() || tokens[j].begin != out[s].begin) continue;
    const uint32_t length = tokens[j].end - tokens[j].begin;
    if (length < 2 || length >= 64) continue;
    const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[j]));
    if ((m.full & first_name_categories_) == 0 || everyday(m)) continue;
    // (Each value once: among a few, asked here; among more, sorted out
    // below.)
    if (names.size() <= kComparedInTurn &&
        std::any_of(names.begin(), names.end(), [&](const Name& n) { return n.value == value; })) {
      continue;
    }
    names.push_back({value, length, static_cast<uint32_t>(names.size())});
  }
  if (names.empty()) return false;
  // Bit n: a name's first word has n bytes; bit c of the next: a name
  // opens with byte c. Most marked tokens fail one of them and are passed
  // over with two tests.
  uint64_t first_word_lengths = 0;
  std::bitset<256> first_bytes;
  size_t longest = 0;
  for (const Name& n : names) {
    first_word_lengths |= uint64_t{1} << n.first_word;
    first_bytes.set(static_cast<unsigned char>(n.value[0]));
    longest = std::max(longest, n.value.size());
  }
  const bool sorted = names.size() > kComparedInTurn;
  auto by_value = [](const Name& n, std::string_view v) { return n.value < v; };
  if (sorted) {
    std::sort(names.begin(), names.end(),
              [](const Name& a, const Name& b) { return a.value != b.value ? a.value < b.value : a.order < b.order; });
    names.erase(std::unique(names.begin(), names.end(), [](const Name& a, const Name& b) { return a.value == b.value; }),
                names.end());
  }
  // The last token of the mention of `value` that token j opens, as a whole
  // word or words (it ends where a token ends); tokens.size() where there
  // is none.
  auto mention_of = [&](size_t j, std::string_view value) {
    if (text.compare(tokens[j].begin, value.size(), value) != 0) return tokens.size();
    const auto end = static_cast<uint32_t>(tokens[j].begin + value.size());
    size_t last = j;
    while (last + 1 < tokens.size() && tokens[last + 1].end <= end) ++last;
    return tokens[last].end == end ? last : tokens.size();
  };
  bool added = false;
  for (const uint32_t j : marked) {
    const uint32_t length = tokens[j].end - tokens[j].begin;
    if (length >= 64 || (first_word_lengths >> length & 1) == 0 ||
        !first_bytes.test(static_cast<unsigned char>(text[tokens[j].begin]))) {
      continue;
    }
    // The name that the text from token j on spells, of several the one
    // found first.
    const Name* found = nullptr;
    size_t last = j;
    if (!sorted) {
      for (const Name& n : names) {
        if (n.first_word != length || n.value[0] != text[tokens[j].begin]) continue;
        last = mention_of(j, n.value);
        if (last == tokens.size()) continue;
        found = &n;
        break;
      }
    } else {
      // (No name opens with the token's word: the first value not below it
      // does not.)
      const std::string_view word = text.substr(tokens[j].begin, length);
      const auto from = std::lower_bound(names.begin(), names.end(), word, by_value);
      if (from == names.end() || !from->value.starts_with(word)) continue;
      for (size_t k = j; k < tokens.size() && tokens[k].end - tokens[j].begin <= longest; ++k) {
        const std::string_view mention = text.substr(tokens[j].begin, tokens[k].end - tokens[j].begin);
        const auto it = std::lower_bound(from, names.end(), mention, by_value);
        if (it != names.end() && it->value == mention && it->first_word == length &&
            (found == nullptr || it->order < found->order)) {
          found = &*it;
          last = k;
        }
      }
    }
    if (found == nullptr) continue;
    const uint32_t end = tokens[last].end;
    const size_t k = span_over(out, j);
    if (k == out.size()) {
      bool free = true;
      for (size_t t = j + 1; t <= last && free; ++t) free = span_over(out, t) == out.size();
      if (free) {
        add_span(out, {PiiType::kPerson, tokens[j].begin, end});
        added = true;
      }
    } else if (own_place_or_organisation(out, k, first, tokens[j].begin, end)) {
      out[k].type = PiiType::kPerson;
    }
  }
  return added;
}

}  // namespace tiergate
