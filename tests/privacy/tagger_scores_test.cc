// The tagger's score sums (src/privacy/tagger_scores.h) against plain
// sums, with and without AVX2, for every width, through a slot-to-row index
// that sends several slots to one row, as PiiTagger's zero row does.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <vector>

#include "tagger_scores.h"

namespace tiergate::pii_scores {
namespace {

TEST(TaggerScoresTest, SumsEachScoresRows) {
  constexpr size_t kSlots = 97, kRows = 41;
  std::mt19937 rng(3);
  // The whole 16-bit range: sums of up to 60 such weights fit 32 bits.
  std::uniform_int_distribution<int> weight(std::numeric_limits<int16_t>::min(), std::numeric_limits<int16_t>::max());
  for (size_t width = 8; width <= 64; width += 8) {
    std::vector<int16_t> rows(kRows * width);
    for (int16_t& w : rows) w = static_cast<int16_t>(weight(rng));
    std::vector<uint32_t> row_of_slot(kSlots);
    for (uint32_t& r : row_of_slot) r = static_cast<uint32_t>(rng() % kRows);
    for (size_t count : {size_t{0}, size_t{1}, size_t{7}, size_t{60}}) {
      std::vector<uint32_t> slots(count);
      for (uint32_t& s : slots) s = static_cast<uint32_t>(rng() % kSlots);
      std::vector<int32_t> want(width, 0);
      for (uint32_t s : slots) {
        for (size_t k = 0; k < width; ++k) want[k] += rows[row_of_slot[s] * width + k];
      }
      std::vector<int32_t> got(64, -1), portable(64, -1);
      add_scores(rows.data(), row_of_slot.data(), slots, width, got.data());
      add_scores_without_avx2(rows.data(), row_of_slot.data(), slots, width, portable.data());
      for (size_t k = 0; k < width; ++k) {
        EXPECT_EQ(got[k], want[k]) << "width " << width << ", " << count << " slots, score " << k;
        EXPECT_EQ(portable[k], want[k]) << "width " << width << ", " << count << " slots, score " << k;
      }
      // Nothing past the width is written.
      for (size_t k = width; k < 64; ++k) {
        EXPECT_EQ(got[k], -1);
        EXPECT_EQ(portable[k], -1);
      }
    }
  }
}

}  // namespace
}  // namespace tiergate::pii_scores
