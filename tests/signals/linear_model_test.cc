#include "tiergate/signals/linear_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "synthetic.h"

namespace tiergate {
namespace {

using testing::Lcg;

constexpr FeatureSpace kSpace{.buckets = 1u << 12};

// Prompts of filler words with one of three keyword groups; label = group.
constexpr std::string_view kGroups[3][3] = {{"theorem", "lemma", "integral"},
                                             {"python", "compile", "function"},
                                             {"recipe", "bake", "flour"}};

struct Labelled {
  std::vector<SparseFeatures> rows;
  std::vector<int> labels;
};

Labelled keyword_set(size_t n, size_t classes, uint64_t seed) {
  Lcg rng(seed);
  Labelled out;
  for (size_t i = 0; i < n; ++i) {
    const int label = static_cast<int>(i % classes);
    std::string prompt = testing::synthetic_prompt(rng, false, 8);
    prompt.append(" ").append(kGroups[label][rng.below(3)]);
    prompt.append(" ").append(testing::synthetic_prompt(rng, false, 4));
    out.rows.emplace_back();
    extract_prompt_features(kSpace, prompt, out.rows.back());
    out.labels.push_back(label);
  }
  return out;
}

std::vector<float> as_float(const std::vector<int>& labels) { return {labels.begin(), labels.end()}; }

TEST(LinearModelTest, LogitIsTheWeightedSumAndIndicesRepeat) {
  std::vector<float> weights(kDenseFeatures + 4, 0.0f);
  weights[0] = 0.5f;
  weights[kDenseFeatures + 1] = -1.0f;
  LogisticModel model(weights);
  SparseFeatures x;
  x.add(0, 1.0f);
  x.add(kDenseFeatures + 1, 2.0f);
  x.add(kDenseFeatures + 1, 1.0f);  // adds to the same slot
  EXPECT_FLOAT_EQ(model.logit(x), 0.5f - 3.0f);
  EXPECT_FLOAT_EQ(model.probability(x), 1.0f / (1.0f + std::exp(2.5f)));
  EXPECT_FLOAT_EQ(LogisticModel(kDenseFeatures + 4).probability(x), 0.5f);
  // Far logits saturate without overflow.
  weights[0] = 1000.0f;
  EXPECT_EQ(LogisticModel(weights).probability(x), 1.0f);
  weights[0] = -1000.0f;
  EXPECT_EQ(LogisticModel(weights).probability(x), 0.0f);
}

TEST(LinearModelTest, LogisticLearnsASeparableSet) {
  // Positive: the "theorem" group; negative: the "recipe" group.
  Labelled train = keyword_set(300, 3, 1), test = keyword_set(150, 3, 2);
  auto binary = [](const Labelled& set) {
    Labelled out;
    for (size_t i = 0; i < set.rows.size(); ++i) {
      if (set.labels[i] == 1) continue;
      out.rows.push_back(set.rows[i]);
      out.labels.push_back(set.labels[i] == 0 ? 1 : 0);
    }
    return out;
  };
  train = binary(train);
  test = binary(test);
  const std::vector<float> labels = as_float(train.labels);
  const LogisticModel model = train_logistic(train.rows, labels, {}, kSpace.dimension(), TrainOptions{});
  ASSERT_EQ(model.dimension(), kSpace.dimension());
  size_t correct = 0;
  for (size_t i = 0; i < test.rows.size(); ++i) {
    const float p = model.probability(test.rows[i]);
    EXPECT_GE(p, 0.0f);
    EXPECT_LE(p, 1.0f);
    correct += (p > 0.5f) == (test.labels[i] == 1) ? 1 : 0;
  }
  EXPECT_GE(static_cast<double>(correct) / static_cast<double>(test.rows.size()), 0.95);
}

TEST(LinearModelTest, RowWeightsScaleTheGradient) {
  const Labelled train = keyword_set(60, 2, 3);
  const std::vector<float> labels = as_float(train.labels);
  const std::vector<float> zero(train.rows.size(), 0.0f);
  const LogisticModel untouched = train_logistic(train.rows, labels, zero, kSpace.dimension(), TrainOptions{});
  for (float w : untouched.weights()) ASSERT_EQ(w, 0.0f);
  const std::vector<float> ones(train.rows.size(), 1.0f);
  const LogisticModel with_ones = train_logistic(train.rows, labels, ones, kSpace.dimension(), TrainOptions{});
  const LogisticModel with_none = train_logistic(train.rows, labels, {}, kSpace.dimension(), TrainOptions{});
  EXPECT_EQ(with_ones.weights(), with_none.weights());
}

TEST(LinearModelTest, SoftmaxLearnsThreeClassesAndSumsToOne) {
  const Labelled train = keyword_set(300, 3, 4), test = keyword_set(150, 3, 5);
  const SoftmaxModel model = train_softmax(train.rows, train.labels, {}, kSpace.dimension(), 3, FeatureRange::kAll, TrainOptions{});
  ASSERT_EQ(model.classes(), 3u);
  ASSERT_EQ(model.dimension(), kSpace.dimension());
  size_t correct = 0;
  std::vector<float> p(3);
  for (size_t i = 0; i < test.rows.size(); ++i) {
    model.probabilities(test.rows[i], p);
    float sum = 0;
    for (float q : p) {
      EXPECT_GE(q, 0.0f);
      EXPECT_LE(q, 1.0f);
      sum += q;
    }
    EXPECT_NEAR(sum, 1.0f, 1e-5f);
    const int predicted = static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
    correct += predicted == test.labels[i] ? 1 : 0;
  }
  EXPECT_GE(static_cast<double>(correct) / static_cast<double>(test.rows.size()), 0.95);
}

TEST(LinearModelTest, UntrainedSoftmaxIsUniform) {
  const SoftmaxModel model(kSpace.dimension(), 4, FeatureRange::kAll);
  SparseFeatures x;
  extract_prompt_features(kSpace, "anything at all", x);
  std::vector<float> p(4);
  model.probabilities(x, p);
  for (float q : p) EXPECT_FLOAT_EQ(q, 0.25f);
}

TEST(LinearModelTest, FoldIndex) {
  constexpr uint32_t kBuckets = 16;
  EXPECT_EQ(fold_index(0, kBuckets), 0u);
  EXPECT_EQ(fold_index(kDenseFeatures - 1, kBuckets), kDenseFeatures - 1);  // dense slots stay
  EXPECT_EQ(fold_index(kDenseFeatures, kBuckets), uint32_t{kDenseFeatures});
  EXPECT_EQ(fold_index(kDenseFeatures + 5, kBuckets), kDenseFeatures + 5);
  EXPECT_EQ(fold_index(kDenseFeatures + kBuckets, kBuckets), uint32_t{kDenseFeatures});
  EXPECT_EQ(fold_index(kDenseFeatures + 3 * kBuckets + 7, kBuckets), kDenseFeatures + 7);
  for (uint32_t i = 0; i < kDenseFeatures + 1000; ++i) EXPECT_LT(fold_index(i, kBuckets), kDenseFeatures + kBuckets);
  // Same buckets as the space: the identity.
  for (uint32_t i = 0; i < kSpace.dimension(); i += 97) EXPECT_EQ(fold_index(i, kSpace.buckets), i);
}

TEST(LinearModelTest, SmallerSoftmaxReadsFeaturesFolded) {
  constexpr uint32_t kBuckets = 16;
  SoftmaxModel model(kDenseFeatures + kBuckets, 3, FeatureRange::kAll);
  Lcg rng(9);
  for (float& w : model.mutable_weights()) w = static_cast<float>(rng.below(1000)) / 500.0f - 1.0f;
  SparseFeatures wide, narrow;
  wide.add(kBias, 1.0f);
  narrow.add(kBias, 1.0f);
  wide.add(kDenseFeatures + 2 * kBuckets + 3, 0.7f);
  narrow.add(kDenseFeatures + 3, 0.7f);
  std::vector<float> p_wide(3), p_narrow(3);
  model.probabilities(wide, p_wide);
  model.probabilities(narrow, p_narrow);
  EXPECT_EQ(p_wide, p_narrow);
}

TEST(LinearModelTest, SoftmaxReadsOnlyItsRange) {
  // Dense bias, one task unigram, one task bigram, one earlier-turn unigram.
  SparseFeatures x;
  x.add(kBias, 1.0f);
  x.add(kDenseFeatures + 1, 1.0f);
  x.task_unigrams_end = x.size();
  x.add(kDenseFeatures + 2, 1.0f);
  x.task_end = x.size();
  x.add(kDenseFeatures + 3, 1.0f);
  auto p0 = [&](FeatureRange range, uint32_t slot) {
    SoftmaxModel model(kDenseFeatures + 4, 2, range);
    model.mutable_weights()[size_t{slot} * 2] = 3.0f;  // class 0 on `slot`
    std::vector<float> p(2);
    model.probabilities(x, p);
    return p[0];
  };
  const float seen = 1.0f / (1.0f + std::exp(-3.0f));
  EXPECT_FLOAT_EQ(p0(FeatureRange::kAll, kDenseFeatures + 3), seen);
  EXPECT_FLOAT_EQ(p0(FeatureRange::kTask, kDenseFeatures + 3), 0.5f);
  EXPECT_FLOAT_EQ(p0(FeatureRange::kTask, kDenseFeatures + 2), seen);
  EXPECT_FLOAT_EQ(p0(FeatureRange::kTaskUnigrams, kDenseFeatures + 2), 0.5f);
  EXPECT_FLOAT_EQ(p0(FeatureRange::kTaskUnigrams, kDenseFeatures + 1), seen);
  EXPECT_FLOAT_EQ(p0(FeatureRange::kTaskUnigrams, kBias), seen);
}

TEST(LinearModelTest, TrainingIsDeterministicForASeed) {
  const Labelled train = keyword_set(200, 3, 6);
  std::vector<float> binary(train.labels.size());
  for (size_t i = 0; i < binary.size(); ++i) binary[i] = train.labels[i] == 0 ? 1.0f : 0.0f;
  TrainOptions options;
  options.seed = 42;
  const LogisticModel a = train_logistic(train.rows, binary, {}, kSpace.dimension(), options);
  const LogisticModel b = train_logistic(train.rows, binary, {}, kSpace.dimension(), options);
  EXPECT_EQ(a.weights(), b.weights());
  const SoftmaxModel sa = train_softmax(train.rows, train.labels, {}, kSpace.dimension(), 3, FeatureRange::kAll, options);
  const SoftmaxModel sb = train_softmax(train.rows, train.labels, {}, kSpace.dimension(), 3, FeatureRange::kAll, options);
  EXPECT_EQ(sa.weights(), sb.weights());
  // Another seed shuffles differently, so the weights differ.
  options.seed = 43;
  EXPECT_NE(train_logistic(train.rows, binary, {}, kSpace.dimension(), options).weights(), a.weights());
  EXPECT_NE(train_softmax(train.rows, train.labels, {}, kSpace.dimension(), 3, FeatureRange::kAll, options).weights(), sa.weights());
}

}  // namespace
}  // namespace tiergate
