#include "tiergate/signals/features.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace tiergate {
namespace {

std::vector<ChatMessage> user(const std::string& text) { return {{Role::kUser, text}}; }

SparseFeatures features_of(const std::vector<ChatMessage>& messages, FeatureSpace space = {}) {
  SparseFeatures out;
  extract_features(space, messages, out);
  return out;
}

// The dense slots, in order (extract_features writes them first, one each).
std::vector<float> dense(const SparseFeatures& f) {
  EXPECT_GE(f.index.size(), size_t{kDenseFeatures});
  std::vector<float> out;
  for (uint32_t i = 0; i < kDenseFeatures; ++i) {
    EXPECT_EQ(f.index[i], i);
    out.push_back(f.value[i]);
  }
  return out;
}

// The hashed slots with their summed values (indices may repeat).
std::map<uint32_t, float> hashed(const SparseFeatures& f) {
  std::map<uint32_t, float> out;
  for (size_t i = kDenseFeatures; i < f.index.size(); ++i) out[f.index[i]] += f.value[i];
  return out;
}

void expect_well_formed(const SparseFeatures& f, const FeatureSpace& space) {
  ASSERT_EQ(f.index.size(), f.value.size());
  for (size_t i = 0; i < f.index.size(); ++i) {
    EXPECT_LT(f.index[i], space.dimension());
    EXPECT_TRUE(std::isfinite(f.value[i])) << "slot " << f.index[i];
    if (i >= kDenseFeatures) {
      EXPECT_GE(f.index[i], uint32_t{kDenseFeatures});
    }
  }
}

TEST(FeaturesTest, Deterministic) {
  const std::vector<ChatMessage> messages = {{Role::kSystem, "You are terse."},
                                             {Role::kUser, "Prove that 2 + 2 = 4, please."},
                                             {Role::kAssistant, "Sure."},
                                             {Role::kUser, "Now do it for 3 + 3 (in Lean)."}};
  const SparseFeatures a = features_of(messages);
  const SparseFeatures b = features_of(messages);
  EXPECT_EQ(a.index, b.index);
  EXPECT_EQ(a.value, b.value);
}

TEST(FeaturesTest, ReusedBufferIsCleared) {
  SparseFeatures reused;
  extract_features({}, user(std::string(3000, 'x') + " many words here to fill the buffer"), reused);
  extract_features({}, user("short"), reused);
  const SparseFeatures fresh = features_of(user("short"));
  EXPECT_EQ(reused.index, fresh.index);
  EXPECT_EQ(reused.value, fresh.value);
}

TEST(FeaturesTest, BiasAndLengthBinsAreOneHot) {
  struct Case {
    size_t chars;
    int bin;
  };
  // Bins: <64, <128, <256, <512, <1024, <2048, <4096, >=4096.
  for (const Case& c : {Case{0, 0}, Case{10, 0}, Case{63, 0}, Case{64, 1}, Case{127, 1}, Case{128, 2},
                        Case{255, 2}, Case{256, 3}, Case{600, 4}, Case{1500, 5}, Case{2047, 5}, Case{2048, 6},
                        Case{4095, 6}, Case{4096, 7}, Case{9000, 7}}) {
    const std::vector<float> d = dense(features_of(user(std::string(c.chars, 'a'))));
    EXPECT_EQ(d[kBias], 1.0f);
    for (int bin = 0; bin < 8; ++bin) {
      EXPECT_EQ(d[kLengthBin0 + bin], bin == c.bin ? 1.0f : 0.0f) << c.chars << " chars, bin " << bin;
    }
  }
}

TEST(FeaturesTest, SharesAreFractionsOfTheTaskTurn) {
  const std::vector<float> d = dense(features_of(user("AB cd 12 {x}; é ≥ 3*4=12? Yes. Hmm!")));
  for (DenseFeature slot : {kDigitShare, kUpperShare, kNonAsciiShare, kMathSymbolShare, kCodeSymbolShare}) {
    EXPECT_GE(d[slot], 0.0f) << slot;
    EXPECT_LE(d[slot], 1.0f) << slot;
    EXPECT_GT(d[slot], 0.0f) << slot << " should see some of its characters";
  }
  EXPECT_EQ(d[kLongWordShare], 0.0f);  // no word of 9+ characters

  // Exact values on small texts.
  const std::vector<float> upper = dense(features_of(user("ABcd")));
  EXPECT_FLOAT_EQ(upper[kUpperShare], 0.5f);
  EXPECT_FLOAT_EQ(upper[kDigitShare], 0.0f);
  EXPECT_FLOAT_EQ(upper[kLogLastUserChars], std::log1p(4.0f) / 10.0f);
  EXPECT_FLOAT_EQ(upper[kLogWords], std::log1p(1.0f) / 10.0f);
  EXPECT_FLOAT_EQ(upper[kMeanWordLength], 0.4f);
  const std::vector<float> digits = dense(features_of(user("12ab")));
  EXPECT_FLOAT_EQ(digits[kDigitShare], 0.5f);
  EXPECT_FLOAT_EQ(digits[kLogNumbers], std::log1p(1.0f));
  const std::vector<float> long_words = dense(features_of(user("extraordinary cat")));
  EXPECT_FLOAT_EQ(long_words[kLongWordShare], 0.5f);
  const std::vector<float> sentences = dense(features_of(user("One. Two! Three? x.y")));
  EXPECT_FLOAT_EQ(sentences[kLogSentences], std::log1p(3.0f));
  EXPECT_FLOAT_EQ(sentences[kLogQuestionMarks], std::log1p(1.0f));
}

TEST(FeaturesTest, SystemPromptTurnsAndTotalLength) {
  const std::vector<ChatMessage> messages = {{Role::kSystem, "sys"}, {Role::kUser, "hello"}};
  const std::vector<float> d = dense(features_of(messages));
  EXPECT_EQ(d[kHasSystemPrompt], 1.0f);
  EXPECT_FLOAT_EQ(d[kLogTurns], std::log1p(2.0f));
  EXPECT_FLOAT_EQ(d[kLogChars], std::log1p(8.0f) / 10.0f);
  EXPECT_FLOAT_EQ(d[kLogLastUserChars], std::log1p(5.0f) / 10.0f);
  EXPECT_EQ(dense(features_of(user("hello")))[kHasSystemPrompt], 0.0f);
  EXPECT_EQ(dense(features_of({{Role::kDeveloper, "dev"}, {Role::kUser, "hi"}}))[kHasSystemPrompt], 1.0f);
}

TEST(FeaturesTest, TaskTurnIsTheLatestUserTurn) {
  // The assistant's reply after the user turn is context, not the task.
  const std::vector<float> d = dense(features_of({{Role::kUser, "abc"}, {Role::kAssistant, "a much longer reply"}}));
  EXPECT_FLOAT_EQ(d[kLogLastUserChars], std::log1p(3.0f) / 10.0f);
  // Without a user turn, the latest message is the task.
  const std::vector<float> none = dense(features_of({{Role::kSystem, "abcdef"}, {Role::kAssistant, "xy"}}));
  EXPECT_FLOAT_EQ(none[kLogLastUserChars], std::log1p(2.0f) / 10.0f);
}

TEST(FeaturesTest, HashedFeaturesIgnoreCase) {
  const SparseFeatures lower = features_of(user("prove the theorem of pythagoras"));
  const SparseFeatures mixed = features_of(user("Prove THE Theorem of PyThAgOrAs"));
  EXPECT_FALSE(hashed(lower).empty());
  EXPECT_EQ(hashed(lower), hashed(mixed));
  // The dense part still sees the case.
  EXPECT_EQ(dense(lower)[kUpperShare], 0.0f);
  EXPECT_GT(dense(mixed)[kUpperShare], 0.0f);
}

TEST(FeaturesTest, BigramsDependOnWordOrder) {
  const std::map<uint32_t, float> ab = hashed(features_of(user("alpha beta")));
  const std::map<uint32_t, float> ba = hashed(features_of(user("beta alpha")));
  // Two unigrams and one bigram each; the unigrams are shared.
  ASSERT_EQ(ab.size(), 3u);
  ASSERT_EQ(ba.size(), 3u);
  size_t shared = 0;
  for (const auto& [slot, value] : ab) {
    auto it = ba.find(slot);
    if (it != ba.end() && it->second == value) ++shared;
  }
  EXPECT_EQ(shared, 2u);
  EXPECT_NE(ab, ba);
}

TEST(FeaturesTest, EarlierTurnsHashApartFromTheTask) {
  // "kappa" as the task, then as an earlier turn.
  const std::map<uint32_t, float> as_task = hashed(features_of(user("kappa")));
  ASSERT_EQ(as_task.size(), 1u);
  const std::map<uint32_t, float> as_context =
      hashed(features_of({{Role::kUser, "kappa"}, {Role::kAssistant, "ok"}, {Role::kUser, "zeta"}}));
  EXPECT_EQ(as_context.count(as_task.begin()->first), 0u);
  // Swapping which turn is the latest changes the features.
  const SparseFeatures ab = features_of({{Role::kUser, "first question"}, {Role::kUser, "second question"}});
  const SparseFeatures ba = features_of({{Role::kUser, "second question"}, {Role::kUser, "first question"}});
  EXPECT_NE(hashed(ab), hashed(ba));
}

TEST(FeaturesTest, LayoutRecordsTheTaskRanges) {
  // Task "alpha beta gamma": 3 unigrams then 2 bigrams; earlier turns
  // "kappa beta" and "x y": 4 unigrams, no bigrams.
  const SparseFeatures f = features_of(
      {{Role::kUser, "kappa beta"}, {Role::kAssistant, "x y"}, {Role::kUser, "alpha beta gamma"}});
  EXPECT_EQ(f.task_unigrams_end, size_t{kDenseFeatures} + 3);
  EXPECT_EQ(f.task_end, f.task_unigrams_end + 2);
  EXPECT_EQ(f.size(), f.task_end + 4);
  // Each block is scaled by 1/sqrt(its count).
  for (size_t i = kDenseFeatures; i < f.size(); ++i) {
    const float n = i < f.task_unigrams_end ? 3.0f : i < f.task_end ? 2.0f : 4.0f;
    EXPECT_FLOAT_EQ(std::fabs(f.value[i]), 1.0f / std::sqrt(n)) << i;
  }
  const SparseFeatures single = features_of(user("one"));
  EXPECT_EQ(single.task_unigrams_end, size_t{kDenseFeatures} + 1);
  EXPECT_EQ(single.task_end, single.task_unigrams_end);
  EXPECT_EQ(single.size(), single.task_end);
}

TEST(FeaturesTest, EmptyMessagesAndEmptyText) {
  const FeatureSpace space;
  for (const std::vector<ChatMessage>& messages :
       {std::vector<ChatMessage>{}, user(""), std::vector<ChatMessage>{{Role::kAssistant, ""}}}) {
    const SparseFeatures f = features_of(messages);
    expect_well_formed(f, space);
    EXPECT_EQ(f.index.size(), size_t{kDenseFeatures});  // nothing hashed
    const std::vector<float> d = dense(f);
    EXPECT_EQ(d[kBias], 1.0f);
    EXPECT_EQ(d[kLengthBin0], 1.0f);
    EXPECT_EQ(d[kLogLastUserChars], 0.0f);
    EXPECT_EQ(d[kMeanWordLength], 0.0f);
  }
  EXPECT_EQ(dense(features_of({}))[kLogTurns], 0.0f);
}

TEST(FeaturesTest, NonAsciiAndInvalidUtf8DoNotBreakExtraction) {
  const FeatureSpace space;
  const std::string nul_inside("a\0b", 3);
  for (const std::string& text : {std::string("caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"),
                                  std::string("\xff\xfe\x80\x80 broken \xe2\x82"), std::string("\xc3"),
                                  std::string(5000, '\x80'), nul_inside}) {
    const SparseFeatures f = features_of(user(text));
    expect_well_formed(f, space);
    const std::vector<float> d = dense(f);
    EXPECT_GE(d[kNonAsciiShare], 0.0f);
    EXPECT_LE(d[kNonAsciiShare], 1.0f);
  }
  EXPECT_FLOAT_EQ(dense(features_of(user(std::string(10, '\x80'))))[kNonAsciiShare], 1.0f);
}

TEST(FeaturesTest, SmallSpaceKeepsIndicesInRange) {
  const FeatureSpace space{.buckets = 16};
  const SparseFeatures f =
      features_of({{Role::kSystem, "be brief"}, {Role::kUser, "some words and more words, and (punctuation)!"}}, space);
  expect_well_formed(f, space);
  EXPECT_GT(f.index.size(), size_t{kDenseFeatures});
}

TEST(FeaturesTest, PromptFeaturesEqualOneUserMessage) {
  const FeatureSpace space{.buckets = 1u << 12};
  for (const std::string& prompt :
       {std::string(), std::string("hello"), std::string("Summarize this: the cat sat on the mat. Twice!"),
        std::string("x = 3 * (y + 2); print(x)\nnext line?"), std::string("caf\xc3\xa9 \xff")}) {
    SparseFeatures from_prompt, from_messages;
    extract_prompt_features(space, prompt, from_prompt);
    extract_features(space, user(prompt), from_messages);
    EXPECT_EQ(from_prompt.index, from_messages.index) << prompt;
    EXPECT_EQ(from_prompt.value, from_messages.value) << prompt;
  }
}

}  // namespace
}  // namespace tiergate

namespace tiergate {
namespace {

// Long conversations: only the most recent kContextHashBytes of earlier turns
// are hashed, so the feature count is bounded; their length still counts.
TEST(FeaturesTest, EarlierTurnsAreHashedUpToABudgetNewestFirst) {
  std::string word_block;
  while (word_block.size() < kContextHashBytes) word_block += "alpha ";
  std::vector<ChatMessage> long_history;
  for (int i = 0; i < 4; ++i) {
    long_history.push_back({Role::kUser, word_block});
    long_history.push_back({Role::kAssistant, word_block});
  }
  long_history.push_back({Role::kUser, "final question"});
  const SparseFeatures f = features_of(long_history);
  const size_t context_terms = f.size() - f.task_end;
  EXPECT_LE(context_terms, kContextHashBytes / 6 + 2);  // one term per "alpha " at most
  EXPECT_GT(context_terms, 0u);

  std::vector<ChatMessage> short_history(long_history.end() - 3, long_history.end());
  const SparseFeatures g = features_of(short_history);
  EXPECT_GT(f.value[kLogChars], g.value[kLogChars]) << "all turns count in the length";

  // The newest earlier turn is hashed first: changing the oldest turn changes nothing.
  std::vector<ChatMessage> changed = long_history;
  changed.front().content = "completely different words here";
  const SparseFeatures h = features_of(changed);
  EXPECT_EQ(std::vector<uint32_t>(h.index.begin() + static_cast<std::ptrdiff_t>(h.task_end), h.index.end()),
            std::vector<uint32_t>(f.index.begin() + static_cast<std::ptrdiff_t>(f.task_end), f.index.end()));
}

}  // namespace
}  // namespace tiergate

namespace tiergate {
namespace {

// A task turn longer than kTaskHashBytes is read at its head and tail: its
// middle does not change the hashed terms or the text statistics, its length
// counts in full.
TEST(FeaturesTest, LongTaskTurnIsReadAtItsHeadAndTail) {
  std::string filler;
  while (filler.size() < 4 * kTaskHashBytes) filler += "middle words 42 here. ";
  const std::string head = "Explain the following carefully: ";
  const std::string tail = " What is the answer?";
  const std::string a = head + filler + tail;
  std::string b = a;
  b.replace(b.size() / 2 - 100, 200, std::string(200, 'Z'));  // the middle only
  const SparseFeatures fa = features_of(user(a));
  const SparseFeatures fb = features_of(user(b));
  EXPECT_EQ(fa.index, fb.index);
  EXPECT_EQ(fa.value, fb.value);
  EXPECT_LE(fa.task_end - kDenseFeatures, 2 * kTaskHashBytes) << "bounded work";

  const SparseFeatures longer = features_of(user(head + filler + filler + tail));
  EXPECT_GT(dense(longer)[kLogLastUserChars], dense(fa)[kLogLastUserChars]);
  EXPECT_EQ(dense(longer)[kLengthBin0 + 7], 1.0f);

  // The tail is read: a different question changes the terms.
  const SparseFeatures other_tail = features_of(user(head + filler + " Why is the sky blue?"));
  EXPECT_NE(hashed(other_tail), hashed(fa));
}

// Words longer than one 8-byte hashing chunk, and words at the very end of
// the text, hash by all their bytes and case-insensitively.
TEST(FeaturesTest, LongWordsHashByAllTheirBytes) {
  EXPECT_EQ(hashed(features_of(user("Internationalization"))), hashed(features_of(user("internationalizatioN"))));
  EXPECT_NE(hashed(features_of(user("internationalization"))), hashed(features_of(user("internationalizatiox"))));
  EXPECT_NE(hashed(features_of(user("abcdefgh"))), hashed(features_of(user("abcdefghi"))));
  EXPECT_NE(hashed(features_of(user("abcdefgh1"))), hashed(features_of(user("abcdefgh2"))));
  const std::string at_end = std::string(60, ' ') + "tail";
  EXPECT_EQ(hashed(features_of(user(at_end))), hashed(features_of(user("TAIL"))));
}

}  // namespace
}  // namespace tiergate
