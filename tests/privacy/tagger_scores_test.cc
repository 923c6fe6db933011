// The tagger's score sums (src/privacy/tagger_scores.h) against plain
// sums in slot order, with and without AVX2, for every width.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "tagger_scores.h"

namespace tiergate::pii_scores {
namespace {

TEST(TaggerScoresTest, SumsEachScoresRowsInSlotOrder) {
  constexpr size_t kStride = 64, kSlots = 97;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> weight(-2.0f, 2.0f);
  std::vector<float> weights(kSlots * kStride);
  for (float& w : weights) w = weight(rng);
  for (size_t width = 8; width <= 64; width += 8) {
    for (size_t count : {size_t{0}, size_t{1}, size_t{7}, size_t{40}}) {
      std::vector<uint32_t> slots(count);
      for (uint32_t& s : slots) s = static_cast<uint32_t>(rng() % kSlots);
      std::vector<float> want(width, 0.0f);
      for (uint32_t s : slots) {
        for (size_t k = 0; k < width; ++k) want[k] += weights[s * kStride + k];
      }
      std::vector<float> got(64, -1.0f), portable(64, -1.0f);
      add_scores(weights.data(), slots, kStride, width, got.data());
      add_scores_without_avx2(weights.data(), slots, kStride, width, portable.data());
      for (size_t k = 0; k < width; ++k) {
        // Exactly: the same additions in the same order.
        EXPECT_EQ(got[k], want[k]) << "width " << width << ", " << count << " slots, score " << k;
        EXPECT_EQ(portable[k], want[k]) << "width " << width << ", " << count << " slots, score " << k;
      }
      // Nothing past the width is written.
      for (size_t k = width; k < 64; ++k) EXPECT_EQ(got[k], -1.0f);
    }
  }
}

}  // namespace
}  // namespace tiergate::pii_scores
