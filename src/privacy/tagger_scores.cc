#include "tagger_scores.h"

#include "scan.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace tiergate::pii_scores {
namespace {

// Vectors of floats (GCC's generic vectors: the compiler picks the
// instructions for the function it inlines them into).
using Floats4 = float __attribute__((vector_size(16)));
using Floats8 = float __attribute__((vector_size(32)));

// The sums for k < Width, in registers of Vec.
template <typename Vec, size_t Width>
[[gnu::always_inline]] inline void sum_rows_in(const float* weights, std::span<const uint32_t> slots, size_t stride,
                                               float* score) {
  constexpr size_t kLanes = sizeof(Vec) / sizeof(float);
  Vec sum[Width / kLanes] = {};
  for (uint32_t s : slots) {
    const float* row = weights + size_t{s} * stride;
    for (size_t k = 0; k < Width / kLanes; ++k) {
      Vec v;
      std::memcpy(&v, row + kLanes * k, sizeof v);
      sum[k] += v;
    }
  }
  std::memcpy(score, sum, sizeof sum);
}

template <size_t Width>
void sum_rows(const float* weights, std::span<const uint32_t> slots, size_t stride, float* score) {
  sum_rows_in<Floats4, Width>(weights, slots, stride, score);
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
  sum_rows_in<Floats8, Width>(weights, slots, stride, score);
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
