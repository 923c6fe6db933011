#include "tiergate/signals/packed_linear.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "synthetic.h"
#include "tiergate/signals/linear_model.h"

namespace tiergate {
namespace {

constexpr FeatureSpace kSpace{.buckets = 1u << 12};

// Float weights for `outputs` models of `buckets` hashed slots and `extra`
// further inputs, feature-major like SoftmaxModel: w[feature * outputs + k].
std::vector<float> random_weights(uint32_t outputs, uint32_t buckets, uint32_t extra, uint64_t seed) {
  testing::Lcg rng(seed);
  std::vector<float> w(size_t{kDenseFeatures + buckets + extra} * outputs);
  for (float& x : w) x = (static_cast<float>(rng.below(20001)) - 10000.0f) / 10000.0f;
  return w;
}

// The reference: float sums over the range, hashed slots folded.
std::vector<double> reference_logits(const std::vector<float>& w, uint32_t outputs, uint32_t buckets,
                                     const SparseFeatures& x, FeatureRange range, const std::vector<float>& extra,
                                     std::vector<double>* magnitude) {
  std::vector<double> z(outputs, 0.0);
  magnitude->assign(outputs, 0.0);
  for (size_t i = 0; i < range_end(x, range); ++i) {
    const uint32_t f = fold_index(x.index[i], buckets);
    for (uint32_t k = 0; k < outputs; ++k) {
      z[k] += double{w[size_t{f} * outputs + k]} * x.value[i];
      (*magnitude)[k] += std::fabs(double{w[size_t{f} * outputs + k]} * x.value[i]);
    }
  }
  for (size_t e = 0; e < extra.size(); ++e) {
    const size_t f = kDenseFeatures + buckets + e;
    for (uint32_t k = 0; k < outputs; ++k) z[k] += double{w[f * outputs + k]} * extra[e];
  }
  return z;
}

SparseFeatures features_of(const std::string& task, const std::string& earlier) {
  SparseFeatures x;
  extract_features(kSpace, {{Role::kUser, earlier}, {Role::kAssistant, "ok"}, {Role::kUser, task}}, x);
  return x;
}

struct Shape {
  uint32_t outputs, buckets, extra;
  FeatureRange range;
};

// Every block count (1..3), folded and unfolded models, each range, with and
// without extra inputs: the packed logits equal the float sums up to the
// bfloat16 rounding of hashed weights (relative 2^-8 of their magnitude).
TEST(PackedLinearTest, MatchesFloatSums) {
  testing::Lcg rng(3);
  const std::vector<Shape> shapes = {{1, kSpace.buckets, 0, FeatureRange::kAll},
                                     {11, 1u << 8, 0, FeatureRange::kTaskUnigrams},
                                     {20, kSpace.buckets, 22, FeatureRange::kAll},
                                     {33, 1u << 10, 4, FeatureRange::kTask},
                                     {48, kSpace.buckets, 0, FeatureRange::kAll}};
  for (const Shape& shape : shapes) {
    const std::vector<float> w = random_weights(shape.outputs, shape.buckets, shape.extra, shape.outputs);
    const PackedLinear packed(shape.outputs, shape.buckets, shape.extra, shape.range,
                              [&](uint32_t f, uint32_t k) { return w[size_t{f} * shape.outputs + k]; });
    ASSERT_EQ(packed.outputs(), shape.outputs);
    for (int round = 0; round < 5; ++round) {
      const SparseFeatures x =
          features_of(testing::synthetic_prompt(rng, round % 2 == 0, 30), testing::synthetic_prompt(rng, true, 20));
      std::vector<float> extra(shape.extra);
      for (size_t e = 0; e < extra.size(); ++e) extra[e] = static_cast<float>(e + 1) / 10.0f;
      std::vector<double> magnitude;
      const std::vector<double> want =
          reference_logits(w, shape.outputs, shape.buckets, x, shape.range, extra, &magnitude);
      std::vector<float> got(shape.outputs, -99.0f);
      packed.logits(x, extra, got);
      for (uint32_t k = 0; k < shape.outputs; ++k) {
        EXPECT_NEAR(got[k], want[k], magnitude[k] / 256.0 + 1e-5)
            << "outputs " << shape.outputs << " output " << k << " round " << round;
      }
    }
  }
}

// A range stops where the layout says: a task-unigram model ignores bigrams
// and earlier turns entirely.
TEST(PackedLinearTest, RangeLimitsWhatIsRead) {
  const uint32_t outputs = 2;
  const std::vector<float> w = random_weights(outputs, kSpace.buckets, 0, 9);
  const PackedLinear packed(outputs, kSpace.buckets, 0, FeatureRange::kTaskUnigrams,
                            [&](uint32_t f, uint32_t k) { return w[size_t{f} * outputs + k]; });
  const SparseFeatures a = features_of("solve the integral please", "first history");
  const SparseFeatures b = features_of("solve the integral please", "entirely different earlier words here");
  std::vector<float> za(outputs), zb(outputs);
  packed.logits(a, {}, za);
  packed.logits(b, {}, zb);
  // Only kLogChars (all turns' length) differs among what a task model reads.
  const float length_part = w[size_t{kLogChars} * outputs] * (a.value[kLogChars] - b.value[kLogChars]);
  EXPECT_NEAR(za[0] - zb[0], length_part, 1e-4);
}

TEST(PackedLinearTest, EmptyByDefault) {
  const PackedLinear packed;
  EXPECT_TRUE(packed.empty());
  EXPECT_EQ(packed.outputs(), 0u);
}

}  // namespace
}  // namespace tiergate
