// The names before a colon that heads a note or a line of a chat: the
// person a heading addresses ("Feedback for Drew:", "Message to Joy:") and
// a chat's speaker ("[10:03] Ruby: hi", "[10:02] megan: hi"):
// add_names_before_a_colon(). The
// decoder takes a first name that is an everyday word too for the word
// there.
#include "tiergate/privacy/pii_tagger.h"

#include <array>
#include <span>
#include <string_view>
#include <vector>

#include "tagger_rules.h"

namespace tiergate {

using namespace tagger_rules;

namespace {

// The words before the person a heading addresses: "Notes for Grace:".
constexpr WordSet kAddresseePrepositions(std::array<std::string_view, 4>{"for", "to", "from", "cc"});

// The seasons and months that first-name lists hold too ("Tips for
// Summer:", "Plans for May:").
constexpr WordSet kSeasonsAndMonths(std::array<std::string_view, 9>{"spring", "summer", "autumn", "fall", "winter",
                                                                    "april", "may", "june", "august"});

}  // namespace

void PiiTagger::add_names_before_a_colon(std::string_view text, std::vector<PiiSpan>& out) const {
  if (first_name_categories_ == 0) return;
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  // The speakers found so far: after one, a thread pasted on one line
  // goes on after a sentence's stop ("Emily: it is booked. Josh: great").
  size_t speakers = 0;
  // (Colons are few in most texts: found by memchr, not asked of every
  // token.)
  for (size_t at = text.find(':'); at != std::string_view::npos; at = text.find(':', at + 1)) {
    // A word right before the colon, a blank after it.
    if (at < 2 || at + 1 >= text.size() || (text[at + 1] != ' ' && text[at + 1] != '\n') || text[at - 1] < 'a' ||
        text[at - 1] > 'z') {
      continue;
    }
    // (A capital opens the word, or, for a speaker in small letters, the
    // line or a blank: read back from the colon before a search for its
    // token.)
    size_t small_from = at - 1;
    while (small_from > 0 && text[small_from - 1] >= 'a' && text[small_from - 1] <= 'z') --small_from;
    const bool capitalised = small_from > 0 && text[small_from - 1] >= 'A' && text[small_from - 1] <= 'Z';
    if (!capitalised && small_from > 0 && text[small_from - 1] != ' ' && text[small_from - 1] != '\n') continue;
    const size_t colon = first_token_from(tokens, static_cast<uint32_t>(at));
    if (colon == 0 || colon >= n || tokens[colon].begin != at || tokens[colon - 1].end != at) continue;
    const size_t j = colon - 1;
    const Token& t = tokens[j];
    // A word of a capital and small letters, or of small letters alone.
    if (t.end - t.begin < 2 || (capitalised && all_capitals(text, tokens, j))) continue;
    // After a preposition one space before it on its line, or alone at the
    // line's start or after a bracket that closes a chat's time stamp.
    const bool addressed = j > 0 && !t.newline_before && tokens[j - 1].end + 1 == t.begin &&
                           kAddresseePrepositions.contains(text, tokens[j - 1]);
    const bool stamped = j > 0 && mark_at(text, tokens, j - 1, ']') && tokens[j - 1].end + 1 == t.begin;
    const bool line_start = j == 0 || t.newline_before;
    const bool after_a_stop = capitalised && j > 0 && !t.newline_before && tokens[j - 1].end + 1 == t.begin &&
                              (mark_at(text, tokens, j - 1, '.') || mark_at(text, tokens, j - 1, '!') ||
                               mark_at(text, tokens, j - 1, '?'));
    if (!addressed && !stamped && !line_start && !after_a_stop) continue;
    // (A name found before over the word, where a speaker's stands,
    // counts as one.)
    if (const size_t k = span_over(out, j); k != out.size()) {
      if ((line_start || stamped || after_a_stop) && out[k].type == PiiType::kPerson && out[k].end == t.end) {
        ++speakers;
      }
      continue;
    }
    const bool in_a_thread = after_a_stop && speakers > 0;
    if (!addressed && !stamped && !line_start && !in_a_thread) continue;
    // (In small letters, a speaker only: "[10:02] megan: are we on?",
    // "kevin: hi".)
    if (!capitalised && addressed) continue;
    if (kSeasonsAndMonths.contains(text, t)) continue;
    const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, t));
    if ((m.full & first_name_categories_) == 0 || is_title(m)) continue;
    // (At a line's start without a time stamp, or in small letters, no
    // everyday word: a form's field, "Name:", "Will:", "[10:02] mark:".)
    if ((!capitalised || (!addressed && !stamped && !in_a_thread)) && (m.full & common_categories_) != 0) continue;
    add_span(out, {PiiType::kPerson, t.begin, t.end});
    if (!addressed) ++speakers;
  }
}

}  // namespace tiergate
