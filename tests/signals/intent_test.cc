#include "tiergate/signals/intent.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "synthetic.h"
#include "tiergate/signals/linear_model.h"

namespace tiergate {
namespace {

constexpr FeatureSpace kSpace{.buckets = 1u << 12};

float sum(const IntentResult& r) { return std::accumulate(r.probabilities.begin(), r.probabilities.end(), 0.0f); }

size_t at(Intent intent) { return static_cast<size_t>(intent); }

IntentResult classify_text(const IntentClassifier& classifier, const std::string& text) {
  SparseFeatures features;
  extract_prompt_features(kSpace, text, features);
  return classifier.classify_text(text, features);
}

TEST(IntentTest, CueRulesAtTheStart) {
  struct Case {
    const char* text;
    Intent intent;
  };
  for (const Case& c : {Case{"Summarize this article for me", Intent::kSummarization},
                        Case{"summarise the meeting notes", Intent::kSummarization},
                        Case{"TL;DR of the thread below", Intent::kSummarization},
                        Case{"Please rewrite the following paragraph", Intent::kRewrite},
                        Case{"Translate this into French: bonjour", Intent::kRewrite},
                        Case{"Fix the grammar: me and him goes", Intent::kRewrite},
                        Case{"Classify these reviews as positive or negative", Intent::kClassification},
                        Case{"What is the sentiment of this tweet?", Intent::kClassification},
                        Case{"Extract the dates from this email", Intent::kExtraction},
                        Case{"List all the people named in the text", Intent::kExtraction},
                        Case{"Act as a pirate and greet me", Intent::kRoleplay},
                        Case{"pretend you are my grandmother", Intent::kRoleplay},
                        Case{"SUMMARIZE IN CAPITALS", Intent::kSummarization},
                        Case{"\n\n  (rephrase) this", Intent::kRewrite}}) {
    const std::optional<Intent> cue = intent_cue(c.text);
    ASSERT_TRUE(cue.has_value()) << c.text;
    EXPECT_EQ(*cue, c.intent) << c.text;
  }
}

TEST(IntentTest, EarliestCueWins) {
  EXPECT_EQ(intent_cue("Rewrite, then summarize, this text"), Intent::kRewrite);
  EXPECT_EQ(intent_cue("Summarize, then rewrite, this text"), Intent::kSummarization);
}

TEST(IntentTest, CuesMatchAtWordStartsOnly) {
  for (const char* text : {"Declassify the memo", "Why do people misclassify whales?", "Make it compact as possible",
                           "hello, how are you?", "What is the capital of France?", ""}) {
    EXPECT_EQ(intent_cue(text), std::nullopt) << text;
  }
}

TEST(IntentTest, CuesOnlyWithinTheWindow) {
  // A cue that starts within the first 160 bytes counts, one that starts later does not.
  EXPECT_EQ(intent_cue(std::string(159, ' ') + "summarize it"), Intent::kSummarization);
  EXPECT_EQ(intent_cue(std::string(160, ' ') + "summarize it"), std::nullopt);
  EXPECT_EQ(intent_cue(std::string(300, ' ') + "summarize it"), std::nullopt);
  const std::string long_opening =
      "Here is a long story about a farmer and his three sons who all went to the market on a sunny day to sell "
      "their goods and buy seeds for the next season, and then: ";
  ASSERT_GT(long_opening.size(), 160u);
  EXPECT_EQ(intent_cue(long_opening + "summarize the story above."), std::nullopt);
}

TEST(IntentTest, CategoryTable) {
  EXPECT_EQ(intent_for_category("creative_writing"), Intent::kWriting);
  EXPECT_EQ(intent_for_category("stem"), Intent::kKnowledgeQa);
  EXPECT_EQ(intent_for_category("humanities"), Intent::kKnowledgeQa);
  EXPECT_EQ(intent_for_category("mmlu"), Intent::kKnowledgeQa);
  EXPECT_EQ(intent_for_category("gsm8k"), Intent::kMath);
  EXPECT_EQ(intent_for_category("mbpp"), Intent::kCoding);
  EXPECT_EQ(intent_for_category("generic"), Intent::kChat);
  EXPECT_EQ(intent_for_category("fermi"), Intent::kReasoning);
  EXPECT_EQ(intent_for_category("translation"), Intent::kRewrite);
  EXPECT_EQ(intent_for_category("unknown"), std::nullopt);
  EXPECT_EQ(intent_for_category(""), std::nullopt);
  EXPECT_EQ(intent_for_category("MMLU"), std::nullopt);  // names are matched exactly
  // The taxonomy's own names map onto themselves.
  for (size_t k = 0; k < kIntentCount; ++k) {
    const Intent intent = static_cast<Intent>(k);
    EXPECT_EQ(intent_for_category(intent_name(intent)), intent);
  }
}

TEST(IntentTest, NamesRoundTrip) {
  for (size_t k = 0; k < kIntentCount; ++k) {
    const Intent intent = static_cast<Intent>(k);
    EXPECT_FALSE(intent_name(intent).empty());
    EXPECT_EQ(parse_intent(intent_name(intent)), intent);
  }
  EXPECT_EQ(intent_name(Intent::kKnowledgeQa), "knowledge_qa");
  EXPECT_EQ(intent_name(Intent::kCoding), "coding");
  EXPECT_EQ(parse_intent("Chat"), std::nullopt);
  EXPECT_EQ(parse_intent("poetry"), std::nullopt);
  EXPECT_EQ(parse_intent(""), std::nullopt);
}

TEST(IntentTest, TaskTextIsTheLatestUserTurn) {
  EXPECT_EQ(task_text({}), "");
  EXPECT_EQ(task_text({{Role::kUser, "first"}, {Role::kAssistant, "reply"}, {Role::kUser, "second"},
                       {Role::kAssistant, "another"}}),
            "second");
  EXPECT_EQ(task_text({{Role::kSystem, "sys"}, {Role::kAssistant, "last"}}), "last");
}

TEST(IntentTest, WithoutModelEverythingElseIsChat) {
  const IntentClassifier classifier;
  EXPECT_FALSE(classifier.has_model());
  const IntentResult r = classify_text(classifier, "What is the capital of France?");
  EXPECT_EQ(r.intent, Intent::kChat);
  EXPECT_FLOAT_EQ(r.confidence, 1.0f);
  EXPECT_FALSE(r.from_cue);
  EXPECT_FLOAT_EQ(sum(r), 1.0f);
}

TEST(IntentTest, WithoutModelCuesDecide) {
  const IntentClassifier classifier;
  const IntentResult r = classify_text(classifier, "Summarize the text below.");
  EXPECT_EQ(r.intent, Intent::kSummarization);
  EXPECT_FLOAT_EQ(r.confidence, 0.75f);
  EXPECT_TRUE(r.from_cue);
  EXPECT_FLOAT_EQ(r.probabilities[at(Intent::kSummarization)], 0.75f);
  EXPECT_FLOAT_EQ(r.probabilities[at(Intent::kChat)], 0.25f);
  EXPECT_NEAR(sum(r), 1.0f, 1e-6f);
}

TEST(IntentTest, ClassifyReadsTheTaskTurnOnly) {
  const IntentClassifier classifier;
  SparseFeatures features;
  const std::vector<ChatMessage> earlier_cue = {
      {Role::kUser, "Summarize this"}, {Role::kAssistant, "Done."}, {Role::kUser, "thanks"}};
  extract_features(kSpace, earlier_cue, features);
  EXPECT_EQ(classifier.classify(earlier_cue, features).intent, Intent::kChat);
  const std::vector<ChatMessage> latest_cue = {{Role::kSystem, "Translate everything"}, {Role::kUser, "Classify: spam?"}};
  extract_features(kSpace, latest_cue, features);
  EXPECT_EQ(classifier.classify(latest_cue, features).intent, Intent::kClassification);
}

// A model that always says math, with the given bias weight.
IntentClassifier math_model(float bias) {
  SoftmaxModel model(kSpace.dimension(), kIntentCount, FeatureRange::kTask);
  model.mutable_weights()[kBias * kIntentCount + at(Intent::kMath)] = bias;
  return IntentClassifier(std::move(model));
}

TEST(IntentTest, ConfidentModelOverridesCue) {
  // P(math) = e^10 / (e^10 + 10) > 0.9: the model's answer stands.
  const IntentResult r = classify_text(math_model(10.0f), "Summarize the text below.");
  EXPECT_EQ(r.intent, Intent::kMath);
  EXPECT_FALSE(r.from_cue);
  EXPECT_GT(r.confidence, 0.9f);
  EXPECT_NEAR(sum(r), 1.0f, 1e-5f);
}

TEST(IntentTest, UnsureModelYieldsToCueAndKeepsProportions) {
  // P(math) = e / (e + 10) ~ 0.21, every other class 1 / (e + 10).
  const IntentResult r = classify_text(math_model(1.0f), "Summarize the text below.");
  EXPECT_EQ(r.intent, Intent::kSummarization);
  EXPECT_TRUE(r.from_cue);
  EXPECT_FLOAT_EQ(r.confidence, 0.75f);
  EXPECT_NEAR(sum(r), 1.0f, 1e-5f);
  // The others share 0.25 in their old proportions: math is e times chat.
  EXPECT_NEAR(r.probabilities[at(Intent::kMath)] / r.probabilities[at(Intent::kChat)], std::exp(1.0f), 1e-4f);
  // Without a cue the model decides.
  const IntentResult plain = classify_text(math_model(1.0f), "hello there");
  EXPECT_EQ(plain.intent, Intent::kMath);
  EXPECT_FALSE(plain.from_cue);
}

TEST(IntentTest, TrainedModelPredictsTheRightClass) {
  // Labelled synthetic prompts: a keyword per class among filler words, no cue phrases.
  struct ClassWords {
    Intent intent;
    std::vector<std::string> words;
  };
  const std::vector<ClassWords> classes = {
      {Intent::kMath, {"equation", "sum", "multiply", "fraction"}},
      {Intent::kCoding, {"python", "compile", "javascript", "function"}},
      {Intent::kKnowledgeQa, {"capital", "history", "century", "president"}},
      {Intent::kWriting, {"poem", "sonnet", "novel", "essay"}},
  };
  testing::Lcg rng(5);
  auto prompt_for = [&](const ClassWords& c) {
    std::string prompt = testing::synthetic_prompt(rng, false, 6);
    prompt.append(" ").append(c.words[rng.below(c.words.size())]);
    prompt.append(" ").append(testing::synthetic_prompt(rng, false, 3));
    return prompt;
  };
  std::vector<SparseFeatures> rows;
  std::vector<int> labels;
  for (int i = 0; i < 400; ++i) {
    const ClassWords& c = classes[static_cast<size_t>(i) % classes.size()];
    rows.emplace_back();
    extract_prompt_features(kSpace, prompt_for(c), rows.back());
    labels.push_back(static_cast<int>(c.intent));
  }
  const IntentClassifier classifier(train_softmax(rows, labels, {}, kSpace.dimension(), kIntentCount, FeatureRange::kTask,
                                                  TrainOptions{.epochs = 8, .learning_rate = 0.3f}));
  ASSERT_TRUE(classifier.has_model());
  int correct = 0, total = 0;
  for (int i = 0; i < 80; ++i) {
    const ClassWords& c = classes[static_cast<size_t>(i) % classes.size()];
    const std::string text = prompt_for(c);
    ASSERT_EQ(intent_cue(text), std::nullopt) << text;
    const IntentResult r = classify_text(classifier, text);
    EXPECT_NEAR(sum(r), 1.0f, 1e-5f);
    correct += r.intent == c.intent ? 1 : 0;
    ++total;
  }
  EXPECT_GE(correct, total * 95 / 100);
}

}  // namespace
}  // namespace tiergate
