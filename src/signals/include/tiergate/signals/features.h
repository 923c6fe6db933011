// Features of a chat request for the learned routing models: a sparse vector
// in a fixed space of kDenseFeatures dense slots (lengths, character mix,
// length bins) followed by `buckets` hashed slots (signed feature hashing).
// Entries come in this order, with the ends recorded:
//   dense slots                                  [0, kDenseFeatures)
//   task turn's word unigrams                    [kDenseFeatures, task_unigrams_end)
//   task turn's word bigrams                     [task_unigrams_end, task_end)
//   earlier turns' word unigrams (apart)         [task_end, size)
//     (the most recent kContextHashBytes of them)
// The task turn's terms and text statistics (shares, counts of words, lines,
// sentences...) come from its first and last kTaskHashBytes / 2 bytes when it
// is longer than kTaskHashBytes: the opening states the task, the end asks
// the question, and the cost stays bounded. Its length counts in full.
// The task turn is the latest user turn: it states the task. Models that
// judge the task alone (intent, the benchmark gate) read its unigrams; the
// gain models read everything. Pure, deterministic, no regex.
//
// The layout is versioned (kFeatureSetVersion): an artifact trained on one
// version is refused by code of another, since weights would be misread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "tiergate/core/chat.h"

namespace tiergate {

inline constexpr int kFeatureSetVersion = 4;

// Bytes of earlier turns (newest first) that are hashed; see the layout.
inline constexpr size_t kContextHashBytes = 8192;
// Bytes of the task turn that are scanned (its head and tail); see the layout.
// Measured on the dev data (bench/router_quality.sh): 512 to 2048 and no
// limit gave the same cross-validated APGR within 0.003.
inline constexpr size_t kTaskHashBytes = 1024;

// Dense slot indices. kBias is always 1.
enum DenseFeature : uint32_t {
  kBias = 0,
  kLogChars,           // log1p(all turns' characters) / 10
  kLogLastUserChars,   // log1p(latest user turn's characters) / 10
  kLogTurns,           // log1p(number of messages)
  kLogWords,           // log1p(words in the latest user turn's scanned bytes) / 10
  kDigitShare,         // digits / characters, latest user turn
  kUpperShare,         // ASCII upper-case letters / letters
  kNonAsciiShare,      // non-ASCII bytes / bytes
  kMathSymbolShare,    // = + - * / ^ < > % / characters
  kCodeSymbolShare,    // { } ; ( ) [ ] _ # / characters
  kLogLines,           // log1p(newlines)
  kLogQuestionMarks,   // log1p('?')
  kLongWordShare,      // words of 9+ characters / words
  kMeanWordLength,     // mean word length / 10
  kHasSystemPrompt,    // 1 when any system/developer message exists
  kLogNumbers,         // log1p(words that start with a digit), latest user turn
  kLogSentences,       // log1p(sentence ends: . ! ? before a space or the end)
  kLengthBin0,         // one-hot log2 bins of the latest user turn's characters:
                       // <64, <128, <256, <512, <1024, <2048, <4096, >=4096
  kDenseFeatures = kLengthBin0 + 8,
};

// A sparse feature vector: parallel arrays, indices may repeat (values add).
// Reused across calls so that steady-state extraction does not allocate.
struct SparseFeatures {
  std::vector<uint32_t> index;
  std::vector<float> value;
  size_t task_unigrams_end = 0;  // see the layout above
  size_t task_end = 0;
  std::vector<uint64_t> scratch;  // extraction's working space

  void clear() {
    index.clear();
    value.clear();
    task_unigrams_end = task_end = 0;
  }
  void add(uint32_t i, float v) {
    index.push_back(i);
    value.push_back(v);
  }
  size_t size() const { return index.size(); }
};

// Which prefix of a SparseFeatures a model reads (see the layout above).
enum class FeatureRange { kAll, kTask, kTaskUnigrams };

inline size_t range_end(const SparseFeatures& x, FeatureRange range) {
  switch (range) {
    case FeatureRange::kAll:
      return x.size();
    case FeatureRange::kTask:
      return x.task_end;
    case FeatureRange::kTaskUnigrams:
      return x.task_unigrams_end;
  }
  return x.size();
}

struct FeatureSpace {
  uint32_t buckets = 1u << 16;  // hashed slots; a power of two
  bool bigrams = true;          // hash the task turn's word bigrams too
  uint32_t dimension() const { return kDenseFeatures + buckets; }
};

// The task turn: the index of the latest user turn; without one, the last
// message (0 for no messages).
size_t task_turn_index(const std::vector<ChatMessage>& messages);

// Fills `out` (cleared first) with the features of `messages`. Hashed values
// carry a sign from the hash and are scaled by 1/sqrt(n) for n hashed terms
// of their group, so that long texts do not dominate by size alone.
void extract_features(const FeatureSpace& space, const std::vector<ChatMessage>& messages, SparseFeatures& out);

// The same for a bare prompt (one user turn), for datasets of prompts.
void extract_prompt_features(const FeatureSpace& space, std::string_view prompt, SparseFeatures& out);

}  // namespace tiergate
