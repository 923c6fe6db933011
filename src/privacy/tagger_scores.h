// The PII tagger's (pii_tagger.cc) innermost loop: a token's tag scores, the
// sums of the weight rows of its feature slots. Private to the privacy module.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace tiergate::pii_scores {

// score[k] = the sum over `slots` of weights[slot * stride + k], for k <
// width: a multiple of 8, at most 64 (larger widths count as 64). Each score
// adds its rows in slot order, so that every CPU gets the same sums: four
// floats at a time (SSE2), or eight where the CPU has AVX2.
void add_scores(const float* weights, std::span<const uint32_t> slots, size_t stride, size_t width, float* score);

// The same without AVX2, as a CPU without it runs it (for tests).
void add_scores_without_avx2(const float* weights, std::span<const uint32_t> slots, size_t stride, size_t width,
                             float* score);

}  // namespace tiergate::pii_scores
