// The names of a list of names: PiiTagger::add_names_in_lists_of_names().
// A roster pasted in small letters ("- tiara bielecki\n- dallas alves\n...",
// or an array, "[\"tiara bielecki\", \"dallas alves\"]") names one person
// an item, but the decoder reads each item alone and leaves out the names
// with an everyday or a place's word ("dallas", "noble", "north"), which
// the list's shape says are names all the same. And a series of first
// names in small letters in a sentence ("They had 6: layla, harry, erika
// and shelley"): add_small_letter_first_names_in_series().
#include "tiergate/privacy/pii_tagger.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "tagger_rules.h"

namespace tiergate {

using namespace tagger_rules;

namespace {

// An item of a list that may be a name (a line, or a string of an array):
// its words' tokens [first, last], how its line opens (kNoBullet, a mark
// such as "-", or kNumbered: "1.", "2)"), and whether a name of this
// tagging covers exactly its words.
struct ListItem {
  size_t first = 0, last = 0;
  uint32_t bullet = 0;
  bool named = false;
};

constexpr uint32_t kNoBullet = 0;
constexpr uint32_t kNumbered = 1;
constexpr size_t kMaxWords = 4;
constexpr size_t kMinItems = 3;

}  // namespace

void PiiTagger::add_names_in_lists_of_names(std::string_view text, std::span<const uint32_t> line_starts,
                                            std::vector<PiiSpan>& out, size_t first) const {
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  // Whether the words of an item, tokens [w, end), are one to four words
  // of letters, one space apart.
  auto words_only = [&](size_t w, size_t end) {
    if (end - w > kMaxWords || end <= w) return false;
    for (size_t t = w; t < end; ++t) {
      const auto b = static_cast<unsigned char>(text[tokens[t].begin]);
      const bool letter = (b | 0x20) >= 'a' && (b | 0x20) <= 'z';
      if (!(letter || (b >= 0xc3 && is_word_byte(b))) || tokens[t].end - tokens[t].begin < 2 ||
          (t > w && tokens[t].begin != tokens[t - 1].end + 1) || all_digits(text, tokens[t])) {
        return false;
      }
    }
    return true;
  };
  // Whether a name of this tagging covers exactly the words of `item`.
  auto named = [&](const ListItem& item) {
    const size_t s = span_over(out, item.first);
    return s >= first && s < out.size() && out[s].type == PiiType::kPerson && out[s].begin == tokens[item.first].begin &&
           out[s].end == tokens[item.last].end;
  };
  // The items of one list: where two in three at least are names, the
  // others are too, where nothing found before tagging covers their words
  // (this tagging's places, firms or parts of names over them give way).
  bool changed = false;
  auto name_the_others = [&](std::span<ListItem> items) {
    if (items.size() < kMinItems) return;
    size_t names = 0;
    for (ListItem& item : items) {
      item.named = named(item);
      names += item.named ? 1 : 0;
    }
    if (names * 3 < items.size() * 2 || names == items.size()) return;
    for (const ListItem& item : items) {
      if (item.named) continue;
      const uint32_t begin = tokens[item.first].begin, end = tokens[item.last].end;
      bool free = true;
      for (size_t t = item.first; t <= item.last && free; ++t) {
        const size_t s = span_over(out, t);
        free = s == out.size() ||
               (s >= first && out[s].begin >= begin && out[s].end <= end && names_by_a_proper_name(out[s].type));
      }
      if (!free) continue;
      for (size_t t = item.first; t <= item.last; ++t) {
        if (const size_t s = span_over(out, t); s != out.size()) mark_dropped(out, s);
      }
      add_span(out, {PiiType::kPerson, begin, end});
      changed = true;
    }
  };
  thread_local std::vector<ListItem> items;

  // The lines of a list. (Most texts have fewer names of this tagging alone
  // on a line, past a bullet, than a list needs: a look at the bytes around
  // each name before any line is read.)
  auto opens_a_line = [&](uint32_t at) {
    for (size_t k = at, reach = 0; reach < 8; --k, ++reach) {
      if (k == 0 || text[k - 1] == '\n') return true;
      const auto c = static_cast<unsigned char>(text[k - 1]);
      if (!(c == ' ' || c == '-' || c == '*' || c == '.' || c == ')' || (c >= '0' && c <= '9') || c >= 0x80)) {
        return false;
      }
    }
    return false;
  };
  auto ends_a_line = [&](uint32_t at) {
    return at == text.size() || text[at] == '\n' || text[at] == '\r' || text[at] == '\t';
  };
  size_t names_alone_on_lines = 0;
  for (size_t s = first; s < out.size() && names_alone_on_lines < 2; ++s) {
    if (out[s].type == PiiType::kPerson && ends_a_line(out[s].end) && opens_a_line(out[s].begin)) {
      ++names_alone_on_lines;
    }
  }
  // Line `k` (the token that opens it; `next` the one that opens the next
  // line, or n) as a ListItem, or with first > last where it is no item of
  // a list of names.
  auto read_line = [&](size_t k, size_t next) {
    ListItem line{k + 1, k, kNoBullet, false};  // no item: first > last
    size_t w = k;
    const Token& opening = tokens[k];
    const auto c = static_cast<unsigned char>(text[opening.begin]);
    if (!is_word_byte(c)) {
      // A bullet: one mark, a blank after it ("- ", "* ", "• ").
      if (k + 1 >= next || tokens[k + 1].begin != opening.end + 1) return line;
      line.bullet = 2 + c;
      w = k + 1;
    } else if (all_digits(text, opening)) {
      // A number and its stop or bracket, a blank after them ("1. ", "2) ").
      if (k + 2 >= next || tokens[k + 1].begin != opening.end ||
          !(mark_at(text, tokens, k + 1, '.') || mark_at(text, tokens, k + 1, ')')) ||
          tokens[k + 2].begin != tokens[k + 1].end + 1) {
        return line;
      }
      line.bullet = kNumbered;
      w = k + 2;
    }
    // (A table's last cell may follow the words after a tab: a count or an
    // age, "anna berg\t34".)
    size_t end = next;
    if (end - w >= 2 && all_digits(text, tokens[end - 1]) && tokens[end - 1].end - tokens[end - 1].begin <= 3 &&
        text[tokens[end - 1].begin - 1] == '\t') {
      --end;
    }
    if (!words_only(w, end)) return line;
    line.first = w;
    line.last = end - 1;
    return line;
  };
  if (names_alone_on_lines >= 2 && line_starts.size() + 1 >= kMinItems) {
    items.clear();
    const size_t line_count = line_starts.size() + (tokens[0].newline_before ? 0 : 1);
    auto opening_token = [&](size_t l) -> size_t {
      return tokens[0].newline_before ? line_starts[l] : l == 0 ? 0 : line_starts[l - 1];
    };
    for (size_t l = 0; l < line_count; ++l) {
      items.push_back(read_line(opening_token(l), l + 1 < line_count ? opening_token(l + 1) : n));
    }
    // The runs of lines that are items of one shape, one after another.
    for (size_t from = 0; from < items.size();) {
      if (items[from].first > items[from].last) {
        ++from;
        continue;
      }
      size_t to = from + 1;
      while (to < items.size() && items[to].first <= items[to].last && items[to].bullet == items[from].bullet) ++to;
      name_the_others(std::span<ListItem>(items).subspan(from, to - from));
      from = to;
    }
  }

  // The strings of an array on one line ("[\"anna novak\", \"dallas
  // alves\", ...]", as JSON or Python writes it), where two names of this
  // tagging at least stand between quote marks.
  size_t quoted_names = 0;
  for (size_t s = first; s < out.size() && quoted_names < 2; ++s) {
    const uint32_t b = out[s].begin, e = out[s].end;
    if (out[s].type == PiiType::kPerson && b > 0 && e < text.size() && (text[b - 1] == '"' || text[b - 1] == '\'') &&
        text[e] == text[b - 1]) {
      ++quoted_names;
    }
  }
  for (size_t at = quoted_names < 2 ? text.npos : text.find('['); at != text.npos; at = text.find('[', at + 1)) {
    items.clear();
    size_t k = at + 1;
    while (k < text.size() && text[k] == ' ') ++k;
    const char quote = k < text.size() ? text[k] : '\0';
    if (quote != '"' && quote != '\'') continue;
    // A quoted string, then ", " (or ","), then the next, on one line.
    while (k < text.size() && text[k] == quote) {
      const size_t close = text.find(quote, k + 1);
      if (close == text.npos || std::memchr(text.data() + k, '\n', close - k) != nullptr) break;
      const size_t w = first_token_from(tokens, static_cast<uint32_t>(k + 1));
      size_t end = w;
      while (end < n && tokens[end].end <= close) ++end;
      if (w == n || tokens[w].begin != k + 1 || end == w || tokens[end - 1].end != close || !words_only(w, end)) {
        items.clear();
        break;
      }
      items.push_back({w, end - 1, kNoBullet, false});
      k = close + 1;
      if (k < text.size() && text[k] == ',') ++k;
      while (k < text.size() && text[k] == ' ') ++k;
    }
    name_the_others(items);
    at = std::max(at, k - 1);
  }
  if (changed) {
    drop_marked_spans(out);
    sort_by_begin(out, first);
  }
}

void PiiTagger::add_small_letter_first_names_in_series(std::string_view text, std::vector<PiiSpan>& out) const {
  if (first_name_categories_ == 0 || common_categories_ == 0) return;
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  constexpr size_t kMaxItems = 16;
  // A word in small letters of two letters or more, on the line of the
  // token before it.
  auto small_word_at = [&](size_t k) {
    return k < n && !tokens[k].newline_before && tagger_rules::small_word(text, tokens[k], 2);
  };
  auto small_letter = [&](size_t b) { return b < text.size() && text[b] >= 'a' && text[b] <= 'z'; };
  auto mark_is = [&](size_t k, char c) { return mark_at(text, tokens, k, c) && !tokens[k].newline_before; };
  auto conjunction = [&](size_t k) {
    return k < n && !tokens[k].newline_before && (token_is(text, tokens[k], "and") || token_is(text, tokens[k], "or"));
  };
  std::array<size_t, kMaxItems> items{};
  // (Found from the text's commas: most tokens are none.)
  for (size_t at = 0; at < text.size();) {
    const void* comma = std::memchr(text.data() + at, ',', text.size() - at);
    if (comma == nullptr) break;
    at = static_cast<size_t>(static_cast<const char*>(comma) - text.data()) + 1;
    // (A small letter before it and a blank and a word after it, asked of
    // the bytes first: most commas of prompts are of numbers, code or
    // longer phrases.)
    if (at < 2 || !small_letter(at - 2) || at + 1 >= text.size() || text[at] != ' ' ||
        !(small_letter(at + 1) || static_cast<unsigned char>(text[at + 1]) >= 0xc3)) {
      continue;
    }
    // (Nor a word in small letters one blank before the first item: the
    // item is then the last word of a longer group, below.)
    size_t item = at - 2;
    while (item > 0 && (small_letter(item - 1) || static_cast<unsigned char>(text[item - 1]) >= 0x80)) --item;
    if (item >= 2 && text[item - 1] == ' ' && small_letter(item - 2)) continue;
    const size_t k = first_token_from(tokens, static_cast<uint32_t>(at - 1));
    // A series opens at the word before a comma: "layla, harry, ...".
    if (k == 0 || k >= n || !mark_is(k, ',') || tokens[k].begin != tokens[k - 1].end || !small_word_at(k - 1)) continue;
    // (Not the last item of a longer word group: "the kids, ..." is no
    // series of names, nor "red wine, ...".)
    if (k >= 2 && small_word_at(k - 2) && tokens[k - 2].end + 1 == tokens[k - 1].begin) continue;
    size_t count = 0;
    items[count++] = k - 1;
    size_t j = k;
    bool closed = false;  // by "and" or "or" before the last item
    while (count < kMaxItems) {
      if (mark_is(j, ',') && tokens[j].begin == tokens[items[count - 1]].end) {
        ++j;
      } else if (!conjunction(j)) {
        break;
      }
      if (conjunction(j)) {
        ++j;
        closed = true;
      }
      if (!small_word_at(j)) break;
      items[count++] = j;
      ++j;
      if (closed) break;
      // (An item of one word: a comma or the conjunction after it.)
      if (!(mark_is(j, ',') && tokens[j].begin == tokens[j - 1].end) && !conjunction(j)) break;
    }
    at = std::max<size_t>(at, tokens[j - 1].end);
    if (!closed || count < 3) continue;
    // Most items first names the lists know and no everyday list does, the
    // others first names or words no list knows at all; none a place's.
    size_t plain_first_names = 0;
    bool all_names = true;
    for (size_t i = 0; i < count && all_names; ++i) {
      const Token& t = tokens[items[i]];
      const uint64_t word = word_hash(text, t);
      const Gazetteer::Match m = gazetteer_.lookup(word);
      const bool listed = ((m.full & first_name_categories_) != 0 || only_a_given_name(text, items[i], m, word)) &&
                          (m.full & place_categories_) == 0 && !is_title(m);
      if (listed && (m.full & common_categories_) == 0) ++plain_first_names;
      all_names = listed || !gazetteer_.knows(word);
    }
    if (!all_names || plain_first_names * 2 < count + 1) continue;
    for (size_t i = 0; i < count; ++i) {
      if (span_over(out, items[i]) != out.size()) continue;
      add_span(out, {PiiType::kPerson, tokens[items[i]].begin, tokens[items[i]].end});
    }
  }
}

void PiiTagger::join_full_names_in_series(std::string_view text, std::vector<PiiSpan>& out, size_t first,
                                          bool mixed) const {
  const Tokens tokens = tagger_tokens();
  const size_t n = tokens.size();
  auto mark_is = [&](size_t k, char c) { return k < n && mark_at(text, tokens, k, c); };
  auto conjunction = [&](size_t k) {
    return k < n && !tokens[k].newline_before && (token_is(text, tokens[k], "and") || token_is(text, tokens[k], "or"));
  };
  // A word of an item: two letters or more, no digit first; in text with
  // capitals capitalised, not in capitals throughout.
  auto item_word = [&](size_t k) {
    if (k >= n || tokens[k].end - tokens[k].begin < 2) return false;
    const auto c = static_cast<unsigned char>(text[tokens[k].begin]);
    if (!is_word_byte(c) || (c >= '0' && c <= '9') || function_word(text, tokens[k])) return false;
    return mixed ? opens_with_a_capital(text.substr(tokens[k].begin)) && !all_capitals(text, tokens, k)
                 : !opens_with_a_capital(text.substr(tokens[k].begin));
  };
  // Whether tokens p and p + 1 are two item words one blank apart, and
  // where an item ends and opens.
  auto two_words = [&](size_t p) { return item_word(p) && item_word(p + 1) && one_blank_after(text, tokens, p + 1); };
  auto ends_an_item = [&](size_t k) {
    return k >= n || tokens[k].newline_before || mark_is(k, ',') || mark_is(k, '.') || mark_is(k, ';') ||
           mark_is(k, ')') || mark_is(k, '!') || mark_is(k, '?') || conjunction(k);
  };
  auto opens_an_item = [&](size_t p) {
    return p == 0 || tokens[p].newline_before || mark_is(p - 1, ',') || mark_is(p - 1, ':') || mark_is(p - 1, ';') ||
           mark_is(p - 1, '(');
  };
  auto first_name = [&](size_t k) {
    return (gazetteer_.lookup_all(word_hash(text, tokens[k])).full & first_name_categories_) != 0 ||
           only_a_given_name(text, k);
  };
  // Whether the item of tokens p and p + 1 is (now) a name of this tagging
  // whole.
  auto name_over = [&](size_t p) {
    const size_t a = span_over(out, p), b = span_over(out, p + 1);
    const uint32_t begin = tokens[p].begin, end = tokens[p + 1].end;
    if (a == b && a != out.size()) {
      if (out[a].type == PiiType::kPerson) return out[a].begin == begin && out[a].end == end;
      if (!own_place_or_organisation(out, a, first, begin, end)) return false;
      // (No word of a place's or a company's list, a firm's noun or a
      // group's word, and the last no everyday word: not "bertrand
      // russell, british philosopher".)
      for (size_t k = p; k <= p + 1; ++k) {
        const Gazetteer::Match m = gazetteer_.lookup_all(word_hash(text, tokens[k]));
        if ((m.full & (place_categories_ | world_city_categories_ | company_categories_)) != 0 ||
            (k == p + 1 && (m.full & common_categories_) != 0) || kOrganisationNouns.contains(text, tokens[k]) ||
            pii_scan::is_group_word(text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin))) {
          return false;
        }
      }
      out[a].type = PiiType::kPerson;
      return true;
    }
    // One word a name's of this tagging, the other no span's, the first a
    // first name of the lists (not "proximal phalynx, middle phalynx").
    const size_t named = a == out.size() ? b : a;
    if ((a != out.size()) == (b != out.size()) || named < first || out[named].type != PiiType::kPerson ||
        out[named].begin < begin || out[named].end > end || (named == b && !first_name(p))) {
      return false;
    }
    set_span(out, named, {PiiType::kPerson, begin, end});
    return true;
  };
  // Whether a series' comma, "and" or "or" stands right after or before
  // `span`, a name of two words or more: asked of its bytes first, as
  // most names stand in no series.
  auto in_a_series = [&](const PiiSpan& span) {
    const std::string_view words = text.substr(span.begin, span.end - span.begin);
    if (words.find(' ') == std::string_view::npos) return false;
    const std::string_view after = text.substr(span.end, 5);
    const std::string_view before = text.substr(0, span.begin);
    return after.starts_with(",") || after.starts_with(" and ") || after.starts_with(" or ") ||
           before.ends_with(", ") || before.ends_with(" and ") || before.ends_with(" or ");
  };
  const size_t spans = out.size();
  for (size_t s = first; s < spans; ++s) {
    if (out[s].type != PiiType::kPerson || !in_a_series(out[s])) continue;
    const size_t from = first_token_from(tokens, out[s].begin);
    if (from >= n || tokens[from].begin != out[s].begin) continue;
    size_t to = from;
    while (to + 1 < n && tokens[to + 1].end <= out[s].end) ++to;
    // (Two or three item words, the series' item whole.)
    if (tokens[to].end != out[s].end || to == from || to - from > 2 || !opens_an_item(from) || !ends_an_item(to + 1)) {
      continue;
    }
    bool words = true;
    for (size_t k = from; k <= to && words; ++k) words = item_word(k) && (k == from || one_blank_after(text, tokens, k));
    if (!words || !first_name(from)) continue;
    // On along the series after it, then before it.
    for (size_t last = to;;) {
      size_t k = last + 1;
      const bool comma = mark_is(k, ',') && tokens[k].begin == tokens[last].end;
      if (comma) ++k;
      if (conjunction(k)) {
        ++k;
      } else if (!comma) {
        break;
      }
      if (k >= n || tokens[k].newline_before || !two_words(k) || !ends_an_item(k + 2) || !name_over(k)) break;
      last = k + 1;
    }
    for (size_t opening = from; opening >= 3;) {
      size_t k = opening - 1;
      if (conjunction(k)) --k;
      if (!(mark_is(k, ',') && tokens[k].begin == tokens[k - 1].end) && !conjunction(opening - 1)) break;
      if (mark_is(k, ',')) --k;
      if (k < 1 || tokens[opening].newline_before || !two_words(k - 1) || !opens_an_item(k - 1) || !name_over(k - 1)) {
        break;
      }
      opening = k - 1;
    }
  }
}

}  // namespace tiergate
