#include "tiergate/signals/features.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <span>

#include "byte_classes.h"

namespace tiergate {
namespace {

constexpr uint64_t kFnvOffset = 1469598103934665603ull;
constexpr uint64_t kFnvPrime = 1099511628211ull;
// Salts keep the groups of hashed terms apart.
constexpr uint64_t kTaskUnigram = 0x9e3779b97f4a7c15ull;
constexpr uint64_t kTaskBigram = 0xc2b2ae3d27d4eb4full;
constexpr uint64_t kContextUnigram = 0x165667b19e3779f9ull;
constexpr uint64_t kTermMultiplier = 0xff51afd7ed558ccdull;

uint64_t mix(uint64_t h) {  // splitmix64 finaliser: every output bit depends on every input bit
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  h ^= h >> 31;
  return h;
}

// Kinds of punctuation marks that the dense features count.
enum TermClass : uint8_t {
  kMathSymbol = 1 << 0,   // = + - * / ^ < > %
  kCodeSymbol = 1 << 1,   // { } ; ( ) [ ] _ #
  kSentenceEnd = 1 << 2,  // . ! ?
};

constexpr std::array<uint8_t, 256> make_term_classes() {
  std::array<uint8_t, 256> t{};
  for (char m : std::string_view("=+-*/^<>%")) t[static_cast<unsigned char>(m)] |= kMathSymbol;
  for (char m : std::string_view("{};()[]_#")) t[static_cast<unsigned char>(m)] |= kCodeSymbol;
  for (char m : std::string_view(".!?")) t[static_cast<unsigned char>(m)] |= kSentenceEnd;
  return t;
}
constexpr std::array<uint8_t, 256> kTermClass = make_term_classes();

// ASCII upper-case bytes of v to lower case, eight at a time; other bytes,
// non-ASCII included, unchanged.
uint64_t ascii_lower(uint64_t v) {
  constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7full, kHigh = 0x8080808080808080ull;
  const uint64_t low7 = v & kLow7;
  const uint64_t at_least_a = low7 + 0x3f3f3f3f3f3f3f3full;  // high bit set iff >= 'A'
  const uint64_t beyond_z = low7 + 0x2525252525252525ull;    // high bit set iff > 'Z'
  const uint64_t upper = at_least_a & ~beyond_z & ~v & kHigh;
  return v | (upper >> 2);
}

// `len` (1..8) bytes at p, lower-cased, as a little-endian word; never reads
// at or past `end`.
[[gnu::always_inline]] inline uint64_t load_chunk(const unsigned char* p, size_t len, const unsigned char* end) {
  uint64_t v = 0;
  if (end - p >= 8) {
    std::memcpy(&v, p, 8);  // a fixed size: one load
  } else {
    for (size_t i = 0; i < len; ++i) v |= uint64_t{p[i]} << (8 * i);
    return ascii_lower(v);
  }
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return ascii_lower(v & (~uint64_t{0} >> (64 - 8 * len)));
}

// A term's hash: eight lower-cased bytes per multiply. Terms never contain a
// zero byte, so zero padding cannot make two terms alike.
[[gnu::always_inline]] inline uint64_t term_hash(const unsigned char* p, size_t len, const unsigned char* end) {
  uint64_t h = kFnvOffset;
  for (;;) {
    const size_t take = len < 8 ? len : 8;
    h = (h ^ load_chunk(p, take, end)) * kTermMultiplier;
    h ^= h >> 32;
    if (len <= 8) return h;
    p += 8;
    len -= 8;
  }
}

// The first position >= from whose bit in `mask` is clear; n if none.
size_t next_clear_bit(const std::vector<uint64_t>& mask, size_t from, size_t n) {
  size_t w = from / 64;
  if (w >= mask.size()) return n;
  uint64_t bits = ~mask[w] & (~uint64_t{0} << (from % 64));
  while (bits == 0) {
    if (++w == mask.size()) return n;
    bits = ~mask[w];
  }
  return std::min(n, w * 64 + static_cast<size_t>(std::countr_zero(bits)));
}

// Appends `count` hashed slots, the i-th from hash_of(i): the slot from the
// low bits, the sign from the top bit, each scaled by 1/sqrt(count).
template <typename HashOf>
void append_hashed(const FeatureSpace& space, size_t count, SparseFeatures& out, HashOf hash_of) {
  if (count == 0) return;
  const size_t begin = out.index.size();
  out.index.resize(begin + count);
  out.value.resize(begin + count);
  uint32_t* index = out.index.data() + begin;
  float* value = out.value.data() + begin;
  const uint32_t slots = space.buckets - 1;
  const auto scale = std::bit_cast<uint32_t>(1.0f / std::sqrt(static_cast<float>(count)));
  for (size_t i = 0; i < count; ++i) {
    const uint64_t h = hash_of(i);
    index[i] = kDenseFeatures + (static_cast<uint32_t>(h) & slots);
    // The sign bit set from the hash's top bit: a branch here would be
    // mispredicted half the time.
    value[i] = std::bit_cast<float>(scale | static_cast<uint32_t>(h >> 63) << 31);
  }
}

void append_unigrams(const FeatureSpace& space, std::span<const uint64_t> terms, uint64_t salt, SparseFeatures& out) {
  append_hashed(space, terms.size(), out, [&](size_t i) { return mix(terms[i] ^ salt); });
}

void append_bigrams(const FeatureSpace& space, std::span<const uint64_t> terms, uint64_t salt, SparseFeatures& out) {
  if (terms.size() < 2) return;
  append_hashed(space, terms.size() - 1, out,
                [&](size_t i) { return mix((terms[i] * kFnvPrime) ^ terms[i + 1] ^ salt); });
}

struct TextStats {
  size_t bytes = 0, digits = 0, upper = 0, letters = 0, non_ascii = 0, math = 0, code = 0;
  size_t newlines = 0, questions = 0, words = 0, long_words = 0, word_bytes = 0, numbers = 0, sentences = 0;
};

// Tokenises `text` into words (runs of ASCII alphanumerics and non-ASCII
// bytes, lower-cased) and single punctuation marks, appending each term's
// hash to `terms`. Byte classes come in bulk (byte_classes.h); the loop below
// runs once per term, not once per byte.
void scan_text(std::string_view text, std::vector<uint64_t>& terms, TextStats& stats) {
  thread_local ByteClasses classes;
  classify_bytes(text, classes);
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const unsigned char* end = bytes + text.size();
  const size_t n = text.size();
  // Every term holds at least one byte: room for all of them up front.
  const size_t first = terms.size();
  terms.resize(first + n);
  uint64_t* term = terms.data() + first;
  size_t long_words = 0, questions = 0, sentences = 0, math = 0, code = 0;
  uint64_t previous_word = 0;  // the word mask of the previous 64 bytes
  for (size_t w = 0; w < classes.word.size(); ++w) {
    const uint64_t word = classes.word[w];
    const uint64_t valid = n - 64 * w >= 64 ? ~uint64_t{0} : ~(~uint64_t{0} << (n - 64 * w));
    // A term starts at each non-space byte that does not continue a word.
    const uint64_t continues = word & ((word << 1) | (previous_word >> 63));
    previous_word = word;
    // Few branches below: whether a term is a word or a mark is as good as
    // random on real text, so it selects values instead of code paths.
    for (uint64_t starts = ~classes.space[w] & valid & ~continues; starts != 0; starts &= starts - 1) {
      const auto bit = static_cast<size_t>(std::countr_zero(starts));
      const size_t i = 64 * w + bit;
      const size_t is_word = (word >> bit) & 1;
      auto length = static_cast<size_t>(std::countr_zero(~(word >> bit)));  // 0 for a mark
      if (bit + length == 64 && i + length < n) length = next_clear_bit(classes.word, i, n) - i;  // runs on
      length += 1 - is_word;
      long_words += is_word & (length >= 9 ? 1 : 0);
      *term++ = term_hash(bytes + i, length, end);
    }
    // Punctuation marks (neither word bytes nor space), for their counts.
    for (uint64_t marks = ~word & ~classes.space[w] & valid; marks != 0; marks &= marks - 1) {
      const size_t i = 64 * w + static_cast<size_t>(std::countr_zero(marks));
      const unsigned char c = bytes[i];
      const uint8_t kind = kTermClass[c];
      const unsigned char next = i + 1 < n ? bytes[i + 1] : ' ';
      questions += c == '?' ? 1 : 0;
      sentences += (kind & kSentenceEnd) != 0 && (next == ' ' || next == '\n') ? 1 : 0;
      math += (kind & kMathSymbol) != 0 ? 1 : 0;
      code += (kind & kCodeSymbol) != 0 ? 1 : 0;
    }
  }
  terms.resize(static_cast<size_t>(term - terms.data()));
  stats.bytes += n;
  stats.digits += classes.digits;
  stats.upper += classes.upper;
  stats.letters += classes.letters;
  stats.non_ascii += classes.non_ascii;
  stats.newlines += classes.newlines;
  stats.words += classes.words;
  stats.numbers += classes.numbers;
  stats.word_bytes += classes.digits + classes.letters + classes.non_ascii;  // every such byte is a word byte
  stats.long_words += long_words;
  stats.questions += questions;
  stats.sentences += sentences;
  stats.math += math;
  stats.code += code;
}

float log_scaled(size_t n, float divisor) { return static_cast<float>(std::log1p(static_cast<double>(n))) / divisor; }

float share(size_t part, size_t whole) { return whole == 0 ? 0.0f : static_cast<float>(part) / static_cast<float>(whole); }

int length_bin(size_t chars) {
  int bin = 0;
  for (size_t limit = 64; bin < 7 && chars >= limit; limit *= 2) ++bin;
  return bin;
}

struct TurnView {
  Role role;
  std::string_view text;
};

template <typename Turns>
void extract(const FeatureSpace& space, const Turns& turns, size_t task_turn, SparseFeatures& out) {
  out.clear();
  // Dense slots first, filled in below once the text has been scanned.
  for (uint32_t i = 0; i < kDenseFeatures; ++i) out.add(i, 0.0f);

  TextStats task, all;
  bool has_system = false;
  std::vector<uint64_t>& terms = out.scratch;
  terms.clear();
  size_t task_chars = 0;
  if (task_turn < turns.size()) {
    const std::string_view text = turns[task_turn].text;
    task_chars = text.size();
    if (text.size() <= kTaskHashBytes) {
      scan_text(text, terms, task);
    } else {
      scan_text(text.substr(0, kTaskHashBytes / 2), terms, task);
      scan_text(text.substr(text.size() - kTaskHashBytes / 2), terms, task);
    }
  }
  append_unigrams(space, terms, kTaskUnigram, out);
  out.task_unigrams_end = out.index.size();
  if (space.bigrams) append_bigrams(space, terms, kTaskBigram, out);
  out.task_end = out.index.size();

  // Earlier turns: unigrams only, and only the most recent kContextHashBytes
  // of them (newest first, the oldest one cut to its end), which bounds the
  // cost of long conversations; their sizes still count in full in the
  // length features.
  terms.clear();
  size_t budget = kContextHashBytes;
  for (size_t t = turns.size(); t-- > 0;) {
    if (turns[t].role == Role::kSystem || turns[t].role == Role::kDeveloper) has_system = true;
    if (t == task_turn) continue;
    all.bytes += turns[t].text.size();
    if (budget == 0) continue;
    std::string_view text = turns[t].text;
    if (text.size() > budget) text = text.substr(text.size() - budget);
    budget -= text.size();
    TextStats ignored;
    scan_text(text, terms, ignored);
  }
  append_unigrams(space, terms, kContextUnigram, out);
  all.bytes += task_chars;

  float* dense = out.value.data();
  dense[kBias] = 1.0f;
  dense[kLogChars] = log_scaled(all.bytes, 10.0f);
  dense[kLogLastUserChars] = log_scaled(task_chars, 10.0f);
  dense[kLogTurns] = log_scaled(turns.size(), 1.0f);
  dense[kLogWords] = log_scaled(task.words, 10.0f);
  dense[kDigitShare] = share(task.digits, task.bytes);
  dense[kUpperShare] = share(task.upper, task.letters);
  dense[kNonAsciiShare] = share(task.non_ascii, task.bytes);
  dense[kMathSymbolShare] = share(task.math, task.bytes);
  dense[kCodeSymbolShare] = share(task.code, task.bytes);
  dense[kLogLines] = log_scaled(task.newlines, 1.0f);
  dense[kLogQuestionMarks] = log_scaled(task.questions, 1.0f);
  dense[kLongWordShare] = share(task.long_words, task.words);
  dense[kMeanWordLength] = task.words == 0 ? 0.0f : share(task.word_bytes, task.words) / 10.0f;
  dense[kHasSystemPrompt] = has_system ? 1.0f : 0.0f;
  dense[kLogNumbers] = log_scaled(task.numbers, 1.0f);
  dense[kLogSentences] = log_scaled(task.sentences, 1.0f);
  dense[kLengthBin0 + length_bin(task_chars)] = 1.0f;
}

struct MessageTurns {
  const std::vector<ChatMessage>& messages;
  size_t size() const { return messages.size(); }
  TurnView operator[](size_t i) const { return {messages[i].role, messages[i].content}; }
};

struct SingleTurn {
  std::string_view text;
  size_t size() const { return 1; }
  TurnView operator[](size_t) const { return {Role::kUser, text}; }
};

}  // namespace

size_t task_turn_index(const std::vector<ChatMessage>& messages) {
  for (size_t i = messages.size(); i-- > 0;) {
    if (messages[i].role == Role::kUser) return i;
  }
  return messages.empty() ? 0 : messages.size() - 1;
}

void extract_features(const FeatureSpace& space, const std::vector<ChatMessage>& messages, SparseFeatures& out) {
  extract(space, MessageTurns{messages}, task_turn_index(messages), out);
}

void extract_prompt_features(const FeatureSpace& space, std::string_view prompt, SparseFeatures& out) {
  extract(space, SingleTurn{prompt}, 0, out);
}

}  // namespace tiergate
