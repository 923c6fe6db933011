#include "tiergate/signals/features.h"

#include <array>
#include <cmath>

namespace tiergate {
namespace {

constexpr uint64_t kFnvOffset = 1469598103934665603ull;
constexpr uint64_t kFnvPrime = 1099511628211ull;
// Salts keep the groups of hashed terms apart.
constexpr uint64_t kTaskUnigram = 0x9e3779b97f4a7c15ull;
constexpr uint64_t kTaskBigram = 0xc2b2ae3d27d4eb4full;
constexpr uint64_t kContextUnigram = 0x165667b19e3779f9ull;
constexpr uint64_t kContextBigram = 0x27d4eb2f165667c5ull;

uint64_t mix(uint64_t h) {  // splitmix64 finaliser: spreads FNV's low bits
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  h ^= h >> 31;
  return h;
}

// Byte classes, looked up once per byte: the scan is the hot loop of the
// routing decision, and branches on character ranges mispredict on text.
enum ByteClass : uint8_t {
  kWordByte = 1 << 0,  // ASCII letter or digit, or any non-ASCII byte
  kDigit = 1 << 1,
  kUpper = 1 << 2,
  kLetter = 1 << 3,
  kNonAscii = 1 << 4,
  kMathSymbol = 1 << 5,  // = + - * / ^ < > %
  kCodeSymbol = 1 << 6,  // { } ; ( ) [ ] _ #
  kSpace = 1 << 7,       // space, tab, CR, LF
};

constexpr std::array<uint8_t, 256> make_byte_classes() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    uint8_t f = 0;
    if (c >= '0' && c <= '9') f |= kWordByte | kDigit;
    if (c >= 'A' && c <= 'Z') f |= kWordByte | kUpper | kLetter;
    if (c >= 'a' && c <= 'z') f |= kWordByte | kLetter;
    if (c >= 0x80) f |= kWordByte | kNonAscii;
    for (char m : std::string_view("=+-*/^<>%")) f |= c == static_cast<unsigned char>(m) ? kMathSymbol : 0;
    for (char m : std::string_view("{};()[]_#")) f |= c == static_cast<unsigned char>(m) ? kCodeSymbol : 0;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') f |= kSpace;
    t[static_cast<size_t>(c)] = f;
  }
  return t;
}
constexpr std::array<uint8_t, 256> kByteClass = make_byte_classes();

constexpr std::array<uint8_t, 256> make_lower() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) t[static_cast<size_t>(c)] = static_cast<uint8_t>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  return t;
}
constexpr std::array<uint8_t, 256> kLower = make_lower();

// Emits the hashed terms of one text group: unigrams as they come, bigrams
// (when wanted) held in `scratch` and appended after them, each block scaled
// by 1/sqrt(its count).
class HashedGroup {
 public:
  HashedGroup(const FeatureSpace& space, SparseFeatures& out, uint64_t unigram_salt, uint64_t bigram_salt,
              bool bigrams)
      : space_(space), out_(out), unigram_salt_(unigram_salt), bigram_salt_(bigram_salt), bigrams_(bigrams),
        begin_(out.index.size()) {
    out_.scratch.clear();
  }

  void term(uint64_t word_hash) {
    emit(mix(word_hash ^ unigram_salt_));
    if (bigrams_ && has_previous_) out_.scratch.push_back(mix((previous_ * kFnvPrime) ^ word_hash ^ bigram_salt_));
    previous_ = word_hash;
    has_previous_ = true;
  }
  void break_sequence() { has_previous_ = false; }

  // Scales the unigrams and appends the bigrams; returns the end of the unigrams.
  size_t finish() {
    scale_from(begin_);
    const size_t unigrams_end = out_.index.size();
    for (uint64_t h : out_.scratch) emit(h);
    scale_from(unigrams_end);
    return unigrams_end;
  }

 private:
  void emit(uint64_t h) {
    const uint32_t slot = static_cast<uint32_t>(h) & (space_.buckets - 1);
    out_.add(kDenseFeatures + slot, (h >> 63) != 0 ? -1.0f : 1.0f);
  }
  void scale_from(size_t begin) {
    const size_t n = out_.index.size() - begin;
    if (n == 0) return;
    const float scale = 1.0f / std::sqrt(static_cast<float>(n));
    for (size_t i = begin; i < out_.value.size(); ++i) out_.value[i] *= scale;
  }

  const FeatureSpace& space_;
  SparseFeatures& out_;
  uint64_t unigram_salt_, bigram_salt_;
  bool bigrams_;
  size_t begin_;
  uint64_t previous_ = 0;
  bool has_previous_ = false;
};

struct TextStats {
  size_t bytes = 0, digits = 0, upper = 0, letters = 0, non_ascii = 0, math = 0, code = 0;
  size_t newlines = 0, questions = 0, words = 0, long_words = 0, word_bytes = 0, numbers = 0, sentences = 0;
};

// Tokenises `text` into words (runs of ASCII alphanumerics and non-ASCII
// bytes, lower-cased) and single punctuation marks, feeding both to `group`.
void scan_text(std::string_view text, HashedGroup& group, TextStats& stats) {
  stats.bytes += text.size();
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char c = bytes[i];
    const uint8_t f = kByteClass[c];
    if (f & kWordByte) {
      uint64_t h = kFnvOffset;
      const size_t start = i;
      size_t digits = 0, upper = 0, letters = 0, non_ascii = 0;
      for (; i < n; ++i) {
        const unsigned char w = bytes[i];
        const uint8_t g = kByteClass[w];
        if (!(g & kWordByte)) break;
        digits += (g >> 1) & 1;
        upper += (g >> 2) & 1;
        letters += (g >> 3) & 1;
        non_ascii += (g >> 4) & 1;
        h = (h ^ kLower[w]) * kFnvPrime;
      }
      const size_t length = i - start;
      stats.digits += digits;
      stats.upper += upper;
      stats.letters += letters;
      stats.non_ascii += non_ascii;
      ++stats.words;
      stats.numbers += (f & kDigit) ? 1 : 0;
      stats.word_bytes += length;
      stats.long_words += length >= 9 ? 1 : 0;
      group.term(h);
      continue;
    }
    ++i;
    if (f & kSpace) {
      stats.newlines += c == '\n' ? 1 : 0;
      continue;
    }
    if (c == '?') ++stats.questions;
    if ((c == '.' || c == '!' || c == '?') && (i == n || bytes[i] == ' ' || bytes[i] == '\n')) ++stats.sentences;
    stats.math += (f & kMathSymbol) ? 1 : 0;
    stats.code += (f & kCodeSymbol) ? 1 : 0;
    group.term((kFnvOffset ^ c) * kFnvPrime);
  }
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
  {
    HashedGroup group(space, out, kTaskUnigram, kTaskBigram, space.bigrams);
    if (task_turn < turns.size()) scan_text(turns[task_turn].text, group, task);
    out.task_unigrams_end = group.finish();
    out.task_end = out.index.size();
  }
  {
    // Earlier turns: unigrams only, and only the most recent
    // kContextHashBytes of them (newest first, the oldest one cut to its
    // end), which bounds the cost of long conversations; their sizes still
    // count in full in the length features.
    HashedGroup group(space, out, kContextUnigram, kContextBigram, /*bigrams=*/false);
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
      scan_text(text, group, ignored);
      group.break_sequence();
    }
    group.finish();
  }
  all.bytes += task.bytes;

  float* dense = out.value.data();
  dense[kBias] = 1.0f;
  dense[kLogChars] = log_scaled(all.bytes, 10.0f);
  dense[kLogLastUserChars] = log_scaled(task.bytes, 10.0f);
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
  dense[kLengthBin0 + length_bin(task.bytes)] = 1.0f;
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
