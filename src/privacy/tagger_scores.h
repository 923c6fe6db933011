// The PII tagger's (pii_tagger.cc) innermost loop: a token's tag scores, the
// sums of the weight rows of its feature slots. Private to the privacy module.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace tiergate::pii_scores {

// score[k] = the sum over `slots` of rows[row_of_slot[slot] * width + k],
// for k < width: a multiple of 8, at most 64, and the length of a row. The
// rows are 16-bit weights (PiiTagger's fixed point) and the sums 32-bit
// integers, exact, so every CPU gets the same scores: eight at a time where
// the CPU has AVX2, four otherwise.
void add_scores(const int16_t* rows, const uint32_t* row_of_slot, std::span<const uint32_t> slots, size_t width,
                int32_t* score);

// The same without AVX2, as a CPU without it runs it (for tests).
void add_scores_without_avx2(const int16_t* rows, const uint32_t* row_of_slot, std::span<const uint32_t> slots,
                             size_t width, int32_t* score);

}  // namespace tiergate::pii_scores
