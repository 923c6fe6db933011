// The rules the tagger's decoder (pii_tagger.cc) and its passes after
// decoding (tagger_address_passes.cc, tagger_name_passes.cc,
// tagger_span_rules.cc) share: the tokens' views and word hashes, the word
// sets and the tests of one token or a few around it, the spans' cover.
// Private to the privacy module. Inline, so that each pass keeps these small
// tests inlined, as when they lived in one file.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "tiergate/privacy/gazetteer.h"
#include "tiergate/privacy/pii_tagger.h"
#include "tiergate/privacy/pii_types.h"

#include "lexicon.h"
#include "tagger_tokens.h"

namespace tiergate::tagger_rules {

using pii_tokens::is_word_byte;
using pii_tokens::opens_with_a_caseless_letter;
using pii_tokens::holds_a_caseless_letter;
using pii_tokens::opens_with_a_small_letter;
using pii_tokens::IndexList;
using pii_tokens::Token;
using pii_tokens::TokenList;
using pii_tokens::tokenize;

// The tokens as the rules read them: a pointer and a size passed by value,
// which the compiler keeps in registers across the calls a rule makes (a
// TokenList& is memory that any call might change, so every tokens[j] and
// size() would load them again).
using Tokens = std::span<const Token>;

inline uint64_t mix(uint64_t h) {  // splitmix64 finaliser
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

// What a token contributes to its own and its neighbours' features. No
// default member initialisers: a ViewList grows without writing them (the
// tagger tracks which views it has written).
struct TokenView {
  uint64_t word, shape, prefix, suffix;
  Gazetteer::Match gazetteer;
  bool capitalised;
  bool newline_before;
};
using ViewList = std::vector<TokenView, pii_tokens::UninitialisedAllocator<TokenView>>;

// Per byte: the lower-cased byte, and its kind in a shape (X upper, x lower
// or non-ASCII, d digit, else the mark itself).
struct ByteView {
  uint8_t lower, kind;
};
constexpr std::array<ByteView, 256> kByteView = [] {
  std::array<ByteView, 256> t{};
  for (int c = 0; c < 256; ++c) {
    const auto u = static_cast<uint8_t>(c);
    const bool upper = c >= 'A' && c <= 'Z';
    t[u].lower = upper ? static_cast<uint8_t>(c - 'A' + 'a') : u;
    t[u].kind = upper                                  ? uint8_t{'X'}
                : (c >= 'a' && c <= 'z') || c >= 0x80 ? uint8_t{'x'}
                : (c >= '0' && c <= '9')               ? uint8_t{'d'}
                                                       : u;
  }
  return t;
}();

constexpr uint64_t kFnvOffset = 1469598103934665603ull, kFnvPrime = 1099511628211ull;

// The FNV-1a hash of the lower-cased token: what the word features and the
// gazetteer key on.
inline uint64_t word_hash(std::string_view text, const Token& t) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
  uint64_t word = kFnvOffset;
  for (size_t k = 0; k < t.end - t.begin; ++k) word = (word ^ kByteView[s[k]].lower) * kFnvPrime;
  return word;
}

// The hash of a name of several words as the word lists write it ("South
// Korea", "Saint Vincent and the Grenadines"): its bytes in small letters,
// each run of blanks as one space, with word_hash()'s steps. No token hashes
// alike (word_hash() reads no blank), so phrases share the gazetteer's table
// with words. phrase_hash_continued(): the hash `h` of a phrase continued by
// `word` (no blank in it), a blank apart or not.
inline uint64_t phrase_hash_continued(uint64_t h, std::string_view word, bool blank_before) {
  if (blank_before) h = (h ^ ' ') * kFnvPrime;
  for (const char c : word) h = (h ^ kByteView[static_cast<unsigned char>(c)].lower) * kFnvPrime;
  return h;
}

inline uint64_t phrase_hash(std::string_view phrase) {
  uint64_t h = kFnvOffset;
  bool blank = false;
  size_t from = 0;
  for (size_t k = 0; k <= phrase.size(); ++k) {
    if (k < phrase.size() && phrase[k] != ' ' && phrase[k] != '\t') continue;
    if (k > from) {
      h = phrase_hash_continued(h, phrase.substr(from, k - from), blank);
      blank = true;
    }
    from = k + 1;
  }
  return h;
}

// The length of the token `s` (n bytes) without a possessive ending: "'s"
// or "’s" (U+2019), either case, after at least one byte; n when it has none.
inline size_t possessive_stem(const unsigned char* s, size_t n) {
  if (n >= 3 && (s[n - 1] | 0x20) == 's' && s[n - 2] == '\'') return n - 2;
  if (n >= 5 && (s[n - 1] | 0x20) == 's' && s[n - 4] == 0xe2 && s[n - 3] == 0x80 && s[n - 2] == 0x99) return n - 4;
  return n;
}

// Whether token t ends in a possessive's "'s" or "’s" (possessive_stem()).
inline bool ends_in_a_possessive(std::string_view text, const Token& t) {
  const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
  return possessive_stem(b, t.end - t.begin) != t.end - t.begin;
}

// The word hash of the n bytes at s with each right single quote ("’",
// U+2019) read as "'", as training rows write a contraction or a
// possessive ("I’m" as "I'm").
inline uint64_t hash_with_apostrophes(const unsigned char* s, size_t n) {
  uint64_t h = kFnvOffset;
  for (size_t k = 0; k < n; ++k) {
    unsigned char c = s[k];
    if (c == 0xe2 && k + 2 < n && s[k + 1] == 0x80 && s[k + 2] == 0x99) {
      c = '\'';
      k += 2;
    }
    h = (h ^ kByteView[c].lower) * kFnvPrime;
  }
  return h;
}

// The word hash and the FNV-1a hash of the token's shape (kinds, runs
// collapsed, 6 at most), in one pass over the token without copying it;
// then the word's gazetteer matches. Not the affixes: add_affixes().
inline TokenView view_of(std::string_view text, const Token& t, const Gazetteer& gazetteer) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
  const size_t n = t.end - t.begin;
  uint64_t word = kFnvOffset, shape = 7;
  uint8_t last_kind = 0;
  size_t shape_len = 0;
  unsigned char high = 0;  // the bits of the token's bytes: a byte >= 0x80 sets the top one
  for (size_t k = 0; k < n; ++k) {
    high |= s[k];
    const ByteView b = kByteView[s[k]];
    word = (word ^ b.lower) * kFnvPrime;
    if (shape_len < 6 && (shape_len == 0 || b.kind != last_kind)) {
      shape = (shape ^ b.kind) * kFnvPrime;
      last_kind = b.kind;
      ++shape_len;
    }
  }
  TokenView v;
  v.word = word;
  // A contraction or possessive written with a right single quote ("I’m",
  // "shouldn’t", "John’s") is scored as the word with "'", which training
  // rows write; the quote's bytes still count as letters in the shape, and
  // the word is looked up in the lists as written.
  if ((high & 0x80) != 0 && std::memchr(s, 0xe2, n) != nullptr) [[unlikely]] v.word = hash_with_apostrophes(s, n);
  v.shape = shape;
  v.capitalised = s[0] >= 'A' && s[0] <= 'Z';
  v.newline_before = t.newline_before;
  // A possessive ("Liam's", "Liam’s") is looked up without its 's.
  const size_t stem = possessive_stem(s, n);
  v.gazetteer = gazetteer.lookup(stem == n ? word : word_hash(text, Token{t.begin, static_cast<uint32_t>(t.begin + stem), false, false}));
  return v;
}

// Whether the stop at token `dot` closes a token of three bytes at most
// written against it, as an abbreviation's stop does ("Dr.", "Apt.", "m.").
inline bool closes_a_short_word(Tokens tokens, size_t dot) {
  return dot > 0 && tokens[dot - 1].end == tokens[dot].begin && tokens[dot - 1].end - tokens[dot - 1].begin <= 3;
}

// Whether token t is a word in small letters of `letters` letters or more:
// it opens with a-z (its bytes counted), or with a small letter of two
// bytes ("город", "était": its code points counted).
inline bool small_word(std::string_view text, const Token& t, size_t letters) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
  const size_t n = t.end - t.begin;
  if (s[0] >= 'a' && s[0] <= 'z') return n >= letters;
  if (!opens_with_a_small_letter(s, n)) return false;
  size_t code_points = 0;
  for (size_t k = 0; k < n; ++k) code_points += (s[k] & 0xc0) != 0x80 ? 1 : 0;
  return code_points >= letters;
}

// The tokens and views of the text being tagged, per thread: tag() fills
// them, plausible() reads them.
inline TokenList& tagger_tokens() {
  thread_local TokenList tokens;
  return tokens;
}
inline ViewList& tagger_views() {
  thread_local ViewList views;
  return views;
}

// Whether token t (or token i) is written in capitals throughout ("SAP", "MOSS"): an
// acronym or a name in a letterhead, not the everyday word it spells.
inline bool all_capitals(std::string_view text, const Token& t) {
  return t.end - t.begin >= 2 &&
         std::all_of(text.begin() + t.begin, text.begin() + t.end, [](char c) { return c >= 'A' && c <= 'Z'; });
}
inline bool all_capitals(std::string_view text, Tokens tokens, size_t i) { return all_capitals(text, tokens[i]); }

// Whether token t (any case) is a month or a weekday, written out ("June",
// "sunday").
bool month_or_weekday(std::string_view text, const Token& t);

// Whether token i is a month or a weekday that a date's words surround: a
// word of time right before it on its line ("in", "of", "next", "during":
// "the month of June", "married next June"), a day's number right after it
// ("June 1"), or another month or weekday next to it in a list, past a
// comma or a conjunction ("June, July, and August"). A name that is a
// month stands elsewhere ("April is donating", "Evan and April").
bool month_in_a_date(std::string_view text, Tokens tokens, size_t i);

// Whether a span of this type names someone or something by a proper
// name: a person, a place or an organisation (the types whose spans most
// rules type, join and split).
inline bool names_by_a_proper_name(PiiType type) {
  return type == PiiType::kPerson || type == PiiType::kLocation || type == PiiType::kOrganization;
}

// The spans found before tagging (out[0, first): sorted by begin, none
// overlapping another), asked in order of begin whether one overlaps
// [begin, end). Holds `out` by reference: spans appended after `first`
// leave it as it is.
class SpansFoundBefore {
 public:
  SpansFoundBefore(const std::vector<PiiSpan>& out, size_t first) : out_(out), first_(first) {}
  bool overlap(uint32_t begin, uint32_t end) {
    while (next_ < first_ && out_[next_].end <= begin) ++next_;
    return next_ < first_ && out_[next_].begin < end;
  }

 private:
  const std::vector<PiiSpan>& out_;
  size_t first_;
  size_t next_ = 0;  // the first that may overlap what is asked next
};

// Whether token k follows token k - 1 on its line, one blank apart
// ("Juniper Way", not "Juniper  Way", "Juniper-Way" or "Juniper\nWay").
inline bool one_blank_after(std::string_view text, Tokens tokens, size_t k) {
  return k > 0 && k < tokens.size() && !tokens[k].newline_before && tokens[k].begin == tokens[k - 1].end + 1 &&
         text[tokens[k - 1].end] == ' ';
}

// Whether a tab stands between token k - 1 and token k (k > 0): a table's
// cells part there ("Anna Berg\t34"), and no span runs across one.
inline bool tab_between(std::string_view text, Tokens tokens, size_t k) {
  return text.substr(tokens[k - 1].end, tokens[k].begin - tokens[k - 1].end).find('\t') != std::string_view::npos;
}

// Whether token t is digits only ("05557", not "6Sigma").
inline bool all_digits(std::string_view text, const Token& t) {
  return std::all_of(text.begin() + t.begin, text.begin() + t.end, [](char c) { return c >= '0' && c <= '9'; });
}

// Whether token t is a building's number: digits, with one ASCII letter
// after them ("221B", "12a"), or two runs of digits joined by an en dash
// ("14–16"; one joined by a hyphen is three tokens).
inline bool house_number(std::string_view text, const Token& t) {
  const std::string_view w = text.substr(t.begin, t.end - t.begin);
  size_t at = 0;
  while (at < w.size() && w[at] >= '0' && w[at] <= '9') ++at;
  if (at == 0 || at > 5) return false;
  if (at == w.size()) return true;
  const char c = static_cast<char>(w[at] | 0x20);
  if (at + 1 == w.size()) return c >= 'a' && c <= 'z';
  if (!w.substr(at).starts_with("\xe2\x80\x93") || at + 3 == w.size()) return false;
  return std::all_of(w.begin() + static_cast<ptrdiff_t>(at + 3), w.end(), [](char d) { return d >= '0' && d <= '9'; });
}

// Whether token t holds a digit ("31a", "Ideas42").
inline bool has_digit(std::string_view text, const Token& t) {
  return std::any_of(text.begin() + t.begin, text.begin() + t.end, [](char c) { return c >= '0' && c <= '9'; });
}

// Whether token i exists and opens with a digit.
inline bool is_number(std::string_view text, Tokens tokens, size_t i) {
  return i < tokens.size() && text[tokens[i].begin] >= '0' && text[tokens[i].begin] <= '9';
}

// Whether token t is `word` (in small letters), whatever its case.
inline bool token_is(std::string_view text, const Token& t, std::string_view word) {
  if (t.end - t.begin != word.size()) return false;
  for (size_t k = 0; k < word.size(); ++k) {
    if (kByteView[static_cast<unsigned char>(text[t.begin + k])].lower != static_cast<unsigned char>(word[k])) return false;
  }
  return true;
}

// Whether token j is the mark `c` alone (j past the last: no).
inline bool mark_at(std::string_view text, Tokens tokens, size_t j, char c) {
  return j < tokens.size() && tokens[j].end - tokens[j].begin == 1 && text[tokens[j].begin] == c;
}

// Whether token k opens where token k - 1 ends, no blank between them.
inline bool glued_to_the_one_before(Tokens tokens, size_t k) {
  return k > 0 && k < tokens.size() && tokens[k].begin == tokens[k - 1].end;
}

// Whether token w is a hyphen glued to the tokens on both sides of it: the
// join of two words of one name ("Jean-Luc", "al-farsi").
inline bool glued_hyphen(std::string_view text, Tokens tokens, size_t w) {
  return mark_at(text, tokens, w, '-') && glued_to_the_one_before(tokens, w) && glued_to_the_one_before(tokens, w + 1);
}

// Whether "-in-law" follows token k, glued to it: "mother-in-law".
inline bool in_law_after(std::string_view text, Tokens tokens, size_t k) {
  return k + 4 < tokens.size() && mark_at(text, tokens, k + 1, '-') && token_is(text, tokens[k + 2], "in") &&
         mark_at(text, tokens, k + 3, '-') && token_is(text, tokens[k + 4], "law") &&
         tokens[k + 4].end - tokens[k].begin == tokens[k].end - tokens[k].begin + 7;
}

// Whether the clause goes on after token k with no word: a mark, the line's
// or the text's end ("my boss, john, said", "4 impasse des mûriers.").
inline bool clause_ends_after(std::string_view text, Tokens tokens, size_t k) {
  return k + 1 >= tokens.size() || tokens[k + 1].newline_before ||
         !is_word_byte(static_cast<unsigned char>(text[tokens[k + 1].begin]));
}

// Whether a quadrant's compass point (NW, NE, SW, SE, or a point in full:
// north, south, east, west, northwest..., in any case) follows the street's
// suffix at token k one blank after it, before the clause's end: "1600
// pennsylvania avenue nw, washington", "2201 westlake avenue north,
// seattle".
inline bool quadrant_after_a_street(std::string_view text, Tokens tokens, size_t k) {
  static constexpr std::array<std::string_view, 8> kPointsInFull = {
      "north", "south", "east", "west", "northwest", "northeast", "southwest", "southeast"};
  if (k + 1 >= tokens.size() || !one_blank_after(text, tokens, k + 1) || !clause_ends_after(text, tokens, k + 1)) {
    return false;
  }
  if (tokens[k + 1].end - tokens[k + 1].begin != 2) {
    return std::any_of(kPointsInFull.begin(), kPointsInFull.end(),
                       [&](std::string_view point) { return token_is(text, tokens[k + 1], point); });
  }
  const std::string_view w = text.substr(tokens[k + 1].begin, 2);
  const char a = static_cast<char>(w[0] | 0x20), b = static_cast<char>(w[1] | 0x20);
  return (a == 'n' || a == 's') && (b == 'w' || b == 'e');
}

// Whether a word that only people are said by follows token k, then a
// word or a number: `said` (in small letters) one blank after it, or
// after a comma glued to it ("Dagny, who is turning seven", "fenella who
// asked", "Persephone Callaghan, born 3 March"), or glued to a bracket
// one blank after it ("Callaghan (born 1990)").
inline bool said_of_people_after(std::string_view text, Tokens tokens, size_t k, std::string_view said) {
  size_t w = k + 1;
  if (w >= tokens.size()) return false;
  if (mark_at(text, tokens, w, '(') && one_blank_after(text, tokens, w)) {
    if (!glued_to_the_one_before(tokens, w + 1)) return false;
    ++w;
  } else {
    if (mark_at(text, tokens, w, ',') && tokens[w].begin == tokens[k].end) ++w;
    if (!one_blank_after(text, tokens, w)) return false;
  }
  return w + 1 < tokens.size() && text.substr(tokens[w].begin, tokens[w].end - tokens[w].begin) == said &&
         !tokens[w + 1].newline_before && tokens[w + 1].begin == tokens[w].end + 1 &&
         is_word_byte(static_cast<unsigned char>(text[tokens[w + 1].begin]));
}

// Whether the word of tokens from token `from` to byte `end` stands
// between "the", one blank before it on its line, and the word "family"
// one blank after it, not "family of" (a maker's line of things): "a card
// for the Abernathy-Osei family". (The text after it is asked first: most
// words have no such neighbours.)
inline bool between_the_and_family(std::string_view text, Tokens tokens, size_t from, uint32_t end) {
  constexpr std::string_view kFamily = " family";
  const std::string_view after = text.substr(end);
  if (!after.starts_with(kFamily) || after.starts_with(" family of")) return false;
  if (after.size() > kFamily.size() && is_word_byte(static_cast<unsigned char>(after[kFamily.size()]))) return false;
  return from > 0 && !tokens[from].newline_before && token_is(text, tokens[from - 1], "the") &&
         tokens[from - 1].end + 1 == tokens[from].begin;
}

// Whether a relative clause of persons opens after token k
// (said_of_people_after()): "who", which firms and things do not take
// ("which", "that"). (In small letters: "WHO" is a firm.)
inline bool who_follows(std::string_view text, Tokens tokens, size_t k) {
  return said_of_people_after(text, tokens, k, "who");
}

// Whether token t is the speaker as the subject of what they say, in any
// case: "I", "I'll", "I'm", "I’d", "we", "we'll" ("tell bartek i'll be
// there").
inline bool speaker_as_subject(std::string_view text, const Token& t) {
  const std::string_view w = text.substr(t.begin, t.end - t.begin);
  size_t stem = 0;
  if (w.size() >= 1 && (w[0] == 'i' || w[0] == 'I')) {
    stem = 1;
  } else if (w.size() >= 2 && (w[0] == 'w' || w[0] == 'W') && (w[1] == 'e' || w[1] == 'E')) {
    stem = 2;
  } else {
    return false;
  }
  const std::string_view rest = w.substr(stem);
  if (rest.empty()) return true;
  const size_t apostrophe = rest.starts_with('\'') ? 1 : rest.starts_with("\u2019") ? 3 : 0;
  if (apostrophe == 0 || rest.size() > apostrophe + 2) return false;
  char ending[2] = {};
  for (size_t k = apostrophe; k < rest.size(); ++k) ending[k - apostrophe] = static_cast<char>(rest[k] | 0x20);
  const std::string_view e(ending, rest.size() - apostrophe);
  return e == "m" || e == "ll" || e == "d" || e == "ve" || e == "re";
}

// Whether token t is an ordinal in digits: "30th", "1st", "22nd".
inline bool ordinal_in_digits(std::string_view text, const Token& t) {
  const std::string_view w = text.substr(t.begin, t.end - t.begin);
  if (w.size() < 3 || w[0] < '0' || w[0] > '9') return false;
  const std::string_view suffix = w.substr(w.size() - 2);
  for (const char c : w.substr(0, w.size() - 2)) {
    if (c < '0' || c > '9') return false;
  }
  auto is = [&](std::string_view s) { return (suffix[0] | 0x20) == s[0] && (suffix[1] | 0x20) == s[1]; };
  return is("st") || is("nd") || is("rd") || is("th");
}

// A few words of two or more small ASCII letters, asked of a token
// whatever its case: most tokens are turned away by their first two letters
// and length in one load, as these run for every marked token of a text;
// the others are compared with the words that open with the same two
// letters only.
template <size_t N>
class WordSet {
  static_assert(N < 256, "bucket offsets are bytes");

 public:
  consteval explicit WordSet(std::array<std::string_view, N> words) : words_(words) {
    std::sort(words_.begin(), words_.end(), [](std::string_view x, std::string_view y) {
      return pair_index(x[0], x[1]) < pair_index(y[0], y[1]);
    });
    for (std::string_view w : words_) lengths_[pair_index(w[0], w[1])] |= uint32_t{1} << w.size();
    size_t k = 0;
    for (size_t pair = 0; pair <= 26 * 26; ++pair) {
      while (k < N && pair_index(words_[k][0], words_[k][1]) < pair) ++k;
      first_[pair] = static_cast<uint8_t>(k);
    }
  }
  // Whether a word of the set has t's first two letters and length.
  bool may_contain(std::string_view text, const Token& t) const { return bucket(text, t) < 26 * 26; }
  bool contains(std::string_view text, const Token& t) const {
    const size_t pair = bucket(text, t);
    if (pair == 26 * 26) return false;
    for (size_t k = first_[pair]; k < first_[pair + 1]; ++k) {
      if (token_is(text, t, words_[k])) return true;
    }
    return false;
  }

 private:
  static constexpr size_t pair_index(char a, char b) {
    return static_cast<size_t>(a - 'a') * 26 + static_cast<size_t>(b - 'a');
  }
  // The pair index of t's first two letters when a word of the set opens
  // with them and has t's length; else 26 * 26.
  size_t bucket(std::string_view text, const Token& t) const {
    const size_t length = t.end - t.begin;
    if (length < 2 || length > 31) return 26 * 26;
    const uint8_t a = kByteView[static_cast<unsigned char>(text[t.begin])].lower;
    const uint8_t b = kByteView[static_cast<unsigned char>(text[t.begin + 1])].lower;
    if (a < 'a' || a > 'z' || b < 'a' || b > 'z') return 26 * 26;
    const size_t pair = pair_index(static_cast<char>(a), static_cast<char>(b));
    return ((lengths_[pair] >> length) & 1) != 0 ? pair : 26 * 26;
  }
  std::array<std::string_view, N> words_;  // by their first two letters
  std::array<uint8_t, 26 * 26 + 1> first_{};  // words_[first_[ab], first_[ab + 1]) open with ab
  std::array<uint32_t, 26 * 26> lengths_{};  // bit k of [ab]: a word of k letters opens with ab
};

// Words that stand inside no name, place or organisation when written in
// small letters: pronouns and possessives, helping verbs, question words,
// "this", "from", "just", words of time and of speech ("a 50 year old man
// who", "arrived at bauru this morning from bahrain", "william had", "write
// to norrland foods before friday", "hana said"). None of the dev rows'
// labelled names or addresses holds one. Not "can", "may", "will" (names
// too), "am" ("Frankfurt am Main"), "he" ("Zheng He").
constexpr WordSet kNeverInAName(std::array<std::string_view, 68>{
    "who",   "whom",  "whose", "which",  "what",  "when",  "where", "why",   "how",     "this",  "these",
    "those", "that",  "from",  "with",   "into",  "onto",  "was",   "were",  "is",      "are",   "been",
    "being", "has",   "have",  "had",    "would", "could", "should", "might", "must",   "shall", "did",
    "does",  "not",   "very",  "just",   "also",  "then",  "than",  "because", "while", "if",    "my",
    "your",  "his",   "our",   "their",  "its",   "we",    "you",   "she",   "after",   "before", "during",
    "until", "since", "next",  "now",    "soon",  "today", "tonight", "tomorrow", "yesterday", "said", "says",
    "told",  "asked"});

// Whether token t is a contraction: a verb or pronoun that ends in "n't",
// "'re", "'ve", "'ll", "'m" or "'d", or a pronoun or question word that
// ends in "'s" ("it's", "what's"), with an ASCII apostrophe or U+2019
// (which the tokenizer keeps inside the word: "doesn’t"). In text without
// capitals a name ran on into one ("kyle doesn’t"), and redaction took the
// negation with the name.
inline bool contraction(std::string_view text, const Token& t) {
  const std::string_view word = text.substr(t.begin, t.end - t.begin);
  // The apostrophe: "'", or the last byte of U+2019 ("\xe2\x80\x99").
  const size_t mark = word.find_last_of("'\x99");
  if (mark == std::string_view::npos) return false;
  const bool curly = word[mark] != '\'';
  if (curly && (mark < 2 || word[mark - 2] != '\xe2' || word[mark - 1] != '\x80')) return false;
  const size_t stem = curly ? mark - 2 : mark;  // the bytes before the apostrophe
  if (stem == 0) return false;
  const std::string_view ending = word.substr(mark + 1);
  if (ending == "t") return word[stem - 1] == 'n';
  // (An "'s" is a possessive's but after a pronoun or question word:
  // "it's", "that's", "what's", "let's".)
  if (ending == "s") {
    static constexpr WordSet kIsAfter(std::array<std::string_view, 11>{
        "it", "that", "there", "here", "what", "who", "where", "how", "let", "he", "she"});
    return kIsAfter.contains(text, Token{t.begin, static_cast<uint32_t>(t.begin + stem), false, false});
  }
  return ending == "re" || ending == "ve" || ending == "ll" || ending == "m" || ending == "d";
}

// Whether token t is one of kNeverInAName in small letters, or a
// contraction() in small letters or of "I" ("I'll", "I'm", "I’ve": "Tell
// Rebecca I'll be late" is no name "Rebecca I'll").
inline bool never_in_a_name(std::string_view text, const Token& t) {
  const char c = text[t.begin];
  if (c >= 'a' && c <= 'z') return kNeverInAName.contains(text, t) || contraction(text, t);
  // (Most words that open with "I" are none: the apostrophe after the "I",
  // or the "sn" of "Isn't", is asked first.)
  if (c != 'I' || t.end - t.begin < 3) return false;
  const char second = text[t.begin + 1];
  return (second == '\'' || second == '\xe2' || (second == 's' && text[t.begin + 2] == 'n')) && contraction(text, t);
}

// Words that stand inside names ("Bank of America", "Trinidad and Tobago",
// "Ivan and Českého odboje 1735") but end none: a value the decoder let run
// into one ends before it ("St Francis of", "United States and", "Gibbon,
// The"). In capitals throughout they are abbreviations ("Salem, OR",
// "Indianapolis, IN"), which end values.
// (And "a", of one letter, which a WordSet does not hold.)
constexpr WordSet kNeverLastInAName(std::array<std::string_view, 16>{
    "of", "and", "or", "the", "in", "at", "to", "for", "on", "by", "with", "from",
    // "and" as German, Dutch and the Nordic languages write it: "Ich heiße
    // Jürgen Weiß und wohne". (Not French "et": "et al" would open at "al",
    // a first name.)
    "und", "en", "och", "og"});

// Whether token t ends no value: one of kNeverLastInAName but in capitals
// throughout, or "a" after a name (`name`; an address may end in a flat's
// letter: "apt a").
inline bool never_last_in_a_name(std::string_view text, Tokens tokens, size_t t, bool name) {
  const Token& token = tokens[t];
  if (token.end - token.begin == 1) return name && text[token.begin] == 'a';
  return kNeverLastInAName.contains(text, token) && !all_capitals(text, tokens, t);
}

// Narrows `span`, over tokens [from, to), to leave out the words that open
// or end no value: a name, a place or an organisation opens with no word
// never_in_a_name() ("this morning"), nor ends with one; no value ends with
// a word never_last_in_a_name() ("St Francis of", "O2, and", "case of"),
// nor with the marks before such a word, nor with a comma or semicolon
// (an address the decoder closed at "I'll" of "Novakweg 31, I'll"). False
// when nothing is left. A title is left as it is: plausible() asks its
// last word for a role.
inline bool trim_function_words(std::string_view text, Tokens tokens, PiiSpan& span, size_t& from, size_t& to) {
  if (span.type == PiiType::kTitle) return true;
  const bool name =
      span.type == PiiType::kPerson || span.type == PiiType::kLocation || span.type == PiiType::kOrganization;
  if (name) {
    while (from < to && never_in_a_name(text, tokens[from])) ++from;
  }
  bool trimmed = false;
  while (from < to) {
    const Token& last = tokens[to - 1];
    if (is_word_byte(static_cast<unsigned char>(text[last.begin]))) {
      if (!never_last_in_a_name(text, tokens, to - 1, name) && !(name && never_in_a_name(text, last))) break;
    } else if (!trimmed && !(last.end - last.begin == 1 && (text[last.begin] == ',' || text[last.begin] == ';'))) {
      break;
    }
    --to;
    trimmed = true;
  }
  if (from == to) return false;
  span.begin = tokens[from].begin;
  span.end = std::min(span.end, tokens[to - 1].end);
  return true;
}

// The length of the sign of arithmetic or comparison that opens at byte
// `at`: "=", "^", "×", "÷", "±", one of U+2200-U+22FF ("−", "≤", "≡",
// "∘"; not the three like Greek capitals), or a bullet ("•") between two
// numbers ("7 • 11"; not between the lines of a letterhead, "Main Street •
// Springfield"); 0 for none.
inline size_t math_sign_length(std::string_view text, size_t at) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  if (s[at] == '=' || s[at] == '^') return 1;
  const bool times_or_divided = s[at] == 0xc3 && at + 1 < n && (s[at + 1] == 0x97 || s[at + 1] == 0xb7);
  if (times_or_divided || (s[at] == 0xc2 && at + 1 < n && s[at + 1] == 0xb1)) return 2;
  if (at + 2 >= n || s[at] != 0xe2) return 0;
  if (s[at + 1] >= 0x88 && s[at + 1] <= 0x8b && (s[at + 2] & 0xc0) == 0x80) {
    // Not "∆", "∏" and "∑", written for the Greek capitals ("μελα∆εια").
    const bool greek_like = s[at + 1] == 0x88 && (s[at + 2] == 0x86 || s[at + 2] == 0x8f || s[at + 2] == 0x91);
    return greek_like ? 0 : 3;
  }
  if (s[at + 1] != 0x80 || s[at + 2] != 0xa2) return 0;
  size_t before = at, after = at + 3;
  while (before > 0 && (s[before - 1] == ' ' || s[before - 1] == '\t')) --before;
  while (after < n && (s[after] == ' ' || s[after] == '\t')) ++after;
  const bool digit_before = before > 0 && s[before - 1] >= '0' && s[before - 1] <= '9';
  return digit_before && after < n && s[after] >= '0' && s[after] <= '9' ? 3 : 0;
}

// Whether a sign (`sign_at(k)`: its length in bytes at byte k, 0 for none)
// stands inside `span` or next to it, blanks apart, or `inside_at(k)` holds
// at a byte of it. Inside the span both are asked only where `may_open(k)`,
// a cheap test of the byte that turns most bytes away.
template <typename MayOpen, typename SignAt, typename InsideAt>
inline bool sign_in_or_next_to(std::string_view text, const PiiSpan& span, MayOpen may_open, SignAt sign_at,
                               InsideAt inside_at) {
  auto blank = [&](size_t k) { return text[k] == ' ' || text[k] == '\t' || text[k] == '\n'; };
  size_t before = span.begin, after = span.end;
  while (before > 0 && blank(before - 1)) --before;
  while (after < text.size() && blank(after)) ++after;
  for (size_t length = 1; length <= 3 && length <= before; ++length) {
    if (sign_at(before - length) == length) return true;
  }
  for (size_t k = span.begin; k < span.end; ++k) {
    if (may_open(k) && (sign_at(k) > 0 || inside_at(k))) return true;
  }
  return after < text.size() && sign_at(after) > 0;
}

// Whether a sign of arithmetic (math_sign_length()) stands inside `span` or
// next to it, blanks apart: a sum or an equation ("(6 × 5) × 10^2", "t ÷ 8
// =", "7 • 11 • 13"), not an address.
inline bool next_to_a_math_sign(std::string_view text, const PiiSpan& span) {
  return sign_in_or_next_to(
      text, span, [](size_t) { return true; }, [&](size_t k) { return math_sign_length(text, k); },
      [](size_t) { return false; });
}

// Whether a sign of logic or arithmetic but "=" and "^" (math_sign_length():
// "⊃", "≡", "∨", "−", "×") stands inside `span` or next to it, blanks
// apart, or a bullet ("•") or a mathematical letter ("𝜎") inside it: a
// formula ("Px • Sxj", "Kx ⊃", "H ≡ I", "𝜎 𝑧"), not a name, place or
// organisation. ("=" may stand between a key and a name: "user = Wanda".)
inline bool in_a_formula(std::string_view text, const PiiSpan& span) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  // (Such a sign opens with 0xc2, 0xc3 or 0xe2, a bullet or a mathematical
  // letter with 0xe2 or 0xf0: bytes below 0xc2 are turned away at once.)
  auto sign_at = [&](size_t k) {
    return s[k] == 0xc2 || s[k] == 0xc3 || s[k] == 0xe2 ? math_sign_length(text, k) : size_t{0};
  };
  // A bullet, or a letter of the Mathematical Alphanumeric Symbols
  // (U+1D400-U+1D7FF: "𝜎", "𝑌").
  auto inside_at = [&](size_t k) {
    return (s[k] == 0xe2 && k + 2 < text.size() && s[k + 1] == 0x80 && s[k + 2] == 0xa2) ||
           (s[k] == 0xf0 && k + 2 < text.size() && s[k + 1] == 0x9d && s[k + 2] >= 0x90 && s[k + 2] <= 0x9f);
  };
  return sign_in_or_next_to(
      text, span, [&](size_t k) { return s[k] >= 0xc2; }, sign_at, inside_at);
}

// Whether token `from` is digits and an era follows it, in capitals, its
// stops or not ("1500 C.E.", "600 BCE", "44 B.C.", "800 AD"), and tokens
// [from, to) hold no more than these: a year, not an address.
inline bool year_of_an_era(std::string_view text, Tokens tokens, size_t from, size_t to) {
  if (to - from < 2 || !all_digits(text, tokens[from])) return false;
  std::string era;
  size_t t = from + 1;
  for (; t < tokens.size() && !tokens[t].newline_before; ++t) {
    const std::string_view token = text.substr(tokens[t].begin, tokens[t].end - tokens[t].begin);
    const bool touching = t == from + 1 || tokens[t].begin == tokens[t - 1].end;
    if (!touching) break;
    if (token == ".") continue;
    if (era.size() + token.size() > 3 ||
        !std::all_of(token.begin(), token.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) {
      break;
    }
    era += token;
  }
  return to <= t && (era == "BC" || era == "BCE" || era == "AD" || era == "CE");
}

// Whether tokens [from, to) are words, then years (1000-2099) after "(", a
// comma or "ca.", and no other numbers: names and a date, as a citation
// writes them ("Esman (1972", "Queen Victoria, 1839", "Mecca and
// Jerusalem, ca. 1185"), not an address. No labelled address of the dev
// rows has such a number.
inline bool dated_names(std::string_view text, Tokens tokens, size_t from, size_t to) {
  bool years = false;
  for (size_t t = from; t < to; ++t) {
    const char first = text[tokens[t].begin];
    if (first < '0' || first > '9') continue;
    if (t == from || tokens[t].end - tokens[t].begin != 4 || !all_digits(text, tokens[t])) return false;
    int year = 0;
    for (uint32_t b = tokens[t].begin; b < tokens[t].end; ++b) year = year * 10 + (text[b] - '0');
    const std::string_view before = text.substr(tokens[t - 1].begin, tokens[t - 1].end - tokens[t - 1].begin);
    const bool after_a_mark =
        before == "(" || before == "," || (before == "." && t >= 2 && token_is(text, tokens[t - 2], "ca"));
    if (year < 1000 || year > 2099 || !after_a_mark) return false;
    years = true;
  }
  return years;
}

// Small words after a place and its postcode that go on with the sentence:
// "in Springfield 62704 in its mission" (not "London 10000 people").
constexpr WordSet kAfterAPostcode(std::array<std::string_view, 5>{"in", "on", "and", "for", "to"});

// Whether token t is a capitalised word that opens sentences and no name: a
// pronoun, determiner, conjunction, adverb or question word, "Is" or
// "Please" ("It serves", "Then walk", "Neither investment"); none opens the
// words of an address or a name after an abbreviation ("St. Louis", "P.O.
// Box", "Apt. 4", "Dr. Smith"). Out of line: may_continue() asks it only
// after an abbreviation's stop.
bool capitalised_sentence_opener(std::string_view text, const Token& t);

// A corner of two streets, each named before a literal "St." ("the corner
// of Via Garibaldi St. and Calle Mayor St."), tokens [from, also) the
// first street and its "St.", `also` the "and": each street's name is an
// address of its own without the "St.", as the dev rows label a street's
// name before a literal suffix (join_street_corners()). No number in the
// names: a corner with a house number ("the corner of Auenweg 85 and Kesä
// Street") is one address. The second "St" token's index, or 0.
size_t abbreviated_streets_at_a_corner(std::string_view text, Tokens tokens, size_t from, size_t also);

// The token after a chat's time stamp that opens a line at token k
// ("[10:32] Priyanka:", "(10:32:05 PM) Dmitri:", "10:32 - Anna:"): hours and
// minutes, maybe seconds and AM or PM, in brackets or before a dash or
// not, then a token on the line; k where no time stamp opens there.
inline size_t past_a_time_stamp(std::string_view text, Tokens tokens, size_t k) {
  const size_t n = tokens.size();
  auto mark = [&](size_t i, char c) { return i < n && tokens[i].end - tokens[i].begin == 1 && text[tokens[i].begin] == c; };
  auto digits = [&](size_t i) { return i < n && tokens[i].end - tokens[i].begin <= 2 && all_digits(text, tokens[i]); };
  size_t at = k;
  char close = 0;
  if (mark(at, '[') || mark(at, '(')) close = text[tokens[at++].begin] == '[' ? ']' : ')';
  if (!digits(at) || !mark(at + 1, ':') || !digits(at + 2)) return k;
  at += 3;
  if (mark(at, ':') && digits(at + 1)) at += 2;
  if (at < n && (token_is(text, tokens[at], "am") || token_is(text, tokens[at], "pm"))) ++at;
  if (close != 0 && !mark(at++, close)) return k;
  if (close == 0 && mark(at, '-')) ++at;
  return at < n && !tokens[at].newline_before ? at : k;
}

// Whether token j follows a time stamp that opens its line
// (past_a_time_stamp()).
// Whether byte c may end a time stamp: "]", ")", "-", a digit, the "M" of
// "PM". A caller asks it of the byte before token j's blank, which turns
// most tokens away before after_a_time_stamp().
inline bool may_end_a_time_stamp(char c) {
  return c == ']' || c == ')' || c == '-' || (c | 0x20) == 'm' || (c >= '0' && c <= '9');
}
[[gnu::noinline]] inline bool after_a_time_stamp(std::string_view text, Tokens tokens, size_t j) {
  if (j < 3 || tokens[j].newline_before) return false;
  const Token& before = tokens[j - 1];
  const char c = text[before.begin];
  const bool closes = before.end - before.begin == 1 && (c == ']' || c == ')' || c == '-');
  const bool time = (before.end - before.begin <= 2 && all_digits(text, before)) || token_is(text, before, "am") ||
                    token_is(text, before, "pm");
  if (!closes && !time) return false;
  size_t k = j - 1;
  while (k > 0 && !tokens[k].newline_before && j - k < 9) --k;
  return (k == 0 || tokens[k].newline_before) && past_a_time_stamp(text, tokens, k) == j;
}

// The first tokens of the two lines before and the two after the line of
// token j (its own line's first token excluded); tokens.size() for each
// that is not there. Out of line: its searches of the text would change
// what GCC inlines into the rules' passes.
std::array<size_t, 4> first_tokens_of_lines_around(std::string_view text, Tokens tokens, size_t j);

// Whether token `last`, a place's last word after its cue, ends the place:
// the line's or the text's end, a mark, or a small word of time or another
// place's preposition ("flew to Enugu on Tuesday", "moved to Graz last
// year", "born in Lima in 1990"). Out of line: a word set inlined into
// the name passes changes what GCC inlines there.
bool ends_a_place_after_its_cue(std::string_view text, Tokens tokens, size_t last);

// Whether token t may be a word of a place's name after its cue: it opens
// with a letter, is no month nor weekday ("flew to Sunday today"), and
// holds no letter of a script without capitals unless the tagger learned
// values in one (`caseless_values`: "moved here from 東京 last year").
bool may_name_a_place(std::string_view text, const Token& t, bool caseless_values);

// Where `span` ends without the small letters glued after a mark of three
// bytes at its end (pii_tokens::mark_length()): an ellipsis or a dash opens
// the next clause ("United States…do" ends at "States"), and "’" a
// possessive's "s" ("Newton’s"; not "I’m", "O’clock"); span.end where
// nothing is glued so. Out of line: find_pii() asks it of every span of
// the tagger.
uint32_t end_before_a_glued_clause(std::string_view text, const PiiSpan& span);

// Where `span` ends without a stop after a whole word of four letters or
// more: the stop ends the sentence ("we live at 14 harbour view
// terrace."), where the dev labels take in only an abbreviation's
// ("Mr.", "St.", "Ltd.", "Corp.", "Friedrichstr."); span.end otherwise.
uint32_t end_before_a_sentence_stop(std::string_view text, const PiiSpan& span);

// Whether token i is a capitalised word (A-Z, or a capital of Latin-1,
// Greek, Cyrillic or Latin Extended) that opens a sentence or a line, or
// follows on its line a mark of one byte that opens a clause (not a comma,
// a hyphen, a stop or "&", which go on with one: "Петя, Вася"), before a
// word of small letters on its line ("Tính tổng", "Terdapat juga"). Out of
// line: tag() asks it only of words no list knows.
bool sentence_opener(std::string_view text, Tokens tokens, size_t i);
// A sentence_opener() of Cyrillic before a word of Cyrillic.
bool cyrillic_sentence_opener(std::string_view text, Tokens tokens, size_t i);

// Where the company opens in tokens [from, to) of a span that an
// executive's title and "of" open, before capitalised words on one line:
// "CEO of Oranje Media", "Founder of Zenith Labs" (from + 2); `from` for
// any other span. The decoder took such spans for places, as "Bank of
// America".
size_t company_of_an_executive(std::string_view text, Tokens tokens, size_t from, size_t to);

// Whether `value` is a word of 2 to 8 capitals and digits, with both: a
// chemical formula or a code ("H2O", "CO2", "SA8000", "B2B", "M2"), no
// one's name, place or company alone (the dev rows' organisations with
// digits have small letters: "Ideas42", "6Sigma"; "3M" is lost).
bool formula_or_code(std::string_view value);

// Whether token i is a modal verb that the name lists hold as a name
// ("may", "will", "can", "might") before, on its line, a word that the
// lists of `everyday` words know and those of `names` do not: the verb
// ("nail pitting may give a clue", "they may not"; not "may smith").
// plausible() asks it of a span of one word in small letters.
bool modal_before_a_verb(std::string_view text, Tokens tokens, size_t i, const Gazetteer& gazetteer, uint16_t everyday,
                         uint16_t names);

// Whether token t is a number of 1900 to 2099, a year more often than a
// building's number before a street's name.
bool a_recent_year(std::string_view text, const Token& t);

// The words that lead to a place in text without capitals, before a
// street's number or name: "at 9313 maple court", "on corellistraat 178".
constexpr WordSet kLeadToAPlace(std::array<std::string_view, 6>{"at", "to", "from", "near", "for", "on"});

// Whether token j opens its line, or follows a form's colon or, one blank
// apart, a word that leads to a place, maybe with "number" between
// ("address: 95", "at 9313", "at number 9"), or "address", alone or with
// its "is" or "was" ("the address 57", "address was 12"): where a street
// may start in text without capitals.
inline bool led_to_a_place(std::string_view text, Tokens tokens, size_t j) {
  if (j == 0 || tokens[j].newline_before || token_is(text, tokens[j - 1], ":")) return true;
  if (!one_blank_after(text, tokens, j)) return false;
  const bool number_between = j >= 2 && token_is(text, tokens[j - 1], "number") && one_blank_after(text, tokens, j - 1);
  const size_t lead = number_between ? j - 2 : j - 1;
  if (kLeadToAPlace.contains(text, tokens[lead])) return true;
  // (Or "address", alone or with its "is" or "was": "verify the address
  // 57 wentworth terrace", "my previous address was 12 kingfisher walk".)
  if (token_is(text, tokens[lead], "address")) return true;
  return lead >= 1 && (token_is(text, tokens[lead], "is") || token_is(text, tokens[lead], "was")) &&
         token_is(text, tokens[lead - 1], "address") && one_blank_after(text, tokens, lead);
}

// Whether a word ends as the streets of German, Dutch, Nordic and Finnish
// towns do, one word that is the street's whole name ("bahnhofstrasse",
// "corellistraat", "drottninggatan", "havnevej", "Nørregade",
// "Koskikatu"), or is the ending alone ("Freistädter Strasse"), in any
// case. With `shortest_ending`, only the endings of that many bytes or more
// ("gasse", not "weg"), which English words do not end in. (Nor the two
// English words that end in "gade": "brigade", "renegade".)
inline bool ends_as_a_street(std::string_view word, size_t shortest_ending = 0) {
  static constexpr std::array<std::string_view, 14> kStreetEndings = {
      "strasse", "straße", "straat", "allee", "gasse", "platz", "gatan", "vägen", "laan", "weg", "vej", "vei", "gade",
      "katu"};
  auto ends_in = [&](std::string_view e) {
    if (word.size() < e.size()) return false;
    const std::string_view tail = word.substr(word.size() - e.size());
    for (size_t k = 0; k < e.size(); ++k) {
      if (kByteView[static_cast<unsigned char>(tail[k])].lower != static_cast<unsigned char>(e[k])) return false;
    }
    return true;
  };
  return std::any_of(kStreetEndings.begin(), kStreetEndings.end(), [&](std::string_view e) {
    return e.size() >= shortest_ending && ends_in(e) && !(e == "gade" && (ends_in("brigade") || ends_in("renegade")));
  });
}

// Whether token t abbreviates a street word before its stop: "Str", or one
// word that ends so ("Friedrichstr"), in any case; Hungarian "u" (utca).
inline bool street_abbreviation(std::string_view text, const Token& t) {
  const std::string_view w = text.substr(t.begin, t.end - t.begin);
  if (w.size() == 1) return w == "u";
  return w.size() >= 3 && kByteView[static_cast<unsigned char>(w[w.size() - 3])].lower == 's' && w.ends_with("tr") &&
         (w.size() == 3 || w.size() >= 6);
}

// Whether token t is a street word in small letters that comes after the
// street's name, in languages that write it so ("Erzsébet tér", "Karl
// Johans gata", "Amalienborg plads"): none that English uses otherwise
// ("gate", "tie").
inline bool street_word_after_its_name(std::string_view text, const Token& t) {
  // (Asked of every number after a small word: a WordSet's one load turns
  // most away; the words with a letter beyond ASCII in their first two
  // bytes, and Lithuanian "gatvė", are compared apart.)
  static constexpr WordSet kAsciiWords(std::array<std::string_view, 24>{
      "gata", "gatan", "gade", "vei", "veien", "vej", "vegur", "vegen", "plads", "torg", "torget", "utca", "ulica",
      "katu", "kuja", "straat", "laan", "weg", "gracht", "plein", "kade", "steeg", "iela", "cesta"});
  static constexpr std::array<std::string_view, 5> kOtherWords = {"tér", "út", "körút", "väg", "vägen"};
  const auto* s = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
  if (t.end - t.begin < 2) return false;
  const std::string_view w = text.substr(t.begin, t.end - t.begin);
  if (s[0] != 0xc3 && s[1] != 0xc3) {
    if (s[0] < 'a' || s[0] > 'z') return false;
    return kAsciiWords.contains(text, t) || (s[0] == 'g' && w == "gatv\u0117");
  }
  return std::find(kOtherWords.begin(), kOtherWords.end(), w) != kOtherWords.end();
}

// Whether a street word abbreviated with a mark, in any case, comes right
// before token k, the street's name ("C/ Alcalá", "ul. Długa", "al.
// Jerozolimskie", "pl. Zbawiciela", "Av. Paulista", "Avda. de América"):
// Spanish, Polish and Portuguese write it so. Not after "et" ("et al.").
inline bool street_word_before_its_name(std::string_view text, Tokens tokens, size_t k) {
  if (k < 2 || tokens[k].newline_before || tokens[k - 1].begin != tokens[k - 2].end ||
      tokens[k - 1].end - tokens[k - 1].begin != 1) {
    return false;
  }
  const char mark = text[tokens[k - 1].begin];
  const bool blank_after = tokens[k].begin == tokens[k - 1].end + 1 && text[tokens[k - 1].end] == ' ';
  const Token& word = tokens[k - 2];
  if (k >= 3 && tokens[k - 3].end == word.begin) return false;  // inside a longer token: "ABC/"
  if (mark == '/') return (blank_after || tokens[k].begin == tokens[k - 1].end) && token_is(text, word, "c");
  if (mark != '.' || !blank_after) return false;
  if (token_is(text, word, "al") && k >= 3 && token_is(text, tokens[k - 3], "et")) return false;
  return token_is(text, word, "ul") || token_is(text, word, "al") || token_is(text, word, "pl") ||
         token_is(text, word, "av") || token_is(text, word, "avda");
}

// The last token of a street after the building's number at token j, in
// text without capitals, where street_by_its_suffix() found none: after a
// word that leads to a place ("at", "to", "from", "near", "for", "on"), a
// form's colon or at a line's start, a street named by a suffix that the
// lists of `suffixes` know, everyday or not, after up to three small words
// ("at 9313 maple court", "near 3259 juniper way"; after "of" or a comma
// too, a suffix that is no plural of another: "a tenant of 8 aspen way";
// not "close" before "to" or "by"); by a street word of
// the Romance and Slavic languages before one or two words ("near 3913 rue
// oberkampf", "for 9419 ulica kwiatowa"); or one word that ends as streets
// do (ends_as_a_street(): "at 3014 bahnhofstrasse"). The street ends its
// clause: then comes the line's or the text's end, a mark or a word that
// stands in no name or ends none ("at 4337 juniper way then"; not "at 9
// supreme court justices"); after a suffix, a place that the lists of
// `places` know in full may follow too, the street's town ("at 42 wallaby
// way sydney"). 0 for none; not after a year ("in 2012 the court").
// Precondition: token j is a house_number() apart from token j + 1 ("at
// 19b willow court").
size_t street_in_small_letters(std::string_view text, Tokens tokens, size_t j, const Gazetteer& gazetteer,
                               uint16_t suffixes, uint16_t places);

// Whether `value` ends in an ordinal in figures: a digit, then "st", "nd",
// "rd" or "th" ("14th", "the 1st").
inline bool ends_in_an_ordinal_in_figures(std::string_view value) {
  return value.size() >= 3 && value[value.size() - 3] >= '0' && value[value.size() - 3] <= '9' &&
         (value.ends_with("st") || value.ends_with("nd") || value.ends_with("rd") || value.ends_with("th"));
}

// Whether token t is an ordinal number of a numbered street, digits alone
// before its ending ("46th" of "310 East 46th Street", "1st").
inline bool street_ordinal(std::string_view text, const Token& t) {
  const std::string_view w = text.substr(t.begin, t.end - t.begin);
  return w.size() <= 6 && ends_in_an_ordinal_in_figures(w) &&
         std::all_of(w.begin(), w.end() - 2, [](char c) { return c >= '0' && c <= '9'; });
}

// The token after a compass point's abbreviation at token k before a
// street's name, with its stop: "N." of "120 N. Main Street", "SW" of "9
// SW Oak Ave" (N, S, E, W, NE, NW, SE, SW in any case, one blank before
// the name); k where there is none.
size_t past_a_compass_point(std::string_view text, Tokens tokens, size_t k);

// The last token of a street named by its suffix after the building's
// number at token j (and a compass point: past_a_compass_point()), in text
// with capitals: up to three capitalised words or street_ordinal()s
// one space apart on the number's line, the last a street suffix that the
// lists of `suffixes` know in full or kCommonStreetSuffixes holds ("Ave",
// "Rd") ("at 9084 Juniper Way", "4028 Chestnut Boulevard", "12 Old Mill
// Road", "120 N. Main St"; the dev rows label all 101 such as an
// address), or of the unit of a building and its number right after it
// ("Apt. 898", "Suite 12", "#210", "#2R"; without capitals after a comma
// too, "rd, unit 7"); 0 when there is none, or when the street's own
// number follows it ("40 Maple Street 21": street_before_its_number()).
// Not after a year, unless the suffix is one only streets have
// (kCommonStreetSuffixes): "the 2012 Olympic Park". In text without
// capitals (`mixed` false), small words none of them a function_word()
// and a suffix only streets have, or one of the lists' before a unit,
// after no unit of measure: "at 3259 juniper way" is none, "at 3259
// juniper road" and "12 west way apt. 3" are; not "a 10 mile road", "2
// hours to drive". In text with capitals, also a street word of the
// Romance languages in small letters before the name
// (kStreetWordsBeforeTheName: "3 rue des Lilas", "8 boulevard
// Saint-Michel"). Precondition: token j is a number apart from token j + 1.
size_t street_by_its_suffix(std::string_view text, Tokens tokens, size_t j, const Gazetteer& gazetteer, uint16_t suffixes,
                            bool mixed);

// The first token of a street before its house number at token j, in text
// with capitals: two to four capitalised words one space apart on the
// number's line (past a sentence's opener: "In"), named by a street suffix
// that the lists of `suffixes` know in full, last ("Birchwood Lane 1368")
// or before the name ("Calle Mayor 5486", "Via Garibaldi 3504"); nothing
// glued to the number but a mark that ends a clause ("Psalm Street 23:4").
// Not when the words are a place that the lists of `places` know ("Cape
// Verde 12844", and its postcode), nor a quantity ("Davis Street 100
// feet"), nor after a suffix that everyday words share before a year
// ("Champions Park 2012"). In text without capitals (`mixed` false), small
// words of four letters or more that stand in no name, the last a suffix
// only streets have ("at chestnut boulevard 6499"), or one word that ends
// as streets do (ends_as_a_street()) after a word that leads to a place
// ("on corellistraat 178"). In any case, a street word abbreviated with
// its stop before the number (street_abbreviation(): "Friedrichstr. 43",
// "Király u. 15") or with a mark before the name
// (street_word_before_its_name(): "C/ Alcalá 45", "ul. Długa 5/7"), and a
// flat's number after a slash. tokens.size() when there is none.
size_t street_before_its_number(std::string_view text, Tokens tokens, size_t j, const Gazetteer& gazetteer,
                                uint16_t suffixes, uint16_t places, bool mixed);

// Puts an address over bytes [begin, end) of the text in place of the
// spans of names, places, organisations and addresses that lie inside it
// ("Juniper Way" taken for a name, "5036" and "Lakeview Drive" for two
// addresses) of out[first...]; nothing where a span overlaps it that is of
// another type, or one found before tagging (out[0, first)) that is no
// address inside it, or one that reaches outside it, or where that address
// is there already. Returns whether it changed `out`: the address
// appended, out of order, and the spans it replaces emptied
// (mark_dropped(): drop_marked_spans() takes them out), so that the other
// spans keep their indices. With many spans it reads only those over the
// address's tokens, from the cover, which it keeps: a list of thousands of
// streets costs time in their number, not its square.
bool replace_with_an_address(std::vector<PiiSpan>& out, size_t first, uint32_t begin, uint32_t end);

// Whether `value` is one word of ASCII letters and digits written as code
// joins words: a capital after four small letters or more ("PictureBox",
// "TextBox1", "SimulationTimer"; names join after a short prefix:
// "McKenzie", "MacArthur", "FitzGerald", "DeShawn"); `digits_last`
// whether it ends in a digit ("PictureBox1").
struct CamelCase {
  bool camel = false, digits_last = false;
};
CamelCase camel_case(std::string_view value);

// Whether `value` ends a block of Visual Basic: "End If", "End Sub", "Exit
// Sub".
bool visual_basic_block_end(std::string_view value);

// Whether `value` is a union of a continent's states ("European Union",
// "African Union"), which a country list holds: a body no one lives in
// (the dev rows leave "Treaty on European Union" unlabelled).
bool union_of_states(std::string_view value);

// Whether `value` is an amendment of a constitution by its number ("First
// Amendment", "Fourteenth Amendments", "the Eighth Amendment's", "14th
// Amendment") or a world war ("World War II"): a law and an event, named
// as organisations are (or, with a number, as streets).
bool law_or_war(std::string_view value);

// Whether text[begin, end) names a feast or a festival: its name alone
// ("for Christmas", "Diwali"), maybe after "Merry" or "Happy", maybe with
// a possessive, then words of its day or of the things it holds
// ("Christmas Day", "Easter Egg Hunt", "Halloween" of "Halloween
// candy"); "Valentine" only
// before "'s Day", a first name too. A time of year, no person, place or
// firm: the decoder read "for Christmas" as it reads "for Anna". (Not
// "Christmas Island", nor "Easter Island".)
bool holiday(std::string_view text, uint32_t begin, uint32_t end);

// The most lines the decoder runs an address over: two of 6 lines, listed
// one after the other ("..., and 16 Grosse Praesidenten Str. 20\n Apt.
// 936\n ..."), which split_address_lists() parts. (The labelled dev rows'
// longest address has 4 lines; scan_plain_text() covers a span of more
// than 6 that the passes leave line by line: a list of addresses, or a
// list or a table.)
inline constexpr size_t kMaxAddressLines = 12;
// The most tokens a name, a place or an organisation runs over: the dev
// rows' longest has 5 words, and a double name's hyphen is a token of its
// own ("Marie-Claire de la Fontaine-Dubois": 8). More is a list without
// commas ("Anna Smith Anna Smith ..."), which would otherwise run on as
// one name over the whole text.
inline constexpr size_t kMaxNameTokens = 24;

// Whether the span of `type` open over tokens [from, i) may take token i
// in, past may_continue(): a name, a place or an organisation holds
// kMaxNameTokens tokens at most; an address runs over kMaxAddressLines
// lines at most, and onto a new line only where a digit stands in the
// span so far, on the new line or on the line after it (a house number, a
// box's, a postcode: so does every line break of a labelled address,
// "Ms. Alicia Laaksonen\nThink Computer Corp\nLargo Prazeres 26" too),
// so that a list of names one per line ("Anna Berg\nMark Olsen\nSara
// Lind") is no address; past a blank line only onto a line with a digit
// of its own ("Qeqertarsuaq\n\n Greece 79976", not the next letter's
// "Mark Olsen"). Reads bytes only at a line break within an address: the
// span's and two lines' (address_may_run_onto_its_line(), out of line: the
// decoder seldom asks it).
bool address_may_run_onto_its_line(std::string_view text, Tokens tokens, size_t from, size_t i);
inline bool span_may_grow(std::string_view text, Tokens tokens, size_t from, size_t i, PiiType type) {
  if (type == PiiType::kPerson || type == PiiType::kLocation || type == PiiType::kOrganization) {
    return i - from < kMaxNameTokens;
  }
  return type != PiiType::kStreetAddress || !tokens[i].newline_before ||
         address_may_run_onto_its_line(text, tokens, from, i);
}

// Whether token i may continue a span of `type` that covers token i - 1
// (i > 0): no span runs across a tab (a table's cell ends there), and none but
// an address across a line break (span_may_grow() tells how far an address
// does); none runs past the end of a sentence ("?", "!", or a "." that does not
// close an abbreviation of at most three letters such as "Dr." or "Apt."). In
// text with capitals (`mixed`), a name, a place or an organisation does not run
// into a small word of four letters or more ("George wants", "My name"); "van",
// "de la", "of" may stand inside; nor, in Greek or Cyrillic, into a small word
// of any length ("Тимур рос в"). Nor does an address run into such a word when
// `ends_an_address()` (tag(): not a street word, so not "corner" or "lane", and
// either an everyday word, "Elm Street last night", or one before no house
// number, "RR commenter Trevor", not "Trg revolucije 12"); it is asked only of
// such a word. In any text, a name, a place, an organisation or an address does
// not run into a word never_in_a_name() ("man who", "bauru this morning", "9
// kastanienallee then"). In text with capitals, a capitalised_sentence_opener()
// after an abbreviation's stop opens the next sentence: "12 Main St. It
// serves", "Jave Co. Neither".
template <typename EndsAnAddress>
inline bool may_continue(std::string_view text, Tokens tokens, size_t i, PiiType type, bool mixed,
                  EndsAnAddress ends_an_address) {
  if (tokens[i].newline_before && type != PiiType::kStreetAddress) return false;
  if (tab_between(text, tokens, i)) return false;
  const bool name = type == PiiType::kPerson || type == PiiType::kLocation || type == PiiType::kOrganization;
  if ((name || type == PiiType::kStreetAddress) && never_in_a_name(text, tokens[i])) return false;
  // (Names in Greek or Cyrillic hold no small word: one of any length ends them.)
  const auto lead = static_cast<unsigned char>(text[tokens[i].begin]);
  const size_t letters = name && lead >= 0xce && lead <= 0xd1 ? 1 : 4;
  if (mixed && small_word(text, tokens[i], letters) && (name || (type == PiiType::kStreetAddress && ends_an_address()))) {
    return false;
  }
  const Token& before = tokens[i - 1];
  if (before.end - before.begin != 1) return true;
  const char mark = text[before.begin];
  if (mark == '?' || mark == '!') return false;
  if (mark != '.') return true;
  if (!closes_a_short_word(tokens, i - 1) || !is_word_byte(static_cast<unsigned char>(text[tokens[i - 2].begin]))) {
    return false;
  }
  return !(mixed && capitalised_sentence_opener(text, tokens[i]));
}

// Adverbs of time and place that follow a name as a verb's object ("call
// Christian tomorrow"), where a noun follows an adjective ("Christian
// missionaries").
constexpr WordSet kAdverbsAfterAName(std::array<std::string_view, 16>{
    "tomorrow", "today", "tonight", "yesterday", "now", "soon", "later", "again", "too", "also", "then", "once",
    "still", "here", "there", "first"});

// Ranks and offices that stand for their holder after "the" ("the King
// granted", "the Pope", "the President"): a role, not the holder's name.
constexpr WordSet kRanks(std::array<std::string_view, 32>{
    "king", "queen", "prince", "princess", "emperor", "empress", "pope", "sultan", "tsar", "czar", "kaiser",
    "pharaoh", "duke", "duchess", "earl", "baron", "bishop", "archbishop", "cardinal", "president", "chancellor",
    "governor", "senator", "mayor", "admiral", "lord", "khan", "shah", "caliph", "emir", "prophet", "dauphin"});
// The planets and the dwarf planet Pluto: alone, the bodies an astronomy
// question asks about ("the moons of Jupiter"), not a person, place or firm.
constexpr WordSet kPlanets(std::array<std::string_view, 9>{"mercury", "venus", "earth", "mars", "jupiter", "saturn",
                                                            "uranus", "neptune", "pluto"});
// (The suffixes that make the words before them a street in any case:
// lexicon.h, which the structured detectors read too.)
using pii_scan::kCommonStreetSuffixWords;
constexpr WordSet kCommonStreetSuffixes(kCommonStreetSuffixWords);
// The particles between the words of a street's name in the Romance
// languages ("Calle de Alcalá", "Via della Spiga", "rue des Lilas").
constexpr WordSet kStreetParticles(std::array<std::string_view, 14>{
    "da", "das", "de", "degli", "dei", "del", "della", "des", "di", "do", "dos", "du", "la", "le"});
// The street words that the Romance languages write in small letters after
// the building's number and before the name ("3 rue des Lilas", "22
// boulevard Haussmann"); not "place", "route", "via" nor "largo", words of
// English too ("5 via PayPal"). (street_in_small_letters() reads more of
// them, "via" and "largo" too, where a word that leads to a place comes
// first: "near 3913 via roma".)
constexpr WordSet kStreetWordsBeforeTheName(std::array<std::string_view, 13>{
    "rue", "avenue", "boulevard", "chemin", "impasse", "quai", "calle", "avenida", "rua", "viale", "piazza",
    "corso", "vicolo"});
// The abbreviations of streets' suffixes that the suffix lists lack (they
// hold "St", "Rd", "Ln"): "502 magnolia blvd", "1450 n lakeshore dr".
constexpr WordSet kAbbreviatedStreetSuffixes(std::array<std::string_view, 11>{
    "ave", "dr", "blvd", "ct", "pl", "pkwy", "hwy", "cres", "sq", "cir", "tce"});
// Units of measure after a number: a quantity, not a house number before
// its street ("500 MHz", "77 pm", "25 mol"). Those of one letter ("110 V")
// are no word of a street either.
constexpr WordSet kUnitsOfMeasure(std::array<std::string_view, 44>{
    "hz", "khz", "mhz", "ghz", "nm", "mm", "cm", "km", "mi", "ft", "kg", "mg", "lb", "lbs", "oz", "ml", "mol",
    "kj", "kcal", "cal", "ev", "kev", "mev", "pm", "kv", "mv", "ma", "kw", "mw", "kwh", "pa", "kpa", "atm", "psi",
    "db", "ms", "ns", "mph", "kph", "rpm", "kb", "mb", "gb", "tb"});

// Whether token t is a unit of measure: one of kUnitsOfMeasure, or degrees
// ("°C", "°F", "°": U+00B0 first).
inline bool unit_of_measure(std::string_view text, const Token& t) {
  return (t.end - t.begin >= 2 && static_cast<unsigned char>(text[t.begin]) == 0xc2 &&
          static_cast<unsigned char>(text[t.begin + 1]) == 0xb0) ||
         kUnitsOfMeasure.contains(text, t);
}

// Whether tokens k and k + 1 are a quantity: digits, then a unit of measure
// on their line ("59 kg", "120/80 mm", "26 °C").
inline bool quantity_at(std::string_view text, Tokens tokens, size_t k) {
  return k + 1 < tokens.size() && all_digits(text, tokens[k]) && !tokens[k + 1].newline_before &&
         unit_of_measure(text, tokens[k + 1]);
}

// Words after a number that join it to another or say what it counts: no
// street's name opens so.
constexpr WordSet kWordsAfterACount(std::array<std::string_view, 22>{
    "and", "or", "to", "of", "in", "on", "at", "for", "with", "than", "percent", "times", "years", "year", "more",
    "less", "but", "is", "was", "are", "were", "out"});

// Whether token k is digits before "o'clock" ("at 5 o'clock", "6 o’clock"),
// in any case, on its line: an hour.
inline bool an_hour_at(std::string_view text, Tokens tokens, size_t k) {
  if (k + 1 >= tokens.size() || !all_digits(text, tokens[k]) || tokens[k + 1].newline_before) return false;
  std::string_view w = text.substr(tokens[k + 1].begin, tokens[k + 1].end - tokens[k + 1].begin);
  if (w.size() < 7 || (w[0] | 0x20) != 'o') return false;
  w.remove_prefix(w[1] == '\'' ? 2 : w.starts_with("o\u2019") || w.starts_with("O\u2019") ? 4 : w.size());
  return w.size() == 5 && std::equal(w.begin(), w.end(), "clock", [](char a, char b) { return (a | 0x20) == b; });
}

// Whether token k is digits before a kWordsAfterACount word that ends
// before byte `end` ("8 and", "70 percent"): a span from k to `end`
// counts or joins numbers there, an address only where a street's word
// follows.
inline bool opens_with_a_count(std::string_view text, Tokens tokens, size_t k, uint32_t end) {
  return k + 1 < tokens.size() && all_digits(text, tokens[k]) && !tokens[k + 1].newline_before &&
         tokens[k + 1].end <= end && kWordsAfterACount.contains(text, tokens[k + 1]);
}

// "my", "her", ...: before a relative, who is then named ("my son Mali").
constexpr std::array<std::string_view, 6> kPossessiveDeterminerWords = {"my", "our", "his", "her", "their", "your"};
constexpr WordSet kPossessiveDeterminers(kPossessiveDeterminerWords);

// Whether token i follows a possessive determiner, "its" included: "in its
// mission", "your king".
inline bool after_a_possessive_determiner(std::string_view text, Tokens tokens, size_t i) {
  return i > 0 && (kPossessiveDeterminers.contains(text, tokens[i - 1]) || token_is(text, tokens[i - 1], "its"));
}

// Verbs of speech: "said", "shouted".
constexpr std::array<std::string_view, 18> kSpeechVerbWords = {
    "said", "says", "shouted", "asked", "asks", "replied", "replies", "told", "tells", "wrote", "writes", "yelled",
    "whispered", "answered", "explained", "screamed", "cried", "added"};
constexpr WordSet kSpeechVerbs(kSpeechVerbWords);

// The auxiliaries that open a question before its subject ("Can Will
// come?"), in any case.
constexpr WordSet kQuestionOpeners(std::array<std::string_view, 16>{
    "can", "could", "will", "would", "should", "did", "does", "do", "is", "was", "has", "have", "had", "may", "might",
    "must"});

// Works named after their author, maker or performer: "the Takuda novel",
// "a Kubrick film", "the Beethoven symphony".
constexpr WordSet kWorks(std::array<std::string_view, 24>{
    "novel", "novels", "book", "books", "film", "films", "movie", "movies", "biography", "memoir", "poem",
    "poems", "play", "plays", "opera", "symphony", "sonata", "concerto", "painting", "paintings", "song",
    "songs", "album", "trilogy"});

// Words that go on after a work that ends its noun phrase ("a film
// directed by", "a novel about"), not a noun it qualifies ("a film
// director").
constexpr WordSet kAfterAWork(std::array<std::string_view, 24>{
    "directed", "written", "by", "about", "starring", "released", "produced", "published", "based", "that",
    "which", "from", "in", "of", "set", "and", "with", "for", "featuring", "composed", "recorded", "painted",
    "adapted", "created"});

// Relatives, partners and friends, and the people one's life is lived
// with or who work for one: "son", "wife", "boss", "manager", "landlord",
// "his bride", "my ex", "my parents", "her nurse", "the plumber", and as
// chat writes them ("my gf", "my bestie"). (Not "client" or "tenant",
// which a company may be.)
constexpr std::array<std::string_view, 130> kRelativeWords = {
    "son", "daughter", "kid", "child", "wife", "husband", "partner", "friend", "boss", "brother", "sister",
    "mother", "father", "mom", "mum", "dad", "colleague", "neighbour", "neighbor", "boyfriend", "girlfriend",
    "uncle", "aunt", "cousin", "grandson", "granddaughter", "nephew", "niece", "grandmother", "grandfather",
    "fiance", "fiancee", "grandma", "grandpa", "stepson", "stepdaughter", "spouse", "manager", "supervisor",
    "coworker", "doctor", "dentist", "therapist", "lawyer", "attorney", "accountant", "teacher", "tutor", "coach",
    "mentor", "landlord", "landlady", "roommate", "flatmate", "nanny", "gf", "bf", "bff", "bestie", "hubby", "wifey",
    "stepmom", "stepdad", "stepsister", "stepbrother", "sibling", "twin", "grandchild", "godson", "goddaughter",
    "godmother", "godfather", "bride", "groom", "ex", "classmate", "housemate", "babysitter", "carer", "caregiver",
    "pal", "buddy", "parents", "grandparents", "kids", "children", "sons", "daughters", "twins", "siblings",
    "friends", "cousins", "brothers", "sisters", "nurse", "assistant", "secretary", "driver", "housekeeper",
    "cleaner", "gardener", "midwife", "trainer", "instructor", "caretaker", "plumber", "electrician", "mechanic",
    "handyman", "locksmith", "carpenter", "builder", "vet", "pharmacist", "receptionist", "surgeon", "physician",
    "counsellor", "counselor", "psychiatrist", "psychologist", "physio", "physiotherapist", "optician", "hairdresser",
    "barber", "realtor", "intern", "pupil", "postman"};
constexpr WordSet kRelatives(kRelativeWords);

template <size_t A, size_t B>
consteval std::array<std::string_view, A + B> joined(const std::array<std::string_view, A>& a,
                                                      const std::array<std::string_view, B>& b) {
  std::array<std::string_view, A + B> out;
  std::copy(a.begin(), a.end(), out.begin());
  std::copy(b.begin(), b.end(), out.begin() + A);
  return out;
}

// Relatives written as a title before the name, without a possessive:
// "Uncle Desmond", "cousin Pilar", "aunt linda".
constexpr std::array<std::string_view, 8> kKinTitleWords = {"aunt",   "auntie", "uncle", "grandma",
                                                            "grandpa", "granny", "nana",  "cousin"};
constexpr WordSet kKinTitles(kKinTitleWords);
// The roles a person is named after in records and reports: "Customer
// Lysander Okoro called", "the patient Cressida Alvarenga". (Not "client"
// or "member", which a company or a state is as often; a tenant may be a
// company too, whose words the rule that reads a role refuses.)
// So do the relatives written as a title.
constexpr std::array<std::string_view, 25> kRoleWords =
    joined(std::array<std::string_view, 17>{"customer", "patient", "employee", "student", "applicant", "passenger",
                                            "caller", "witness", "suspect", "victim", "defendant", "plaintiff",
                                            "claimant", "resident", "tenant", "landlord", "cardholder"},
           kKinTitleWords);
constexpr WordSet kRoles(kRoleWords);

// The particles that open a surname ("van der Meulen", "de la Cruz", "Di
// Palma", "ibn Rushd", "bin Yusof").
constexpr WordSet kSurnameParticles(std::array<std::string_view, 26>{
    "van", "von", "de", "der", "den", "del", "della", "di", "da", "do", "dos", "das", "du", "des", "la", "le", "ten",
    "ter", "zu", "af", "al", "el", "bin", "ibn", "binti", "bint"});

// Titles of address that stand before a surname and that the name-prefix
// lists do not hold: "Professor Smith", "Judge Harlan", "Nurse Ratched"
// (PiiTagger::add_names_after_titles_of_address(); in small letters in
// text with capitals, add_small_letter_names_after_cues()). Not those that
// open firms' and things' names as often as people's: "General" (Motors,
// Mills), "Major" (League), "Private", "Principal", "Dean", "Agent",
// "Brother".
constexpr std::array<std::string_view, 54> kTitleOfAddressWords = {
    "professor",  "judge",      "justice",  "detective",  "inspector",   "officer",       "constable",
    "honourable", "honorable",
    "sergeant",   "lieutenant", "captain",  "colonel",    "corporal",    "admiral",       "commander",
    "nurse",      "coach",      "senator",  "governor",   "mayor",       "councillor",    "councilor",
    "councilman", "councilwoman", "congressman", "congresswoman", "rabbi", "pastor",     "reverend",
    "imam",       "sheriff",    "deputy",   "doctor",     "father",      "sister",        "ambassador",
    // Mr and Mrs as other languages address people in full, which the
    // name-prefix lists do not all hold ("Herrn Becker", "Madame Girard").
    "herr",       "herrn",      "frau",     "monsieur",   "madame",      "mademoiselle",  "se\u00f1or",
    "se\u00f1ora", "se\u00f1orita", "signor", "signora",  "signorina",   "senhor",        "senhora",
    "meneer",     "mevrouw",    "dottoressa"};
constexpr WordSet kTitlesOfAddress(kTitleOfAddressWords);
// Abbreviations of titles of address, which take their stop ("Sgt. Reyes").
constexpr std::array<std::string_view, 9> kAbbreviatedTitleWords = {"sgt", "lt",  "capt", "col", "det",
                                                                     "insp", "rev", "gov",  "sen"};
constexpr WordSet kAbbreviatedTitles(kAbbreviatedTitleWords);
// The English titles of the name-prefix lists as written in small letters,
// with or without their stop ("mrs. adaeze nwosu", "dr freeman"), in any
// case.
constexpr std::array<std::string_view, 5> kEnglishTitleWords = {"mr", "mrs", "ms", "dr", "prof"};
constexpr WordSet kEnglishTitles(kEnglishTitleWords);

// The abbreviations of a company's offices ("CEO", "CFO"), in any case.
constexpr std::array<std::string_view, 8> kOfficeAbbreviationWords = {"ceo", "cfo", "cto", "coo",
                                                                      "cio", "cmo", "cso", "cpo"};
constexpr WordSet kOfficeAbbreviations(kOfficeAbbreviationWords);
// Everyday abbreviations, written in capitals as names of bodies are
// ("block my card ASAP", "money from an ATM"), those of science and
// computing ("DNA", "GDP", "PHP"), of offices in a company ("CEO", "CFO")
// and Roman numerals ("III"): alone, no one's name, place or company.
constexpr WordSet kAbbreviations(joined(
    std::array<std::string_view, 58>{
        "asap", "atm", "atms", "btw", "diy", "faq", "faqs", "fyi", "gps", "imho", "imo", "lol", "omg", "pdf", "rsvp",
        "sms", "tba", "tbd", "usb", "dna", "rna", "mrna", "atp", "adp", "gdp", "gnp", "bmi", "hiv", "aids", "co2",
        "iq", "cpu", "gpu", "ram", "ssd", "api", "apis", "sql", "html", "css", "json", "xml", "http", "https", "url",
        "urls", "php", "ai", "llm", "llms", "nlp", "ii", "iii", "iv", "vi", "vii", "viii", "ceos"},
    kOfficeAbbreviationWords));

// Verbs of giving and showing, whose receiver, named before "his", "her"
// or "their", is a person: "had given Selam his address", "sent Anna her
// keys". ("told" and "asked" are verbs of speech.)
constexpr std::array<std::string_view, 18> kGiveVerbWords = {
    "gave",  "given", "give",  "gives", "giving", "sent",  "send",    "sends",  "showed",
    "shown", "show",  "shows", "handed", "hand",  "offered", "lent", "promised", "paid"};
constexpr WordSet kGiveVerbs(kGiveVerbWords);
// The words before "to" and a person written or spoken to, or sent
// something: "an email to", "talk to", "reach out to", "married to", "a
// reminder to", "flowers to".
constexpr std::array<std::string_view, 38> kWrittenToWords = {
    "email", "message", "letter", "note", "text", "reply", "respond", "write", "wrote", "written", "talk", "talked",
    "speak", "spoke", "introduce", "introduced", "apologize", "apologise", "apologized", "apologised", "forward",
    "forwarded", "out", "married", "engaged", "addressed", "reminder", "invitation", "invite", "card", "postcard",
    "gift", "flowers", "apology", "condolences", "wishes", "explain", "explained"};
constexpr WordSet kWrittenTo(kWrittenToWords);
// Words that first-name lists hold and that follow a relative ("my son",
// "his wife") as a verb or adverb: in small letters no name there.
constexpr WordSet kVerbsNamedAsPeople(std::array<std::string_view, 9>{"will", "may", "can", "even", "ever", "must",
                                                                       "might", "sue", "dies"});
// "his", "her", "their": a possessive of persons after the receiver.
constexpr WordSet kPersonsPossessives(std::array<std::string_view, 3>{"his", "her", "their"});
// The personal pronouns of two letters or more: who they stand for is no
// name ("Me and Kevin", "You and Anna").
constexpr WordSet kPersonalPronouns(std::array<std::string_view, 10>{"me", "you", "he", "him", "she", "her", "we", "us",
                                                                     "they", "them"});

// "Is" after "name" in other languages ("Mein Name ist", "mon nom est",
// "mi nombre es"), and the verbs that say what one is called ("ich heiße",
// "me llamo", "mi chiamo", "me chamo", "ik heet"; French "m'appelle" is one
// token with its pronoun, which the cue's gate does not read): the name
// follows, as after "my name is".
constexpr std::array<std::string_view, 4> kNameWordsElsewhere = {"naam", "nom", "nombre", "nome"};
constexpr std::array<std::string_view, 3> kIsAfterANameElsewhere = {"ist", "est", "es"};
constexpr std::array<std::string_view, 6> kCalledVerbWords = {"heiße", "heisse", "llamo", "chiamo", "chamo", "heet"};
constexpr WordSet kNamesElsewhere(kNameWordsElsewhere);
constexpr WordSet kIsElsewhere(kIsAfterANameElsewhere);
constexpr WordSet kCalledVerbs(kCalledVerbWords);
// The words that give a name ("someone called evangeline", "a girl named
// freya"; as often a thing's, "a function called max"), and the persons
// they give one to: after both a name follows as after "name is" ("a man
// called Barnaby Quince").
constexpr std::array<std::string_view, 2> kNamingWords = {"called", "named"};
constexpr WordSet kNaming(kNamingWords);
constexpr WordSet kPersonNouns(std::array<std::string_view, 16>{
    "man", "woman", "guy", "girl", "boy", "lady", "gentleman", "person", "someone", "somebody", "kid", "child",
    "fellow", "chap", "bloke", "teenager"});
// Whether a person noun and a naming word, one blank apart, come right
// before token j, one blank before it: "a woman named".
inline bool after_a_person_called(std::string_view text, Tokens tokens, size_t j) {
  return j >= 2 && j < tokens.size() && kNaming.contains(text, tokens[j - 1]) && one_blank_after(text, tokens, j) &&
         one_blank_after(text, tokens, j - 1) && kPersonNouns.contains(text, tokens[j - 2]);
}

// Verbs whose object is a person told or asked something ("Tell Priyanka
// that", "remind Siobhan").
constexpr std::array<std::string_view, 10> kAddressVerbWords = {"tell",   "remind",   "reminded", "thank",  "thanked",
                                                                "invite", "invited",  "ask",      "greet",  "congratulate"};
constexpr WordSet kAddressVerbs(kAddressVerbWords);
// And, before a capitalised word in text with capitals alone, those of one
// helped ("Help Wojciech fill in"): in text without capitals too many first
// names are words after them ("help mark the papers", "help bill them").
constexpr std::array<std::string_view, 2> kHelpVerbWords = {"help", "helped"};
constexpr WordSet kHelpVerbs(kHelpVerbWords);

// The words next to a name that introduce it: the verbs of speech and of
// giving, the relatives, "is" (of "name is", and as other languages write
// it), "name's", "name" (of "under the name"), the verbs of being called
// and of addressing someone, "starring", "am" (of "I am"), "up" (of
// "pick up"), "law" (of an in-law's "-in-law,") and the naming words. A
// token that none of them may be (by its first two letters and length)
// needs no closer look.
constexpr auto kNameCueWords = joined(joined(joined(joined(joined(joined(kSpeechVerbWords, kRelativeWords), kGiveVerbWords),
                                                         kIsAfterANameElsewhere),
                                                  kCalledVerbWords),
                                           joined(kAddressVerbWords, kHelpVerbWords)),
                                    joined(std::array<std::string_view, 7>{"is", "name's", "name", "starring", "am", "up", "law"},
                                           kNamingWords));
constexpr WordSet kNameCues(kNameCueWords);
// Either, in one test: the word before each marked token of text with
// capitals is asked whether it may be a cue or a role.
constexpr WordSet kNameCuesAndRoles(joined(kNameCueWords, kRoleWords));

// The last words of a letter's closing: "Best regards,", "Thanks,", "Take
// care,", "Signed,".
constexpr std::array<std::string_view, 15> kClosingWords = {
    "regards", "sincerely", "thanks", "cheers", "wishes", "yours", "faithfully", "truly", "respectfully", "warmly",
    "cordially", "best", "love", "signed", "care"};
constexpr WordSet kClosings(kClosingWords);

// Whether token `last` is the last word of a closing, three words at most
// that open its line ("Best regards" of "Best regards,\nCamille"), or of
// "Thank you" ("you" is no closing word of the sets: the filters that read
// every token for one would stop at each "you").
inline bool ends_a_closing_line(std::string_view text, Tokens tokens, size_t last) {
  constexpr size_t kMaxClosingWords = 3;
  size_t words = 1;
  for (size_t k = last; k > 0 && !tokens[k].newline_before; --k) ++words;
  return words <= kMaxClosingWords &&
         (kClosings.contains(text, tokens[last]) ||
          (last > 0 && token_is(text, tokens[last], "you") && token_is(text, tokens[last - 1], "thank")));
}

// Chat's shorthand, which no word list knows and no name is: "call kevin
// asap", "sarah pls help".
constexpr WordSet kChatShorthand(std::array<std::string_view, 14>{
    "asap", "btw", "lol", "pls", "plz", "thx", "tmrw", "tmr", "idk", "imo", "imho", "fyi", "omg", "tbh"});

// Greetings that open a letter or a message: "Hi Anna,".
constexpr WordSet kGreetings(std::array<std::string_view, 4>{"hi", "hello", "hey", "dear"});

// Nouns that end the names of companies and bodies as their suffixes do
// ("Rand Corporation", "Ceiba Solutions", "Kroll Bond Ratings Agency"):
// no person's or place's name ends in one.
constexpr std::array<std::string_view, 33> kOrganisationNounWords = {
    "corporation", "incorporated", "company", "agency", "technologies", "solutions", "services", "networks",
    "international", "insurance", "consulting", "associates", "partners", "holdings", "industries", "enterprises",
    "ventures", "laboratories", "labs", "pharmaceuticals", "logistics", "analytics", "robotics", "group",
    "technology", "systems", "software", "studios", "media", "capital", "airlines", "motors", "foods"};
constexpr WordSet kOrganisationNouns(kOrganisationNounWords);
// The things of a person's that a possessive before them names a person's:
// data (address, phone, email, birthday, number, name), events of a life,
// papers and medicines of one person and the closest family ("Phoenix's
// recital", "Will's wedding", "Wendeline's invitation", "lysandra's cv").
// Not what a state or a firm has too: a visa, a passport, an anniversary,
// an engagement. And what one carries: a laptop, a wallet, a purse, a
// handbag ("Is this Chidi Okafor's laptop?").
constexpr WordSet kPersonalThings(std::array<std::string_view, 37>{
    "address", "phone", "email", "birthday", "number", "name", "wedding", "recital", "graduation", "funeral",
    "retirement", "surgery", "appointment", "diagnosis", "homework", "husband", "wife", "boyfriend", "girlfriend",
    "mom", "dad", "fiance", "fiancee", "invitation", "christening", "baptism", "prescription", "medication",
    "diary", "paycheck", "payslip", "cv", "resume", "laptop", "wallet", "purse", "handbag"});

// Whether token j ends in a possessive's 's and a thing of its owner's
// (kPersonalThings) follows it one blank apart: "časlav's address".
inline bool possessive_before_a_personal_thing(std::string_view text, Tokens tokens, size_t j) {
  return j + 1 < tokens.size() && ends_in_a_possessive(text, tokens[j]) && one_blank_after(text, tokens, j + 1) &&
         kPersonalThings.contains(text, tokens[j + 1]);
}
// The words of a unit of a building before its number.
constexpr std::array<std::string_view, 6> kUnitOfABuildingWords = {"apt", "apartment", "suite", "ste", "unit", "flat"};
constexpr WordSet kUnitsOfABuilding(kUnitOfABuildingWords);
constexpr size_t kShortestOrganisationNoun =
    std::ranges::min(kOrganisationNounWords, {}, &std::string_view::size).size();  // "labs"

// Articles and possessives of two letters or more that open a noun
// phrase: "The State Farm Insurance office".
constexpr WordSet kDeterminers(std::array<std::string_view, 10>{"the", "an", "our", "their", "his", "her", "its", "my",
                                                                "your", "this"});

// Whether token t is a word that stands in no name in small letters
// (never_in_a_name()), ends none (kNeverLastInAName) or opens a noun phrase
// (kDeterminers): no word of a street's or a company's own name.
inline bool function_word(std::string_view text, const Token& t) {
  return never_in_a_name(text, t) || kNeverLastInAName.contains(text, t) || kDeterminers.contains(text, t);
}

// The words that open a request or a question after a name and a comma at
// the start of a line: "Anna, can I ...", "Bob, please ...".
constexpr WordSet kAfterVocatives(std::array<std::string_view, 17>{
    "can", "could", "would", "will", "please", "you", "do", "are", "thanks", "thank", "we", "how", "what", "did",
    "have", "let", "i'm"});

// Whether token i opens a sentence: the text's first, or after "! ", "? "
// or a ". " that closes no abbreviation of three letters at most ("m.
// portaliou street", "Dr. Smith").
inline bool opens_a_sentence(std::string_view text, Tokens tokens, size_t i) {
  if (i == 0) return true;
  const Token& before = tokens[i - 1];
  const char stop = text[before.begin];
  if (before.end - before.begin != 1 || (stop != '.' && stop != '!' && stop != '?') || before.end == tokens[i].begin) {
    return false;
  }
  return stop != '.' || !closes_a_short_word(tokens, i - 1);
}

inline bool letter_label(std::string_view text, Tokens tokens, size_t i);

// Whether token i, an everyday word that opens a sentence, a line or an
// answer choice ("C. May be"), comes before a pronoun ("Will my account
// stay active?", "May I", "Could you"), or before "be" or "not" ("May be
// associated with", "Will not"): a verb or a question word, even where a
// name list knows it ("Will"). Of 180 such words in the dev rows none is
// labelled.
inline bool verb_before_a_pronoun(std::string_view text, Tokens tokens, size_t i) {
  if (i + 1 >= tokens.size() || tokens[i + 1].end - tokens[i + 1].begin > 5) return false;
  const bool opens_a_choice = i >= 2 && letter_label(text, tokens, i - 2);
  if (!tokens[i].newline_before && !opens_a_sentence(text, tokens, i) && !opens_a_choice) return false;
  // (An array of string_views: a braced list of literals would measure
  // each with strlen at every call.)
  static constexpr std::array<std::string_view, 23> kPronouns = {
      "i", "me", "my", "you", "your", "he", "his", "she", "her", "it", "its", "we",
      "us", "our", "they", "them", "their", "this", "that", "these", "those", "be", "not"};
  return std::any_of(kPronouns.begin(), kPronouns.end(),
                     [&](std::string_view pronoun) { return token_is(text, tokens[i + 1], pronoun); });
}

// Whether token i comes right after "the", "a" or "an" (any case).
inline bool after_an_article(std::string_view text, Tokens tokens, size_t i) {
  return i > 0 && (token_is(text, tokens[i - 1], "the") || token_is(text, tokens[i - 1], "a") ||
                   token_is(text, tokens[i - 1], "an"));
}

// Whether token `last` may be the last word of a place's cue by its length
// and first letter: "of", "in", "to", "city", "town", "from", "village".
// Most tokens are none.
inline bool may_end_a_place_cue(std::string_view text, const Token& last) {
  const size_t n = last.end - last.begin;
  const auto c = static_cast<unsigned char>(text[last.begin] | 0x20);
  return (n == 2 && (c == 'o' || c == 'i' || c == 't')) || (n == 4 && (c == 'c' || c == 't' || c == 'f')) ||
         (n == 7 && c == 'v');
}

// Whether "I'm" (or "I’m") or "I am" stands one space before token j, on
// its line: a speaker says who they are. Out of line: the name passes ask
// it seldom.
bool after_i_am(std::string_view text, Tokens tokens, size_t j);

// Whether token `to`, "to", ends "moved from", "flew from" or "moved here
// from" (or "move", "moving", "relocated", "traveled", "travelled",
// "came") and a capitalised word or two, on one line: "We moved from
// Utrecht to Valparaiso". Out of line: after_a_place_cue() is inlined into
// the name passes.
bool moved_from_a_place_to(std::string_view text, Tokens tokens, size_t to);

// Whether the words right before token `from`, on its line, say that one
// travels to, stays at or comes by a way from what follows, which is a
// place where the place lists hold it, though a first-name list may too
// ("flying to Austin", "stayed in Florence", "the flight from Paris"): a
// weaker cue than after_a_place_cue(). Out of line: finish_span() asks it
// of few spans.
bool after_a_travel_cue(std::string_view text, Tokens tokens, size_t from);

// The prepositions before a place's name: "in", "at", "near".
constexpr WordSet kPlacePrepositions(std::array<std::string_view, 3>{"in", "at", "near"});

// Whether token t is "near", "toward" or "towards" (any case).
inline bool near_or_toward(std::string_view text, const Token& t) {
  const size_t n = t.end - t.begin;
  if (n != 4 && n != 6 && n != 7) return false;
  return token_is(text, t, "near") || token_is(text, t, "toward") || token_is(text, t, "towards");
}

// Whether the words right before token `from`, on its line, say that a
// place follows: "city", "town" or "village", maybe then "of" ("home city
// Montevideo", "the town of Kaluga"), or "grew up in", "born in", "lives
// in", "raised in", "arrived in", "originally from", "moved here from",
// "moved from", "am from", "comes from" (or "come", "hails", "hail"), "she
// is from" (or "he", "they", "we", "you", "who"; "are", "was", "were"), "a
// woman from" (or "man", "men", "women", "girl", "boy", "guy", "lady"),
// "moved to" (or "move", "moving", "relocated", "relocate",
// "relocating"), "flew to", "traveled to", "travelled to", "trip to",
// "flight to", "moved from Utrecht to" (moved_from_a_place_to()).
inline bool after_a_place_cue(std::string_view text, Tokens tokens, size_t from) {
  if (from == 0 || tokens[from].newline_before || !may_end_a_place_cue(text, tokens[from - 1])) return false;
  // Whether token k is `w`, on one line with the token after it.
  auto is = [&](size_t k, std::string_view w) { return token_is(text, tokens[k], w) && !tokens[k + 1].newline_before; };
  auto settlement = [&](size_t k) { return is(k, "city") || is(k, "town") || is(k, "village"); };
  size_t k = from - 1;
  if (settlement(k)) return true;
  if (is(k, "of")) return k > 0 && settlement(k - 1);
  if (is(k, "in")) {
    if (k == 0) return false;
    --k;
    return is(k, "born") || is(k, "lives") || is(k, "raised") || is(k, "arrived") ||
           (k > 0 && is(k, "up") && is(k - 1, "grew"));
  }
  if (is(k, "from")) {
    if (k == 0) return false;
    --k;
    // (Where one is from: "I am from Brooklyn", "a woman from Kaluga", "she
    // is from Lagos"; not "the quote is from Voltaire".)
    static constexpr WordSet kOrigins(std::array<std::string_view, 13>{
        "am", "comes", "come", "hails", "hail", "man", "men", "woman", "women", "girl", "boy", "guy", "lady"});
    static constexpr WordSet kBe(std::array<std::string_view, 4>{"is", "are", "was", "were"});
    static constexpr WordSet kSubjects(std::array<std::string_view, 6>{"he", "she", "they", "we", "you", "who"});
    return is(k, "originally") || is(k, "moved") || (k > 0 && is(k, "here") && is(k - 1, "moved")) ||
           kOrigins.contains(text, tokens[k]) ||
           (k > 0 && kBe.contains(text, tokens[k]) && kSubjects.contains(text, tokens[k - 1]));
  }
  if (is(k, "to")) {
    if (k == 0) return false;
    --k;
    return is(k, "moved") || is(k, "move") || is(k, "moving") || is(k, "relocated") || is(k, "relocate") ||
           is(k, "relocating") || is(k, "flew") || is(k, "traveled") || is(k, "travelled") || is(k, "trip") ||
           is(k, "flight") || moved_from_a_place_to(text, tokens, k + 1);
  }
  return false;
}

// Whether token `from` follows a form's label of a place on its line,
// "City:", "Town:" or "Village:" ("City: Bergen"). Out of line: an inlined
// test of every colon made GCC inline less of add_introduced_names().
bool after_a_place_label(std::string_view text, Tokens tokens, size_t from);

// Nouns of a company's premises or people: "office", "store", "staff", ...
// ("the Apple store", "the Xignite office").
constexpr WordSet kCompanyPlaceNouns(std::array<std::string_view, 12>{
    "office", "offices", "headquarters", "store", "stores", "branch", "staff", "employees", "factory", "warehouse",
    "subsidiary", "shareholders"});

// Whether token t is one of kCompanyPlaceNouns.
inline bool names_a_company_place(std::string_view text, const Token& t) { return kCompanyPlaceNouns.contains(text, t); }

// Words in small letters that follow a party named as a noun ("at
// Sanders-Gill in Seguin", "Ellis-Ingram became"): prepositions,
// conjunctions and verbs, where a noun after a hyphenated pair makes it an
// eponym's modifier ("the Hardy-Weinberg equilibrium", "a Dickey-Fuller
// test").
constexpr WordSet kAfterAParty(std::array<std::string_view, 27>{
    "in", "at", "of", "for", "on", "to", "and", "or", "by", "from", "with", "as", "is", "was", "has", "had",
    "have", "became", "becomes", "will", "would", "said", "says", "which", "who", "announced", "invested"});

// Whether the token "the" (either case) and one space stand right before
// byte `at`: read from the text, without looking the tokens up. (An
// apostrophe between word bytes would join "the" to the word before:
// "o'the".)
inline bool follows_the(std::string_view text, size_t at) {
  if (at < 4 || text[at - 1] != ' ' || (text[at - 4] | 0x20) != 't' || (text[at - 3] | 0x20) != 'h' ||
      (text[at - 2] | 0x20) != 'e') {
    return false;
  }
  if (at == 4) return true;
  const auto before = static_cast<unsigned char>(text[at - 5]);
  return !is_word_byte(before) && !(before == '\'' && at > 5 && is_word_byte(static_cast<unsigned char>(text[at - 6])));
}

// Whether token i, a capitalised everyday word, names an organisation by
// the "the" before it and the noun after it ("The Sap office is at", "the
// Apple store"), one space apart. A possessive ("the President's staff")
// is someone's.
inline bool names_an_organisation(std::string_view text, Tokens tokens, size_t i) {
  if (i == 0 || i + 1 >= tokens.size() || text[tokens[i].begin] < 'A' || text[tokens[i].begin] > 'Z') return false;
  const Token &word = tokens[i], &noun = tokens[i + 1];
  if (word.end + 1 != noun.begin || text[word.end] != ' ' || !follows_the(text, word.begin)) return false;
  if (ends_in_a_possessive(text, word)) return false;
  return names_a_company_place(text, noun);
}

// Whether a number opens one of the three words after token i on its line
// (among its next eight tokens): the number of the street that token i may
// be part of.
inline bool number_ahead(std::string_view text, Tokens tokens, size_t i) {
  size_t words = 0;
  const size_t end = std::min(tokens.size(), i + 9);
  for (size_t j = i + 1; j < end && !tokens[j].newline_before && words < 3; ++j) {
    const auto c = static_cast<unsigned char>(text[tokens[j].begin]);
    if (c >= '0' && c <= '9') return true;
    words += is_word_byte(c) ? 1 : 0;
  }
  return false;
}

// Whether a blank line stands between token j - 1 and token j (j > 0).
inline bool blank_line_before(std::string_view text, Tokens tokens, size_t j) {
  return text.substr(tokens[j - 1].end, tokens[j].begin - tokens[j - 1].end).find("\n\n") != std::string_view::npos;
}

// The first token of each token's line, from a table built when first
// asked: a pass that asks it for each of many addresses on one long line
// walks the line once, not once per address. One at a time in a thread:
// the table is the thread's.
class LineStarts {
 public:
  explicit LineStarts(Tokens tokens) : tokens_(tokens) {}
  size_t of(size_t j) {
    thread_local std::vector<uint32_t> line_of;
    if (!built_) {
      line_of.resize(tokens_.size());
      uint32_t line = 0;
      for (size_t t = 0; t < tokens_.size(); ++t) {
        if (tokens_[t].newline_before) line = static_cast<uint32_t>(t);
        line_of[t] = line;
      }
      built_ = true;
    }
    return line_of[j];
  }

 private:
  Tokens tokens_;
  bool built_ = false;
};

// The first word token in [j, end), past the marks that open a line ("> ",
// ", "); end when there is none.
inline size_t first_word_from(std::string_view text, Tokens tokens, size_t j, size_t end) {
  while (j < end && !is_word_byte(static_cast<unsigned char>(text[tokens[j].begin]))) ++j;
  return j;
}

// Per thread, for the text being tagged: for each token, 1 + the index in
// tag()'s `out` of the first span that overlaps it, 0 for none, once a pass
// after decoding asks about a text with many spans (see span_over()); with
// kShared added where a second span noted in the cover overlaps it too.
struct SpanCover {
  static constexpr uint32_t kShared = uint32_t{1} << 31;
  std::vector<uint32_t> first_span;
  bool built = false;
};
inline SpanCover& tagger_cover() {
  thread_local SpanCover cover;
  return cover;
}

// The first token that overlaps bytes [begin, ...): ends after `begin`.
inline size_t first_token_over(Tokens tokens, uint32_t begin) {
  return static_cast<size_t>(
      std::partition_point(tokens.begin(), tokens.end(), [&](const Token& x) { return x.end <= begin; }) -
      tokens.begin());
}

// Notes out[k] over the tokens it overlaps: where no earlier span covers
// them, as their first span; where another does, as shared.
inline void cover_span(const std::vector<PiiSpan>& out, size_t k) {
  const Tokens tokens = tagger_tokens();
  std::vector<uint32_t>& first_span = tagger_cover().first_span;
  const auto own = static_cast<uint32_t>(k + 1);
  for (size_t t = first_token_over(tokens, out[k].begin); t < tokens.size() && tokens[t].begin < out[k].end; ++t) {
    uint32_t& c = first_span[t];
    if (c == 0) {
      c = own;
    } else if ((c & ~SpanCover::kShared) != own) {
      c |= SpanCover::kShared;
    }
  }
}

// Forgets the cover: `out` changed order, or a new text is tagged.
inline void reset_cover() { tagger_cover().built = false; }

// Marks out[k] to go at the next drop_marked_spans(): a span emptied, so
// that the indices of the others hold until then.
inline void mark_dropped(std::vector<PiiSpan>& out, size_t k) { out[k].end = out[k].begin; }

// Drops the spans mark_dropped() emptied, keeping the others' order, and
// forgets the cover, whose indices were those before.
inline void drop_marked_spans(std::vector<PiiSpan>& out) {
  std::erase_if(out, [](const PiiSpan& span) { return span.end == span.begin; });
  reset_cover();
}

// Sorts out[first...] by begin (the passes after decoding add spans out of
// order), and forgets the cover, whose indices were those before.
inline void sort_by_begin(std::vector<PiiSpan>& out, size_t first) {
  std::sort(out.begin() + static_cast<ptrdiff_t>(first), out.end(),
            [](const PiiSpan& a, const PiiSpan& b) { return a.begin < b.begin; });
  reset_cover();
}

// Appends `span` to `out`, and to the cover if there is one.
inline void add_span(std::vector<PiiSpan>& out, const PiiSpan& span) {
  out.push_back(span);
  if (tagger_cover().built) cover_span(out, out.size() - 1);
}

// Sets out[k] to `span`, and the cover if there is one: the span's new
// tokens are added to it; a token it gives up that it alone covered is
// covered by none. Where another span shares such a token, the cover is
// rebuilt when next asked (a rebuild for each span given up would make a
// long text's passes quadratic: "ich heiße jürgen weiß und wohne" repeated).
// A token another span was noted first over keeps its mark of being shared,
// which only sends a reader the slower way.
inline void set_span(std::vector<PiiSpan>& out, size_t k, const PiiSpan& span) {
  const PiiSpan old = out[k];
  out[k] = span;
  SpanCover& cover = tagger_cover();
  if (!cover.built) return;
  if (span.begin > old.begin || span.end < old.end) {
    const Tokens tokens = tagger_tokens();
    const auto own = static_cast<uint32_t>(k + 1);
    for (size_t t = first_token_over(tokens, old.begin); t < tokens.size() && tokens[t].begin < old.end; ++t) {
      if (tokens[t].begin < span.end && span.begin < tokens[t].end) continue;  // still the span's
      uint32_t& c = cover.first_span[t];
      if (c == own) {
        c = 0;
      } else if ((c & ~SpanCover::kShared) == own) {
        reset_cover();
        return;
      }
    }
  }
  cover_span(out, k);
}

// The index of the first token that begins at or after byte `at`. A
// binary search whose steps choose without a branch: the passes after
// decoding ask it of every span, and a branch would be mispredicted on
// about every other step.
inline size_t first_token_from(Tokens tokens, uint32_t at) {
  if (tokens.empty()) return 0;
  const Token* base = tokens.data();
  for (size_t n = tokens.size(); n > 1;) {
    const size_t half = n / 2;
    base += half & (size_t{0} - static_cast<size_t>(base[half - 1].begin < at));  // a mask: GCC makes `? :` a branch
    n -= half;
  }
  return static_cast<size_t>(base - tokens.data()) + (base->begin < at ? 1 : 0);
}

// Up to this many spans, a pass reads through them all rather than build
// the cover.
constexpr size_t kSpansReadThrough = 16;

// The cover of `out`, built if it is not.
inline SpanCover& built_cover(const std::vector<PiiSpan>& out) {
  SpanCover& cover = tagger_cover();
  if (!cover.built) {
    cover.first_span.assign(tagger_tokens().size(), 0);
    cover.built = true;
    for (size_t k = 0; k < out.size(); ++k) cover_span(out, k);
  }
  return cover;
}

// The first span of `out` that overlaps token j, or out.size(). A few
// spans are read through; past that the cover is built once, so that a
// long text with many spans costs its passes linear time, not quadratic.
inline size_t span_over(const std::vector<PiiSpan>& out, size_t j) {
  if (out.size() <= kSpansReadThrough) {
    const Token& t = tagger_tokens()[j];
    for (size_t k = 0; k < out.size(); ++k) {
      if (out[k].begin < t.end && t.begin < out[k].end) return k;
    }
    return out.size();
  }
  const uint32_t c = built_cover(out).first_span[j] & ~SpanCover::kShared;
  return c == 0 ? out.size() : c - 1;
}

// Adds each of `spans` (one token each, in order) over which no span of
// `out` lies; out[first...] stays in order of begin.
inline void add_uncovered(std::vector<PiiSpan>& out, size_t first, std::span<const PiiSpan> spans) {
  if (spans.empty()) return;
  reset_cover();
  const Tokens tokens = tagger_tokens();
  const size_t before = out.size();
  for (const PiiSpan& span : spans) {
    const size_t j = first_token_from(tokens, span.begin);
    if (span_over(out, j) == out.size()) add_span(out, span);
  }
  if (out.size() > before) sort_by_begin(out, first);
  reset_cover();
}

// Whether out[k] is a place or organisation of this tagging (k >= first)
// over exactly [begin, end): the words the post-passes find a name in
// become one.
inline bool own_place_or_organisation(const std::vector<PiiSpan>& out, size_t k, size_t first, uint32_t begin, uint32_t end) {
  return k >= first && k < out.size() && out[k].begin == begin && out[k].end == end &&
         (out[k].type == PiiType::kLocation || out[k].type == PiiType::kOrganization);
}

// Whether tokens [from, to) of one line are a unit alone: a word opening
// with a letter A-Z (either case), then maybe its stop, then maybe a number
// ("Apt. 434", "Suite 683", "Suite"), and nothing more.
inline bool unit_alone(std::string_view text, Tokens tokens, size_t from, size_t to) {
  if (from >= to || to > tokens.size()) return false;
  const auto letter = static_cast<unsigned char>(text[tokens[from].begin] | 0x20);
  if (letter < 'a' || letter > 'z') return false;
  size_t k = from + 1;
  if (k < to && token_is(text, tokens[k], ".")) ++k;
  if (k < to && !tokens[k].newline_before && all_digits(text, tokens[k])) ++k;
  return k == to;
}

// Whether `span` follows a name on its line with only spaces between, or
// a unit alone, whether or not a span covers it: "Mrs. Diana Weöres Apt.
// 434 40 Rue ...", "Dr. Stacy Jónasdóttir Suite 683 11 Brucknerweg 141"
// (the structured detectors find "Suite 683"; the tagger's address may
// open at 683, and then opens with two numbers). `before`: the span before
// `span`, `before2` the one before that, where there are.
inline bool after_a_name_on_its_line(std::string_view text, const PiiSpan* before, const PiiSpan* before2, const PiiSpan& span) {
  const Tokens tokens = tagger_tokens();
  const PiiSpan* name = before != nullptr && before->type == PiiType::kStreetAddress ? before2 : before;  // past a unit's own span
  if (name == nullptr || name->type != PiiType::kPerson || name->end >= span.begin) return false;
  const size_t from = first_token_from(tokens, name->end), to = first_token_from(tokens, span.begin);
  if (from == to) return text.substr(name->end, span.begin - name->end).find_first_not_of(' ') == std::string_view::npos;
  if (to >= tokens.size() || tokens[from].newline_before || tokens[to].newline_before || text[name->end] != ' ' ||
      text[span.begin - 1] != ' ' || !unit_alone(text, tokens, from, to)) {
    return false;
  }
  // A word alone ("at 5 Trg", "scored 18 points") is a unit only before
  // its number and the building's, both in the span.
  const bool numbered = all_digits(text, tokens[to - 1]);
  return numbered || (to + 1 < tokens.size() && all_digits(text, tokens[to]) && all_digits(text, tokens[to + 1]) &&
                      tokens[to + 1].begin < span.end);
}

// The same of out[s] among the spans of this tagging, out[first...].
inline bool after_a_name_on_its_line(std::string_view text, const std::vector<PiiSpan>& out, size_t s, size_t first) {
  return after_a_name_on_its_line(text, s > first ? &out[s - 1] : nullptr, s > first + 1 ? &out[s - 2] : nullptr, out[s]);
}

// Whether `next`, after the address `joined`, may join it: a place; an
// address that is a postcode alone or opens with no number ("Apt. 328",
// "Dašická 688" after its house number "60"); or a street after a house
// number alone, a space apart. Not the next address of a list ("12 Novak
// Street, Graz, 13 Novak Street").
inline bool continues_an_address(std::string_view text, Tokens tokens, const PiiSpan& joined, const PiiSpan& next) {
  if (next.type == PiiType::kLocation) return true;
  if (next.type != PiiType::kStreetAddress) return false;
  const size_t j = first_token_from(tokens, next.begin);
  if (j == tokens.size() || !is_number(text, tokens, j) || tokens[j].end == next.end) return true;
  const size_t h = first_token_from(tokens, joined.begin);
  return tokens[h].end == joined.end && all_digits(text, tokens[h]) && next.begin == joined.end + 1;
}

// Whether `word` is a personal pronoun with a contraction ("I'm", "You've",
// "They're"): no name, place or organisation.
inline bool pronoun_contraction(std::string_view word) {
  const size_t apostrophe = word.find('\'');
  if (apostrophe == std::string_view::npos) return false;
  auto is = [](std::string_view w, std::string_view lower) {
    return w.size() == lower.size() && std::equal(w.begin(), w.end(), lower.begin(), [](char a, char b) { return (a | 0x20) == b; });
  };
  const std::string_view pronoun = word.substr(0, apostrophe), ending = word.substr(apostrophe + 1);
  const bool a_pronoun = is(pronoun, "i") || is(pronoun, "you") || is(pronoun, "we") || is(pronoun, "they") ||
                         is(pronoun, "he") || is(pronoun, "she") || is(pronoun, "it");
  return a_pronoun && (is(ending, "m") || is(ending, "ll") || is(ending, "ve") || is(ending, "d") || is(ending, "re") ||
                       is(ending, "s"));
}

// Whether token i, in text without capitals, opens_a_sentence() with a
// word of three letters or more that no list knows, one space before an
// everyday word: the sentence's subject, a name or an organisation ("oles
// shouted at samantha", "recargo is the brainchild of ..."). 8 of 9 such
// words in the dev rows are labelled; one of the 12,240 dev prompts has one
// ("sastavi mi pesmu").
inline bool unknown_subject(std::string_view text, Tokens tokens, size_t i, std::span<const TokenView> views,
                     uint16_t common) {
  const Token& t = tokens[i];
  if (i + 1 >= tokens.size() || t.end - t.begin < 3 || views[i].gazetteer.full != 0) return false;
  if (!opens_a_sentence(text, tokens, i)) return false;
  for (uint32_t k = t.begin; k < t.end; ++k) {
    const auto c = static_cast<unsigned char>(text[k]);
    if (!(c >= 'a' && c <= 'z') && c < 0x80) return false;
  }
  const Token& next = tokens[i + 1];
  return next.begin == t.end + 1 && text[t.end] == ' ' && next.end - next.begin >= 2 &&
         (views[i + 1].gazetteer.full & common) != 0;
}

// Languages, most of them also a nationality's word ("French", "Japanese"),
// and the words that show a language used: nouns of language after it
// ("the English translation", "a Japanese word"); before it a preposition
// or a verb of speaking, learning or translating ("answer in French",
// "translate it into German", "speak Spanish"), where the language ends the
// clause or a small word follows ("in English and Spanish", "from english
// to german").
constexpr WordSet kLanguages(std::array<std::string_view, 52>{
    "english", "french", "german", "spanish", "italian", "portuguese", "dutch", "russian", "chinese", "mandarin",
    "cantonese", "japanese", "korean", "arabic", "hebrew", "hindi", "urdu", "bengali", "punjabi", "tamil",
    "persian", "farsi", "turkish", "greek", "latin", "polish", "czech", "slovak", "hungarian", "romanian",
    "bulgarian", "serbian", "croatian", "ukrainian", "swedish", "norwegian", "danish", "finnish", "icelandic",
    "estonian", "latvian", "lithuanian", "vietnamese", "thai", "indonesian", "malay", "tagalog", "swahili",
    "welsh", "irish", "catalan", "esperanto"});
constexpr WordSet kLanguageNouns(std::array<std::string_view, 40>{
    "word", "words", "translation", "translations", "translator", "interpretation", "text", "texts", "sentence",
    "sentences", "language", "grammar", "version", "phrase", "phrases", "term", "terms", "vocabulary",
    "pronunciation", "spelling", "dictionary", "alphabet", "characters", "letters", "subtitles", "verb", "verbs",
    "noun", "nouns", "idiom", "idioms", "proverb", "proverbs", "equivalent", "synonym", "synonyms", "accent",
    "dialect", "slang", "transcription"});
constexpr WordSet kLanguageCues(std::array<std::string_view, 18>{
    "in", "into", "to", "from", "speak", "speaks", "spoke", "speaking", "spoken", "learn", "learns", "learning",
    "learned", "learnt", "translate", "translates", "translated", "translating"});
constexpr WordSet kAfterALanguage(std::array<std::string_view, 16>{
    "and", "or", "please", "about", "with", "without", "for", "instead", "only", "too", "as", "but", "then", "if",
    "to", "fluently"});

// Whether token i names a language in use (kLanguages and the cues above):
// no one's nationality, and no name or place.
inline bool names_a_language(std::string_view text, Tokens tokens, size_t i) {
  if (!kLanguages.contains(text, tokens[i])) return false;
  const bool next_on_line = i + 1 < tokens.size() && !tokens[i + 1].newline_before;
  if (next_on_line && kLanguageNouns.contains(text, tokens[i + 1])) return true;
  if (i == 0 || tokens[i].newline_before || !kLanguageCues.contains(text, tokens[i - 1])) return false;
  return !next_on_line || !is_word_byte(static_cast<unsigned char>(text[tokens[i + 1].begin])) ||
         kAfterALanguage.contains(text, tokens[i + 1]);
}

// Whether token t joins two numbers of a list, a range or a sum: "and",
// "or", "to", ",", "-", "+", "&" or "×".
inline bool joins_numbers(std::string_view text, const Token& t) {
  const std::string_view w = text.substr(t.begin, t.end - t.begin);
  return token_is(text, t, "and") || token_is(text, t, "or") || token_is(text, t, "to") || w == "," || w == "-" ||
         w == "+" || w == "&" || w == "\xc3\x97";
}

// Continents and regions of the world, and the words before "America" that
// name one ("North America"): places (finish_span(), type_continents()).
// "Asia" and "America" are first names too.
constexpr WordSet kRegions(std::array<std::string_view, 17>{
    "europe", "africa", "antarctica", "oceania", "eurasia", "americas", "caribbean", "balkans", "scandinavia",
    "siberia", "mesoamerica", "polynesia", "melanesia", "micronesia", "arctic", "asia", "america"});
// The words that end the name of a state or a ruling house, no person's.
constexpr WordSet kPolities(std::array<std::string_view, 14>{
    "empire", "kingdom", "dynasty", "republic", "caliphate", "sultanate", "khanate", "emirate", "principality",
    "duchy", "confederacy", "commonwealth", "shogunate", "reich"});

constexpr WordSet kRegionsOfAmerica(std::array<std::string_view, 4>{"north", "south", "central", "latin"});
// The words that name a part of a continent before it: "East Asia",
// "Sub-Saharan Africa", "SE Asia" (type_continents()).
constexpr WordSet kPartsOfAContinent(std::array<std::string_view, 24>{
    "north", "south", "east", "west", "central", "latin", "northern", "southern", "eastern", "western",
    "northeast", "northwest", "southeast", "southwest", "northeastern", "northwestern", "southeastern",
    "southwestern", "sub", "saharan", "ne", "nw", "se", "sw"});

// Whether a job title may end in token t: a word naming who does something
// ("manager", "clerk", "surgeon", "technologist", "representative"), not a
// thing ("Takuda novel", "Thai place"); or a title's stop ("Dr.").
inline bool names_a_role(std::string_view text, const Token& t) {
  const std::string_view w = text.substr(t.begin, t.end - t.begin);
  if (w == ".") return true;
  auto ends_with = [&](std::string_view suffix) {
    if (w.size() < suffix.size() + 2) return false;
    for (size_t k = 0; k < suffix.size(); ++k) {
      if ((w[w.size() - suffix.size() + k] | 0x20) != suffix[k]) return false;
    }
    return true;
  };
  if (ends_with("ment")) return false;  // "government", "department": "-ent" is a doer's ("agent")
  static constexpr std::array<std::string_view, 11> kDoerSuffixes = {"er",  "or",  "ist", "ian", "ant", "ent",
                                                                     "man", "men", "ive", "eon", "erk"};
  return std::any_of(kDoerSuffixes.begin(), kDoerSuffixes.end(), ends_with);
}

// Whether token i is a capital letter alone that labels or is a small word
// rather than a name's initial: an answer choice ("B)"; "A." or "C:" at the
// start of a line, of the text or after "?" or ":", before a space; "A" in
// quotes), or a letter before a small word ("I am", "A man"). "J. Smith" in
// a sentence, "P.O. Box" and "R Cortinhas" (R for Rua) are initials.
inline bool letter_label(std::string_view text, Tokens tokens, size_t i) {
  const Token& t = tokens[i];
  if (t.end - t.begin != 1 || text[t.begin] < 'A' || text[t.begin] > 'Z' || i + 1 >= tokens.size()) return false;
  const Token& next = tokens[i + 1];
  const char c = text[next.begin];
  if (next.end - next.begin == 1 && c == ')') return true;
  if (next.end - next.begin == 1 && (c == '"' || c == '\'') && i > 0 && tokens[i - 1].end - tokens[i - 1].begin == 1 &&
      text[tokens[i - 1].begin] == c) {
    return true;
  }
  if (next.end - next.begin == 1 && (c == '.' || c == ':')) {
    const bool spaced = i + 2 >= tokens.size() || tokens[i + 2].begin > next.end;
    const bool opens = i == 0 || t.newline_before ||
                       (tokens[i - 1].end - tokens[i - 1].begin == 1 &&
                        (text[tokens[i - 1].begin] == '?' || text[tokens[i - 1].begin] == ':'));
    return spaced && opens;
  }
  return !next.marked && is_word_byte(static_cast<unsigned char>(c));
}

// Whether token i numbers a list's item: digits opening a line or the
// text, with a stop or a closing bracket written against them and a blank
// after it ("4. John Kask", "12) Pay rent"), as letter_label() tells an
// answer's letter.
inline bool list_number(std::string_view text, Tokens tokens, size_t i) {
  const Token& t = tokens[i];
  if ((i > 0 && !t.newline_before) || i + 1 >= tokens.size() || !all_digits(text, t)) return false;
  const Token& mark = tokens[i + 1];
  const char c = text[mark.begin];
  return mark.begin == t.end && mark.end - mark.begin == 1 && (c == '.' || c == ')') &&
         (i + 2 >= tokens.size() || tokens[i + 2].begin > mark.end);
}

// The gazetteer categories whose names start with `prefix`: "street" (street
// names and suffixes) and "common" (everyday words) mean something to
// plausible(), "company" (company suffixes) to finish_span().
inline uint16_t categories_named(const Gazetteer& g, std::string_view prefix) {
  uint16_t mask = 0;
  for (size_t c = 0; c < g.categories().size(); ++c) {
    if (g.categories()[c].starts_with(prefix)) mask = static_cast<uint16_t>(mask | (1u << c));
  }
  return mask;
}

// Whether `text` is written in capitals throughout: a capital (A-Z, or one
// that opens_with_a_capital_letter() reads: "É", "Ł", "Д") and no small
// letter (a-z, nor one that opens_with_a_small_letter() reads).
inline bool capitals_throughout(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  bool capital = false;
  for (size_t k = 0; k < text.size(); ++k) {
    if (s[k] >= 'a' && s[k] <= 'z') return false;
    if (s[k] >= 0xc3) {
      if (pii_tokens::opens_with_a_small_letter(s + k, text.size() - k)) return false;
      capital = capital || pii_tokens::opens_with_a_capital_letter(s + k, text.size() - k);
    }
    capital = capital || (s[k] >= 'A' && s[k] <= 'Z');
  }
  return capital;
}

// Whether `text` writes words with capitals: a word that opens with a
// capital letter and goes on with a letter ("Anna", "The", "USA"; A-Z, or a
// letter of Latin-1, Greek, Cyrillic or the Latin Extended blocks:
// "Расскажи", "Ωραία", "Łódź", whose words the tagger reads as it reads
// English ones). Text whose only capitals are letters alone ("I", "I'm",
// "A") or inside words ("39C", "iPhone") is text without capitals
// ("my son tobias has a fever of 39C, I think"), where every word is scored
// and may open a name: read as text with capitals, its names in small
// letters were passed over.
inline bool mixed_case(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  for (size_t k = 0; k < n; ++k) {
    size_t length = 0;
    if (s[k] >= 'A' && s[k] <= 'Z') {
      length = 1;
    } else if (s[k] >= 0xc3 && pii_tokens::opens_with_a_capital_letter(s + k, n - k)) {
      length = s[k] >= 0xe0 ? 3 : 2;
    }
    if (length == 0 || k + length >= n) continue;
    // (Opening a word: not after an ASCII letter or digit, "39C", "iPhone".)
    if (k > 0 && s[k - 1] < 0x80 && pii_tokens::is_word_byte(s[k - 1])) continue;
    const unsigned char next = s[k + length];
    if ((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') ||
        (next >= 0xc3 && (pii_tokens::opens_with_a_small_letter(s + k + length, n - k - length) ||
                          pii_tokens::opens_with_a_capital_letter(s + k + length, n - k - length)))) {
      return true;
    }
  }
  return false;
}

// Whether a token of `text` is a word of the first person, in any case
// ("I", "I'm", "I've", "me", "my", "mine", "we", "we're", "our", "us"; an
// apostrophe straight or curly): the writer speaks of their own life,
// where the people they name are. (A lone "i" in small letters is as
// often code's, "I." or "I)" a list's numeral and "I =" a variable: "I"
// counts before a word.)
inline bool speaks_of_the_writer(std::string_view text, Tokens tokens) {
  for (const Token& t : tokens) {
    const size_t n = t.end - t.begin;
    const auto* s = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
    // (Most words are longer or open otherwise: asked first.)
    const auto c = static_cast<unsigned char>(s[0] | 0x20);
    if (n > 7 || (c != 'm' && c != 'w' && c != 'o' && c != 'u' && c != 'i')) continue;
    if (n == 1) {
      // (The pronoun before a word or an apostrophe the tokens left out,
      // escaped or curly: "I need", "I\\'m", "I’ve"; not a variable's
      // "I = 0.06".)
      if (s[0] == 'I' && t.end + 1 < text.size()) {
        const char next = text[t.end], after = text[t.end + 1];
        if ((next == ' ' && (after | 0x20) >= 'a' && (after | 0x20) <= 'z') || (next == '\\' && after == '\'') ||
            next == '\xe2') {
          return true;
        }
      }
      continue;
    }
    // (In small letters, a curly apostrophe written as "'": "we’re".)
    char word[7];
    size_t length = 0;
    for (size_t k = 0; k < n; ++k) {
      if (s[k] == 0xe2 && k + 2 < n && s[k + 1] == 0x80 && s[k + 2] == 0x99) {
        word[length++] = '\'';
        k += 2;
      } else {
        word[length++] = static_cast<char>(kByteView[s[k]].lower);
      }
    }
    static constexpr std::array<std::string_view, 14> kFirstPerson = {
        "me", "my", "mine", "we", "our", "us", "i'm", "i've", "i'll", "i'd", "we're", "we've", "we'll", "we'd"};
    const std::string_view w(word, length);
    if (std::find(kFirstPerson.begin(), kFirstPerson.end(), w) != kFirstPerson.end()) return true;
  }
  return false;
}

// Whether `text` holds capitalised words (a capital, then a letter) and
// each opens a sentence or a line, none of a script beyond ASCII: text
// that a phone's keyboard capitalised ("Can you help my friend tamsin?
// She is sad."), or a quiz's ("Which of the following ..."). `marked`:
// the indices of the marked tokens (pii_tokens::tokenize()), which every
// capitalised word is.
inline bool sentence_case_only(std::string_view text, Tokens tokens, std::span<const uint32_t> marked) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  bool capitalised = false;
  for (const uint32_t m : marked) {
    const Token& t = tokens[m];
    const unsigned char c = s[t.begin];
    if (c >= 0x80) {
      if (pii_tokens::opens_with_a_capital_letter(s + t.begin, text.size() - t.begin)) return false;
      continue;
    }
    const unsigned char next = t.end - t.begin >= 2 ? s[t.begin + 1] : 0;
    if (c < 'A' || c > 'Z' || !((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z'))) continue;
    // Back over blanks, quotes and brackets to what opens the sentence.
    size_t b = t.begin;
    while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == '"' || s[b - 1] == '\'' || s[b - 1] == '(')) --b;
    if (!(b == 0 || s[b - 1] == '\n' || s[b - 1] == '.' || s[b - 1] == '!' || s[b - 1] == '?')) return false;
    capitalised = true;
  }
  return capitalised;
}

// Whether `text` is sentence_case_only() and the writer speaks of their own
// life (speaks_of_the_writer()): casual writing, where names are written
// in small letters as often as not and their case says nothing. (Not a
// quiz's "Which of the following ...", whose words no list knows would be
// read as names.)
inline bool casual_case(std::string_view text, Tokens tokens, std::span<const uint32_t> marked) {
  return sentence_case_only(text, tokens, marked) && speaks_of_the_writer(text, tokens);
}

// Whether `text` holds a capital letter at all (A-Z, or one that
// opens_with_a_capital_letter() reads): how training reads a row's case,
// as it did before mixed_case() asked for capitalised words. The dev rows
// that differ (44, all "I want ...", "I'm moving ...": no name in them)
// moved the learned weights when trained as text without capitals, and
// names' recall by template fell 0.956 -> 0.954 and 0.965 -> 0.961.
inline bool holds_a_capital(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  for (size_t k = 0; k < text.size(); ++k) {
    if ((s[k] >= 'A' && s[k] <= 'Z') || pii_tokens::opens_with_a_capital_letter(s + k, text.size() - k)) return true;
  }
  return false;
}

// Whether a word list of this category names places: "city", "country",


// The code point that starts at byte k of `s` (k < s.size()) and its length
// in bytes; a byte that starts no whole UTF-8 sequence reads as U+FFFD, one
// byte long.
struct CodePoint {
  uint32_t value;
  size_t length;
};
inline CodePoint code_point_at(std::string_view s, size_t k) {
  const auto c = static_cast<unsigned char>(s[k]);
  if (c < 0x80) return {c, 1};
  const size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
  if (n == 1 || k + n > s.size()) return {0xfffd, 1};
  uint32_t cp = c & (0x7f >> n);
  for (size_t b = 1; b < n; ++b) cp = cp << 6 | (static_cast<unsigned char>(s[k + b]) & 0x3f);
  return {cp, n};
}

// Whether `s` opens with a capital letter: A-Z, or a letter of the Latin,
// Greek or Cyrillic blocks (two UTF-8 bytes: "Änggårda", "Ηρώων"), which
// street names write capitalised; not a sign ("•", "–", "÷") nor a CJK
// character.
inline bool opens_with_a_capital(std::string_view s) {
  if (s.empty()) return false;
  const uint32_t cp = code_point_at(s, 0).value;
  if (cp < 0x80) return cp >= 'A' && cp <= 'Z';
  return (cp >= 0xc0 && cp <= 0x24f && cp != 0xd7 && cp != 0xf7) || (cp >= 0x370 && cp <= 0x52f);
}

// Whether capitalised word `w` has a Gaelic surname's shape: "O'Brien",
// "O’Neill", "McAllister", "MacLeod"; the first part of a double-barrelled
// one too ("O'Connor-Healy"). Few words of other kinds open so.
inline bool gaelic_surname(std::string_view w) {
  auto capital_at = [&](size_t k) { return k < w.size() && w[k] >= 'A' && w[k] <= 'Z'; };
  return (w.starts_with("O'") && capital_at(2)) || (w.starts_with("O\u2019") && capital_at(4)) ||
         (w.starts_with("Mc") && capital_at(2)) || (w.starts_with("Mac") && capital_at(3));
}

// Whether word w is a surname of a Gaelic shape in small letters:
// "o'brien", "o’connor", "mcallister" (not "o'clock").
inline bool gaelic_surname_in_small_letters(std::string_view w) {
  auto letter_at = [&](size_t at) { return at < w.size() && w[at] >= 'a' && w[at] <= 'z'; };
  return ((w.starts_with("o'") && letter_at(2) && letter_at(3) && w != "o'clock") ||
          (w.starts_with("o\u2019") && letter_at(4) && letter_at(5) && w != "o\u2019clock") ||
          (w.starts_with("mc") && w.size() >= 5));
}

// Whether code point cp (>= 0x80) is a letter or a digit of some script,
// by block: not the Latin-1 signs and spaces (NBSP, "«", "×"), general
// punctuation, arrows, mathematical and technical signs, box drawing and
// dingbats (U+2000-U+2BFF), CJK punctuation (U+3000-U+303F), private use,
// variation selectors, the byte-order mark, U+FFFD, fullwidth signs, nor
// the emoji and symbol planes (U+1F000-U+1FAFF).
inline bool letter_code_point(uint32_t cp) {
  if (cp < 0xc0) return cp == 0xaa || cp == 0xb5 || cp == 0xba;  // ª µ º
  if (cp == 0xd7 || cp == 0xf7) return false;                     // × ÷
  if (cp >= 0x2000 && cp <= 0x2bff) return false;
  if (cp >= 0x2e00 && cp <= 0x2e7f) return false;
  if (cp >= 0x3000 && cp <= 0x303f) return false;
  if (cp >= 0xe000 && cp <= 0xf8ff) return false;
  if (cp >= 0xfe00 && cp <= 0xfe6f) return false;
  if (cp >= 0xff00 && cp <= 0xffef) {
    return (cp >= 0xff10 && cp <= 0xff19) || (cp >= 0xff21 && cp <= 0xff3a) || (cp >= 0xff41 && cp <= 0xff5a) ||
           (cp >= 0xff66 && cp <= 0xffdc);
  }
  if (cp >= 0xfeff && cp <= 0xffff) return false;
  return !(cp >= 0x1f000 && cp <= 0x1faff);
}

// Whether `s` (UTF-8; invalid bytes count as no letter) holds a letter or
// a digit: a span of signs and spaces ("…", "�", "。", NBSPs) names no one.
inline bool has_letter_or_digit(std::string_view s) {
  for (size_t k = 0; k < s.size();) {
    const CodePoint cp = code_point_at(s, k);
    if (cp.value < 0x80 ? is_word_byte(static_cast<unsigned char>(cp.value)) : letter_code_point(cp.value)) return true;
    k += cp.length;
  }
  return false;
}

// The small words inside place names, lower case: "Republic of the Congo",
// "Torroella de Montgrí", "Turkovice u Prelouce", "Bergen op Zoom".
inline bool joining_word(std::string_view word) {
  static constexpr std::array<std::string_view, 22> kJoining = {
      "aan", "am", "and", "da", "de", "del", "della", "der", "des", "di", "do",
      "dos", "du", "en", "la", "le", "of", "op", "sur", "the", "u", "y"};
  if (word.empty() || word.size() > 5 || !(word[0] >= 'a' && word[0] <= 'z')) return false;
  return std::binary_search(kJoining.begin(), kJoining.end(), word);
}

// Whether `s` opens with a letter of some script (not a sign: "•").
inline bool opens_with_a_letter(std::string_view s) {
  if (s.empty()) return false;
  const uint32_t cp = code_point_at(s, 0).value;
  return cp < 0x80 ? ((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z') : letter_code_point(cp);
}

// Whether token t is a mark that may stand inside a street's name: ". - ' /"
// ("St.", "Saint-Priest", "Sant'Anna", "C/ Mayor").
inline bool street_name_mark(std::string_view text, const Token& t) {
  return t.end - t.begin == 1 && std::string_view(".-'/").find(text[t.begin]) != std::string_view::npos;
}

// Reads tokens [from, end) of an envelope's line as the dev labels write
// it: each number an address (a postcode), each run of other words up to
// a number a place (not a letter alone) but for a state's code of one to
// three capitals at its end, which is an address too ("Dallas TX 48486":
// 11 of 11 such codes); marks open nothing, and a place ends on a word.
// `opens_nothing(t)`: word t opens no place (a span covers it, a joining
// word); `ends_place(t)`: token t is no part of the place before it. Calls
// add(span) for each.
template <typename OpensNothing, typename EndsPlace, typename Add>
inline void read_envelope_line(std::string_view text, Tokens tokens, size_t from, size_t end, OpensNothing opens_nothing,
                        EndsPlace ends_place, Add add) {
  auto word = [&](size_t k) { return is_word_byte(static_cast<unsigned char>(text[tokens[k].begin])); };
  auto state_code = [&](size_t k) {  // one to three capital letters
    const std::string_view w = text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin);
    return w.size() <= 3 && std::all_of(w.begin(), w.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
  };
  for (size_t t = from; t < end;) {
    if (!word(t) || opens_nothing(t)) {
      ++t;
    } else if (is_number(text, tokens, t)) {
      add(PiiSpan{PiiType::kStreetAddress, tokens[t].begin, tokens[t].end});
      ++t;
    } else {
      size_t last = t;
      while (last + 1 < end && !is_number(text, tokens, last + 1) && !ends_place(last + 1)) ++last;
      const bool postcode_after = last + 1 < end;  // the run ends at a number (or a token no place holds)
      while (last > t && !word(last)) --last;  // not a trailing mark
      // A state's code between the place and its postcode ("Dallas TX
      // 48486") is part of the address.
      if (last > t && postcode_after && state_code(last)) {
        add(PiiSpan{PiiType::kLocation, tokens[t].begin, tokens[last - 1].end});
        add(PiiSpan{PiiType::kStreetAddress, tokens[last].begin, tokens[last].end});
      } else if (tokens[last].end - tokens[t].begin > 1) {
        add(PiiSpan{PiiType::kLocation, tokens[t].begin, tokens[last].end});
      }
      t = last + 1;
    }
  }
}

}  // namespace tiergate::tagger_rules
