#include "tagger_scores.h"

#include "scan.h"

#include <algorithm>
#include <array>

#if defined(__x86_64__) || defined(__SSE2__)
#include <immintrin.h>
#endif

namespace tiergate::pii_scores {
namespace {

// The sums for k < Width, in registers.
template <size_t Width>
void sum_rows(const float* weights, std::span<const uint32_t> slots, size_t stride, float* score) {
#if defined(__SSE2__)
  __m128 sum[Width / 4];
  for (__m128& s : sum) s = _mm_setzero_ps();
  for (uint32_t s : slots) {
    const float* row = weights + size_t{s} * stride;
    for (size_t k = 0; k < Width / 4; ++k) sum[k] = _mm_add_ps(sum[k], _mm_loadu_ps(row + 4 * k));
  }
  for (size_t k = 0; k < Width / 4; ++k) _mm_storeu_ps(score + 4 * k, sum[k]);
#else
  std::array<float, Width> sum{};
  for (uint32_t s : slots) {
    const float* row = weights + size_t{s} * stride;
    for (size_t k = 0; k < Width; ++k) sum[k] += row[k];
  }
  std::copy(sum.begin(), sum.end(), score);
#endif
}

using SumRows = void (*)(const float*, std::span<const uint32_t>, size_t, float*);

// By Width / 8 - 1.
constexpr std::array<SumRows, 8> kSumRows = {sum_rows<8>,  sum_rows<16>, sum_rows<24>, sum_rows<32>,
                                             sum_rows<40>, sum_rows<48>, sum_rows<56>, sum_rows<64>};

size_t width_index(size_t width) { return std::clamp<size_t>(width, 8, 64) / 8 - 1; }

#if defined(__x86_64__)
template <size_t Width>
[[gnu::target("avx2")]] void sum_rows_avx2(const float* weights, std::span<const uint32_t> slots, size_t stride,
                                           float* score) {
  __m256 sum[Width / 8];
  for (__m256& s : sum) s = _mm256_setzero_ps();
  for (uint32_t s : slots) {
    const float* row = weights + size_t{s} * stride;
    for (size_t k = 0; k < Width / 8; ++k) sum[k] = _mm256_add_ps(sum[k], _mm256_loadu_ps(row + 8 * k));
  }
  for (size_t k = 0; k < Width / 8; ++k) _mm256_storeu_ps(score + 8 * k, sum[k]);
}

constexpr std::array<SumRows, 8> kSumRowsAvx2 = {sum_rows_avx2<8>,  sum_rows_avx2<16>, sum_rows_avx2<24>,
                                                 sum_rows_avx2<32>, sum_rows_avx2<40>, sum_rows_avx2<48>,
                                                 sum_rows_avx2<56>, sum_rows_avx2<64>};
#endif

}  // namespace

void add_scores(const float* weights, std::span<const uint32_t> slots, size_t stride, size_t width, float* score) {
#if defined(__x86_64__)
  static const bool avx2 = pii_scan::cpu_has_avx2();
  if (avx2) return kSumRowsAvx2[width_index(width)](weights, slots, stride, score);
#endif
  add_scores_without_avx2(weights, slots, stride, width, score);
}

void add_scores_without_avx2(const float* weights, std::span<const uint32_t> slots, size_t stride, size_t width,
                             float* score) {
  kSumRows[width_index(width)](weights, slots, stride, score);
}

}  // namespace tiergate::pii_scores
