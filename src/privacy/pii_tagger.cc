#include "tiergate/privacy/pii_tagger.h"

#include "tiergate/privacy/structured_pii.h"

#include "lexicon.h"
#include "little_endian.h"
#include "scan.h"
#include "tagger_scores.h"
#include "tagger_tokens.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <fstream>
#include <sstream>
#include <numeric>
#include <optional>
#include <random>

namespace tiergate {
namespace {

constexpr std::string_view kMagic = "TGPIITAG";
// 2: a gazetteer follows the weights; 3: the continuing marks precede them;
// 4: a byte after the marks says whether the values held caseless words.
constexpr uint32_t kFormatVersion = 4;

using pii_tokens::is_word_byte;
using pii_tokens::opens_with_a_caseless_letter;
using pii_tokens::opens_with_a_small_letter;
using pii_tokens::IndexList;
using pii_tokens::Token;
using pii_tokens::TokenList;
using pii_tokens::tokenize;

uint64_t mix(uint64_t h) {  // splitmix64 finaliser
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
uint64_t word_hash(std::string_view text, const Token& t) {
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
uint64_t phrase_hash_continued(uint64_t h, std::string_view word, bool blank_before) {
  if (blank_before) h = (h ^ ' ') * kFnvPrime;
  for (const char c : word) h = (h ^ kByteView[static_cast<unsigned char>(c)].lower) * kFnvPrime;
  return h;
}

uint64_t phrase_hash(std::string_view phrase) {
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
size_t possessive_stem(const unsigned char* s, size_t n) {
  if (n >= 3 && (s[n - 1] | 0x20) == 's' && s[n - 2] == '\'') return n - 2;
  if (n >= 5 && (s[n - 1] | 0x20) == 's' && s[n - 4] == 0xe2 && s[n - 3] == 0x80 && s[n - 2] == 0x99) return n - 4;
  return n;
}

// The word hash and the FNV-1a hash of the token's shape (kinds, runs
// collapsed, 6 at most), in one pass over the token without copying it;
// then the word's gazetteer matches. Not the affixes: add_affixes().
TokenView view_of(std::string_view text, const Token& t, const Gazetteer& gazetteer) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
  const size_t n = t.end - t.begin;
  uint64_t word = kFnvOffset, shape = 7;
  uint8_t last_kind = 0;
  size_t shape_len = 0;
  for (size_t k = 0; k < n; ++k) {
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
  v.shape = shape;
  v.capitalised = s[0] >= 'A' && s[0] <= 'Z';
  v.newline_before = t.newline_before;
  // A possessive ("Liam's", "Liam’s") is looked up without its 's.
  const size_t stem = possessive_stem(s, n);
  v.gazetteer = gazetteer.lookup(stem == n ? word : word_hash(text, Token{t.begin, static_cast<uint32_t>(t.begin + stem), false, false}));
  return v;
}

// Sets v.prefix and v.suffix: FNV-1a hashes of the token's first and last
// three bytes (lower-cased; all of a shorter token). Only a token that is
// scored needs them, a few of those viewed.
void add_affixes(std::string_view text, const Token& t, TokenView& v) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
  const size_t n = t.end - t.begin, head = std::min<size_t>(n, 3);
  uint64_t prefix = 11, suffix = 13;
  for (size_t k = 0; k < head; ++k) prefix = (prefix ^ kByteView[s[k]].lower) * kFnvPrime;
  for (size_t k = n - head; k < n; ++k) suffix = (suffix ^ kByteView[s[k]].lower) * kFnvPrime;
  v.prefix = prefix;
  v.suffix = suffix;
}

// Feature templates; each hashes with its own id.
enum Template : uint64_t {
  kBias = 1, kWord, kShape, kPrefix, kSuffix, kPrevTag, kPrevTags, kWordBefore, kWordAfter, kWord2Before,
  kWord2After, kShapeBefore, kShapeAfter, kCap, kCapBefore, kCapAfter, kPrevTagWord, kNewline, kBoundary,
  kGazetteerFull, kGazetteerPart
};

// The feature slots of one token: 20 templates and the gazetteer matches of
// three tokens (16 categories, full and part, at most).
struct FeatureSlots {
  std::array<uint32_t, 20 + 3 * 2 * Gazetteer::kMaxCategories> slot;
  size_t size = 0;
  const uint32_t* begin() const { return slot.data(); }
  const uint32_t* end() const { return slot.data() + size; }
};

uint32_t slot_of(Template t, uint64_t value, uint32_t slots) { return static_cast<uint32_t>(mix(value * 31 + t)) & slots; }

// The layout of PiiTagger::fixed_slots_: the slots of the templates whose
// values come from a small set, for taggers of `tags` tags.
struct FixedSlotLayout {
  static constexpr size_t kBias = 0, kCap = 1, kCapBefore = 2, kCapAfter = 3, kNewline = 4, kBoundary = 5;
  static constexpr size_t kGazetteerFull = 6;  // [category * 4 + offset + 1]
  static constexpr size_t kGazetteerPart = kGazetteerFull + 4 * Gazetteer::kMaxCategories;
  static constexpr size_t kPrevTag = kGazetteerPart + 4 * Gazetteer::kMaxCategories;  // [prev + 1]
  size_t tags;
  size_t prev_tags() const { return kPrevTag + tags + 1; }  // [(prev2 + 1) * (tags + 1) + prev + 1]
  size_t size() const { return prev_tags() + (tags + 1) * (tags + 1); }
};

std::vector<uint32_t> fixed_slots(uint32_t slots, size_t tags) {
  using L = FixedSlotLayout;
  const L layout{tags};
  std::vector<uint32_t> out(layout.size());
  out[L::kBias] = slot_of(kBias, 0, slots);
  out[L::kCap] = slot_of(kCap, 1, slots);
  out[L::kCapBefore] = slot_of(kCapBefore, 1, slots);
  out[L::kCapAfter] = slot_of(kCapAfter, 1, slots);
  out[L::kNewline] = slot_of(kNewline, 1, slots);
  out[L::kBoundary] = slot_of(kBoundary, 1, slots);
  for (uint64_t v = 0; v < 4 * Gazetteer::kMaxCategories; ++v) {
    out[L::kGazetteerFull + v] = slot_of(kGazetteerFull, v, slots);
    out[L::kGazetteerPart + v] = slot_of(kGazetteerPart, v, slots);
  }
  // A previous tag is -1 (before the text) or a tag; the templates hash it + 2.
  for (int prev = -1; prev < static_cast<int>(tags); ++prev) {
    out[L::kPrevTag + static_cast<size_t>(prev + 1)] = slot_of(kPrevTag, static_cast<uint64_t>(prev + 2), slots);
    for (int prev2 = -1; prev2 < static_cast<int>(tags); ++prev2) {
      out[layout.prev_tags() + static_cast<size_t>(prev2 + 1) * (tags + 1) + static_cast<size_t>(prev + 1)] =
          slot_of(kPrevTags, static_cast<uint64_t>((prev2 + 2) * 1000 + prev + 2), slots);
    }
  }
  return out;
}

// What features() needs of a tagger: its slot mask (buckets - 1) and its
// fixed slots, fixed_slots(slots, layout.tags).
struct FeatureTables {
  uint32_t slots;
  std::span<const uint32_t> fixed;
  FixedSlotLayout layout;
};

// The feature slots of token i given the two previous tags. `mixed_case`:
// capitalisation is only evidence in text that is not all lower case.
// `context_words` false leaves out the words around the token (training's
// context dropout).
void features(const FeatureTables& tables, std::span<const TokenView> v, size_t i, int prev, int prev2,
              bool mixed_case, FeatureSlots& out, bool context_words = true) {
  using L = FixedSlotLayout;
  out.size = 0;
  auto add = [&](Template t, uint64_t value) { out.slot[out.size++] = slot_of(t, value, tables.slots); };
  auto add_fixed = [&](size_t at) { out.slot[out.size++] = tables.fixed[at]; };
  const size_t tags = tables.layout.tags;
  constexpr uint64_t kStart = 0x5354415254ull, kEnd = 0x454e44ull;
  auto word_at = [&](ptrdiff_t j) {
    return j < 0 ? kStart : static_cast<size_t>(j) >= v.size() ? kEnd : v[static_cast<size_t>(j)].word;
  };
  auto shape_at = [&](ptrdiff_t j) {
    return j < 0 ? kStart : static_cast<size_t>(j) >= v.size() ? kEnd : v[static_cast<size_t>(j)].shape;
  };
  const auto at = static_cast<ptrdiff_t>(i);
  add_fixed(L::kBias);
  add(kWord, v[i].word);
  add(kShape, v[i].shape);
  add(kPrefix, v[i].prefix);
  add(kSuffix, v[i].suffix);
  add_fixed(L::kPrevTag + static_cast<size_t>(prev + 1));
  add_fixed(tables.layout.prev_tags() + static_cast<size_t>(prev2 + 1) * (tags + 1) + static_cast<size_t>(prev + 1));
  if (context_words) {
    add(kWordBefore, word_at(at - 1));
    add(kWordAfter, word_at(at + 1));
    add(kWord2Before, word_at(at - 2));
    add(kWord2After, word_at(at + 2));
  }
  add(kShapeBefore, shape_at(at - 1));
  add(kShapeAfter, shape_at(at + 1));
  add(kPrevTagWord, v[i].word * 131 + static_cast<uint64_t>(prev + 2));
  // The features that are there or not: written always, kept when there
  // (no branch to mispredict on every other token).
  auto add_fixed_if = [&](bool present, size_t slot_at) {
    out.slot[out.size] = tables.fixed[slot_at];
    out.size += present ? 1 : 0;
  };
  const bool has_before = i > 0, has_after = i + 1 < v.size();
  const TokenView& before = v[has_before ? i - 1 : i];
  const TokenView& after = v[has_after ? i + 1 : i];
  if (mixed_case) {
    add_fixed_if(v[i].capitalised, L::kCap);
    add_fixed_if(has_before && before.capitalised, L::kCapBefore);
    add_fixed_if(has_after && after.capitalised, L::kCapAfter);
  }
  add_fixed_if(v[i].newline_before, L::kNewline);
  add_fixed_if(has_after && after.newline_before, L::kBoundary);
  // Gazetteer categories of the token and its neighbours, (category, offset):
  // full matches, then part matches, of one token at a time. Part categories
  // follow the full ones in the fixed slots, so bit b of (part << 16 | full)
  // is at kGazetteerFull + 4 * b; the token before and the token itself
  // share one loop (bits 0-31 and 32-63), which leaves two loop exits for
  // the branch predictor to miss instead of six.
  static_assert(L::kGazetteerPart == L::kGazetteerFull + 4 * 16 && Gazetteer::kMaxCategories == 16);
  auto matches = [](const Gazetteer::Match& m) { return uint64_t{m.part} << 16 | m.full; };
  const uint64_t before_and_self = (has_before ? matches(before.gazetteer) : 0) | matches(v[i].gazetteer) << 32;
  for (uint64_t bits = before_and_self; bits != 0; bits &= bits - 1) {
    const auto b = static_cast<size_t>(std::countr_zero(bits));
    add_fixed(L::kGazetteerFull + (b % 32) * 4 + b / 32);  // offset -1 -> 0, 0 -> 1
  }
  for (uint64_t bits = has_after ? matches(after.gazetteer) : 0; bits != 0; bits &= bits - 1) {
    add_fixed(L::kGazetteerFull + static_cast<size_t>(std::countr_zero(bits)) * 4 + 2);
  }
}

// Whether the stop at token `dot` closes a token of three bytes at most
// written against it, as an abbreviation's stop does ("Dr.", "Apt.", "m.").
bool closes_a_short_word(const TokenList& tokens, size_t dot) {
  return dot > 0 && tokens[dot - 1].end == tokens[dot].begin && tokens[dot - 1].end - tokens[dot - 1].begin <= 3;
}

// Whether token t is a word in small letters of `letters` letters or more:
// it opens with a-z (its bytes counted), or with a small letter of two
// bytes ("город", "était": its code points counted).
bool small_word(std::string_view text, const Token& t, size_t letters) {
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
TokenList& tagger_tokens() {
  thread_local TokenList tokens;
  return tokens;
}
ViewList& tagger_views() {
  thread_local ViewList views;
  return views;
}

// Whether token t (or token i) is written in capitals throughout ("SAP", "MOSS"): an
// acronym or a name in a letterhead, not the everyday word it spells.
bool all_capitals(std::string_view text, const Token& t) {
  return t.end - t.begin >= 2 &&
         std::all_of(text.begin() + t.begin, text.begin() + t.end, [](char c) { return c >= 'A' && c <= 'Z'; });
}
bool all_capitals(std::string_view text, const TokenList& tokens, size_t i) { return all_capitals(text, tokens[i]); }

// Whether token t is digits only ("05557", not "6Sigma").
bool all_digits(std::string_view text, const Token& t) {
  return std::all_of(text.begin() + t.begin, text.begin() + t.end, [](char c) { return c >= '0' && c <= '9'; });
}

// Whether token t holds a digit ("31a", "Ideas42").
bool has_digit(std::string_view text, const Token& t) {
  return std::any_of(text.begin() + t.begin, text.begin() + t.end, [](char c) { return c >= '0' && c <= '9'; });
}

// Whether token i exists and opens with a digit.
bool is_number(std::string_view text, const TokenList& tokens, size_t i) {
  return i < tokens.size() && text[tokens[i].begin] >= '0' && text[tokens[i].begin] <= '9';
}

// Whether token t is `word` (in small letters), whatever its case.
bool token_is(std::string_view text, const Token& t, std::string_view word) {
  if (t.end - t.begin != word.size()) return false;
  for (size_t k = 0; k < word.size(); ++k) {
    if (kByteView[static_cast<unsigned char>(text[t.begin + k])].lower != static_cast<unsigned char>(word[k])) return false;
  }
  return true;
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
// "this", "from", "just" ("a 50 year old man who", "arrived at bauru this
// morning from bahrain", "william had"). None of the dev rows' labelled
// names holds one. Not "can", "may", "will" (names too), "am" ("Frankfurt
// am Main"), "he" ("Zheng He").
constexpr WordSet kNeverInAName(std::array<std::string_view, 52>{
    "who",   "whom",  "whose", "which",  "what",  "when",  "where", "why",   "how",     "this",  "these",
    "those", "that",  "from",  "with",   "into",  "onto",  "was",   "were",  "is",      "are",   "been",
    "being", "has",   "have",  "had",    "would", "could", "should", "might", "must",   "shall", "did",
    "does",  "not",   "very",  "just",   "also",  "then",  "than",  "because", "while", "if",    "my",
    "your",  "his",   "our",   "their",  "its",   "we",    "you",   "she"});

// Whether token t is one of kNeverInAName in small letters.
bool never_in_a_name(std::string_view text, const Token& t) {
  return text[t.begin] >= 'a' && text[t.begin] <= 'z' && kNeverInAName.contains(text, t);
}

// Words that stand inside names ("Bank of America", "Trinidad and Tobago",
// "Ivan and Českého odboje 1735") but end none: a value the decoder let run
// into one ends before it ("St Francis of", "United States and", "Gibbon,
// The"). In capitals throughout they are abbreviations ("Salem, OR",
// "Indianapolis, IN"), which end values.
// (And "a", of one letter, which a WordSet does not hold.)
constexpr WordSet kNeverLastInAName(std::array<std::string_view, 12>{
    "of", "and", "or", "the", "in", "at", "to", "for", "on", "by", "with", "from"});

// Whether token t ends no value: one of kNeverLastInAName but in capitals
// throughout, or "a" after a name (`name`; an address may end in a flat's
// letter: "apt a").
bool never_last_in_a_name(std::string_view text, const TokenList& tokens, size_t t, bool name) {
  const Token& token = tokens[t];
  if (token.end - token.begin == 1) return name && text[token.begin] == 'a';
  return kNeverLastInAName.contains(text, token) && !all_capitals(text, tokens, t);
}

// Narrows `span`, over tokens [from, to), to leave out the words that open
// or end no value: a name, a place or an organisation opens with no word
// never_in_a_name() ("this morning"), nor ends with one; no value ends with
// a word never_last_in_a_name() ("St Francis of", "O2, and", "case of"),
// nor with the marks before such a word. False when nothing is left. A
// title is left as it is: plausible() asks its last word for a role.
bool trim_function_words(std::string_view text, const TokenList& tokens, PiiSpan& span, size_t& from, size_t& to) {
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
    } else if (!trimmed) {
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
size_t math_sign_length(std::string_view text, size_t at) {
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

// Whether a sign of arithmetic (math_sign_length()) stands inside `span` or
// next to it, blanks apart: a sum or an equation ("(6 × 5) × 10^2", "t ÷ 8
// =", "7 • 11 • 13"), not an address.
bool next_to_a_math_sign(std::string_view text, const PiiSpan& span) {
  auto blank = [&](size_t k) { return text[k] == ' ' || text[k] == '\t' || text[k] == '\n'; };
  size_t before = span.begin, after = span.end;
  while (before > 0 && blank(before - 1)) --before;
  while (after < text.size() && blank(after)) ++after;
  for (size_t length = 1; length <= 3 && length <= before; ++length) {
    if (math_sign_length(text, before - length) == length) return true;
  }
  for (size_t k = span.begin; k < span.end; ++k) {
    if (math_sign_length(text, k) > 0) return true;
  }
  return after < text.size() && math_sign_length(text, after) > 0;
}

// Whether token `from` is digits and an era follows it, in capitals, its
// stops or not ("1500 C.E.", "600 BCE", "44 B.C.", "800 AD"), and tokens
// [from, to) hold no more than these: a year, not an address.
bool year_of_an_era(std::string_view text, const TokenList& tokens, size_t from, size_t to) {
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
bool dated_names(std::string_view text, const TokenList& tokens, size_t from, size_t to) {
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

// Whether token i may continue a span of `type` that covers token i - 1
// (i > 0): no span but an address runs across a line break, and none runs
// past the end of a sentence ("?", "!", or a "." that does not close an
// abbreviation of at most three letters such as "Dr." or "Apt."). In text
// with capitals (`mixed`), a name, a place or an organisation does not run
// into a small word of four letters or more ("George wants", "My name");
// "van", "de la", "of" may stand inside. Nor does an address run into such
// a word when `ends_an_address()` (tag(): not a street word, so not
// "corner" or "lane", and either an everyday word, "Elm Street last night",
// or one before no house number, "RR commenter Trevor", not "Trg revolucije
// 12"); it is asked only of such a word. In any text, a name, a place or
// an organisation does not run into a word never_in_a_name() ("man who",
// "bauru this morning").
template <typename EndsAnAddress>
bool may_continue(std::string_view text, const TokenList& tokens, size_t i, PiiType type, bool mixed,
                  EndsAnAddress ends_an_address) {
  if (tokens[i].newline_before && type != PiiType::kStreetAddress) return false;
  const bool name = type == PiiType::kPerson || type == PiiType::kLocation || type == PiiType::kOrganization;
  if (name && never_in_a_name(text, tokens[i])) return false;
  if (mixed && small_word(text, tokens[i], 4) && (name || (type == PiiType::kStreetAddress && ends_an_address()))) {
    return false;
  }
  const Token& before = tokens[i - 1];
  if (before.end - before.begin != 1) return true;
  const char mark = text[before.begin];
  if (mark == '?' || mark == '!') return false;
  if (mark != '.') return true;
  return closes_a_short_word(tokens, i - 1) && is_word_byte(static_cast<unsigned char>(text[tokens[i - 2].begin]));
}

// Everyday abbreviations, written in capitals as names of bodies are
// ("block my card ASAP", "money from an ATM"): alone, no one's name, place
// or company.
constexpr WordSet kAbbreviations(std::array<std::string_view, 19>{
    "asap", "atm", "atms", "btw", "diy", "faq", "faqs", "fyi", "gps", "imho", "imo", "lol", "omg", "pdf", "rsvp",
    "sms", "tba", "tbd", "usb"});
// Units of measure after a number: a quantity, not a house number before
// its street ("500 MHz", "77 pm", "25 mol"). Those of one letter ("110 V")
// are no word of a street either.
constexpr WordSet kUnitsOfMeasure(std::array<std::string_view, 44>{
    "hz", "khz", "mhz", "ghz", "nm", "mm", "cm", "km", "mi", "ft", "kg", "mg", "lb", "lbs", "oz", "ml", "mol",
    "kj", "kcal", "cal", "ev", "kev", "mev", "pm", "kv", "mv", "ma", "kw", "mw", "kwh", "pa", "kpa", "atm", "psi",
    "db", "ms", "ns", "mph", "kph", "rpm", "kb", "mb", "gb", "tb"});

// Whether tokens k and k + 1 are a quantity: digits, then a unit of measure
// on their line ("59 kg", "120/80 mm").
bool quantity_at(std::string_view text, const TokenList& tokens, size_t k) {
  return k + 1 < tokens.size() && all_digits(text, tokens[k]) && !tokens[k + 1].newline_before &&
         kUnitsOfMeasure.contains(text, tokens[k + 1]);
}

// "my", "her", ...: before a relative, who is then named ("my son Mali").
constexpr WordSet kPossessiveDeterminers(std::array<std::string_view, 6>{"my", "our", "his", "her", "their", "your"});

// Verbs of speech: "said", "shouted".
constexpr std::array<std::string_view, 18> kSpeechVerbWords = {
    "said", "says", "shouted", "asked", "asks", "replied", "replies", "told", "tells", "wrote", "writes", "yelled",
    "whispered", "answered", "explained", "screamed", "cried", "added"};
constexpr WordSet kSpeechVerbs(kSpeechVerbWords);

// Relatives, partners and friends: "son", "wife", "boss".
constexpr std::array<std::string_view, 32> kRelativeWords = {
    "son", "daughter", "kid", "child", "wife", "husband", "partner", "friend", "boss", "brother", "sister",
    "mother", "father", "mom", "mum", "dad", "colleague", "neighbour", "neighbor", "boyfriend", "girlfriend",
    "uncle", "aunt", "cousin", "grandson", "granddaughter", "nephew", "niece", "grandmother", "grandfather",
    "fiance", "fiancee"};
constexpr WordSet kRelatives(kRelativeWords);

template <size_t A, size_t B>
consteval std::array<std::string_view, A + B> joined(const std::array<std::string_view, A>& a,
                                                      const std::array<std::string_view, B>& b) {
  std::array<std::string_view, A + B> out;
  std::copy(a.begin(), a.end(), out.begin());
  std::copy(b.begin(), b.end(), out.begin() + A);
  return out;
}

// Verbs of giving and showing, whose receiver, named before "his", "her"
// or "their", is a person: "had given Selam his address", "sent Anna her
// keys". ("told" and "asked" are verbs of speech.)
constexpr std::array<std::string_view, 18> kGiveVerbWords = {
    "gave",  "given", "give",  "gives", "giving", "sent",  "send",    "sends",  "showed",
    "shown", "show",  "shows", "handed", "hand",  "offered", "lent", "promised", "paid"};
constexpr WordSet kGiveVerbs(kGiveVerbWords);
// "his", "her", "their": a possessive of persons after the receiver.
constexpr WordSet kPersonsPossessives(std::array<std::string_view, 3>{"his", "her", "their"});

// The words next to a name that introduce it: the verbs of speech and of
// giving, the relatives, "is" (of "name is"), "name's" and "starring". A
// token that none of them may be (by its first two letters and length)
// needs no closer look.
constexpr WordSet kNameCues(joined(joined(joined(kSpeechVerbWords, kRelativeWords), kGiveVerbWords),
                                   std::array<std::string_view, 3>{"is", "name's", "starring"}));

// Greetings that open a letter or a message: "Hi Anna,".
constexpr WordSet kGreetings(std::array<std::string_view, 4>{"hi", "hello", "hey", "dear"});

// Nouns that end the names of companies and bodies as their suffixes do
// ("Rand Corporation", "Ceiba Solutions", "Kroll Bond Ratings Agency"):
// no person's or place's name ends in one.
constexpr std::array<std::string_view, 22> kOrganisationNounWords = {
    "corporation", "incorporated", "company", "agency", "technologies", "solutions", "services", "networks",
    "international", "insurance", "consulting", "associates", "partners", "holdings", "industries", "enterprises",
    "ventures", "laboratories", "pharmaceuticals", "logistics", "analytics", "robotics"};
constexpr WordSet kOrganisationNouns(kOrganisationNounWords);
constexpr size_t kShortestOrganisationNoun =
    std::ranges::min(kOrganisationNounWords, {}, &std::string_view::size).size();  // "agency"

// Articles and possessives of two letters or more that open a noun
// phrase: "The State Farm Insurance office".
constexpr WordSet kDeterminers(std::array<std::string_view, 10>{"the", "an", "our", "their", "his", "her", "its", "my",
                                                                "your", "this"});

// The words that open a request or a question after a name and a comma at
// the start of a line: "Anna, can I ...", "Bob, please ...".
constexpr WordSet kAfterVocatives(std::array<std::string_view, 17>{
    "can", "could", "would", "will", "please", "you", "do", "are", "thanks", "thank", "we", "how", "what", "did",
    "have", "let", "i'm"});

// Whether token i opens a sentence: the text's first, or after "! ", "? "
// or a ". " that closes no abbreviation of three letters at most ("m.
// portaliou street", "Dr. Smith").
bool opens_a_sentence(std::string_view text, const TokenList& tokens, size_t i) {
  if (i == 0) return true;
  const Token& before = tokens[i - 1];
  const char stop = text[before.begin];
  if (before.end - before.begin != 1 || (stop != '.' && stop != '!' && stop != '?') || before.end == tokens[i].begin) {
    return false;
  }
  return stop != '.' || !closes_a_short_word(tokens, i - 1);
}

bool letter_label(std::string_view text, const TokenList& tokens, size_t i);

// Whether token i, an everyday word that opens a sentence, a line or an
// answer choice ("C. May be"), comes before a pronoun ("Will my account
// stay active?", "May I", "Could you"), or before "be" or "not" ("May be
// associated with", "Will not"): a verb or a question word, even where a
// name list knows it ("Will"). Of 180 such words in the dev rows none is
// labelled.
bool verb_before_a_pronoun(std::string_view text, const TokenList& tokens, size_t i) {
  if (i + 1 >= tokens.size() || tokens[i + 1].end - tokens[i + 1].begin > 5) return false;
  const bool opens_a_choice = i >= 2 && letter_label(text, tokens, i - 2);
  if (!tokens[i].newline_before && !opens_a_sentence(text, tokens, i) && !opens_a_choice) return false;
  for (std::string_view pronoun : {"i", "me", "my", "you", "your", "he", "his", "she", "her", "it", "its", "we", "us",
                                   "our", "they", "them", "their", "this", "that", "these", "those", "be", "not"}) {
    if (token_is(text, tokens[i + 1], pronoun)) return true;
  }
  return false;
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

// Whether the words right before token `from`, on its line, say that a
// place follows: "city", "town" or "village", maybe then "of" ("home city
// Montevideo", "the town of Kaluga"), or "grew up in", "born in", "lives
// in", "raised in", "arrived in", "originally from", "moved here from",
// "moved from", "moved to" (or "move", "moving", "relocated", "relocate",
// "relocating"), "flew to", "traveled to", "travelled to", "trip to",
// "flight to".
bool after_a_place_cue(std::string_view text, const TokenList& tokens, size_t from) {
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
    return is(k, "originally") || is(k, "moved") || (k > 0 && is(k, "here") && is(k - 1, "moved"));
  }
  if (is(k, "to")) {
    if (k == 0) return false;
    --k;
    return is(k, "moved") || is(k, "move") || is(k, "moving") || is(k, "relocated") || is(k, "relocate") ||
           is(k, "relocating") || is(k, "flew") || is(k, "traveled") || is(k, "travelled") || is(k, "trip") ||
           is(k, "flight");
  }
  return false;
}

// Nouns of a company's premises or people: "office", "store", "staff", ...
// ("the Apple store", "the Xignite office").
constexpr WordSet kCompanyPlaceNouns(std::array<std::string_view, 12>{
    "office", "offices", "headquarters", "store", "stores", "branch", "staff", "employees", "factory", "warehouse",
    "subsidiary", "shareholders"});

// Whether token t is one of kCompanyPlaceNouns.
bool names_a_company_place(std::string_view text, const Token& t) { return kCompanyPlaceNouns.contains(text, t); }

// Whether the token "the" (either case) and one space stand right before
// byte `at`: read from the text, without looking the tokens up. (An
// apostrophe between word bytes would join "the" to the word before:
// "o'the".)
bool follows_the(std::string_view text, size_t at) {
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
bool names_an_organisation(std::string_view text, const TokenList& tokens, size_t i) {
  if (i == 0 || i + 1 >= tokens.size() || text[tokens[i].begin] < 'A' || text[tokens[i].begin] > 'Z') return false;
  const Token &word = tokens[i], &noun = tokens[i + 1];
  if (word.end + 1 != noun.begin || text[word.end] != ' ' || !follows_the(text, word.begin)) return false;
  const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + word.begin;
  if (possessive_stem(b, word.end - word.begin) != word.end - word.begin) return false;
  return names_a_company_place(text, noun);
}

// Whether a number opens one of the three words after token i on its line
// (among its next eight tokens): the number of the street that token i may
// be part of.
bool number_ahead(std::string_view text, const TokenList& tokens, size_t i) {
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
bool blank_line_before(std::string_view text, const TokenList& tokens, size_t j) {
  return text.substr(tokens[j - 1].end, tokens[j].begin - tokens[j - 1].end).find("\n\n") != std::string_view::npos;
}

// The first token of each token's line, from a table built when first
// asked: a pass that asks it for each of many addresses on one long line
// walks the line once, not once per address. One at a time in a thread:
// the table is the thread's.
class LineStarts {
 public:
  explicit LineStarts(const TokenList& tokens) : tokens_(tokens) {}
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
  const TokenList& tokens_;
  bool built_ = false;
};

// The first word token in [j, end), past the marks that open a line ("> ",
// ", "); end when there is none.
size_t first_word_from(std::string_view text, const TokenList& tokens, size_t j, size_t end) {
  while (j < end && !is_word_byte(static_cast<unsigned char>(text[tokens[j].begin]))) ++j;
  return j;
}

// Per thread, for the text being tagged: for each token, 1 + the index in
// tag()'s `out` of the first span that overlaps it, 0 for none, once a pass
// after decoding asks about a text with many spans (see span_over()).
struct SpanCover {
  std::vector<uint32_t> first_span;
  bool built = false;
};
SpanCover& tagger_cover() {
  thread_local SpanCover cover;
  return cover;
}

// Notes out[k] over the tokens it overlaps that no earlier span covers.
void cover_span(const std::vector<PiiSpan>& out, size_t k) {
  const TokenList& tokens = tagger_tokens();
  std::vector<uint32_t>& first_span = tagger_cover().first_span;
  auto t = std::partition_point(tokens.begin(), tokens.end(), [&](const Token& x) { return x.end <= out[k].begin; });
  for (; t != tokens.end() && t->begin < out[k].end; ++t) {
    uint32_t& c = first_span[static_cast<size_t>(t - tokens.begin())];
    if (c == 0) c = static_cast<uint32_t>(k + 1);
  }
}

// Forgets the cover: `out` changed order, or a new text is tagged.
void reset_cover() { tagger_cover().built = false; }

// Sorts out[first...] by begin: the passes after decoding add spans out of
// order.
void sort_by_begin(std::vector<PiiSpan>& out, size_t first) {
  std::sort(out.begin() + static_cast<ptrdiff_t>(first), out.end(),
            [](const PiiSpan& a, const PiiSpan& b) { return a.begin < b.begin; });
}

// Appends `span` to `out`, and to the cover if there is one.
void add_span(std::vector<PiiSpan>& out, const PiiSpan& span) {
  out.push_back(span);
  if (tagger_cover().built) cover_span(out, out.size() - 1);
}

// Sets out[k] to `span`, and the cover if there is one: the span's new
// tokens are added to it; where the span gives up tokens, it is rebuilt
// when next asked.
void set_span(std::vector<PiiSpan>& out, size_t k, const PiiSpan& span) {
  const bool gives_up = span.begin > out[k].begin || span.end < out[k].end;
  out[k] = span;
  if (gives_up) {
    reset_cover();
  } else if (tagger_cover().built) {
    cover_span(out, k);
  }
}

// The index of the first token that begins at or after byte `at`. A
// binary search whose steps choose without a branch: the passes after
// decoding ask it of every span, and a branch would be mispredicted on
// about every other step.
size_t first_token_from(const TokenList& tokens, uint32_t at) {
  if (tokens.empty()) return 0;
  const Token* base = tokens.data();
  for (size_t n = tokens.size(); n > 1;) {
    const size_t half = n / 2;
    base += half & (size_t{0} - static_cast<size_t>(base[half - 1].begin < at));  // a mask: GCC makes `? :` a branch
    n -= half;
  }
  return static_cast<size_t>(base - tokens.data()) + (base->begin < at ? 1 : 0);
}

// The first span of `out` that overlaps token j, or out.size(). A few
// spans are read through; past that the cover is built once, so that a
// long text with many spans costs its passes linear time, not quadratic.
size_t span_over(const std::vector<PiiSpan>& out, size_t j) {
  constexpr size_t kReadThrough = 16;
  if (out.size() <= kReadThrough) {
    const Token& t = tagger_tokens()[j];
    for (size_t k = 0; k < out.size(); ++k) {
      if (out[k].begin < t.end && t.begin < out[k].end) return k;
    }
    return out.size();
  }
  SpanCover& cover = tagger_cover();
  if (!cover.built) {
    cover.first_span.assign(tagger_tokens().size(), 0);
    cover.built = true;
    for (size_t k = 0; k < out.size(); ++k) cover_span(out, k);
  }
  const uint32_t c = cover.first_span[j];
  return c == 0 ? out.size() : c - 1;
}

// Adds each of `spans` (one token each, in order) over which no span of
// `out` lies; out[first...] stays in order of begin.
void add_uncovered(std::vector<PiiSpan>& out, size_t first, std::span<const PiiSpan> spans) {
  if (spans.empty()) return;
  reset_cover();
  const TokenList& tokens = tagger_tokens();
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
bool own_place_or_organisation(const std::vector<PiiSpan>& out, size_t k, size_t first, uint32_t begin, uint32_t end) {
  return k >= first && k < out.size() && out[k].begin == begin && out[k].end == end &&
         (out[k].type == PiiType::kLocation || out[k].type == PiiType::kOrganization);
}

// Whether tokens [from, to) of one line are a unit alone: a word opening
// with a letter A-Z (either case), then maybe its stop, then maybe a number
// ("Apt. 434", "Suite 683", "Suite"), and nothing more.
bool unit_alone(std::string_view text, const TokenList& tokens, size_t from, size_t to) {
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
bool after_a_name_on_its_line(std::string_view text, const PiiSpan* before, const PiiSpan* before2, const PiiSpan& span) {
  const TokenList& tokens = tagger_tokens();
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
bool after_a_name_on_its_line(std::string_view text, const std::vector<PiiSpan>& out, size_t s, size_t first) {
  return after_a_name_on_its_line(text, s > first ? &out[s - 1] : nullptr, s > first + 1 ? &out[s - 2] : nullptr, out[s]);
}

// Whether `next`, after the address `joined`, may join it: a place; an
// address that is a postcode alone or opens with no number ("Apt. 328",
// "Dašická 688" after its house number "60"); or a street after a house
// number alone, a space apart. Not the next address of a list ("12 Novak
// Street, Graz, 13 Novak Street").
bool continues_an_address(std::string_view text, const TokenList& tokens, const PiiSpan& joined, const PiiSpan& next) {
  if (next.type == PiiType::kLocation) return true;
  if (next.type != PiiType::kStreetAddress) return false;
  const size_t j = first_token_from(tokens, next.begin);
  if (j == tokens.size() || !is_number(text, tokens, j) || tokens[j].end == next.end) return true;
  const size_t h = first_token_from(tokens, joined.begin);
  return tokens[h].end == joined.end && all_digits(text, tokens[h]) && next.begin == joined.end + 1;
}

// Whether `word` is a personal pronoun with a contraction ("I'm", "You've",
// "They're"): no name, place or organisation.
bool pronoun_contraction(std::string_view word) {
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
bool unknown_subject(std::string_view text, const TokenList& tokens, size_t i, std::span<const TokenView> views,
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
bool names_a_language(std::string_view text, const TokenList& tokens, size_t i) {
  if (!kLanguages.contains(text, tokens[i])) return false;
  const bool next_on_line = i + 1 < tokens.size() && !tokens[i + 1].newline_before;
  if (next_on_line && kLanguageNouns.contains(text, tokens[i + 1])) return true;
  if (i == 0 || tokens[i].newline_before || !kLanguageCues.contains(text, tokens[i - 1])) return false;
  return !next_on_line || !is_word_byte(static_cast<unsigned char>(text[tokens[i + 1].begin])) ||
         kAfterALanguage.contains(text, tokens[i + 1]);
}

// Whether token t joins two numbers of a list, a range or a sum: "and",
// "or", "to", ",", "-", "+", "&" or "×".
bool joins_numbers(std::string_view text, const Token& t) {
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
bool names_a_role(std::string_view text, const Token& t) {
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
  for (std::string_view suffix : {"er", "or", "ist", "ian", "ant", "ent", "man", "men", "ive", "eon", "erk"}) {
    if (ends_with(suffix)) return true;
  }
  return false;
}

// Whether token i is a capital letter alone that labels or is a small word
// rather than a name's initial: an answer choice ("B)"; "A." or "C:" at the
// start of a line, of the text or after "?" or ":", before a space; "A" in
// quotes), or a letter before a small word ("I am", "A man"). "J. Smith" in
// a sentence, "P.O. Box" and "R Cortinhas" (R for Rua) are initials.
bool letter_label(std::string_view text, const TokenList& tokens, size_t i) {
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

// The gazetteer categories whose names start with `prefix`: "street" (street
// names and suffixes) and "common" (everyday words) mean something to
// plausible(), "company" (company suffixes) to finish_span().
uint16_t categories_named(const Gazetteer& g, std::string_view prefix) {
  uint16_t mask = 0;
  for (size_t c = 0; c < g.categories().size(); ++c) {
    if (g.categories()[c].starts_with(prefix)) mask = static_cast<uint16_t>(mask | (1u << c));
  }
  return mask;
}

// Whether `text` holds a capital letter: A-Z, or one of Latin-1, Greek or
// Cyrillic ("Расскажи", "Ωραία"), whose words the tagger reads as it reads
// English ones; text in those scripts without an A-Z is no lower-case text
// (where every word is scored and may open a name).
bool mixed_case(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  for (size_t k = 0; k < text.size(); ++k) {
    if ((s[k] >= 'A' && s[k] <= 'Z') || pii_tokens::opens_with_a_capital_letter(s + k, text.size() - k)) return true;
  }
  return false;
}

// Whether a word list of this category names places: "city", "country",
// "state" (as PiiTagger::find_categories() reads them).
bool is_place_list(std::string_view category) {
  return category.starts_with("city") || category.starts_with("country") || category.starts_with("state");
}

// Whether the tagger learns nothing from a category of word lists, which
// only its rules ask: "proper_adjective" (drop_words_naming_no_one()). The
// gazetteer hides it (Gazetteer::hide()).
bool is_rule_list(std::string_view category) { return category.starts_with("proper_adjective"); }

// The gazetteer of `lists`, keyed by the tagger's word hash: an entry that
// is one word is a full match, each word of a longer entry a part match.
// The lists the tagger learns from come first, in their order, then those
// is_rule_list(): adding one of these keeps every other category's bit,
// and so the features of each token.
Gazetteer build_gazetteer(std::span<const GazetteerList> all_lists) {
  std::vector<const GazetteerList*> lists;
  for (const GazetteerList& list : all_lists) {
    if (!is_rule_list(list.category)) lists.push_back(&list);
  }
  for (const GazetteerList& list : all_lists) {
    if (is_rule_list(list.category)) lists.push_back(&list);
  }
  std::vector<std::string> categories;
  for (const GazetteerList* list : lists) categories.push_back(list->category);
  Gazetteer g(std::move(categories));
  TokenList tokens;
  IndexList marked;
  for (size_t c = 0; c < lists.size(); ++c) {
    for (const std::string& entry : lists[c]->entries) {
      tokenize(entry, tokens, marked);
      const auto is_word = [&](const Token& t) { return is_word_byte(static_cast<unsigned char>(entry[t.begin])); };
      const bool full = tokens.size() == 1;
      for (const Token& t : tokens) {
        if (is_word(t)) g.add(word_hash(entry, t), c, full);
      }
      // A place's name of several words is also a full match as a whole
      // (PiiTagger::join_place_names()).
      if (!full && is_place_list(lists[c]->category)) g.add(phrase_hash(entry), c, true);
    }
  }
  return g;
}

// One row of training data: its tokens' views and gold tags (0 O, then
// B-/I- per learned type).
struct TrainingRow {
  ViewList views;
  std::vector<int> gold;
  bool mixed = false;
};

// Seeds of the ensemble's members: options.seed, then this far apart.
constexpr uint64_t kMemberSeedStep = 7919;

// An averaged perceptron over `rows`: `weights` floats, [slot * tags + tag].
std::vector<float> train_perceptron(const std::vector<TrainingRow>& rows, const FeatureTables& tables, size_t weights,
                                    const TaggerOptions& options, uint64_t seed) {
  const size_t tags = tables.layout.tags;
  // Averaged perceptron: w, and u = sum of (step * update), so that the
  // average over all steps is w - u / steps.
  std::vector<float> w(weights, 0.0f), u(w.size(), 0.0f);
  std::vector<size_t> order(rows.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(seed);
  FeatureSlots f;
  std::vector<float> score(tags);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  float step = 1;
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t r : order) {
      const TrainingRow& row = rows[r];
      int prev = -1, prev2 = -1;  // -1: before the text
      for (size_t i = 0; i < row.views.size(); ++i, step += 1) {
        features(tables, row.views, i, prev, prev2, row.mixed, f, !(coin(rng) < options.context_dropout));
        std::fill(score.begin(), score.end(), 0.0f);
        for (uint32_t s : f) {
          for (size_t k = 0; k < tags; ++k) score[k] += w[size_t{s} * tags + k];
        }
        const int guess = static_cast<int>(std::max_element(score.begin(), score.end()) - score.begin());
        const int gold = row.gold[i];
        if (guess != gold) {
          for (uint32_t s : f) {
            w[size_t{s} * tags + static_cast<size_t>(gold)] += 1;
            u[size_t{s} * tags + static_cast<size_t>(gold)] += step;
            w[size_t{s} * tags + static_cast<size_t>(guess)] -= 1;
            u[size_t{s} * tags + static_cast<size_t>(guess)] -= step;
          }
        }
        prev2 = prev;
        prev = gold;  // teacher forcing: the gold history, as at its best at run time
      }
    }
  }
  for (size_t k = 0; k < w.size(); ++k) w[k] -= u[k] / step;
  return w;
}

}  // namespace

bool tagger_learns(PiiType type) {
  switch (type) {
    case PiiType::kPerson:
    case PiiType::kStreetAddress:
    case PiiType::kLocation:
    case PiiType::kOrganization:
    case PiiType::kTitle:
    case PiiType::kPrefix:
    case PiiType::kAge:
    case PiiType::kNrp:
    case PiiType::kZipCode:
      return true;
    case PiiType::kCreditCard:
    case PiiType::kPhoneNumber:
    case PiiType::kDateTime:
    case PiiType::kEmailAddress:
    case PiiType::kUsSsn:
    case PiiType::kIbanCode:
    case PiiType::kDomainName:
    case PiiType::kUsDriverLicense:
    case PiiType::kIpAddress:
    case PiiType::kMacAddress:
    case PiiType::kUsPassport:
    case PiiType::kApiKey:
    case PiiType::kPrivateKey:
    case PiiType::kPassword:
      return false;
  }
  return false;
}

PiiTagger PiiTagger::train(std::span<const PiiExample> examples, const TaggerOptions& options) {
  PiiTagger t;
  for (PiiType type : kAllPiiTypes) {
    const bool present = std::any_of(examples.begin(), examples.end(), [&](const PiiExample& e) {
      return std::any_of(e.spans.begin(), e.spans.end(), [&](const PiiSpan& s) { return s.type == type; });
    });
    if (present && tagger_learns(type)) t.types_.push_back(type);
  }
  if (t.types_.empty()) return t;
  t.buckets_ = std::bit_ceil(std::max<uint32_t>(options.buckets, 64));
  t.gazetteer_ = build_gazetteer(options.gazetteers);
  t.find_categories();
  const size_t tags = t.tags();
  const uint32_t slots = t.buckets_ - 1;

  // Each row's tokens, views and gold tags, computed once.
  std::vector<TrainingRow> rows;
  rows.reserve(examples.size());
  TokenList tokens;
  IndexList marked;
  for (const PiiExample& e : examples) {
    tokenize(e.text, tokens, marked);
    TrainingRow row;
    row.mixed = mixed_case(e.text);
    row.gold.assign(tokens.size(), 0);
    for (const Token& tok : tokens) {
      row.views.push_back(view_of(e.text, tok, t.gazetteer_));
      add_affixes(e.text, tok, row.views.back());
    }
    for (const PiiSpan& s : e.spans) {
      const auto k = std::find(t.types_.begin(), t.types_.end(), s.type);
      if (k == t.types_.end()) continue;
      const int b = 1 + 2 * static_cast<int>(k - t.types_.begin());
      bool first = true;
      for (size_t j = 0; j < tokens.size(); ++j) {
        if (tokens[j].begin >= s.begin && tokens[j].begin < s.end) {
          row.gold[j] = first ? b : b + 1;
          const auto c = static_cast<unsigned char>(e.text[tokens[j].begin]);
          if (!first && !is_word_byte(c)) t.continuing_marks_.set(c);
          t.caseless_values_ = t.caseless_values_ ||
                               opens_with_a_caseless_letter(reinterpret_cast<const unsigned char*>(e.text.data()) + tokens[j].begin,
                                                            tokens[j].end - tokens[j].begin);
          first = false;
        }
      }
    }
    rows.push_back(std::move(row));
  }

  // The average of options.members perceptrons that differ only in the
  // order they visit the rows and the tokens that lose their context.
  const std::vector<uint32_t> fixed = fixed_slots(slots, tags);
  const FeatureTables tables{slots, fixed, FixedSlotLayout{tags}};
  const int members = std::max(options.members, 1);
  std::vector<float> w(size_t{t.buckets_} * tags, 0.0f);
  for (int m = 0; m < members; ++m) {
    const std::vector<float> member =
        train_perceptron(rows, tables, w.size(), options, options.seed + static_cast<uint64_t>(m) * kMemberSeedStep);
    for (size_t k = 0; k < w.size(); ++k) w[k] += member[k] / static_cast<float>(members);
  }
  t.set_weights(std::move(w));
  t.fixed_slots_ = fixed;
  return t;
}

void PiiTagger::set_weights(std::vector<float> by_tag) {
  weights_ = std::move(by_tag);
  float largest = 0;
  for (const float w : weights_) largest = std::max(largest, std::abs(w));
  const float scale = largest > 0 ? 32767.0f / largest : 1.0f;
  const size_t n = tags(), open = open_width(), more = continue_width();
  open_rows_.assign(size_t{buckets_} * open, 0);
  continue_rows_.assign(size_t{buckets_} * more, 0);
  for (size_t slot = 0; slot < buckets_; ++slot) {
    for (size_t k = 0; k < n; ++k) {
      const auto q = static_cast<int16_t>(std::lround(weights_[slot * n + k] * scale));
      const size_t c = column(k);
      (c < open ? open_rows_[slot * open + c] : continue_rows_[slot * more + c - open]) = q;
    }
  }
}

void PiiTagger::tag(std::string_view text, std::vector<PiiSpan>& out) const {
  if (empty() || text.empty() || text.size() >= (uint64_t{1} << 32)) return;
  TokenList& tokens = tagger_tokens();
  ViewList& views = tagger_views();
  const size_t first_tagged = out.size();
  FeatureSlots f;
  thread_local std::vector<uint8_t> viewed;
  thread_local IndexList marked_tokens;
  // Spans of one token each, in order, that the tagger adds where no other
  // span covers them in the end: unknown_subject()s, names_an_organisation().
  thread_local std::vector<PiiSpan> fallbacks;
  fallbacks.clear();
  const bool organisations = std::find(types_.begin(), types_.end(), PiiType::kOrganization) != types_.end();
  tokenize(text, tokens, marked_tokens);
  // Views only of the tokens scored and of their neighbours within reach of
  // the features, which read only the word of a token two away: most tokens
  // of a prompt are none of these. viewed[j]: 0 nothing, 1 the word, 2 all.
  // The views' vector only grows: resizing it walks every element.
  if (views.size() < tokens.size()) views.resize(tokens.size());
  viewed.assign(tokens.size(), 0);
  // The tokens viewed that are one word of a longer place's name
  // (join_place_names()), in the order they were viewed.
  thread_local IndexList place_words;
  place_words.clear();
  auto view = [&](size_t j) {
    if (viewed[j] < 2) {
      views[j] = view_of(text, tokens[j], gazetteer_);
      viewed[j] = 2;
      if ((views[j].gazetteer.part & place_categories_) != 0) place_words.push_back(static_cast<uint32_t>(j));
    }
  };
  auto view_word = [&](size_t j) {
    if (viewed[j] == 0) {
      views[j].word = word_hash(text, tokens[j]);
      viewed[j] = 1;
    }
  };
  auto view_around = [&](size_t i) {
    if (i >= 2) view_word(i - 2);
    if (i >= 1) view(i - 1);
    if (i + 1 < tokens.size()) view(i + 1);
    if (i + 2 < tokens.size()) view_word(i + 2);
  };
  auto marked = [&](size_t j) { return j < tokens.size() && tokens[j].marked; };
  // Whether token j (viewed), a small word in text with capitals, ends an
  // address (may_continue()): no street word, and an everyday word or one
  // before no house number.
  auto ends_an_address = [&](size_t j) {
    const Gazetteer::Match& m = views[j].gazetteer;
    if ((m.full & street_categories_) != 0) return false;
    return (m.full & common_categories_) != 0 || !number_ahead(text, tokens, j);
  };
  // In text with capitals, whether token i (viewed), before a token that is
  // not marked or at the end, opens no span: an everyday word ("Today"); an
  // everyday word of three letters at most that is no name ("The", "In",
  // but not "Bob") before a word, whatever else the lists know it as (part
  // of "The Hague", the state IN); a number before an everyday word or a
  // word that would end an address ("60 to 70 percent", "60 mambas in the
  // park"); digits before a mark ("1.",
  // "30%", "2)": a house number comes before its street). All capitals
  // are left to scoring.
  // A capitalised Cyrillic word that opens a sentence or a line, before a
  // word of small Cyrillic letters, that no list knows: the sentence's
  // first word ("Какая примерно", "Дан список"), which the everyday lists
  // (English) cannot tell apart. The name lists hold Russian names.
  auto unlisted_cyrillic_opener = [&](size_t i, const Gazetteer::Match& g) {
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + tokens[i].begin;
    const size_t length = tokens[i].end - tokens[i].begin;
    if (b[0] != 0xd0 || !pii_tokens::opens_with_a_capital_letter(b, length) || (g.full | g.part) != 0 ||
        i + 1 >= tokens.size()) {
      return false;
    }
    const Token& next = tokens[i + 1];
    const auto* n = reinterpret_cast<const unsigned char*>(text.data()) + next.begin;
    const size_t next_length = next.end - next.begin;
    return (tokens[i].newline_before || opens_a_sentence(text, tokens, i)) && !next.newline_before &&
           next_length >= 2 && n[0] >= 0xd0 && n[0] <= 0xd1 && opens_with_a_small_letter(n, next_length);
  };
  auto opens_nothing = [&](size_t i) {
    const Gazetteer::Match& g = views[i].gazetteer;
    const bool last = i + 1 == tokens.size();
    if (!last && is_number(text, tokens, i)) {
      if (all_digits(text, tokens[i]) && !is_word_byte(static_cast<unsigned char>(text[tokens[i + 1].begin]))) {
        return true;  // digits only: "6Sigma," is a name
      }
      view(i + 1);
      const Gazetteer::Match& after = views[i + 1].gazetteer;
      // An everyday word alone is no street word; nor is a small word that
      // would end the address ("60 mambas in the park").
      const auto c = static_cast<unsigned char>(text[tokens[i + 1].begin]);
      const bool small_word_after = c >= 'a' && c <= 'z' && tokens[i + 1].end - tokens[i + 1].begin > 3;
      return everyday(after) || (small_word_after && ends_an_address(i + 1));
    }
    const bool small_word = !last && (g.full & common_categories_) != 0 && (g.full & name_categories_) == 0 &&
                            tokens[i].end - tokens[i].begin <= 3 &&
                            is_word_byte(static_cast<unsigned char>(text[tokens[i + 1].begin]));
    return ((everyday(g) || small_word) && !all_capitals(text, tokens, i)) || unlisted_cyrillic_opener(i, g);
  };
  const bool mixed = mixed_case(text);
  const size_t tags = this->tags();
  const FeatureTables tables{buckets_ - 1, fixed_slots_, FixedSlotLayout{tags}};
  std::array<int32_t, 64> score{};
  int prev = -1, prev2 = -1;
  size_t open = 0;       // index in `out` of the span being extended, when prev is B/I
  size_t open_from = 0;  // its first token
  size_t next_marked = 0;  // in marked_tokens: the first at or after i, once looked for
  size_t listed = tokens.size();  // the token of the last listed name added
  // Whether a span found before tagging (out[0, first_tagged), in order of
  // begin) covers token t; asked in order of the tokens.
  size_t before = 0;
  auto found_before = [&](const Token& t) {
    while (before < first_tagged && out[before].end <= t.begin) ++before;
    return before < first_tagged && out[before].begin < t.end;
  };
  // Adds token j, left outside every span, when it is a listed_name() that
  // nothing found before covers; next to the one added before, one space
  // apart, it is the same person's ("Anna Takeda"). Asked in token order.
  auto add_if_listed = [&](size_t j) {
    if (!mixed || !listed_name(text, j) || found_before(tokens[j])) return;
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + tokens[j].begin;
    const uint32_t end = tokens[j].begin + static_cast<uint32_t>(possessive_stem(b, tokens[j].end - tokens[j].begin));
    if (listed + 1 == j && out.size() > first_tagged && out.back().end + 1 == tokens[j].begin &&
        text[out.back().end] == ' ') {
      out.back().end = end;
    } else {
      out.push_back({PiiType::kPerson, tokens[j].begin, end});
    }
    listed = j;
  };
  // Closes the span open over tokens [open_from, to): finish_span(), or
  // drops it; the tokens of a span dropped may still be listed names.
  auto close_open = [&](size_t to) {
    if (finish_span(text, out[open], open_from, to, mixed)) return;
    out.pop_back();
    for (size_t j = open_from; j < to; ++j) add_if_listed(j);
  };
  for (size_t i = 0; i < tokens.size(); ++i) {
    // In text with capitals, a span opens at a marked token (a capital, a
    // digit, a non-ASCII letter but a small one of Latin-1, Greek or
    // Cyrillic): other tokens outside a span are O without
    // scoring, which spares most of the words of a prompt. The loop goes
    // straight to the next marked token, as if it had stepped over each.
    if (mixed && prev <= 0 && !tokens[i].marked) {
      while (next_marked < marked_tokens.size() && marked_tokens[next_marked] < i) ++next_marked;
      const size_t to = next_marked < marked_tokens.size() ? marked_tokens[next_marked] : tokens.size();
      prev2 = to - i >= 2 ? 0 : prev;
      prev = 0;
      i = to - 1;
      continue;
    }
    // Token i is O without scoring: it ends the span open before.
    auto leave_out = [&] {
      if (prev > 0) close_open(i);
      prev2 = prev;
      prev = 0;
    };
    if (mixed && letter_label(text, tokens, i)) {
      leave_out();
      continue;
    }
    if (!caseless_values_ &&
        opens_with_a_caseless_letter(reinterpret_cast<const unsigned char*>(text.data()) + tokens[i].begin,
                                     tokens[i].end - tokens[i].begin)) {
      leave_out();
      continue;
    }
    // A token that may not continue the span opens none either, as outside
    // a span: a mark that continued no span in training ("Dennis:",
    // "Paris?"); in text with capitals, a lower-case word may_continue()
    // refuses ("George wants").
    const auto first_byte = static_cast<unsigned char>(text[tokens[i].begin]);
    if (prev > 0 && !is_word_byte(first_byte) && !continuing_marks_.test(first_byte)) {
      leave_out();
      continue;
    }
    view(i);
    if (mixed && prev <= 0 && !marked(i + 1) && opens_nothing(i)) {
      if (organisations && names_an_organisation(text, tokens, i)) {
        fallbacks.push_back({PiiType::kOrganization, tokens[i].begin, tokens[i].end});
      }
      leave_out();
      continue;
    }
    if (mixed && prev <= 0 && (views[i].gazetteer.full & common_categories_) != 0 &&
        verb_before_a_pronoun(text, tokens, i)) {
      leave_out();
      continue;
    }
    const size_t open_type = prev > 0 ? static_cast<size_t>(prev - 1) / 2 : types_.size();
    const bool may_go_on = open_type < types_.size() &&
                           may_continue(text, tokens, i, types_[open_type], mixed, [&] { return ends_an_address(i); });
    if (mixed && prev > 0 && !tokens[i].marked && !may_go_on) {
      leave_out();
      continue;
    }
    view_around(i);
    add_affixes(text, tokens[i], views[i]);
    features(tables, {views.data(), tokens.size()}, i, prev, prev2, mixed, f);
    // Outside a span (prev <= 0) only O and the B- tags can win.
    pii_scores::add_scores(open_rows_.data(), {f.begin(), f.end()}, open_width(), score.data());
    if (prev > 0) {
      pii_scores::add_scores(continue_rows_.data(), {f.begin(), f.end()}, continue_width(),
                             score.data() + open_width());
    }
    // An unknown_subject() is a name or an organisation, whichever scores
    // higher, when no span covers it in the end.
    if (!mixed && prev <= 0 && unknown_subject(text, tokens, i, views, common_categories_)) {
      std::optional<PiiType> type;
      int32_t type_score = 0;
      for (size_t t = 0; t < types_.size(); ++t) {
        if ((types_[t] == PiiType::kPerson || types_[t] == PiiType::kOrganization) &&
            (!type || score[1 + t] > type_score)) {
          type = types_[t];
          type_score = score[1 + t];
        }
      }
      if (type) fallbacks.push_back({*type, tokens[i].begin, tokens[i].end});
    }
    // The best of O and the B- tags, and of the I- tag of the span open
    // before (an I- tag only continues a span of its own type) where
    // may_continue() allows it; in tag order, the first of equal scores.
    int best = 0;
    int32_t best_score = score[0];
    for (size_t t = 0; t < types_.size(); ++t) {
      if (score[1 + t] > best_score) {
        best = static_cast<int>(1 + 2 * t);
        best_score = score[1 + t];
      }
      if (t == open_type && may_go_on && score[open_width() + t] > best_score) {
        best = static_cast<int>(2 + 2 * t);
        best_score = score[open_width() + t];
      }
    }
    const bool continues = best > 0 && best % 2 == 0;
    if (prev > 0 && !continues) close_open(i);
    if (best > 0 && best % 2 == 1) {
      open = out.size();
      open_from = i;
      out.push_back({types_[static_cast<size_t>(best - 1) / 2], tokens[i].begin, tokens[i].end});
    } else if (best > 0) {
      out[open].end = tokens[i].end;
    } else {
      add_if_listed(i);
    }
    prev2 = prev;
    prev = best;
  }
  if (prev > 0) close_open(tokens.size());
  reset_cover();
  if (mixed && add_numbered_streets(text, marked_tokens, out)) {
    sort_by_begin(out, first_tagged);
    reset_cover();
  }
  std::sort(place_words.begin(), place_words.end());
  join_place_names(text, place_words, viewed, out, first_tagged, mixed);
  const size_t decoded = out.size();
  // The passes that read addresses only, and change nothing without one
  // (most texts have none), are not entered then: their code stays out of
  // the instruction cache.
  auto has_address = [&] {
    return std::any_of(out.begin(), out.end(),
                       [](const PiiSpan& span) { return span.type == PiiType::kStreetAddress; });
  };
  // So are the passes that read only the spans of this tagging, where it
  // has none (half the dev prompts).
  auto tagged = [&] { return out.size() > first_tagged; };
  if (has_address()) {
    cut_envelopes(text, out, first_tagged, decoded);
    add_house_numbers(text, out, first_tagged, decoded);
    add_address_lines(text, out, decoded, mixed);
  }
  if (tagged()) add_postcodes_after_places(text, out, first_tagged, decoded);
  if (has_address()) add_letterheads(text, out, first_tagged, decoded, mixed);
  if (tagged()) add_appositive_titles(text, out, first_tagged, decoded);
  add_introduced_names(text, marked_tokens, out, first_tagged, mixed);
  if (tagged()) add_joined_names(text, out, first_tagged, mixed);
  if (mixed) add_named_organisations(text, marked_tokens, out, first_tagged);
  // The names added come after the decoded spans: back in order of begin.
  if (out.size() > decoded) {
    sort_by_begin(out, first_tagged);
  }
  if (has_address()) {
    add_street_lines(text, out, first_tagged);
    split_house_numbers(text, out, first_tagged);
    join_addresses_in_sentences(text, out, first_tagged);
  }
  if (tagged()) join_envelopes_below_headings(text, out, first_tagged);
  join_street_corners(text, marked_tokens, out, first_tagged, mixed);
  if (has_address()) {
    split_address_lists(text, out, first_tagged);
    split_street_places(text, out, first_tagged, mixed);
  }
  if (tagged()) split_name_titles(text, out, first_tagged);
  if (has_address()) {
    join_words_before_addresses(text, out, first_tagged, mixed);
    type_company_lines(text, out, first_tagged, mixed);
  }
  if (tagged()) {
    split_coordinated_names(text, out, first_tagged);
    join_named_offices(text, out, first_tagged);
    type_envelope_places(text, out, first_tagged);
    drop_lone_numbers(text, out, first_tagged);
    drop_code_identifiers(text, out, first_tagged);
    drop_words_naming_no_one(text, out, first_tagged);
    type_continents(text, out, first_tagged);
  }
  add_uncovered(out, first_tagged, fallbacks);
}

namespace {

// The code point that starts at byte k of `s` (k < s.size()) and its length
// in bytes; a byte that starts no whole UTF-8 sequence reads as U+FFFD, one
// byte long.
struct CodePoint {
  uint32_t value;
  size_t length;
};
CodePoint code_point_at(std::string_view s, size_t k) {
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
bool opens_with_a_capital(std::string_view s) {
  if (s.empty()) return false;
  const uint32_t cp = code_point_at(s, 0).value;
  if (cp < 0x80) return cp >= 'A' && cp <= 'Z';
  return (cp >= 0xc0 && cp <= 0x24f && cp != 0xd7 && cp != 0xf7) || (cp >= 0x370 && cp <= 0x52f);
}

// Whether code point cp (>= 0x80) is a letter or a digit of some script,
// by block: not the Latin-1 signs and spaces (NBSP, "«", "×"), general
// punctuation, arrows, mathematical and technical signs, box drawing and
// dingbats (U+2000-U+2BFF), CJK punctuation (U+3000-U+303F), private use,
// variation selectors, the byte-order mark, U+FFFD, fullwidth signs, nor
// the emoji and symbol planes (U+1F000-U+1FAFF).
bool letter_code_point(uint32_t cp) {
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
bool has_letter_or_digit(std::string_view s) {
  for (size_t k = 0; k < s.size();) {
    const CodePoint cp = code_point_at(s, k);
    if (cp.value < 0x80 ? is_word_byte(static_cast<unsigned char>(cp.value)) : letter_code_point(cp.value)) return true;
    k += cp.length;
  }
  return false;
}

// The small words inside place names, lower case: "Republic of the Congo",
// "Torroella de Montgrí", "Turkovice u Prelouce", "Bergen op Zoom".
bool joining_word(std::string_view word) {
  static constexpr std::array<std::string_view, 22> kJoining = {
      "aan", "am", "and", "da", "de", "del", "della", "der", "des", "di", "do",
      "dos", "du", "en", "la", "le", "of", "op", "sur", "the", "u", "y"};
  if (word.empty() || word.size() > 5 || !(word[0] >= 'a' && word[0] <= 'z')) return false;
  return std::binary_search(kJoining.begin(), kJoining.end(), word);
}

// Whether `s` opens with a letter of some script (not a sign: "•").
bool opens_with_a_letter(std::string_view s) {
  if (s.empty()) return false;
  const uint32_t cp = code_point_at(s, 0).value;
  return cp < 0x80 ? ((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z') : letter_code_point(cp);
}

// Whether token t is a mark that may stand inside a street's name: ". - ' /"
// ("St.", "Saint-Priest", "Sant'Anna", "C/ Mayor").
bool street_name_mark(std::string_view text, const Token& t) {
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
void read_envelope_line(std::string_view text, const TokenList& tokens, size_t from, size_t end, OpensNothing opens_nothing,
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

}  // namespace

bool PiiTagger::add_numbered_streets(std::string_view text, std::span<const uint32_t> marked,
                                     std::vector<PiiSpan>& out) const {
  const TokenList& tokens = tagger_tokens();
  const size_t n = tokens.size();
  constexpr size_t kMaxWords = 2;
  auto digits = [&](size_t j) { return all_digits(text, tokens[j]); };
  // Token j stands apart from the one before it, on the same line.
  auto apart = [&](size_t j) { return j > 0 && !tokens[j].newline_before && tokens[j - 1].end < tokens[j].begin; };
  // The shape of a street word; whether the lists know it as an everyday
  // word is asked last, once the numbers around it are there.
  auto capitalised = [&](size_t j) {
    return tokens[j].end - tokens[j].begin >= 3 && opens_with_a_capital(text.substr(tokens[j].begin));
  };
  bool added = false;
  for (const uint32_t j : marked) {
    if (j + 2 >= n || !is_number(text, tokens, j)) continue;  // most marked tokens are words
    const bool opens_apart = j == 0 || tokens[j].newline_before || tokens[j - 1].end < tokens[j].begin;
    if (!opens_apart || !apart(j + 1) || !capitalised(j + 1) || !digits(j)) continue;
    size_t last = j + 1;
    while (last + 1 < n && last - j < kMaxWords && apart(last + 1) && capitalised(last + 1)) ++last;
    const size_t number = last + 1;
    if (number >= n || !apart(number) || !digits(number)) continue;
    // Nothing joined to the number after it: not "11:4" of "2 Samuel 11:4".
    if (number + 1 < n && !tokens[number + 1].newline_before && tokens[number + 1].begin == tokens[number].end &&
        text[tokens[number].end] != ',') {
      continue;
    }
    bool free = true;
    for (size_t t = j + 1; t <= last && free; ++t) free = !everyday(gazetteer_.lookup(word_hash(text, tokens[t])));
    for (size_t t = j; t <= number && free; ++t) free = span_over(out, t) == out.size();
    if (!free) continue;
    add_span(out, {PiiType::kStreetAddress, tokens[j].begin, tokens[j].end});
    add_span(out, {PiiType::kStreetAddress, tokens[j + 1].begin, tokens[number].end});
    added = true;
  }
  return added;
}

void PiiTagger::cut_envelopes(std::string_view text, std::vector<PiiSpan>& out, size_t first, size_t decoded) const {
  const TokenList& tokens = tagger_tokens();
  std::vector<PiiSpan> lines;
  for (size_t s = first; s < decoded; ++s) {
    PiiSpan& span = out[s];
    if (span.type != PiiType::kStreetAddress) continue;
    const std::string_view value = text.substr(span.begin, span.end - span.begin);
    const size_t line_end = value.find('\n');
    if (line_end == std::string_view::npos || line_end + 1 >= value.size()) continue;
    // Right after a name on its line ("Mrs. Diana Weöres Apt. 434 40 Rue
    // de la Sarthe 421 / Housse WLG 95697"), or opening its line, after
    // marks or up to two numbers, with the lines below indented.
    if (!after_a_name_on_its_line(text, out, s, first)) {
      if (value[line_end + 1] != ' ') continue;
      const size_t k = first_token_from(tokens, span.begin);
      if (k == tokens.size() || tokens[k].begin != span.begin) continue;
      size_t j = k;
      while (j > 0 && !tokens[j].newline_before && !is_word_byte(static_cast<unsigned char>(text[tokens[j - 1].begin]))) --j;
      for (size_t numbers = 0; numbers < 2 && j > 0 && !tokens[j].newline_before && all_digits(text, tokens[j - 1]); ++numbers) --j;
      if (!(j == 0 || tokens[j].newline_before)) continue;
    }
    // The lines below, as far as the decoder ran, stay covered, line by
    // line: a unit (an everyday word, its stop, a number: "Apt. 573") is
    // an address; otherwise the words are a place (not a letter alone) and
    // each number an address ("Tanzania 53144": the place and its
    // postcode), as the dev labels write them.
    const uint32_t decoded_end = span.end;
    uint32_t end = span.begin + static_cast<uint32_t>(line_end);
    while (end > span.begin && (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '\r')) --end;
    span.end = end;
    size_t line = first_token_from(tokens, end);
    while (line < tokens.size() && tokens[line].begin < decoded_end) {
      size_t line_stop = line + 1;
      while (line_stop < tokens.size() && tokens[line_stop].begin < decoded_end && !tokens[line_stop].newline_before) ++line_stop;
      const size_t from = first_word_from(text, tokens, line, line_stop);
      if (unit_alone(text, tokens, from, line_stop) && line_stop - from >= 2 && all_digits(text, tokens[line_stop - 1]) &&
          everyday(gazetteer_.lookup(word_hash(text, tokens[from])))) {
        lines.push_back({PiiType::kStreetAddress, tokens[from].begin, tokens[line_stop - 1].end});
      } else {
        auto none = [](size_t) { return false; };
        read_envelope_line(text, tokens, from, line_stop, none, none, [&](const PiiSpan& piece) { lines.push_back(piece); });
      }
      line = line_stop;
    }
  }
  out.insert(out.end(), lines.begin(), lines.end());
}

void PiiTagger::add_house_numbers(std::string_view text, std::vector<PiiSpan>& out, size_t first, size_t decoded) const {
  const TokenList& tokens = tagger_tokens();
  // Whether digits alone that no span covers stand one blank or more
  // before token j on its line.
  auto number_before = [&](size_t j) {
    if (j == 0 || tokens[j].newline_before) return false;
    const Token& number = tokens[j - 1];
    return all_digits(text, number) && number.end < tokens[j].begin && span_over(out, j - 1) == out.size();
  };
  for (size_t s = first; s < decoded; ++s) {
    if (out[s].type != PiiType::kStreetAddress) continue;
    size_t k = first_token_from(tokens, out[s].begin);
    if (k == tokens.size() || tokens[k].begin != out[s].begin) continue;
    // A street word the decoder left out right before ("16 Via Raffaele
    // Conforti 74") is the street's.
    if (k > 0 && !tokens[k].newline_before && span_over(out, k - 1) == out.size() &&
        (gazetteer_.lookup(word_hash(text, tokens[k - 1])).full & street_suffix_categories_) != 0) {
      set_span(out, s, {out[s].type, tokens[--k].begin, out[s].end});
    }
    if (!number_before(k)) continue;
    // Two numbers before a street that ends in none ("26 14 Chatsworth
    // Road"): the nearer is the street's own, the other the building's.
    const size_t last = first_token_from(tokens, out[s].end) - 1;
    if (!is_number(text, tokens, last) && number_before(k - 1)) {
      set_span(out, s, {out[s].type, tokens[--k].begin, out[s].end});
    }
    add_span(out, {PiiType::kStreetAddress, tokens[k - 1].begin, tokens[k - 1].end});
  }
}

void PiiTagger::add_address_lines(std::string_view text, std::vector<PiiSpan>& out, size_t decoded,
                                  bool mixed) const {
  const TokenList& tokens = tagger_tokens();
  const size_t n = tokens.size();
  constexpr size_t kMaxLines = 3, kMaxWords = 6, kMaxLineTokens = 4 * kMaxWords;
  auto first_byte = [&](size_t j) { return static_cast<unsigned char>(text[tokens[j].begin]); };
  // Three digits or more standing alone ("05557", not "0" of "0.0200").
  auto postcode = [&](size_t j) {
    const Token& t = tokens[j];
    return t.end - t.begin >= 3 && all_digits(text, t) && (j == 0 || tokens[j - 1].end < t.begin) && (j + 1 == n || t.end < tokens[j + 1].begin);
  };
  size_t done = 0;  // the tokens before it belong to a block already read
  for (size_t s = 0; s < decoded; ++s) {
    if (out[s].type != PiiType::kStreetAddress) continue;
    size_t j = first_token_from(tokens, out[s].end);
    // The lines below the address, or in text with capitals what follows it
    // on its line after a comma: "50 Massbyntie 27, JÄRVENPÄÄ" (not "age
    // 67, is italian").
    const bool comma_after = mixed && j < n && tokens[j].begin == out[s].end && text[tokens[j].begin] == ',';
    if (j < done || j == n || !(tokens[j].newline_before || comma_after)) continue;
    for (size_t line = 0; line < kMaxLines && j < n; ++line) {
      if (blank_line_before(text, tokens, j)) break;  // it ends the block
      // A line of more tokens than a short line holds is none: the walk
      // stops there, so that a long line costs each address on it little.
      size_t end = j + 1;
      while (end < n && !tokens[end].newline_before && end - j <= kMaxLineTokens) ++end;
      if (end - j > kMaxLineTokens) break;
      const size_t from = first_word_from(text, tokens, j, end);
      // The line's words: numbers, joining words, and the others
      // capitalised in text with capitals, in lower-case text none an
      // everyday word; marks only inside a name ("Sant'Anna",
      // "Saint-Priest", "St.").
      size_t words = 0, free_words = 0;
      bool fits = from < end, place_word = false;
      for (size_t t = from; t < end && fits; ++t) {
        const unsigned char c = first_byte(t);
        if (!is_word_byte(c)) {
          fits = tokens[t].end - tokens[t].begin == 1 && std::string_view("-'.,").find(static_cast<char>(c)) != std::string_view::npos;
          continue;
        }
        ++words;
        if (span_over(out, t) != out.size()) continue;
        if (is_number(text, tokens, t)) {
          fits = postcode(t);
          continue;
        }
        if (joining_word(text.substr(tokens[t].begin, tokens[t].end - tokens[t].begin))) continue;
        ++free_words;
        const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[t]));
        const bool everyday_word = everyday(m) && !all_capitals(text, tokens, t);
        const bool capitalised = opens_with_a_capital(text.substr(tokens[t].begin));
        fits = tokens[t].end - tokens[t].begin >= 2 && (mixed ? capitalised : !everyday_word);
        place_word = place_word || !everyday_word;
      }
      if (!fits || words > kMaxWords || (free_words > 0 && !place_word)) break;
      // The words no span covers, a place; a number after them, a postcode.
      // A place does not open with a joining word: ", and 98 Tylova 1036"
      // adds none. (Each word of the line has two bytes or more: no place
      // is one letter.)
      auto covered = [&](size_t k) { return span_over(out, k) != out.size(); };
      auto covered_or_joining = [&](size_t k) {
        return covered(k) || joining_word(text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin));
      };
      read_envelope_line(text, tokens, from, end, covered_or_joining, covered, [&](const PiiSpan& piece) { add_span(out, piece); });
      j = end;
    }
    done = j;
  }
}

void PiiTagger::add_postcodes_after_places(std::string_view text, std::vector<PiiSpan>& out, size_t first,
                                           size_t decoded) const {
  const TokenList& tokens = tagger_tokens();
  for (size_t s = first; s < decoded; ++s) {
    if (out[s].type != PiiType::kStreetAddress && out[s].type != PiiType::kLocation) continue;
    const size_t j = first_token_from(tokens, out[s].end + 1);
    if (j == tokens.size() || tokens[j].begin != out[s].end + 1 || tokens[j].newline_before) continue;
    const Token& number = tokens[j];
    if (number.end - number.begin != 5 || !all_digits(text, number) || span_over(out, j) != out.size()) continue;
    // Then the end, a line break, or a mark that is not a number's ("62704.5").
    const bool ends = j + 1 == tokens.size() || tokens[j + 1].newline_before ||
                      (!is_word_byte(static_cast<unsigned char>(text[tokens[j + 1].begin])) &&
                       !is_number(text, tokens, j + 2));
    if (ends) add_span(out, {PiiType::kStreetAddress, number.begin, number.end});
  }
}

void PiiTagger::add_letterheads(std::string_view text, std::vector<PiiSpan>& out, size_t first, size_t decoded,
                                bool mixed) const {
  if (!mixed) return;
  const TokenList& tokens = tagger_tokens();
  constexpr size_t kMaxSenderWords = 4, kMaxTitleWords = 8;
  auto first_byte = [&](size_t j) { return static_cast<unsigned char>(text[tokens[j].begin]); };
  LineStarts lines(tokens);
  auto line_start = [&](size_t j) { return lines.of(j); };
  // The words of tokens [from, end), one line: how many, whether all are
  // capitalised, and whether they fit a letterhead (two letters or more,
  // no digit, no mark but "-", "&", "." or ","); `last`, the last word.
  struct Line {
    size_t words = 0, last = 0;
    bool fits = false, capitalised = true;
  };
  auto read_line = [&](size_t from, size_t end) {
    Line l;
    l.fits = from < end;
    for (size_t t = from; t < end && l.fits; ++t) {
      const unsigned char c = first_byte(t);
      if (!is_word_byte(c)) {
        l.fits = tokens[t].end - tokens[t].begin == 1 && std::string_view("-&.,").find(static_cast<char>(c)) != std::string_view::npos;
        continue;
      }
      ++l.words;
      l.last = t;
      l.capitalised = l.capitalised && opens_with_a_capital(text.substr(tokens[t].begin));
      // (Longer than any line read here: the walk stops.)
      l.fits = l.words <= kMaxTitleWords && tokens[t].end - tokens[t].begin >= 2 && !has_digit(text, tokens[t]);
    }
    return l;
  };
  auto free_tokens = [&](size_t from, size_t last) {
    for (size_t t = from; t <= last; ++t) {
      if (span_over(out, t) != out.size()) return false;
    }
    return true;
  };
  // A job title's line: its first word capitalised, its last naming a role
  // ("Benefits manager", "Crushing, grinding, and polishing machine tender").
  auto add_title = [&](size_t from, size_t end) {
    const Line l = read_line(from, end);
    if (!l.fits || l.words > kMaxTitleWords || !opens_with_a_capital(text.substr(tokens[from].begin)) ||
        !names_a_role(text, tokens[l.last]) || !free_tokens(from, l.last)) {
      return false;
    }
    add_span(out, {PiiType::kTitle, tokens[from].begin, tokens[l.last].end});
    return true;
  };
  size_t read = tokens.size();  // the line of the last address read: one letterhead per line
  for (size_t s = 0; s < decoded; ++s) {
    if (out[s].type != PiiType::kStreetAddress) continue;
    const size_t k = first_token_from(tokens, out[s].begin);
    if (k == tokens.size()) continue;
    const size_t line = line_start(k);
    if (line == 0 || line == read) continue;
    const size_t head = line_start(line - 1);
    // The address opens its line (past the marks that open it), or the
    // head is the text's first line.
    if (first_word_from(text, tokens, line, k) != k && head != 0) continue;
    read = line;
    const size_t from = first_word_from(text, tokens, head, line);
    const Line l = read_line(from, line);
    if (!l.fits) continue;
    if (!l.capitalised || l.words > kMaxSenderWords) {
      // "Name / Benefits manager / 63 Ommerweg 159"
      if (!blank_line_before(text, tokens, line)) add_title(from, line);
      continue;
    }
    const size_t covering = span_over(out, from);
    if (covering == out.size()) {
      if (!free_tokens(from, l.last)) continue;
      const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[from]));
      if (l.words == 1 && everyday(m) && !all_capitals(text, tokens, from)) continue;  // "Description", as plausible()
      const PiiType type = only_a_name(text, from, m) ? PiiType::kPerson : PiiType::kOrganization;
      add_span(out, {type, tokens[from].begin, tokens[l.last].end});
    } else if (covering < decoded && own_place_or_organisation(out, covering, first, tokens[from].begin, tokens[l.last].end) &&
               out[covering].type == PiiType::kLocation) {
      out[covering].type = PiiType::kOrganization;
    }
    // "Name / Benefits manager / Soul Sounds Unlimited / 63 Ommerweg 159"
    const size_t sender = span_over(out, from);
    if (head > 0 && !blank_line_before(text, tokens, head) && sender != out.size() &&
        out[sender].type == PiiType::kOrganization) {
      add_title(first_word_from(text, tokens, line_start(head - 1), head), head);
    }
  }
}

void PiiTagger::add_appositive_titles(std::string_view text, std::vector<PiiSpan>& out, size_t first,
                                      size_t decoded) const {
  const TokenList& tokens = tagger_tokens();
  const size_t n = tokens.size();
  constexpr size_t kMaxWords = 6;
  auto is = [&](size_t j, std::string_view w) { return token_is(text, tokens[j], w); };
  const size_t spans = out.size();
  for (size_t s = first; s < spans; ++s) {
    if (out[s].type != PiiType::kPerson) continue;
    const size_t j = first_token_from(tokens, out[s].end);
    if (j + 3 >= n || !is(j, ",") || !is(j + 1, "the")) continue;
    const size_t from = j + 2;
    size_t end = from, words = 0;
    bool fits = true;
    for (; end < n && !is(end, ",") && fits; ++end) {
      const auto c = static_cast<unsigned char>(text[tokens[end].begin]);
      words += is_word_byte(c) ? 1 : 0;
      fits = !tokens[end].newline_before && words <= kMaxWords && end - from < 2 * kMaxWords &&
             (c == '-' || (is_word_byte(c) && !(c >= '0' && c <= '9')));
    }
    if (!fits || end == n || end == from || !names_a_role(text, tokens[end - 1])) continue;
    // The decoder's guess over the title's first words, if any.
    const size_t k = span_over(out, from);
    bool free = true;
    for (size_t t = from + 1; t < end && free; ++t) {
      const size_t c = span_over(out, t);
      free = c == out.size() || c == k;
    }
    if (!free) continue;
    const PiiSpan title{PiiType::kTitle, tokens[from].begin, tokens[end - 1].end};
    if (k == out.size()) {
      add_span(out, title);
    } else if (k >= first && k < decoded && out[k].begin == title.begin && out[k].end <= title.end) {
      set_span(out, k, title);
    }
  }
}

void PiiTagger::split_house_numbers(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const TokenList& tokens = tagger_tokens();
  std::vector<PiiSpan> split;
  for (size_t s = first; s < out.size(); ++s) {
    const PiiSpan& span = out[s];
    if (span.type != PiiType::kStreetAddress) continue;
    size_t k = first_token_from(tokens, span.begin);
    // A unit before the building's number right after a name on its line
    // is an address of its own: "Mrs. Diana Weöres Apt. 434 40 Rue de la
    // Sarthe 421" (an everyday word, its stop, a number).
    if (k + 3 < tokens.size() && tokens[k].begin == span.begin && after_a_name_on_its_line(text, out, s, first) &&
        everyday(gazetteer_.lookup(word_hash(text, tokens[k])))) {
      size_t number = k + 1;
      if (tokens[number].end - tokens[number].begin == 1 && text[tokens[number].begin] == '.') ++number;
      if (number + 1 < tokens.size() && all_digits(text, tokens[number]) && tokens[number + 1].begin < span.end &&
          text[tokens[number].end] == ' ') {
        split.push_back({PiiType::kStreetAddress, span.begin, tokens[number].end});
        out[s].begin = tokens[number + 1].begin;
        k = number + 1;
      }
    } else if (k > 0 && k + 2 < tokens.size() && tokens[k].begin == span.begin && tokens[k + 1].begin < span.end &&
               text[tokens[k].end] == ' ' && all_digits(text, tokens[k]) && after_a_name_on_its_line(text, out, s, first)) {
      // Opening at the number of the unit before it, outside this span
      // ("Suite" and "683 11 Brucknerweg 141"): the unit keeps its number.
      const size_t unit = k >= 2 && token_is(text, tokens[k - 1], ".") ? k - 2 : k - 1;
      if (unit_alone(text, tokens, unit, k + 1)) {
        out[s].begin = tokens[k + 1].begin;
        ++k;
      }
    }
    if (k + 2 >= tokens.size() || tokens[k].begin != span.begin || !all_digits(text, tokens[k]) ||
        tokens[k].end - tokens[k].begin > 3 || tokens[k + 1].begin != tokens[k].end + 1 || text[tokens[k].end] != ' ' ||
        tokens[k + 1].end >= span.end || text.substr(span.begin, span.end - span.begin).find('\n') != std::string_view::npos) {
      continue;
    }
    // The street: its number (maybe with its stop: "útja 3.") and its name
    // ("Trg revolucije 12", "199 Beach Road"), its name a word (opening
    // with a letter: not "•") of two bytes or more that no list of everyday
    // words knows, or a street list does, and no marks but those of a
    // street's name ("7 and 3", "70 kg (154" are no addresses to split).
    // Then the span ends, or goes on after a comma with a place and no
    // number; not with a unit ("... 1615 Suite 498 Curitiba").
    auto in_span = [&](size_t j) { return j < tokens.size() && tokens[j].begin < span.end; };
    const bool number_first = is_number(text, tokens, k + 1);
    size_t j = number_first ? k + 2 : k + 1;
    bool named = false, numbered = number_first, fits = true;
    for (; in_span(j) && fits && text[tokens[j].begin] != ','; ++j) {
      const auto c = static_cast<unsigned char>(text[tokens[j].begin]);
      if (is_number(text, tokens, j)) {
        fits = !numbered;  // the street's number, once
        numbered = true;
        if (!number_first) {
          ++j;
          if (in_span(j) && token_is(text, tokens[j], ".") && tokens[j].begin == tokens[j - 1].end) ++j;
          break;
        }
      } else if (!is_word_byte(c)) {
        fits = street_name_mark(text, tokens[j]);
      } else if (tokens[j].end - tokens[j].begin >= 2 && opens_with_a_letter(text.substr(tokens[j].begin))) {
        const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[j]));
        named = named || (m.full & common_categories_) == 0 || ((m.full | m.part) & street_categories_) != 0;
      }
    }
    const size_t street_end = j;  // one past the street's last token
    size_t place = tokens.size();
    if (in_span(j)) {
      fits = fits && text[tokens[j].begin] == ',' && tokens[j].end - tokens[j].begin == 1 && in_span(j + 1);
      place = j + 1;
      for (size_t t = place; in_span(t) && fits; ++t) fits = !is_number(text, tokens, t);
    }
    const bool address_follows = s + 1 < out.size() && out[s + 1].type == PiiType::kStreetAddress &&
                                 text.substr(span.end, out[s + 1].begin - span.end).find('\n') == std::string_view::npos;
    if (!fits || !named || !numbered || address_follows) continue;
    if (place < tokens.size()) split.push_back({PiiType::kLocation, tokens[place].begin, span.end});
    split.push_back({PiiType::kStreetAddress, tokens[k + 1].begin, tokens[street_end - 1].end});
    out[s].end = tokens[k].end;
  }
  if (split.empty()) return;
  out.insert(out.end(), split.begin(), split.end());
  sort_by_begin(out, first);
}

void PiiTagger::add_street_lines(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const TokenList& tokens = tagger_tokens();
  constexpr size_t kMaxLineTokens = 16;
  auto word = [&](size_t j) { return is_word_byte(static_cast<unsigned char>(text[tokens[j].begin])); };
  // The first token of the line of token k when only marks stand before k
  // on it, within kMaxLineTokens; else tokens.size().
  auto opens_its_line = [&](size_t k) {
    for (size_t j = k, seen = 0; seen <= kMaxLineTokens; --j, ++seen) {
      if (j != k && word(j)) return tokens.size();
      if (j == 0 || tokens[j].newline_before) return j;
    }
    return tokens.size();
  };
  // The spans of out[lo, hi) (sorted by begin, none overlapping) that
  // overlap bytes [from, to): [first overlapping, one past the last).
  auto spans_over = [&](size_t lo, size_t hi, uint32_t from, uint32_t to) {
    const auto b = out.begin();
    const auto i = std::partition_point(b + static_cast<ptrdiff_t>(lo), b + static_cast<ptrdiff_t>(hi),
                                        [&](const PiiSpan& x) { return x.end <= from; });
    auto j = i;
    while (j != b + static_cast<ptrdiff_t>(hi) && j->begin < to) ++j;
    return std::pair<size_t, size_t>{static_cast<size_t>(i - b), static_cast<size_t>(j - b)};
  };
  std::vector<PiiSpan> added;
  // The unit may be the tagger's or the structured scan's (out[0, first)).
  for (size_t s = 0; s < out.size(); ++s) {
    if (out[s].type != PiiType::kStreetAddress) continue;
    const size_t k = first_token_from(tokens, out[s].begin);
    const size_t unit_end = first_token_from(tokens, out[s].end);  // one past the span's last token
    if (k == tokens.size() || tokens[k].begin != out[s].begin || unit_end == k || is_number(text, tokens, k) ||
        !word(k) || !all_digits(text, tokens[unit_end - 1])) {
      continue;
    }
    const size_t line = opens_its_line(k);
    if (line == tokens.size() || line == 0 || blank_line_before(text, tokens, line)) continue;
    // The line above: [above, line).
    size_t above = line - 1;
    while (above > 0 && !tokens[above].newline_before && line - above <= kMaxLineTokens) --above;
    if (!(above == 0 || tokens[above].newline_before) || line - above > kMaxLineTokens) continue;
    const size_t number = first_word_from(text, tokens, above, line);
    if (number + 2 > line || !all_digits(text, tokens[number]) || tokens[number].end - tokens[number].begin > 5) continue;
    size_t last = line - 1;
    while (last > number && !word(last)) --last;
    bool street_words = last > number, letters = false;
    for (size_t j = number + 1; j <= last && street_words; ++j) {
      street_words = word(j) || street_name_mark(text, tokens[j]);
      letters = letters || (word(j) && !is_number(text, tokens, j));
    }
    if (!street_words || !letters) continue;
    // The spans over the line: none found before tagging, and of the
    // tagger's only places, names and organisations.
    const uint32_t line_begin = tokens[number].begin, line_end = tokens[last].end;
    const auto [before_from, before_to] = spans_over(0, first, tokens[above].begin, tokens[line - 1].end);
    const auto [over, over_to] = spans_over(first, out.size(), tokens[above].begin, tokens[line - 1].end);
    bool gives_way = before_from == before_to;
    for (size_t i = over; i < over_to && gives_way; ++i) {
      gives_way = out[i].type == PiiType::kLocation || out[i].type == PiiType::kPerson || out[i].type == PiiType::kOrganization;
    }
    if (!gives_way) continue;
    for (size_t i = over; i < over_to; ++i) out[i].end = out[i].begin;  // dropped below
    added.push_back({PiiType::kStreetAddress, line_begin, tokens[number].end});
    added.push_back({PiiType::kStreetAddress, tokens[number + 1].begin, line_end});
  }
  if (added.empty()) return;
  std::erase_if(out, [&](const PiiSpan& span) { return span.end == span.begin; });
  out.insert(out.end(), added.begin(), added.end());
  sort_by_begin(out, first);
}

void PiiTagger::join_addresses_in_sentences(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const TokenList& tokens = tagger_tokens();
  constexpr size_t kLookBack = 8, kMaxJoined = 8, kMaxParting = 16;
  // Whether token k stands in a sentence: a word before it on its line,
  // within kLookBack tokens, and its line not opened by a number ("17 R
  // Família Marques 19" is an envelope's line).
  auto in_a_sentence = [&](size_t k) {
    auto word = [&](size_t j) { return is_word_byte(static_cast<unsigned char>(text[tokens[j].begin])); };
    size_t j = k, first_word = tokens.size();
    for (size_t seen = 0; seen < kLookBack && j > 0 && !tokens[j].newline_before; ++seen) {
      if (word(--j)) first_word = j;
    }
    const bool line_opens_at_j = j == 0 || tokens[j].newline_before;
    return first_word < tokens.size() && !(line_opens_at_j && is_number(text, tokens, first_word));
  };
  // Whether text[from, to) parts two lines or items of an envelope: white
  // space and commas only, no blank line, kMaxParting bytes at most; counts
  // its line breaks and commas into `parts`. (The parts joined count theirs
  // too: "Moss, Turkey" may be one place.)
  struct Parts {
    size_t line_breaks = 0, commas = 0;
  };
  auto parting = [&](uint32_t from, uint32_t to, Parts& parts) {
    if (to - from > kMaxParting) return false;
    size_t breaks = 0, commas = 0;
    for (uint32_t b = from; b < to; ++b) {
      const char c = text[b];
      breaks += c == '\n' ? 1 : 0;
      commas += c == ',' ? 1 : 0;
      if (c != '\n' && c != ' ' && c != '\t' && c != '\r' && c != ',') return false;
    }
    parts.line_breaks += breaks;
    parts.commas += commas;
    return breaks < 2;
  };
  size_t kept = first;
  for (size_t s = first; s < out.size();) {
    PiiSpan span = out[s];
    size_t next = s + 1;
    const size_t k = span.type == PiiType::kStreetAddress ? first_token_from(tokens, span.begin) : tokens.size();
    if (k < tokens.size() && tokens[k].begin == span.begin && !tokens[k].newline_before && in_a_sentence(k) &&
        !(kept > first && out[kept - 1].end > tokens[k - 1].begin) &&
        !after_a_name_on_its_line(text, kept > first ? &out[kept - 1] : nullptr,
                                  kept > first + 1 ? &out[kept - 2] : nullptr, span)) {
      // The spans that follow, as far as the last one that makes an
      // envelope of them: past a line break, or past two commas on the
      // address's line ("68 Hulsterdreef 100 Apt. 535, København K, Sweden
      // 36018"; not "95 Lille Vibyvej 8, Måløv", a street and its town).
      PiiSpan joined = span;
      Parts parts;
      size_t to = next, crossed_to = next;
      while (to < out.size() && to - s <= kMaxJoined && continues_an_address(text, tokens, joined, out[to]) &&
             parting(joined.end, out[to].begin, parts)) {
        const std::string_view next_part = text.substr(out[to].begin, out[to].end - out[to].begin);
        parts.line_breaks += static_cast<size_t>(std::count(next_part.begin(), next_part.end(), '\n'));
        parts.commas += static_cast<size_t>(std::count(next_part.begin(), next_part.end(), ','));
        joined.end = out[to].end;
        ++to;
        if (parts.line_breaks > 0 || parts.commas >= 2) {
          span.end = joined.end;
          crossed_to = to;
        }
      }
      next = crossed_to;
    }
    out[kept++] = span;
    s = next;
  }
  out.resize(kept);
}

void PiiTagger::add_introduced_names(std::string_view text, std::span<const uint32_t> marked, std::vector<PiiSpan>& out,
                                     size_t first, bool mixed) const {
  const TokenList& tokens = tagger_tokens();
  const size_t n = tokens.size();
  auto mark_is = [&](size_t j, char c) { return j < n && tokens[j].end - tokens[j].begin == 1 && text[tokens[j].begin] == c; };
  auto word = [&](size_t j) {
    const auto c = static_cast<unsigned char>(text[tokens[j].begin]);
    return is_word_byte(c) && !(c >= '0' && c <= '9') && (!mixed || (c >= 'A' && c <= 'Z') || c >= 0x80);
  };
  // Tokens [from, to] are a name: a span of their own unless one covers the
  // first; a place or organisation of this tagger that covers just them
  // becomes a name, where the cue is strong enough (`retype`).
  auto name = [&](size_t from, size_t to, bool retype = true) {
    const size_t k = span_over(out, from);
    if (k == out.size()) {
      for (size_t j = from + 1; j <= to; ++j) {
        if (span_over(out, j) != out.size()) to = j - 1;
      }
      add_span(out, {PiiType::kPerson, tokens[from].begin, tokens[to].end});
    } else if (retype && own_place_or_organisation(out, k, first, tokens[from].begin, tokens[to].end)) {
      out[k].type = PiiType::kPerson;
    }
  };
  constexpr size_t kMaxWords = 3;
  // In text with capitals, titles and speakers are capitalised: only the
  // marked tokens need a look.
  const size_t candidates = mixed ? marked.size() : n;
  // The English titles written in small letters in text with capitals.
  auto english_title = [&](size_t j) {
    const std::string_view w = text.substr(tokens[j].begin, tokens[j].end - tokens[j].begin);
    return w == "mr" || w == "mrs" || w == "ms" || w == "dr" || w == "prof";
  };
  // A title and its stop at token j, then a word: "Mr. Young", "dr.
  // freeman". The list writes some titles with their stop ("Mr."), which
  // makes the title alone a part match.
  auto introduced_by_title = [&](size_t j) {
    if (!(j + 2 < n && mark_is(j + 1, '.') && tokens[j + 1].begin == tokens[j].end && tokens[j].end - tokens[j].begin >= 2 &&
          tokens[j].end - tokens[j].begin <= 5 && !tokens[j + 2].newline_before && word(j + 2) &&
          is_title(gazetteer_.lookup(word_hash(text, tokens[j]))))) {
      return false;
    }
    size_t to = j + 2;
    while (mixed && to + 1 < n && to + 1 - (j + 2) < kMaxWords && !tokens[to + 1].newline_before && word(to + 1) &&
           !everyday(gazetteer_.lookup(word_hash(text, tokens[to + 1])))) {
      ++to;
    }
    name(j + 2, to);
    return true;
  };
  // Token j, a possessive that is no everyday word, before a word of
  // personal data (address, phone, email, birthday, number, name): its
  // owner is a person, a span of its own without the 's, or the place or
  // organisation of this tagger over just the word becomes one.
  auto owner_of_personal_data = [&](size_t j) {
    const Token& t = tokens[j];
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
    const auto stem = static_cast<uint32_t>(possessive_stem(b, t.end - t.begin));
    if (stem == t.end - t.begin || stem < 2 || j + 1 >= n || tokens[j + 1].newline_before || !word(j)) return false;
    const Token& next = tokens[j + 1];
    if (!(token_is(text, next, "address") || token_is(text, next, "phone") || token_is(text, next, "email") ||
          token_is(text, next, "birthday") || token_is(text, next, "number") || token_is(text, next, "name"))) {
      return false;
    }
    const Token owner{t.begin, t.begin + stem, false, false};
    if ((gazetteer_.lookup(word_hash(text, owner)).full & common_categories_) != 0) return false;  // "the user's email"
    if (mixed && std::none_of(text.begin() + owner.begin, text.begin() + owner.end, [](char c) { return c >= 'a' && c <= 'z'; })) {
      return false;  // an acronym's: "NASA's address"
    }
    const size_t k = span_over(out, j);
    if (k == out.size()) {
      add_span(out, {PiiType::kPerson, owner.begin, owner.end});
    } else if (k >= first && out[k].begin == owner.begin && (out[k].end == owner.end || out[k].end == t.end) &&
               (out[k].type == PiiType::kLocation || out[k].type == PiiType::kOrganization)) {
      out[k] = {PiiType::kPerson, owner.begin, owner.end};
    }
    return true;
  };
  // Token j, no everyday word nor a letter alone, after "name is", "name's"
  // or a relative ("my son", "her wife"): a name, with the capitalised
  // words after it in text with capitals ("My name is Andrew Arnoux", "my
  // kid Mali": a country too; not "I told my boss I had"). In text without
  // capitals no word the everyday lists know at all, as everyday() allows
  // a word another list knows too ("my son is 5": "IS" is a state's code).
  auto after_a_name_cue = [&](size_t j) {
    // (In text with capitals the cue's words are in small letters: not marked.)
    if (j < 2 || tokens[j].newline_before || tokens[j - 1].newline_before || (mixed && tokens[j - 1].marked) ||
        !word(j) || tokens[j].end - tokens[j].begin < 2) {
      return false;
    }
    const Token& a = tokens[j - 2];
    const Token& b = tokens[j - 1];
    const bool name_is = token_is(text, b, "name's") || (token_is(text, a, "name") && token_is(text, b, "is"));
    if (!name_is && !(kPossessiveDeterminers.contains(text, a) && kRelatives.contains(text, b))) return false;
    const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[j]));
    if (everyday(m) || (!mixed && (m.full & common_categories_) != 0)) return false;
    size_t to = j;
    while (mixed && to + 1 < n && to + 1 - j < kMaxWords && !tokens[to + 1].newline_before && word(to + 1) &&
           !everyday(gazetteer_.lookup(word_hash(text, tokens[to + 1])))) {
      ++to;
    }
    // A place or organisation of this tagger that opens with the name and
    // stops short of its words ("Zorvath" of "Zorvath Quillborne") becomes
    // the name, up to a word another span covers.
    const size_t k = span_over(out, j);
    if (k != out.size() && own_place_or_organisation(out, k, first, tokens[j].begin, out[k].end) && out[k].end < tokens[to].end) {
      size_t last = j;
      while (last < to && (tokens[last + 1].end <= out[k].end || span_over(out, last + 1) == out.size())) ++last;
      set_span(out, k, {PiiType::kPerson, tokens[j].begin, tokens[last].end});
      return true;
    }
    name(j, to);
    return true;
  };
  // Words before or after a verb of speech: the speaker ("Aki shouted at
  // Amanda", "said Keiko to Jessica", "says manna."), where nothing else
  // covers them: words of two letters or more, none a word the everyday
  // lists know (not "He said", "Police said") nor a title ("tells Dr.
  // Goodwill"), in text with capitals capitalised, no acronym, up to three
  // that no span covers; after the verb, the words end the clause or come
  // before "to" or "in". An organisation speaks too ("Reuters said"): what
  // the tagger found stays as it is. Token j is the word next to the verb.
  auto name_word = [&](size_t k) {
    const Token& t = tokens[k];
    if (!word(k) || t.end - t.begin < 2 || (mixed && all_capitals(text, tokens, k))) return false;
    // Not a quote mark (U+201C...), a possessive ("Majesty's said").
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + t.begin;
    if (b[0] == 0xe2 && b[1] == 0x80) return false;
    if (possessive_stem(b, t.end - t.begin) != t.end - t.begin) return false;
    const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, t));
    const bool place = (m.full & place_categories_) != 0 && (m.full & name_categories_) == 0;
    return (m.full & common_categories_) == 0 && !is_title(m) && !place;
  };
  auto speaker = [&](size_t j) {
    if (common_categories_ == 0) return false;  // without the everyday lists, "We said" would name "We"
    // (In text with capitals a verb is in small letters: not marked.)
    if (j + 1 < n && !tokens[j + 1].newline_before && !(mixed && tokens[j + 1].marked) &&
        kSpeechVerbs.contains(text, tokens[j + 1]) && name_word(j)) {
      if (span_over(out, j) != out.size()) return false;
      size_t from = j;
      while (mixed && j - from + 1 < kMaxWords && from > 0 && !tokens[from].newline_before && name_word(from - 1) &&
             span_over(out, from - 1) == out.size()) {
        --from;
      }
      name(from, j, false);
      return true;
    }
    if (j == 0 || tokens[j].newline_before || (mixed && tokens[j - 1].marked) || !kSpeechVerbs.contains(text, tokens[j - 1]) ||
        !name_word(j)) {
      return false;
    }
    size_t to = j;
    while (mixed && to + 1 - j < kMaxWords && to + 1 < n && !tokens[to + 1].newline_before && name_word(to + 1)) ++to;
    const size_t after = to + 1;
    if (after < n && !tokens[after].newline_before && is_word_byte(static_cast<unsigned char>(text[tokens[after].begin])) &&
        !token_is(text, tokens[after], "to") && !token_is(text, tokens[after], "in")) {
      return false;
    }
    name(j, to, false);
    return true;
  };
  // Whether token k, on the greeting's line, may be a word of the name it
  // introduces: two letters or more; the first word no everyday word nor
  // acronym ("Hi all,", "Dear Sir or Madam", "Hi AI!"), in text without
  // capitals none an everyday word ("hi i moved.").
  auto greeted_word = [&](size_t k, bool first_word) {
    if (tokens[k].newline_before || !word(k) || tokens[k].end - tokens[k].begin < 2) return false;
    if (mixed && !first_word) return true;
    return !everyday(gazetteer_.lookup(word_hash(text, tokens[k]))) && !(mixed && all_capitals(text, tokens, k));
  };
  // Tokens [j, to], none an everyday word (in text without capitals none the
  // everyday lists know), are a person after a cue: a name, place or
  // organisation of this tagger that opens with them becomes the name, one
  // that stops short of their words ("Zorvath" of "Zorvath Quillborne")
  // where no other span covers them, or that ran on to token `until`
  // ("Zorvath her" before "her keys").
  auto named_after_a_cue = [&](size_t j, size_t to, size_t until) {
    for (size_t k = j; k <= to; ++k) {
      const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[k]));
      if (everyday(m) || (!mixed && (m.full & common_categories_) != 0)) return false;
    }
    const size_t k = span_over(out, j);
    if (k >= first && k < out.size() && out[k].begin == tokens[j].begin && out[k].end <= tokens[until].end &&
        (out[k].type == PiiType::kPerson || out[k].type == PiiType::kLocation ||
         out[k].type == PiiType::kOrganization)) {
      bool free = true;
      for (size_t t = j + 1; t <= to && free; ++t) free = tokens[t].end <= out[k].end || span_over(out, t) == out.size();
      if (!free) return false;
      set_span(out, k, {PiiType::kPerson, tokens[j].begin, tokens[to].end});
      return true;
    }
    name(j, to);
    return true;
  };
  // The words of a name that opens at token j, after a cue at j - 1 (in
  // small letters) on its line: in text with capitals the capitalised words,
  // up to three; without capitals the word, past a joining word ("de
  // vaan"). The last of them, or tokens.size() when there is none.
  auto name_words_after_a_cue = [&](size_t j) {
    if (j < 1 || tokens[j].newline_before || (mixed && tokens[j - 1].marked) || !word(j) ||
        tokens[j].end - tokens[j].begin < 2) {
      return n;
    }
    size_t to = j;
    if (mixed) {
      while (to + 1 < n && to + 1 - j < kMaxWords && !tokens[to + 1].newline_before && word(to + 1)) ++to;
    } else if (to + 1 < n && !tokens[to + 1].newline_before && word(to + 1) &&
               joining_word(text.substr(tokens[j].begin, tokens[j].end - tokens[j].begin))) {
      ++to;
    }
    return to;
  };
  // Token j, after a verb of giving and before "his", "her" or "their" past
  // the name's words: the receiver, a person ("had given Selam his
  // address").
  auto given_to = [&](size_t j) {
    if (j < 1 || !kGiveVerbs.contains(text, tokens[j - 1])) return false;
    const size_t to = name_words_after_a_cue(j);
    if (to + 1 >= n || tokens[to + 1].newline_before || !kPersonsPossessives.contains(text, tokens[to + 1])) return false;
    return named_after_a_cue(j, to, to + 1);
  };
  // Token j after "starring": an actor ("directed by Joshua Trevisano and
  // starring Morrow").
  auto starring = [&](size_t j) {
    if (j < 1 || !token_is(text, tokens[j - 1], "starring")) return false;
    const size_t to = name_words_after_a_cue(j);
    return to < n && named_after_a_cue(j, to, to);
  };
  // Token j after words that announce a place ("grew up in", "moved here
  // from": after_a_place_cue()), with the words after it that no list knows
  // as everyday words, up to three (in text with capitals, capitalised),
  // where they end the clause (a mark, the line's or the text's end): a
  // place ("grew up in onnezies."). A name, place or organisation of this
  // tagger that opens with them becomes it (the cue in finish_span() does
  // not see the names added outside the decoder's spans).
  auto place_after_a_cue = [&](size_t j) {
    // (Without the everyday lists, any word would do: "from … last year".
    // The caller asks may_end_a_place_cue() first.)
    if (common_categories_ == 0 || !after_a_place_cue(text, tokens, j)) return false;
    auto place_word = [&](size_t k) {
      if (!word(k) || tokens[k].end - tokens[k].begin < 2 ||
          !opens_with_a_letter(text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin))) {
        return false;
      }
      const Gazetteer::Match m = gazetteer_.lookup(word_hash(text, tokens[k]));
      return (m.full & common_categories_) == 0;
    };
    if (!place_word(j)) return false;
    size_t to = j;
    while (to + 1 < n && to + 1 - j < kMaxWords && !tokens[to + 1].newline_before && place_word(to + 1)) ++to;
    if (to + 1 < n && !tokens[to + 1].newline_before && is_word_byte(static_cast<unsigned char>(text[tokens[to + 1].begin]))) {
      return false;
    }
    const size_t k = span_over(out, j);
    if (k == out.size()) {
      for (size_t t = j + 1; t <= to; ++t) {
        if (span_over(out, t) != out.size()) return false;
      }
      add_span(out, {PiiType::kLocation, tokens[j].begin, tokens[to].end});
      return true;
    }
    // A span of this tagger that opens with them and stops short of their
    // words, where no other span covers those ("Zrvx" of "Zrvx Qlbrn").
    if (k < first || out[k].begin != tokens[j].begin || out[k].end > tokens[to].end ||
        !(out[k].type == PiiType::kPerson || out[k].type == PiiType::kOrganization ||
          out[k].type == PiiType::kLocation)) {
      return false;
    }
    for (size_t t = j + 1; t <= to; ++t) {
      if (tokens[t].end > out[k].end && span_over(out, t) != out.size()) return false;
    }
    set_span(out, k, {PiiType::kLocation, tokens[j].begin, tokens[to].end});
    return true;
  };
  // (A cue is in small letters: in text with capitals, not marked.)
  auto may_be_cue = [&](size_t k) { return !(mixed && tokens[k].marked) && kNameCues.may_contain(text, tokens[k]); };
  for (size_t c = 0; c < candidates; ++c) {
    size_t j = mixed ? marked[c] : c;
    // A number (marked for its digit) is none of these names, nor a title:
    // every rule below needs a word there. Numbers are many of the marked
    // tokens of a prompt ("1.", "25 apples").
    if (is_number(text, tokens, j)) continue;
    const bool cue_before = j > 0 && may_be_cue(j - 1);
    if (cue_before && (after_a_name_cue(j) || given_to(j) || starring(j))) continue;
    // (The rules' first tests, asked here: most tokens fail them, and the
    // rules are calls.)
    if (j > 0 && may_end_a_place_cue(text, tokens[j - 1]) && place_after_a_cue(j)) continue;
    if ((cue_before || (j + 1 < n && may_be_cue(j + 1))) && speaker(j)) continue;
    // In text with capitals, an English title in small letters before a
    // marked name: "ms. Wijtze" (not "mg/dL. Which", "write-miss. If").
    if (mixed && j >= 2 && !tokens[j - 2].marked && mark_is(j - 1, '.') && english_title(j - 2) &&
        introduced_by_title(j - 2)) {
      continue;
    }
    // Whose address: "here's Gregorina's address", "časlav's phone".
    if ((text[tokens[j].end - 1] | 0x20) == 's' && owner_of_personal_data(j)) continue;
    // A greeting opening a line, then up to three words and a comma, a
    // stop, '!' or the line's end: "Hi Danival, I'm contacting you".
    if ((j == 0 || tokens[j].newline_before) && j + 1 < n &&
        kGreetings.contains(text, tokens[j]) &&
        greeted_word(j + 1, true)) {
      size_t to = j + 1;
      while (to + 1 < n && to - j < kMaxWords && greeted_word(to + 1, false)) ++to;
      if (to + 1 == n || tokens[to + 1].newline_before || mark_is(to + 1, ',') || mark_is(to + 1, '!') ||
          mark_is(to + 1, '.')) {
        name(j + 1, to);
        continue;
      }
    }
    // So does a name that opens a line before a comma and a request or a
    // question: "Mimount, can I please speak to your boss?" (the words as
    // next to a verb of speech: not "Now, can I", "In Islam, what is").
    if (common_categories_ != 0 && (j == 0 || tokens[j].newline_before) &&
        (mark_is(j + 1, ',') || mark_is(j + 2, ',') || mark_is(j + 3, ',')) && name_word(j)) {
      size_t to = j;
      while (to + 1 < n && to + 1 - j < kMaxWords && !tokens[to + 1].newline_before && name_word(to + 1)) ++to;
      if (to + 2 < n && mark_is(to + 1, ',') && !tokens[to + 2].newline_before &&
          (token_is(text, tokens[to + 2], "i") || kAfterVocatives.contains(text, tokens[to + 2]))) {
        name(j, to);
        continue;
      }
    }
    if (j + 2 >= n) continue;
    // Neither a title (a stop right after it) nor a line's first word.
    if (j > 0 && !tokens[j].newline_before && !(tokens[j + 1].begin == tokens[j].end && text[tokens[j + 1].begin] == '.')) {
      continue;
    }
    if (introduced_by_title(j)) continue;
    // A speaker opening a line, a colon, a quote: Troy: "Who are you?".
    if ((j == 0 || tokens[j].newline_before) && word(j)) {
      size_t to = j;
      while (to + 1 < n && to + 1 - j < kMaxWords && !tokens[to + 1].newline_before && word(to + 1)) ++to;
      if (to + 2 < n && mark_is(to + 1, ':')) {
        const char q = text[tokens[to + 2].begin];
        const bool quote = q == '"' || q == '\\' || text.substr(tokens[to + 2].begin, 3) == "\xe2\x80\x9c";
        if (quote && !everyday(gazetteer_.lookup(word_hash(text, tokens[j])))) name(j, to);
      }
    }
  }
}

void PiiTagger::join_place_names(std::string_view text, std::span<const uint32_t> place_words,
                                 std::span<const uint8_t> viewed, std::vector<PiiSpan>& out, size_t first,
                                 bool mixed) const {
  if (place_words.size() < 2) return;  // a name of several words has two
  const TokenList& tokens = tagger_tokens();
  const ViewList& views = tagger_views();
  const size_t n = tokens.size();
  constexpr size_t kMaxTokens = 8;  // "Saint Vincent and the Grenadines": 5
  // Token k, viewed, is one word of a longer place's name.
  auto place_part = [&](size_t k) {
    return k < n && viewed[k] == 2 && (views[k].gazetteer.part & place_categories_) != 0;
  };
  auto word = [&](size_t k) { return is_word_byte(static_cast<unsigned char>(text[tokens[k].begin])); };
  std::vector<PiiSpan> places;
  size_t done = 0;  // the tokens before it are a place's name found
  for (size_t c = 0; c + 1 < place_words.size(); ++c) {
    const size_t t = place_words[c];
    // Another word of a place's name among the next three on the line (most
    // such words stand alone: "New", "Saint").
    if (t < done || place_words[c + 1] > t + 3) continue;
    // The longest name of the lists that opens at t, on its line: its
    // phrase_hash() grows token by token (a token's is its word hash), over
    // marks and words of places' names ("St. Petersburg", "Trinidad and
    // Tobago"), and is looked up where such a word ends it.
    size_t last = t;
    uint64_t hash = views[t].word;
    for (size_t k = t + 1; k < n && k < t + kMaxTokens && !tokens[k].newline_before; ++k) {
      if (word(k) && !place_part(k)) break;
      hash = phrase_hash_continued(hash, text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin),
                                   tokens[k].begin > tokens[k - 1].end);
      if (place_part(k) && (gazetteer_.lookup(hash).full & place_categories_) != 0) last = k;
    }
    if (last == t) continue;
    // No span found before tagging overlaps it, and the tagger's that do are
    // names, places or organisations inside it; without one, in text with
    // capitals, its words but the joining ones are capitalised.
    const uint32_t begin = tokens[t].begin, end = tokens[last].end;
    bool fits = true, found = false, named = false;
    for (size_t k = t; k <= last && fits; ++k) {
      // Where the tagger found nothing, not everyday words alone: "Country
      // Club", "Long Beach".
      if (word(k) && !named) {
        const Gazetteer::Match m = viewed[k] == 2 ? views[k].gazetteer : gazetteer_.lookup(word_hash(text, tokens[k]));
        named = (m.full & common_categories_) == 0;
      }
      const size_t s = span_over(out, k);
      if (s == out.size()) {
        fits = !mixed || !word(k) || opens_with_a_capital(text.substr(tokens[k].begin)) ||
               joining_word(text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin));
        continue;
      }
      found = true;
      fits = s >= first && out[s].begin >= begin && out[s].end <= end &&
             (out[s].type == PiiType::kPerson || out[s].type == PiiType::kLocation ||
              out[s].type == PiiType::kOrganization);
    }
    if (!fits || (!found && !named)) continue;
    for (size_t k = t; k <= last && found; ++k) {
      const size_t s = span_over(out, k);
      if (s != out.size()) out[s].end = out[s].begin;  // dropped below
    }
    places.push_back({PiiType::kLocation, begin, end});
    done = last + 1;
  }
  if (places.empty()) return;
  std::erase_if(out, [](const PiiSpan& span) { return span.end == span.begin; });
  out.insert(out.end(), places.begin(), places.end());
  sort_by_begin(out, first);
  reset_cover();
}

void PiiTagger::add_named_organisations(std::string_view text, std::span<const uint32_t> marked,
                                        std::vector<PiiSpan>& out, size_t first) const {
  const TokenList& tokens = tagger_tokens();
  const size_t n = tokens.size();
  constexpr size_t kMaxWordsBefore = 3;
  // Whether token k + 1 follows token k one blank apart on its line.
  auto apart = [&](size_t k) {
    return k + 1 < n && !tokens[k + 1].newline_before && tokens[k].end + 1 == tokens[k + 1].begin &&
           text[tokens[k].end] == ' ';
  };
  // A capitalised word of two letters or more.
  auto capitalised = [&](size_t k) {
    return tokens[k].end - tokens[k].begin >= 2 && opens_with_a_capital(text.substr(tokens[k].begin));
  };
  auto capitalised_before = [&](size_t j) { return apart(j - 1) && capitalised(j - 1); };
  for (const uint32_t j : marked) {
    // (A marked token in small letters: the noun is capitalised. Most
    // marked tokens are shorter than any noun of the list.)
    if (j == 0 || tokens[j].end - tokens[j].begin < kShortestOrganisationNoun ||
        !kOrganisationNouns.contains(text, tokens[j]) || span_over(out, j) != out.size()) {
      continue;
    }
    // The name goes on past the noun: "The International Space Station".
    if (apart(j) && capitalised(j + 1)) continue;
    size_t from = j;
    while (from > 0 && j - from < kMaxWordsBefore && capitalised_before(from) &&
           span_over(out, from - 1) == out.size()) {
      --from;
    }
    while (from < j && (kDeterminers.contains(text, tokens[from]) || token_is(text, tokens[from], "a"))) ++from;
    // Nor an everyday word that opens the sentence: "When Corporation X pays".
    if (from < j && opens_a_sentence(text, tokens, from) &&
        (gazetteer_.lookup(word_hash(text, tokens[from])).full & common_categories_) != 0) {
      ++from;
    }
    // A name, place or organisation of this tagger right before is the
    // organisation's first words: "Hackett Publishing Company".
    if (from > 0 && capitalised_before(from)) {
      const size_t k = span_over(out, from - 1);
      if (k >= first && k < out.size() && out[k].end == tokens[from - 1].end &&
          (out[k].type == PiiType::kPerson || out[k].type == PiiType::kLocation ||
           out[k].type == PiiType::kOrganization)) {
        set_span(out, k, {PiiType::kOrganization, out[k].begin, tokens[j].end});
        continue;
      }
    }
    if (from == j) continue;
    add_span(out, {PiiType::kOrganization, tokens[from].begin, tokens[j].end});
  }
}

bool PiiTagger::listed_name(std::string_view text, size_t i) const {
  const TokenList& tokens = tagger_tokens();
  const Token& t = tokens[i];
  if (t.end - t.begin < 3 || !(text[t.begin] >= 'A' && text[t.begin] <= 'Z')) return false;
  if (i == 0 || t.newline_before || is_number(text, tokens, i + 1)) return false;
  const Token& before = tokens[i - 1];
  if (before.end - before.begin == 1 && std::string_view(".?!\":").find(text[before.begin]) != std::string_view::npos) {
    return false;  // the first word of a sentence, a quote or a line after a colon
  }
  return only_a_name(text, i);
}

void PiiTagger::add_joined_names(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const {
  const TokenList& tokens = tagger_tokens();
  auto word_is = [&](size_t j, std::string_view w) { return token_is(text, tokens[j], w); };
  auto joiner = [&](size_t j) { return word_is(j, ",") || word_is(j, "and") || word_is(j, "or") || word_is(j, "&"); };
  // What token j, joined to a name, is: not a name (kNot); a name no span
  // covers (kFree); or a name that a place or organisation span of its own
  // covers, out[covering], which no place list knows (kRetyped): joined
  // words are of one kind. kEveryday: an everyday word no span covers (in
  // text with capitals, capitalised and known only as everyday; in
  // lower-case text, one a name list knows too), a name only between
  // names or at the head of a list of them.
  enum class Joined { kNot, kFree, kRetyped, kEveryday };
  size_t covering = 0;
  auto joined = [&](size_t j) {
    const Token& t = tokens[j];
    const auto c = static_cast<unsigned char>(text[t.begin]);
    if (t.end - t.begin < 2 || !is_word_byte(c) || (c >= '0' && c <= '9')) return Joined::kNot;
    if (mixed && !(c >= 'A' && c <= 'Z') && c < 0x80) return Joined::kNot;
    if (mixed && all_capitals(text, tokens, j)) return Joined::kNot;          // an acronym
    if (mixed && c == 'I' && text[t.begin + 1] == '\'') return Joined::kNot;  // I'm, I'd, I've
    if (pii_scan::is_group_word(text.substr(t.begin, t.end - t.begin))) return Joined::kNot;  // "Hindu or Sikh"
    // In lower-case text any everyday word is out ("go", "town"); with
    // capitals only a word that is nothing else ("Hill" is also a surname).
    const Gazetteer::Match m = view_of(text, t, gazetteer_).gazetteer;
    if (mixed && everyday(m)) return span_over(out, j) == out.size() ? Joined::kEveryday : Joined::kNot;
    if (!mixed && ((m.full & common_categories_) != 0 || t.end - t.begin < 3)) {
      const bool also_a_name = (m.full & name_categories_) != 0 && t.end - t.begin >= 3;
      return also_a_name && span_over(out, j) == out.size() ? Joined::kEveryday : Joined::kNot;
    }
    covering = span_over(out, j);
    if (covering == out.size()) return Joined::kFree;
    return own_place_or_organisation(out, covering, first, t.begin, t.end) && (m.full & place_categories_) == 0
               ? Joined::kRetyped
               : Joined::kNot;
  };
  // Token j (its first word) becomes a name with up to kMaxWords - 1 more
  // free words towards `step` (-1 or +1).
  constexpr size_t kMaxWords = 3;
  // `list_goes_on`: another name is joined on after the name that token j
  // is joined to, before it (step -1).
  auto add_name = [&](size_t j, int step, bool list_goes_on) {
    const Joined kind = joined(j);
    // "Mazzi, Bowman and Hill": an everyday word between the name and a
    // name that the list joins on to it.
    if (kind == Joined::kEveryday && step > 0 && j + 2 < tokens.size() && joiner(j + 1) &&
        !tokens[j + 1].newline_before && !tokens[j + 2].newline_before) {
      const Joined next = joined(j + 2);
      if (next == Joined::kFree || next == Joined::kRetyped) {
        add_span(out, {PiiType::kPerson, tokens[j].begin, tokens[j].end});
      }
      return;  // the loop over the spans comes to it: the name after it joins on
    }
    // "smit, zhang and edwards", "Rob, Royce, and Pedro": an everyday word
    // that a name list knows at the head of a list of names (not
    // "Thereupon, Ann and Bea").
    if (kind == Joined::kEveryday && step < 0 && list_goes_on &&
        (gazetteer_.lookup(word_hash(text, tokens[j])).full & name_categories_) != 0) {
      add_span(out, {PiiType::kPerson, tokens[j].begin, tokens[j].end});
      return;
    }
    if (kind == Joined::kNot || kind == Joined::kEveryday) return;
    const size_t retyped = covering;
    size_t lo = j, hi = j;
    for (size_t n = 1; kind == Joined::kFree && n < kMaxWords; ++n) {
      const size_t next = step < 0 ? lo - 1 : hi + 1;
      if (step < 0 ? lo == 0 || tokens[lo].newline_before : next >= tokens.size() || tokens[next].newline_before) break;
      if (joined(next) != Joined::kFree) break;
      (step < 0 ? lo : hi) = next;
    }
    if (is_number(text, tokens, hi + 1)) return;  // a street: "Lauren and Sorlaskeid 32"
    if (kind == Joined::kRetyped) {
      out[retyped].type = PiiType::kPerson;
    } else {
      add_span(out, {PiiType::kPerson, tokens[lo].begin, tokens[hi].end});
    }
  };
  // Whether no line break falls before any of tokens [a, b].
  auto one_line = [&](size_t a, size_t b) {
    for (size_t t = a; t <= b; ++t) {
      if (tokens[t].newline_before) return false;
    }
    return true;
  };
  for (size_t s = first; s < out.size(); ++s) {
    if (out[s].type != PiiType::kPerson) continue;
    // Before: "X and [name]", "X, [name]", "X, and [name]".
    const size_t from = first_token_from(tokens, out[s].begin);
    size_t j = from;
    if (j >= 1 && joiner(j - 1)) --j;
    if (j >= 1 && j < from && word_is(j, "and") && word_is(j - 1, ",")) --j;
    // After: "[name] and Y", "[name], Y", "[name], and Y".
    const size_t to = first_token_from(tokens, out[s].end);
    size_t after = to;
    if (after < tokens.size() && joiner(after)) ++after;
    if (after > to && after + 1 < tokens.size() && word_is(after - 1, ",") && word_is(after, "and")) ++after;
    const bool joined_after = after > to && after < tokens.size() && one_line(to, after);
    if (j < from && j >= 1 && from < tokens.size() && one_line(j, from)) {
      const size_t next = joined_after ? span_over(out, after) : out.size();
      add_name(j - 1, -1, next < out.size() && out[next].type == PiiType::kPerson);
    }
    if (joined_after) add_name(after, +1, false);
  }
}

void PiiTagger::find_categories() {
  prefix_categories_ = categories_named(gazetteer_, "name_prefix");
  street_categories_ = categories_named(gazetteer_, "street");
  street_suffix_categories_ = categories_named(gazetteer_, "street_suffix");
  common_categories_ = categories_named(gazetteer_, "common");
  company_categories_ = categories_named(gazetteer_, "company");
  name_categories_ = categories_named(gazetteer_, "first_name") | categories_named(gazetteer_, "last_name");
  country_categories_ = categories_named(gazetteer_, "country");
  state_categories_ = categories_named(gazetteer_, "state");
  place_categories_ = categories_named(gazetteer_, "city") | country_categories_ | state_categories_;
  proper_adjective_categories_ = categories_named(gazetteer_, "proper_adjective");
  gazetteer_.hide(proper_adjective_categories_);
}

bool PiiTagger::everyday(const Gazetteer::Match& m) const {
  return (m.full & common_categories_) != 0 && ((m.full | m.part) & ~common_categories_) == 0;
}

bool PiiTagger::is_title(const Gazetteer::Match& m) const { return ((m.full | m.part) & prefix_categories_) != 0; }

bool PiiTagger::compound_of_words(std::string_view text, uint32_t begin, uint32_t end) const {
  constexpr uint32_t kMinPart = 4, kMaxLength = 24;
  if (end - begin < 2 * kMinPart || end - begin > kMaxLength) return false;
  for (uint32_t k = begin; k < end; ++k) {
    const auto c = static_cast<unsigned char>(text[k] | 0x20);
    if (c < 'a' || c > 'z') return false;  // letters only
  }
  auto everyday_part = [&](uint32_t b, uint32_t e) {
    return (gazetteer_.lookup(word_hash(text, Token{b, e, false, false})).full & common_categories_) != 0;
  };
  for (uint32_t k = begin + kMinPart; k + kMinPart <= end; ++k) {
    if (everyday_part(begin, k) && everyday_part(k, end)) return true;
  }
  return false;
}

bool PiiTagger::below_a_heading(std::string_view text, const std::vector<PiiSpan>& out, size_t first, size_t k) const {
  const TokenList& tokens = tagger_tokens();
  const Token& last = tokens[k - 1];
  if (last.end - last.begin == 1 && text[last.begin] == ':') return true;
  size_t opens = k - 1;
  while (opens > 0 && !tokens[opens].newline_before) --opens;
  const size_t word = first_word_from(text, tokens, opens, k);
  if (word == k) return false;
  const size_t s = span_over(out, word);
  if (s < first || s == out.size() || out[s].begin > tokens[word].begin) return false;
  if (out[s].type == PiiType::kOrganization) return true;
  const bool a_name = out[s].type == PiiType::kPerson || out[s].type == PiiType::kLocation ||
                      out[s].type == PiiType::kTitle;
  return a_name && !blank_line_before(text, tokens, k) && opens > 0 && !blank_line_before(text, tokens, opens);
}

void PiiTagger::join_envelopes_below_headings(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const TokenList& tokens = tagger_tokens();
  constexpr size_t kMaxJoined = 12, kMaxGapOnALine = 24;
  // Whether text[from, to) parts two pieces of one envelope: on one line,
  // kMaxGapOnALine bytes at most and no end of a sentence; across a line
  // break, white space and commas only, no blank line.
  auto parts_pieces = [&](uint32_t from, uint32_t to) {
    const std::string_view gap = text.substr(from, to - from);
    if (gap.find('\n') == std::string_view::npos) {
      return gap.size() <= kMaxGapOnALine && gap.find_first_of(".!?:;") == std::string_view::npos;
    }
    return gap.find_first_not_of(" \t\r\n,") == std::string_view::npos && gap.find('\n') == gap.rfind('\n');
  };
  size_t kept = first;
  for (size_t s = first; s < out.size();) {
    PiiSpan span = out[s];
    size_t next = s + 1;
    // (An address that opens its line follows white space.)
    const bool after_space = span.begin > 0 && (text[span.begin - 1] == ' ' || text[span.begin - 1] == '\n' ||
                                                text[span.begin - 1] == '\t' || text[span.begin - 1] == '\r');
    const size_t k = span.type == PiiType::kStreetAddress && after_space ? first_token_from(tokens, span.begin) : tokens.size();
    if (k > 0 && k < tokens.size() && tokens[k].newline_before &&
        below_a_heading(text, out, first, k)) {
      while (next < out.size() && next - s < kMaxJoined &&
             continues_an_address(text, tokens, span, out[next]) && parts_pieces(span.end, out[next].begin)) {
        span.end = out[next++].end;
      }
    }
    out[kept++] = span;
    s = next;
  }
  out.resize(kept);
  reset_cover();
}

void PiiTagger::join_street_corners(std::string_view text, std::span<const uint32_t> marked, std::vector<PiiSpan>& out,
                                    size_t first, bool mixed) const {
  const TokenList& tokens = tagger_tokens();
  constexpr size_t kMaxFirstStreet = 10, kMaxSecondStreet = 4;
  auto on_the_line = [&](size_t j) { return j < tokens.size() && !tokens[j].newline_before; };
  auto by_begin = [](const PiiSpan& span, uint32_t at) { return span.begin < at; };
  std::vector<PiiSpan> corners;
  // In text with capitals the first street opens with a marked token
  // (a capital, a digit): only the two tokens before each are read.
  const size_t candidates = mixed ? marked.size() : tokens.size();
  size_t after = 0;  // the corners' tokens end before it
  for (size_t c = 0; c < candidates; ++c) {
    const size_t street = mixed ? marked[c] : c;
    if (street < 2 || street - 2 < after) continue;
    const size_t j = street - 2;
    if (tokens[j].end - tokens[j].begin != 6 || tokens[j + 1].end - tokens[j + 1].begin != 2) continue;
    if (!token_is(text, tokens[j], "corner") || !token_is(text, tokens[j + 1], "of") || !on_the_line(j + 2)) continue;
    if (!is_word_byte(static_cast<unsigned char>(text[tokens[j + 2].begin]))) continue;  // not "{street_name}"
    const size_t opens = j > 0 && !tokens[j].newline_before && token_is(text, tokens[j - 1], "the") ? j - 1 : j;
    size_t also = j + 3;
    while (on_the_line(also) && also < j + 2 + kMaxFirstStreet && !token_is(text, tokens[also], "and")) ++also;
    if (!on_the_line(also) || !token_is(text, tokens[also], "and") || !on_the_line(also + 1)) continue;
    // The second street: as far as the spans that open on its first two
    // tokens reach, or its street suffix.
    uint32_t end = 0;
    const uint32_t second_from = tokens[also + 1].begin;
    const uint32_t second_to = also + 3 < tokens.size() ? tokens[also + 3].begin : static_cast<uint32_t>(text.size());
    for (auto it = std::lower_bound(out.begin() + static_cast<ptrdiff_t>(first), out.end(), second_from, by_begin);
         it != out.end() && it->begin < second_to; ++it) {
      end = std::max(end, it->end);
    }
    for (size_t k = also + 1; end == 0 && on_the_line(k) && k <= also + kMaxSecondStreet; ++k) {
      if ((view_of(text, tokens[k], gazetteer_).gazetteer.full & street_suffix_categories_) != 0) end = tokens[k].end;
    }
    const uint32_t begin = tokens[opens].begin;
    if (end == 0) continue;
    if (!corners.empty() && begin < corners.back().end) continue;
    corners.push_back({PiiType::kStreetAddress, begin, end});
    after = also;
  }
  if (corners.empty()) return;
  // Each corner replaces the spans of out[first...] it overlaps, unless a
  // span found before tagging (out[0, first), in order) overlaps it.
  std::vector<PiiSpan> kept(out.begin(), out.begin() + static_cast<ptrdiff_t>(first));
  size_t s = first, before = 0;
  for (const PiiSpan& corner : corners) {
    while (before < first && out[before].end <= corner.begin) ++before;
    if (before < first && out[before].begin < corner.end) continue;
    while (s < out.size() && out[s].end <= corner.begin) kept.push_back(out[s++]);
    while (s < out.size() && out[s].begin < corner.end) ++s;
    kept.push_back(corner);
  }
  kept.insert(kept.end(), out.begin() + static_cast<ptrdiff_t>(s), out.end());
  out = std::move(kept);
  reset_cover();
}

void PiiTagger::split_address_lists(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  constexpr std::string_view kAnd = ", and ";
  const size_t before = out.size();
  for (size_t s = first; s < before; ++s) {
    if (out[s].type != PiiType::kStreetAddress) continue;
    // Each piece cut off may hold another ", and ".
    for (size_t piece = s;;) {
      PiiSpan& span = out[piece];
      const size_t at = text.substr(span.begin, span.end - span.begin).find(kAnd);
      if (at == std::string_view::npos) break;
      const auto cut = static_cast<uint32_t>(span.begin + at);
      const auto next = static_cast<uint32_t>(cut + kAnd.size());
      if (cut == span.begin || next >= span.end) break;
      const PiiSpan rest{PiiType::kStreetAddress, next, span.end};
      span.end = cut;
      // A rest with no digit, capital or non-ASCII letter is the
      // sentence's ("England, and the two strangers").
      const std::string_view words = text.substr(rest.begin, rest.end - rest.begin);
      if (std::none_of(words.begin(), words.end(), [](char c) {
            const auto b = static_cast<unsigned char>(c);
            return (b >= '0' && b <= '9') || (b >= 'A' && b <= 'Z') || b >= 0x80;
          })) {
        break;
      }
      out.push_back(rest);
      piece = out.size() - 1;
    }
  }
  if (out.size() > before) {
    sort_by_begin(out, first);
    reset_cover();
  }
}

void PiiTagger::split_street_places(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const {
  const TokenList& tokens = tagger_tokens();
  constexpr size_t kMaxPlaceTokens = 6;
  const size_t before = out.size();
  for (size_t s = first; s < before; ++s) {
    if (out[s].type != PiiType::kStreetAddress) continue;
    const std::string_view value = text.substr(out[s].begin, out[s].end - out[s].begin);
    const size_t comma = value.find(',');
    if (comma == std::string_view::npos || value.find('\n') != std::string_view::npos) continue;
    const size_t k = first_token_from(tokens, out[s].begin);
    const size_t c = first_token_from(tokens, static_cast<uint32_t>(out[s].begin + comma));
    const size_t end = first_token_from(tokens, out[s].end);  // one past the span's last token
    // The street: a word opening with a letter, and at its end a number or
    // a street word.
    bool named = false;
    for (size_t j = k; j < c && !named; ++j) named = opens_with_a_letter(text.substr(tokens[j].begin, tokens[j].end - tokens[j].begin));
    const size_t place_tokens = end - c - 1;
    if (!named || place_tokens == 0 || place_tokens > kMaxPlaceTokens) continue;
    const Gazetteer::Match street_end = gazetteer_.lookup(word_hash(text, tokens[c - 1]));
    if (!is_number(text, tokens, c - 1) && ((street_end.full | street_end.part) & street_categories_) == 0) continue;
    // The place: words without digits, joined by no other marks than - . ';
    // capitalised in text with capitals; not everyday words alone ("...,
    // Daylight received", "..., and then") nor a pronoun's contraction
    // ("I'll").
    bool place = !mixed || opens_with_a_capital(text.substr(tokens[c + 1].begin));
    bool named_place = false;
    for (size_t j = c + 1; j < end && place; ++j) {
      const char b = text[tokens[j].begin];
      if (!is_word_byte(static_cast<unsigned char>(b))) {
        place = b == '-' || b == '.' || b == '\'';
        continue;
      }
      place = !has_digit(text, tokens[j]) && !pronoun_contraction(text.substr(tokens[j].begin, tokens[j].end - tokens[j].begin));
      named_place = named_place || !everyday(gazetteer_.lookup(word_hash(text, tokens[j])));
    }
    if (!place || !named_place) continue;
    out.push_back({PiiType::kLocation, tokens[c + 1].begin, out[s].end});
    out[s].end = tokens[c - 1].end;
  }
  if (out.size() > before) {
    sort_by_begin(out, first);
    reset_cover();
  }
}

void PiiTagger::split_name_titles(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  auto word_byte = [&](uint32_t b) { return is_word_byte(static_cast<unsigned char>(text[b])); };
  const size_t before = out.size();
  for (size_t s = first; s < before; ++s) {
    if (out[s].type != PiiType::kPerson) continue;
    // Read from the text, not the tokens: most names open with no title, and
    // finding a span's token is a search.
    const uint32_t begin = out[s].begin, end = out[s].end;
    uint32_t title_end = begin;
    while (title_end < end && word_byte(title_end)) ++title_end;
    if (!is_title(gazetteer_.lookup(word_hash(text, Token{begin, title_end, false, false})))) continue;
    uint32_t rest = title_end;
    auto past_blanks = [&] {
      while (rest < end && (text[rest] == ' ' || text[rest] == '\t' || text[rest] == '\r')) ++rest;
    };
    past_blanks();
    if (rest < end && text[rest] == '.') {  // the title's stop
      title_end = ++rest;
      past_blanks();
    }
    if (rest == end || !word_byte(rest)) continue;  // (a name runs over no line break)
    out.push_back({PiiType::kPerson, rest, end});
    out[s].end = title_end;
  }
  if (out.size() > before) {
    sort_by_begin(out, first);
    reset_cover();
  }
}

void PiiTagger::join_words_before_addresses(std::string_view text, std::vector<PiiSpan>& out, size_t first,
                                            bool mixed) const {
  const TokenList& tokens = tagger_tokens();
  auto word = [&](size_t j) { return is_word_byte(static_cast<unsigned char>(text[tokens[j].begin])); };
  auto a_space_apart = [&](uint32_t end, uint32_t begin) { return end + 1 == begin && text[end] == ' '; };
  size_t kept = first;
  size_t before = 0;  // in out[0, first): the first that may overlap the word
  bool joined = false;
  for (size_t s = first; s < out.size(); ++s) {
    PiiSpan span = out[s];
    // (" and " stands right before it.)
    const bool after_and = span.begin >= 6 && text[span.begin - 1] == ' ' && (text[span.begin - 2] | 0x20) == 'd' &&
                           (text[span.begin - 3] | 0x20) == 'n' && (text[span.begin - 4] | 0x20) == 'a' &&
                           text[span.begin - 5] == ' ';
    const size_t k = span.type == PiiType::kStreetAddress && after_and ? first_token_from(tokens, span.begin) : tokens.size();
    if (k >= 2 && k < tokens.size() && !tokens[k].newline_before && !tokens[k - 1].newline_before &&
        token_is(text, tokens[k - 1], "and") && a_space_apart(tokens[k - 2].end, tokens[k - 1].begin) &&
        a_space_apart(tokens[k - 1].end, tokens[k].begin) && word(k - 2)) {
      // The word: word tokens joined by "-" ("Anne-Lise"), not the end of
      // a longer token run.
      size_t w = k - 2;
      while (w >= 2 && !tokens[w].newline_before && tokens[w - 1].end == tokens[w].begin &&
             tokens[w - 1].end - tokens[w - 1].begin == 1 && text[tokens[w - 1].begin] == '-' &&
             tokens[w - 2].end == tokens[w - 1].begin && word(w - 2)) {
        w -= 2;
      }
      // It opens with a letter, a capital in text with capitals, and is no
      // possessive ("Tony's and David's 100%").
      const auto opening = static_cast<unsigned char>(text[tokens[w].begin]);
      const auto* stem = reinterpret_cast<const unsigned char*>(text.data()) + tokens[k - 2].begin;
      const bool whole_word = (w == 0 || tokens[w].newline_before || tokens[w - 1].end < tokens[w].begin) &&
                              (mixed ? (opening >= 'A' && opening <= 'Z') || opening >= 0x80
                                     : (opening >= 'a' && opening <= 'z') || opening >= 0x80) &&
                              possessive_stem(stem, tokens[k - 2].end - tokens[k - 2].begin) ==
                                  tokens[k - 2].end - tokens[k - 2].begin;
      const uint32_t from = tokens[w].begin, to = tokens[k - 2].end;
      while (before < first && out[before].end <= from) ++before;
      // The spans kept over the word lie inside it; none found before.
      size_t over = kept;
      while (over > first && out[over - 1].end > from) --over;
      bool inside = whole_word && !(before < first && out[before].begin < to);
      for (size_t o = over; o < kept; ++o) inside = inside && out[o].begin >= from && out[o].end <= to;
      // The address, with the pieces and the number after it on its line.
      size_t last = s;
      uint32_t end = span.end;
      while (last + 1 < out.size() && out[last + 1].type == PiiType::kStreetAddress && a_space_apart(end, out[last + 1].begin)) {
        end = out[++last].end;
      }
      const size_t after = first_token_from(tokens, end);
      if (after < tokens.size() && a_space_apart(end, tokens[after].begin) && all_digits(text, tokens[after]) &&
          (last + 1 == out.size() || out[last + 1].begin >= tokens[after].end)) {
        end = tokens[after].end;
      }
      const std::string_view whole = text.substr(from, end - from);
      if (inside && std::any_of(whole.begin(), whole.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        kept = over;
        span = {PiiType::kStreetAddress, from, end};
        s = last;
        joined = true;
      }
    }
    out[kept++] = span;
  }
  out.resize(kept);
  if (joined) reset_cover();
}

void PiiTagger::drop_lone_numbers(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  if (std::none_of(out.begin() + static_cast<ptrdiff_t>(first), out.end(),
                   [](const PiiSpan& span) { return span.type == PiiType::kStreetAddress; })) {
    return;
  }
  const TokenList& tokens = tagger_tokens();
  const size_t n = tokens.size();
  auto on_its_line = [&](size_t k) { return k < n && !tokens[k].newline_before; };
  auto first_byte = [&](size_t k) { return static_cast<unsigned char>(text[tokens[k].begin]); };
  auto letters = [&](size_t k) {
    return opens_with_a_letter(text.substr(tokens[k].begin, tokens[k].end - tokens[k].begin));
  };
  auto glued = [&](size_t k) { return k + 1 < n && tokens[k + 1].begin == tokens[k].end; };
  auto match = [&](size_t k) { return gazetteer_.lookup(word_hash(text, tokens[k])); };
  // A word of two letters or more that is no unit of measure.
  auto word = [&](size_t k) {
    return letters(k) && tokens[k].end - tokens[k].begin >= 2 && !kUnitsOfMeasure.contains(text, tokens[k]);
  };
  // Whether token k opens with a letter of the words the lists hold: not a
  // small letter of Greek or Cyrillic nor a letter of a script without
  // capitals ("100 тысяч", "7 个月"), whose everyday words no list knows.
  auto listed_script = [&](size_t k) {
    const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + tokens[k].begin;
    const size_t length = tokens[k].end - tokens[k].begin;
    return !opens_with_a_small_letter(b, length) && !opens_with_a_caseless_letter(b, length);
  };
  // A word of those that no everyday list knows (`m`: its matches).
  auto unknown_word_of = [&](size_t k, const Gazetteer::Match& m) {
    return word(k) && listed_script(k) && (m.full & common_categories_) == 0;
  };
  auto unknown_word = [&](size_t k) { return unknown_word_of(k, match(k)); };
  // Whether a street suffix is token k or k + 1 ("Beach Road", "Stone
  // Cellar Road").
  auto suffix_ahead = [&](size_t k) {
    for (size_t t = k; t < k + 2 && on_its_line(t); ++t) {
      if (word(t) && (match(t).full & street_suffix_categories_) != 0) return true;
    }
    return false;
  };
  // Whether the words of a street open at token k, on the line: a word no
  // everyday list knows ("Rue", "kvaløyvågvegen"), or capitalised and known
  // to a list of names or places too ("Dirk"); an everyday one before a
  // street suffix ("Beach Road"), of four letters or more before a number
  // ("Delta 116"), or a street word before a word no everyday list knows
  // ("via raffaele"); a number with letters ("184th", "221B"); "P.O."; a
  // capital and its slash ("C/ Mayor") or before a capitalised word ("R
  // Nossa"). `any_word`: after two numbers, any word but a unit, and a
  // capital's stop before a capitalised word ("30 N. Stadion").
  auto street_at = [&](size_t k, bool any_word) {
    if (!on_its_line(k)) return false;
    if (!letters(k)) return is_number(text, tokens, k) && !all_digits(text, tokens[k]);
    if (tokens[k].end - tokens[k].begin == 1) {
      if (!on_its_line(k + 1)) return false;
      const char after = text[tokens[k + 1].begin];
      const bool stop = glued(k) && after == '.' && k + 2 < n;
      if (stop && glued(k + 1) && token_is(text, tokens[k], "p") && token_is(text, tokens[k + 2], "o")) return true;
      if (first_byte(k) < 'A' || first_byte(k) > 'Z') return false;
      return (glued(k) && after == '/') ||
             (stop && any_word && on_its_line(k + 2) && opens_with_a_capital(text.substr(tokens[k + 2].begin))) ||
             (!glued(k) && opens_with_a_capital(text.substr(tokens[k + 1].begin)));
    }
    if (!word(k)) return false;
    if (any_word) return true;
    const Gazetteer::Match m = match(k);
    if (unknown_word_of(k, m) || suffix_ahead(k + 1)) return true;
    if (tokens[k].end - tokens[k].begin >= 4 && on_its_line(k + 1) && all_digits(text, tokens[k + 1])) return true;
    if (listed_script(k) && opens_with_a_capital(text.substr(tokens[k].begin)) && !everyday(m)) return true;
    return ((m.full | m.part) & street_categories_) != 0 && on_its_line(k + 1) && unknown_word(k + 1);
  };
  // Whether `before` ends right before byte `at`: on its line, blanks and
  // commas between (one at least); or, with `line_above`, on the line above.
  auto right_before = [&](const PiiSpan& before, uint32_t at, bool line_above) {
    if (before.end >= at) return false;
    const std::string_view gap = text.substr(before.end, at - before.end);
    const size_t line_breaks = static_cast<size_t>(std::count(gap.begin(), gap.end(), '\n'));
    return gap.find_first_not_of(" \t\r\n,") == std::string_view::npos && line_breaks == (line_above ? 1 : 0);
  };
  // Tokens [j, last], the numbers of out[s]: after another address on its
  // line, the next part of it ("Apt. 434 40"); four digits or more after a
  // place on its line, or alone on its line below an address or a place,
  // a postcode.
  auto after_an_address = [&](size_t s, size_t j, size_t last) {
    const uint32_t at = out[s].begin;
    const bool postcode = j == last && out[s].end - out[s].begin >= 4;
    const bool alone = !on_its_line(j) && !on_its_line(last + 1);
    auto part_before = [&](const PiiSpan& before) {
      if (right_before(before, at, false)) {
        return before.type == PiiType::kStreetAddress || (before.type == PiiType::kLocation && postcode);
      }
      return alone && postcode && right_before(before, at, true) &&
             (before.type == PiiType::kStreetAddress || before.type == PiiType::kLocation);
    };
    if (s > first && part_before(out[s - 1])) return true;
    // The spans found before tagging, in order of begin: the units ("Apt. 434").
    const auto found = std::partition_point(out.begin(), out.begin() + static_cast<ptrdiff_t>(first),
                                            [&](const PiiSpan& span) { return span.begin < at; });
    return found != out.begin() && part_before(*std::prev(found));
  };
  size_t kept = first;
  for (size_t s = first; s < out.size(); ++s) {
    bool keep = true;
    if (out[s].type == PiiType::kStreetAddress) {
      // Its tokens: numbers alone, maybe joined by "and", "or", "to" or a
      // mark of a list or a sum ("between 15 and 30", "1,3,5", "7 × 5").
      const size_t j = first_token_from(tokens, out[s].begin);
      // A number and a unit of measure open a quantity, not an address ("59
      // kg (130", "150 Hz, 250 Hz"): a street has a name.
      if (quantity_at(text, tokens, j) && tokens[j + 1].end <= out[s].end) continue;
      size_t last = j;
      bool numbers = j < n && all_digits(text, tokens[j]), joined = false;
      while (numbers && last + 1 < n && tokens[last + 1].begin < out[s].end) {
        ++last;
        const bool joins = !all_digits(text, tokens[last]) && last + 1 < n && tokens[last + 1].begin < out[s].end &&
                           joins_numbers(text, tokens[last]);
        numbers = all_digits(text, tokens[last]) || joins;
        joined = joined || joins;
      }
      if (numbers && tokens[last].end == out[s].end) {
        const bool another = on_its_line(last + 1) && all_digits(text, tokens[last + 1]);  // "18 15 Millicent Drive"
        const size_t next = another ? last + 2 : last + 1;
        // (Any word after two numbers in a row, not after a list of them:
        // "lists 3 and 4 only".)
        keep = street_at(next, another || (last > j && !joined)) || after_an_address(s, j, last);
      }
    }
    if (keep) out[kept++] = out[s];
  }
  if (kept == out.size()) return;
  out.resize(kept);
  reset_cover();
}

namespace {

// Whether `span` (one word) opens with two capital letters and holds a
// small one: an acronym's plural, a unit, a formula or an identifier
// ("DVDs", "MHz", "HCl", "ATPase", "SQLAlchemy"), not a name ("McKay" and
// "DeShawn" have a small second letter).
bool capitals_then_small_letters(std::string_view text, const PiiSpan& span) {
  if (span.end - span.begin < 3) return false;
  auto capital = [&](uint32_t b) { return text[b] >= 'A' && text[b] <= 'Z'; };
  if (!capital(span.begin) || !capital(span.begin + 1)) return false;
  for (uint32_t b = span.begin + 2; b < span.end; ++b) {
    if (text[b] >= 'a' && text[b] <= 'z') return true;
  }
  return false;
}

}  // namespace

bool PiiTagger::genus_of_a_species(std::string_view text, const PiiSpan& span) const {
  // (The cheap tests first: most names are followed by no such word.)
  uint32_t end = span.end + 1;
  if (end >= text.size() || text[span.end] != ' ') return false;
  while (end < text.size() && text[end] >= 'a' && text[end] <= 'z') ++end;
  if (end < text.size() && is_word_byte(static_cast<unsigned char>(text[end]))) return false;
  const std::string_view epithet = text.substr(span.end + 1, end - span.end - 1);
  if (epithet.size() < 6 || !(epithet.ends_with("us") || epithet.ends_with("is") || epithet.ends_with("ens") ||
                               epithet.ends_with("um") || epithet.ends_with("ae"))) {
    return false;
  }
  const Token genus{span.begin, span.end, false, false};
  if (all_capitals(text, genus)) return false;
  const Gazetteer::Match e = gazetteer_.lookup(word_hash(text, Token{span.end + 1, end, false, false}));
  if ((e.full | e.part) != 0) return false;
  const Gazetteer::Match g = gazetteer_.lookup(word_hash(text, genus));
  return ((g.full | g.part) & name_categories_) == 0;
}

void PiiTagger::drop_words_naming_no_one(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  auto one_word = [&](const PiiSpan& span) {
    for (uint32_t b = span.begin; b < span.end; ++b) {
      if (!is_word_byte(static_cast<unsigned char>(text[b]))) return false;
    }
    return true;
  };
  size_t kept = first;
  for (size_t s = first; s < out.size(); ++s) {
    const PiiSpan& span = out[s];
    const bool named = span.type == PiiType::kPerson || span.type == PiiType::kLocation ||
                       span.type == PiiType::kOrganization;
    if (!named || !one_word(span)) {
      out[kept++] = span;
      continue;
    }
    bool no_one = capitals_then_small_letters(text, span) || genus_of_a_species(text, span);
    if (!no_one && span.type == PiiType::kPerson) {
      const Token word{span.begin, span.end, false, false};
      if (kNeverLastInAName.contains(text, word) || kNeverInAName.contains(text, word)) {
        no_one = !all_capitals(text, word);
      } else if (proper_adjective_categories_ != 0) {
        // (The small table of the hidden lists first: few names are in it.)
        const uint64_t hash = word_hash(text, word);
        if ((gazetteer_.lookup_hidden(hash).full & proper_adjective_categories_) != 0) {
          const Gazetteer::Match m = gazetteer_.lookup(hash);
          no_one = ((m.full | m.part) & name_categories_) == 0;
        }
      }
    }
    if (!no_one) out[kept++] = span;
  }
  if (kept != out.size()) {
    out.resize(kept);
    reset_cover();
  }
}

void PiiTagger::type_continents(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const TokenList& tokens = tagger_tokens();
  for (size_t s = first; s < out.size(); ++s) {
    PiiSpan& span = out[s];
    if (span.type != PiiType::kPerson && span.type != PiiType::kOrganization) continue;
    uint32_t last = span.end;  // the span's last word, [last, span.end)
    while (last > span.begin && is_word_byte(static_cast<unsigned char>(text[last - 1]))) --last;
    if (!kRegions.contains(text, Token{last, span.end, false, false})) continue;
    bool parts_only = true;  // the words before it name a part of it
    for (size_t t = first_token_from(tokens, span.begin); t < tokens.size() && tokens[t].end <= last; ++t) {
      const auto c = static_cast<unsigned char>(text[tokens[t].begin]);
      if (is_word_byte(c) ? !kPartsOfAContinent.contains(text, tokens[t]) : c != '-' && c != '.') {
        parts_only = false;
        break;
      }
    }
    if (parts_only) span.type = PiiType::kLocation;
  }
}

void PiiTagger::drop_code_identifiers(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const TokenList& tokens = tagger_tokens();
  auto at = [&](size_t k) { return k < text.size() ? text[k] : '\0'; };
  auto small = [](char c) { return c >= 'a' && c <= 'z'; };
  auto alnum = [](char c) { return is_word_byte(static_cast<unsigned char>(c)); };
  // Whether the words (tokens) of `span` are all words a name list knows.
  auto listed_names = [&](const PiiSpan& span) {
    bool any = false;
    for (size_t t = first_token_from(tokens, span.begin); t < tokens.size() && tokens[t].begin < span.end; ++t) {
      if (!alnum(text[tokens[t].begin])) continue;
      if ((gazetteer_.lookup(word_hash(text, tokens[t])).full & name_categories_) == 0) return false;
      any = true;
    }
    return any;
  };
  size_t kept = first;
  for (size_t s = first; s < out.size(); ++s) {
    const PiiSpan& span = out[s];
    bool code = false;
    if (span.type == PiiType::kPerson || span.type == PiiType::kLocation || span.type == PiiType::kOrganization ||
        span.type == PiiType::kStreetAddress || span.type == PiiType::kNrp) {
      const char before = span.begin > 0 ? text[span.begin - 1] : '\0';
      const char before2 = span.begin > 1 ? text[span.begin - 2] : '\0';
      const char after = at(span.end);
      const std::string_view value = text.substr(span.begin, span.end - span.begin);
      bool underscore = before == '_' || after == '_';
      code = after == '(' || after == '[' || (after == '.' && small(at(span.end + 1))) || before == '$' ||
             (before == ':' && before2 == ':') || (before == '>' && before2 == '-') ||
             (before == '.' && (small(before2) || (before2 >= '0' && before2 <= '9')));
      // (Most values hold none of those marks: one pass without branches
      // tells.)
      bool marks = false;
      for (const char c : value) marks |= (c == '(') | (c == '[') | (c == '_');
      for (size_t k = 1; marks && k + 1 < value.size() && !code; ++k) {
        if (!alnum(value[k - 1]) || !alnum(value[k + 1])) continue;
        code = value[k] == '(' || value[k] == '[';
        underscore = underscore || value[k] == '_';
      }
      code = code || (underscore && !listed_names(span));
    }
    if (!code) out[kept++] = span;
  }
  if (kept == out.size()) return;
  out.resize(kept);
  reset_cover();
}

void PiiTagger::type_envelope_places(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  auto no_word = [&](size_t from, size_t to) {
    for (size_t b = from; b < to; ++b) {
      if (is_word_byte(static_cast<unsigned char>(text[b]))) return false;
    }
    return true;
  };
  // Whether text[from, to) holds exactly one line break.
  auto one_line_break = [&](size_t from, size_t to) {
    const std::string_view gap = text.substr(from, to - from);
    const size_t at = gap.find('\n');
    return at != std::string_view::npos && gap.find('\n', at + 1) == std::string_view::npos;
  };
  // The spans found before tagging (out[0, first), in order of begin) take
  // part too: the structured detectors find the units ("Apt. 580").
  const auto found_before = std::span<const PiiSpan>(out.data(), first);
  for (size_t s = first; s < out.size(); ++s) {
    PiiSpan& span = out[s];
    if (span.type != PiiType::kPerson && span.type != PiiType::kOrganization) continue;
    // Alone on its line: only marks and blanks back to the line break
    // before it and on to the one after it (read no further than that: a
    // line may be a megabyte long).
    size_t line_start = span.begin, line_end = span.end;
    while (line_start > 0 && text[line_start - 1] != '\n' && !is_word_byte(static_cast<unsigned char>(text[line_start - 1]))) {
      --line_start;
    }
    while (line_end < text.size() && text[line_end] != '\n' && !is_word_byte(static_cast<unsigned char>(text[line_end]))) {
      ++line_end;
    }
    if (line_start == 0 || text[line_start - 1] != '\n' || line_end == text.size() || text[line_end] != '\n') continue;
    --line_start;  // the line break
    // The last span before the line and the first after it, of either kind.
    const auto later = std::lower_bound(found_before.begin(), found_before.end(), span.begin,
                                        [](const PiiSpan& f, uint32_t at) { return f.begin < at; });
    const PiiSpan* above = s > first ? &out[s - 1] : nullptr;
    if (later != found_before.begin() && (above == nullptr || std::prev(later)->end > above->end)) above = &*std::prev(later);
    const PiiSpan* below = s + 1 < out.size() ? &out[s + 1] : nullptr;
    if (later != found_before.end() && (below == nullptr || later->begin < below->begin)) below = &*later;
    if (above == nullptr || below == nullptr || above->type != PiiType::kStreetAddress ||
        (below->type != PiiType::kLocation && below->type != PiiType::kStreetAddress) || above->end > line_start ||
        below->begin < line_end) {
      continue;
    }
    if (no_word(above->end, line_start) && no_word(line_end, below->begin) && one_line_break(above->end, span.begin) &&
        one_line_break(span.end, below->begin)) {
      span.type = PiiType::kLocation;
    }
  }
}

void PiiTagger::type_company_lines(std::string_view text, std::vector<PiiSpan>& out, size_t first, bool mixed) const {
  const TokenList& tokens = tagger_tokens();
  constexpr size_t kMaxWords = 4;
  LineStarts lines(tokens);
  auto line_start = [&](size_t j) { return lines.of(j); };
  // The last word of the line of tokens [from, end), or end when none.
  auto last_word = [&](size_t from, size_t end) {
    for (size_t t = end; t > from; --t) {
      if (is_word_byte(static_cast<unsigned char>(text[tokens[t - 1].begin]))) return t - 1;
    }
    return end;
  };
  // Whether one span of out[first...] covers the words of tokens [from,
  // end) of a line, and only them; its index, else out.size().
  auto span_over_words = [&](size_t from, size_t end) {
    const size_t word = first_word_from(text, tokens, from, end);
    const size_t last = last_word(word, end);
    if (word == end || last == end) return out.size();
    const size_t k = span_over(out, word);
    const bool exact = k >= first && k < out.size() && out[k].begin == tokens[word].begin && out[k].end == tokens[last].end;
    return exact ? k : out.size();
  };
  bool added = false;
  size_t read = tokens.size();  // the line of the last address read
  const size_t spans = out.size();
  for (size_t s = first; s < spans; ++s) {
    if (out[s].type != PiiType::kStreetAddress) continue;
    const size_t k = first_token_from(tokens, out[s].begin);
    if (k == tokens.size()) continue;
    const size_t line = line_start(k);
    if (line == read || first_word_from(text, tokens, line, k) != k) continue;
    read = line;
    if (line == 0 || blank_line_before(text, tokens, line)) continue;
    const size_t head = line_start(line - 1);
    if (head == 0 || blank_line_before(text, tokens, head)) continue;
    const size_t name = span_over_words(line_start(head - 1), head);
    if (name == out.size() || out[name].type != PiiType::kPerson) continue;
    // The company's words.
    const size_t from = first_word_from(text, tokens, head, line);
    size_t words = 0, last = from;
    bool fits = from < line;
    for (size_t t = from; t < line && fits; ++t) {
      const auto c = static_cast<unsigned char>(text[tokens[t].begin]);
      if (!is_word_byte(c)) {
        fits = tokens[t].end - tokens[t].begin == 1 && std::string_view("-&.,").find(static_cast<char>(c)) != std::string_view::npos;
        continue;
      }
      ++words;
      last = t;
      fits = words <= kMaxWords && (mixed ? opens_with_a_capital(text.substr(tokens[t].begin))
                                          : opens_with_a_letter(text.substr(tokens[t].begin)));
    }
    if (!fits) continue;
    bool free = true;
    for (size_t t = from; t <= last && free; ++t) free = span_over(out, t) == out.size();
    if (free) {
      add_span(out, {PiiType::kOrganization, tokens[from].begin, tokens[last].end});
      added = true;
      continue;
    }
    const size_t company = span_over_words(head, line);
    if (company == out.size() || !(out[company].type == PiiType::kPerson || out[company].type == PiiType::kLocation)) continue;
    if ((gazetteer_.lookup(word_hash(text, tokens[from])).full & name_categories_) != 0) continue;
    out[company].type = PiiType::kOrganization;
  }
  if (added) sort_by_begin(out, first);
}

void PiiTagger::join_named_offices(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const TokenList& tokens = tagger_tokens();
  auto name_or_organisation = [&](const PiiSpan& span) {
    return span.type == PiiType::kPerson || span.type == PiiType::kOrganization;
  };
  // Whether only ", ", " and ", ", and " or " & " stands between spans a and b.
  auto joined = [&](const PiiSpan& a, const PiiSpan& b) {
    if (b.begin <= a.end) return false;
    const std::string_view between = text.substr(a.end, b.begin - a.end);
    return between == ", " || between == " and " || between == ", and " || between == " & ";
  };
  // The spans are copied down over those joined away (out[first, kept)
  // kept), so that a text of many such names costs one pass.
  size_t kept = first;
  bool changed = false;
  for (size_t s = first; s < out.size(); ++s) {
    size_t e = s;
    bool office = false;
    // (follows_the() reads the text: most spans have no "the" before them.)
    if (name_or_organisation(out[s]) && follows_the(text, out[s].begin)) {
      bool person = out[s].type == PiiType::kPerson;
      while (e + 1 < out.size() && name_or_organisation(out[e + 1]) && joined(out[e], out[e + 1])) {
        ++e;
        person = person || out[e].type == PiiType::kPerson;
      }
      const size_t noun = first_token_from(tokens, out[e].end);
      office = noun < tokens.size() && tokens[noun].begin == out[e].end + 1 && text[out[e].end] == ' ' &&
               names_a_company_place(text, tokens[noun]) && (person || e > s);
    }
    if (office) {
      out[kept++] = {PiiType::kOrganization, out[s].begin, out[e].end};
      changed = true;
      s = e;
    } else {
      out[kept++] = out[s];
    }
  }
  out.resize(kept);
  if (changed) reset_cover();
}

void PiiTagger::split_coordinated_names(std::string_view text, std::vector<PiiSpan>& out, size_t first) const {
  const TokenList& tokens = tagger_tokens();
  const size_t before = out.size();
  for (size_t s = first; s < before; ++s) {
    PiiSpan& span = out[s];
    if ((span.type != PiiType::kPerson && span.type != PiiType::kOrganization) ||
        text.substr(span.begin, span.end - span.begin).find(" and ") == std::string_view::npos) {
      continue;
    }
    const size_t j = first_token_from(tokens, span.begin);
    if (j + 2 >= tokens.size() || tokens[j + 2].end != span.end || !token_is(text, tokens[j + 1], "and")) continue;
    const Gazetteer::Match left = view_of(text, tokens[j], gazetteer_).gazetteer;
    const Gazetteer::Match right = view_of(text, tokens[j + 2], gazetteer_).gazetteer;
    const bool names = ((left.full | right.full) & name_categories_) != 0 &&
                       ((left.full | left.part | right.full | right.part) & company_categories_) == 0;
    if (names) span.type = PiiType::kPerson;
    span.end = tokens[j].end;
    out.push_back({span.type, tokens[j + 2].begin, tokens[j + 2].end});
  }
  if (out.size() > before) {
    sort_by_begin(out, first);
    reset_cover();
  }
}

bool PiiTagger::only_a_name(std::string_view text, size_t i) const {
  return only_a_name(text, i, tagger_views()[i].gazetteer);
}

bool PiiTagger::only_a_name(std::string_view text, size_t i, const Gazetteer::Match& m) const {
  const Token& t = tagger_tokens()[i];
  const uint16_t not_names =
      common_categories_ | place_categories_ | street_categories_ | company_categories_ | prefix_categories_;
  if ((m.full & name_categories_) == 0 || ((m.full | m.part) & not_names) != 0) return false;
  const std::string_view word = text.substr(t.begin, t.end - t.begin);
  if (all_capitals(text, tagger_tokens(), i) || pii_scan::is_group_word(word)) return false;
  // A month or a weekday ("in June", "on Sunday") more often than a name.
  for (const pii_scan::LexEntry& e : pii_scan::kLexicon) {
    if (e.kind != pii_scan::Lex::kMonthAbbrev && e.word.size() == word.size() &&
        std::equal(word.begin(), word.end(), e.word.begin(), [](char a, char b) { return (a | 0x20) == b; })) {
      return false;
    }
  }
  return true;
}

bool PiiTagger::counts_after(std::string_view text, size_t number) const {
  const TokenList& tokens = tagger_tokens();
  const size_t next = number + 1;
  if (next >= tokens.size() || tokens[next].newline_before || tokens[next].begin == tokens[number].end ||
      !all_digits(text, tokens[number]) || !small_word(text, tokens[next], 1)) {
    return false;
  }
  // A plural ("minutes", "units"): "206 last night" follows a street.
  const Token& word = tokens[next];
  if (word.end - word.begin < 3 || text[word.end - 1] != 's') return false;
  return everyday(gazetteer_.lookup(word_hash(text, word)));
}

bool PiiTagger::finish_span(std::string_view text, PiiSpan& span, size_t from, size_t to, bool mixed) const {
  const TokenList& tokens = tagger_tokens();
  if (!trim_function_words(text, tokens, span, from, to)) return false;
  if (!plausible(text, span, from, to, mixed)) return false;
  // A name ends at its possessive: "Elizabeth Mitchell's Cautionary Tales"
  // names a person and her book. So does a place or organisation whose
  // words before the possessive are two or more, the first one a name list
  // knows ("Tony Shervashidze's Cautionary Tales"; not "People's Republic
  // of China", nor "McDonald's Restaurant").
  if (span.type == PiiType::kPerson || span.type == PiiType::kLocation || span.type == PiiType::kOrganization) {
    for (size_t t = from; t + 1 < to; ++t) {
      const auto* b = reinterpret_cast<const unsigned char*>(text.data()) + tokens[t].begin;
      const size_t stem = possessive_stem(b, tokens[t].end - tokens[t].begin);
      if (stem == tokens[t].end - tokens[t].begin) continue;
      if (span.type != PiiType::kPerson && (t == from || (tagger_views()[from].gazetteer.full & name_categories_) == 0)) break;
      span.type = PiiType::kPerson;
      span.end = tokens[t].begin + static_cast<uint32_t>(stem);
      to = t + 1;
      break;
    }
  }
  // A nationality, religion or party alone that no name list knows is a
  // group, not a name, place or organisation ("Muslim"; "Christian" is also
  // a first name), and so is one that a name list knows after an article,
  // which seldom comes before a name ("The German engineer", "a Christian").
  if (to - from == 1 && (span.type == PiiType::kPerson || span.type == PiiType::kLocation ||
                         span.type == PiiType::kOrganization) &&
      pii_scan::is_group_word(text.substr(tokens[from].begin, tokens[from].end - tokens[from].begin)) &&
      ((tagger_views()[from].gazetteer.full & name_categories_) == 0 ||
       (from > 0 && (token_is(text, tokens[from - 1], "the") || token_is(text, tokens[from - 1], "a") ||
                     token_is(text, tokens[from - 1], "an"))))) {
    span.type = PiiType::kNrp;
    return true;
  }
  // A word alone that a country list knows, or a state list (of four
  // letters or more: "AR" and "DJ" are codes), or that names a continent or
  // a region of the world (kRegions), and that no name list knows is a
  // place, not a name or an organisation ("Norway was super fun to
  // visit!", "Pennsylvania law", "Europe currently faces"; not "Israel" nor
  // "Chad", first names too: type_continents() makes "Asia" a place in the
  // end; nor a city, as many are surnames too: "Bakar"). So are "North
  // America" and its like.
  if (to - from == 1 && (span.type == PiiType::kPerson || span.type == PiiType::kOrganization)) {
    const Gazetteer::Match& m = tagger_views()[from].gazetteer;
    const bool state = (m.full & state_categories_) != 0 && tokens[from].end - tokens[from].begin >= 4;
    if (((m.full & country_categories_) != 0 || state || kRegions.contains(text, tokens[from])) &&
        ((m.full | m.part) & name_categories_) == 0) {
      span.type = PiiType::kLocation;
    }
  }
  if (to - from == 2 && (span.type == PiiType::kPerson || span.type == PiiType::kOrganization) &&
      kRegionsOfAmerica.contains(text, tokens[from]) && token_is(text, tokens[from + 1], "america")) {
    span.type = PiiType::kLocation;
  }
  // A full stop after a word of four letters or more that is neither a
  // company suffix nor a street word (as "Corp." is) ends the sentence,
  // not the value: "Cautionary Tales.", "Belarus.".
  if (to - from >= 2 && text[tokens[to - 1].begin] == '.' && tokens[to - 1].end - tokens[to - 1].begin == 1 &&
      span.end == tokens[to - 1].end) {
    const Token& word = tokens[to - 2];
    const uint16_t full = tagger_views()[to - 2].gazetteer.full;
    if (word.end == tokens[to - 1].begin && word.end - word.begin > 3 &&
        (full & (company_categories_ | street_categories_)) == 0) {
      span.end = word.end;
    }
  }
  // A name of one word that no name list knows and that is two everyday
  // words of four letters or more run together is a brand, an
  // organisation: "Simpletuition", "Karmadata" (not "Woodward", which the
  // lists know as a name).
  if (span.type == PiiType::kPerson && to - from == 1 && (tagger_views()[from].gazetteer.full & name_categories_) == 0 &&
      compound_of_words(text, tokens[from].begin, tokens[from].end)) {
    span.type = PiiType::kOrganization;
  }
  // A place or an organisation of one word that is only a name is a name:
  // the tagger read the sentence, not the word ("shouted at Billy", "than
  // early Czarnecki"). Not several such words: "Davis, Reynolds and
  // Williamson" is a firm.
  if ((span.type == PiiType::kLocation || span.type == PiiType::kOrganization) && to - from == 1 &&
      only_a_name(text, from)) {
    span.type = PiiType::kPerson;
  }
  // A name or an organisation after words that announce a place is one
  // ("grew up in Monroe", "home city Florida"), even a word only a name
  // list knows ("grew up in grasse").
  if ((span.type == PiiType::kPerson || span.type == PiiType::kOrganization) && after_a_place_cue(text, tokens, from)) {
    span.type = PiiType::kLocation;
  }
  // A name with a number in it or right after it on its line is a street
  // and its house number ("Família Marques 19", "Sorlaskeid 32"); so is an
  // organisation right before a number ("Auenweg 85"). Not one before a
  // count of things (counts_after(): "Tony 2 times more", "It takes John 5
  // minutes"), nor one whose last word is a possessive: the number is the
  // owner's ("George Orwell's 1984", "Kate's 6 friends").
  const Token& last_word = tokens[to - 1];
  const bool owner = possessive_stem(reinterpret_cast<const unsigned char*>(text.data()) + last_word.begin,
                                     last_word.end - last_word.begin) != last_word.end - last_word.begin;
  const bool number_after =
      is_number(text, tokens, to) && !tokens[to].newline_before && tokens[to].begin > last_word.end && !owner;
  if ((span.type == PiiType::kPerson || span.type == PiiType::kOrganization) && number_after &&
      !counts_after(text, to)) {
    span.type = PiiType::kStreetAddress;
    return true;
  }
  if (span.type == PiiType::kPerson) {
    for (size_t t = from; t < to; ++t) {
      if (is_number(text, tokens, t)) {
        span.type = PiiType::kStreetAddress;
        return true;
      }
    }
  }
  // A name or a place that ends in a company suffix ("Smith Ltd") is an
  // organisation; a name that ends in a street suffix that is no name
  // ("Andreassen Street", not "Benny Hill") is an address, as is a place or
  // an organisation of two words or more that ends in "Street", "Road",
  // "Avenue" or "Boulevard" ("Bezrukov Street Street": every labelled
  // value that ends in such a word is an address, 64 of 64).
  if (span.type != PiiType::kPerson && span.type != PiiType::kLocation && span.type != PiiType::kOrganization) {
    return true;
  }
  for (size_t t = to; t > from; --t) {
    const Token& last = tokens[t - 1];
    if (!is_word_byte(static_cast<unsigned char>(text[last.begin]))) continue;
    const uint16_t full = tagger_views()[t - 1].gazetteer.full;
    const bool thoroughfare = token_is(text, last, "street") || token_is(text, last, "road") ||
                              token_is(text, last, "avenue") || token_is(text, last, "boulevard");
    if (span.type != PiiType::kOrganization &&
        ((full & company_categories_) != 0 || (t - 1 > from && kOrganisationNouns.contains(text, last)))) {
      span.type = PiiType::kOrganization;
    } else if (t - 1 > from &&
               ((span.type == PiiType::kPerson && (full & street_suffix_categories_) != 0 && (full & name_categories_) == 0) ||
                (span.type != PiiType::kPerson && thoroughfare))) {
      span.type = PiiType::kStreetAddress;
      return true;
    }
    break;
  }
  if (span.type != PiiType::kPerson && span.type != PiiType::kLocation) return true;
  // A person's or a place's possessive ending is not part of the name: "[PERSON_1]'s address".
  if (span.end == tagger_tokens()[to - 1].end) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data()) + span.begin;
    span.end = span.begin + static_cast<uint32_t>(possessive_stem(s, span.end - span.begin));
  }
  return true;
}

bool PiiTagger::plausible(std::string_view text, const PiiSpan& span, size_t from, size_t to, bool mixed) const {
  const TokenList& tokens = tagger_tokens();
  if (to - from == 1 && (pronoun_contraction(text.substr(tokens[from].begin, tokens[from].end - tokens[from].begin)) ||
                         kAbbreviations.contains(text, tokens[from]) || names_a_language(text, tokens, from))) {
    return false;
  }
  bool word = false, digit = false, street = false, capitalised_street = false, everyday = true;
  // Whether its words but numbers are all small ("42 and a", "6379 и"),
  // and all of them small letters of two bytes ("до 15": Cyrillic, Greek,
  // Latin-1); whether it has numbers, and none right after another.
  bool small_words_only = true, two_byte_small_words_only = true;
  bool numbers = false, words = false, numbers_apart = true, number_before = false;
  for (size_t t = from; t < to; ++t) {
    const auto first = static_cast<unsigned char>(text[tokens[t].begin]);
    if (!is_word_byte(first)) continue;
    word = word || tokens[t].end - tokens[t].begin >= 2 || (first >= '0' && first <= '9');
    const bool number = first >= '0' && first <= '9';
    if (number) {
      numbers_apart = numbers_apart && !number_before;
      numbers = true;
    } else {
      words = true;
      small_words_only = small_words_only && small_word(text, tokens[t], 1);
      const auto* bytes = reinterpret_cast<const unsigned char*>(text.data()) + tokens[t].begin;
      two_byte_small_words_only = two_byte_small_words_only && first >= 0x80 &&
                                  opens_with_a_small_letter(bytes, tokens[t].end - tokens[t].begin);
    }
    number_before = number;
    for (uint32_t b = tokens[t].begin; b < tokens[t].end && !digit; ++b) digit = text[b] >= '0' && text[b] <= '9';
    const Gazetteer::Match m = tagger_views()[t].gazetteer;
    // A street word of three letters or more: single letters ("C" of "C/ Mayor") prove nothing.
    const bool street_word = tokens[t].end - tokens[t].begin >= 3 && ((m.full | m.part) & street_categories_) != 0;
    street = street || street_word;
    capitalised_street = capitalised_street || (street_word && !(first >= 'a' && first <= 'z'));
    everyday = everyday && this->everyday(m);
  }
  if (!word || !has_letter_or_digit(text.substr(span.begin, span.end - span.begin))) return false;
  if (everyday && to - from == 1 && !all_capitals(text, tokens, from)) return false;
  // A word of three letters at most after a number and a unit of measure is
  // the unit's: "120/80 mm Hg".
  if (to - from == 1 && tokens[from].end - tokens[from].begin <= 3 && from >= 2 && !tokens[from].newline_before &&
      quantity_at(text, tokens, from - 2)) {
    return false;
  }
  if (span.type == PiiType::kTitle) return names_a_role(text, tokens[to - 1]);
  if (span.type != PiiType::kStreetAddress) return true;
  if (next_to_a_math_sign(text, span) || year_of_an_era(text, tokens, from, to) || dated_names(text, tokens, from, to)) {
    return false;
  }
  // In text with capitals, small words that are no street words and
  // numbers make no address: after a number, with no two numbers in a row
  // ("42 and a", "18 red, 18", "6379 и"; not "16 34 quai", a building's and
  // a street's number), or when the words are in another script ("или 15",
  // "числа 65 получиться число 43").
  if (mixed && numbers && words && small_words_only && !street &&
      ((is_number(text, tokens, from) && numbers_apart) || two_byte_small_words_only)) {
    return false;
  }
  // Nor does a number and one word (maybe then its stop) that is a unit of
  // measure, a letter alone or an everyday word, a street suffix or not: a
  // quantity ("400 Hz", "10 V", "7 points", "40 points."). A street has a
  // name.
  const bool stop_after =
      to - from == 3 && tokens[to - 1].end - tokens[to - 1].begin == 1 && text[tokens[to - 1].begin] == '.';
  if ((to - from == 2 || stop_after) && all_digits(text, tokens[from])) {
    const Token& after = tokens[from + 1];
    // (A letter before its stop or slash opens a street's name: "38 C/
    // Señores Curas", "30 N. Stadion".)
    const bool abbreviation = after.end < text.size() && (text[after.end] == '/' || text[after.end] == '.');
    if (!(after.end - after.begin == 1 && abbreviation) &&
        (after.end - after.begin == 1 || kUnitsOfMeasure.contains(text, after) ||
         (tagger_views()[from + 1].gazetteer.full & common_categories_) != 0)) {
      return false;
    }
  }
  // In text with capitals an address without a number has a capitalised
  // street word ("Adams Street"): not "Kant's view", "JIT approach".
  if (mixed && !digit) return capitalised_street;
  return digit || street;
}

std::string PiiTagger::serialize() const {
  std::string out(kMagic);
  little_endian::append<uint32_t>(out, kFormatVersion);
  little_endian::append<uint32_t>(out, static_cast<uint32_t>(types_.size()));
  for (PiiType t : types_) {
    const std::string_view name = pii_type_name(t);
    out += static_cast<char>(name.size());
    out += name;
  }
  little_endian::append<uint32_t>(out, buckets_);
  for (size_t half = 0; half < 2; ++half) {
    uint64_t bits = 0;
    for (size_t b = 0; b < 64; ++b) bits |= uint64_t{continuing_marks_.test(64 * half + b)} << b;
    little_endian::append<uint64_t>(out, bits);
  }
  out += static_cast<char>(caseless_values_ ? 1 : 0);
  // The file holds tags() floats per slot in tag order, without padding.
  out.reserve(out.size() + size_t{buckets_} * tags() * sizeof(float));
  for (size_t slot = 0; slot < buckets_; ++slot) {
    for (size_t k = 0; k < tags(); ++k) {
      little_endian::append<uint32_t>(out, std::bit_cast<uint32_t>(weights_[slot * tags() + k]));
    }
  }
  gazetteer_.serialize(out);
  return out;
}

StatusOr<PiiTagger> PiiTagger::parse(std::string_view bytes, std::string_view source) {
  const std::string where(source);
  size_t at = 0;
  auto u32 = [&](uint32_t& v) { return little_endian::read(bytes, at, v); };
  if (!bytes.starts_with(kMagic)) return invalid_argument(where + ": not a tiergate PII tagger (train one with `tiergate pii train`)");
  at = kMagic.size();
  uint32_t version = 0, types = 0, buckets = 0;
  if (!u32(version)) return invalid_argument(where + ": truncated");
  if (version != kFormatVersion) {
    return invalid_argument(where + ": tagger format " + std::to_string(version) + ", this build reads " +
                            std::to_string(kFormatVersion) + "; retrain it with `tiergate pii train`");
  }
  if (!u32(types) || types == 0 || types > 30) return invalid_argument(where + ": truncated or damaged type list");
  PiiTagger t;
  for (uint32_t k = 0; k < types; ++k) {
    if (at >= bytes.size()) return invalid_argument(where + ": truncated type list");
    const size_t len = static_cast<unsigned char>(bytes[at++]);
    if (bytes.size() - at < len) return invalid_argument(where + ": truncated type list");
    const auto type = parse_pii_type(bytes.substr(at, len));
    if (!type || !tagger_learns(*type)) {
      return invalid_argument(where + ": unknown tagged type '" + std::string(bytes.substr(at, len)) + "'");
    }
    t.types_.push_back(*type);
    at += len;
  }
  if (!u32(buckets) || !std::has_single_bit(buckets) || buckets > (1u << 24)) {
    return invalid_argument(where + ": damaged bucket count");
  }
  t.buckets_ = buckets;
  for (size_t half = 0; half < 2; ++half) {
    uint64_t bits = 0;
    if (!little_endian::read(bytes, at, bits)) return invalid_argument(where + ": truncated marks");
    for (size_t b = 0; b < 64; ++b) t.continuing_marks_.set(64 * half + b, (bits >> b) & 1);
  }
  if (at >= bytes.size() || static_cast<unsigned char>(bytes[at]) > 1) {
    return invalid_argument(where + ": truncated or damaged flags after the marks");
  }
  t.caseless_values_ = bytes[at++] == 1;
  const size_t n = size_t{buckets} * t.tags();
  if (bytes.size() - at < n * sizeof(float)) {
    return invalid_argument(where + ": " + std::to_string(bytes.size() - at) + " weight bytes where " +
                            std::to_string(n * sizeof(float)) + " were due (truncated or damaged)");
  }
  std::vector<float> by_tag(n);
  for (size_t k = 0; k < n; ++k) {
    uint32_t bits = 0;
    for (int b = 0; b < 4; ++b) bits |= uint32_t{static_cast<unsigned char>(bytes[at + 4 * k + static_cast<size_t>(b)])} << (8 * b);
    by_tag[k] = std::bit_cast<float>(bits);
    // set_weights() scales by the largest: one infinity or NaN would wreck
    // every score.
    if (!std::isfinite(by_tag[k])) return invalid_argument(where + ": a weight that is no finite number (damaged file)");
  }
  t.set_weights(std::move(by_tag));
  t.fixed_slots_ = fixed_slots(buckets - 1, t.tags());
  at += n * sizeof(float);
  auto gazetteer = Gazetteer::parse(bytes, at, source);
  if (!gazetteer.is_ok()) return gazetteer.status();
  if (at != bytes.size()) return invalid_argument(where + ": " + std::to_string(bytes.size() - at) + " unexpected bytes at the end");
  t.gazetteer_ = std::move(gazetteer).value();
  t.find_categories();
  return t;
}

StatusOr<PiiTagger> load_pii_tagger(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return not_found(path + ": cannot read the tagger");
  std::stringstream bytes;
  bytes << in.rdbuf();
  return PiiTagger::parse(bytes.str(), path);
}

namespace {

// Appends the ages set off after a name, as news writes them: "Jane Doe, 34,
// of Springfield", "Mark Olsen (52) was": one to three digits, 1 to 129,
// between ", " and "," or between " (" and ")", after a name of `out`.
void add_appositive_ages(std::string_view text, std::vector<PiiSpan>& out) {
  const size_t spans = out.size();
  for (size_t k = 0; k < spans; ++k) {
    if (out[k].type != PiiType::kPerson) continue;
    const size_t open = out[k].end;
    if (open + 3 >= text.size()) continue;
    const char close = text.substr(open, 2) == ", " ? ',' : text.substr(open, 2) == " (" ? ')' : '\0';
    if (close == '\0') continue;
    size_t end = open + 2;
    int value = 0;
    while (end < text.size() && end - (open + 2) < 3 && text[end] >= '0' && text[end] <= '9') {
      value = value * 10 + (text[end] - '0');
      ++end;
    }
    // (A fourth digit stands where the closing mark should.)
    if (value < 1 || value > 129 || end >= text.size() || text[end] != close) continue;
    out.push_back({PiiType::kAge, static_cast<uint32_t>(open + 2), static_cast<uint32_t>(end)});
  }
}

}  // namespace

void find_pii(std::string_view text, const PiiTagger* tagger, std::vector<PiiSpan>& out) {
  find_structured_pii(text, out);
  if (tagger == nullptr) return;
  tagger->tag(text, out);
  add_appositive_ages(text, out);
  resolve_pii_overlaps(out);
  // A tagger's span cut short before a better one ends on its last word
  // (or a stop: "Apt."), or goes; nor does one open or end with a mark of
  // more than one byte (pii_tokens::mark_length(): a quote mark, a dash, a
  // no-break space), which the tokenizer counts into the word it touches
  // ("“Remote Timing Attacks", "Huygens’").
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  size_t kept = 0;
  for (PiiSpan& span : out) {
    if (tagger_learns(span.type)) {
      for (;;) {
        if (span.end > span.begin && !is_word_byte(bytes[span.end - 1]) && bytes[span.end - 1] != '.') {
          --span.end;
        } else if (span.end - span.begin >= 3 && pii_tokens::mark_length(bytes + span.end - 3, 3) == 3) {
          span.end -= 3;
        } else if (span.end - span.begin >= 2 && pii_tokens::mark_length(bytes + span.end - 2, 2) == 2) {
          span.end -= 2;
        } else {
          break;
        }
      }
      // Marks at the start go with the blanks after them ("– 15").
      while (const size_t mark = pii_tokens::mark_length(bytes + span.begin, span.end - span.begin)) {
        span.begin += static_cast<uint32_t>(mark);
        while (span.begin < span.end &&
               (bytes[span.begin] == ' ' || bytes[span.begin] == '\t' || bytes[span.begin] == '\n')) {
          ++span.begin;
        }
      }
    }
    if (span.end > span.begin) out[kept++] = span;
  }
  out.resize(kept);
}

}  // namespace tiergate
