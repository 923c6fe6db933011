#include "tagger_scores.h"

#include "scan.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace tiergate::pii_scores {
namespace {

// Vectors of integers (GCC's generic vectors: the compiler picks the
// instructions for the function it inlines them into). A row's Shorts widen
// to Ints, as many lanes each.
using Shorts4 = int16_t __attribute__((vector_size(8)));
using Ints4 = int32_t __attribute__((vector_size(16)));
using Shorts8 = int16_t __attribute__((vector_size(16)));
using Ints8 = int32_t __attribute__((vector_size(32)));

// The sums for k < Width, in registers of Ints.
template <typename Shorts, typename Ints, size_t Width>
[[gnu::always_inline]] inline void sum_rows_in(const int16_t* rows, std::span<const uint32_t> slots, int32_t* score) {
  constexpr size_t kLanes = sizeof(Ints) / sizeof(int32_t);
  static_assert(sizeof(Shorts) / sizeof(int16_t) == kLanes);
  Ints sum[Width / kLanes] = {};
  for (uint32_t s : slots) {
    const int16_t* row = rows + size_t{s} * Width;
    for (size_t k = 0; k < Width / kLanes; ++k) {
      Shorts v;
      std::memcpy(&v, row + kLanes * k, sizeof v);
      sum[k] += __builtin_convertvector(v, Ints);
    }
  }
  std::memcpy(score, sum, sizeof sum);
}

template <size_t Width>
void sum_rows(const int16_t* rows, std::span<const uint32_t> slots, int32_t* score) {
  sum_rows_in<Shorts4, Ints4, Width>(rows, slots, score);
}

using SumRows = void (*)(const int16_t*, std::span<const uint32_t>, int32_t*);

// By Width / 8 - 1.
constexpr std::array<SumRows, 8> kSumRows = {sum_rows<8>,  sum_rows<16>, sum_rows<24>, sum_rows<32>,
                                             sum_rows<40>, sum_rows<48>, sum_rows<56>, sum_rows<64>};

size_t width_index(size_t width) { return std::clamp<size_t>(width, 8, 64) / 8 - 1; }

#if defined(__x86_64__)
template <size_t Width>
[[gnu::target("avx2")]] void sum_rows_avx2(const int16_t* rows, std::span<const uint32_t> slots, int32_t* score) {
  sum_rows_in<Shorts8, Ints8, Width>(rows, slots, score);
}

constexpr std::array<SumRows, 8> kSumRowsAvx2 = {sum_rows_avx2<8>,  sum_rows_avx2<16>, sum_rows_avx2<24>,
                                                 sum_rows_avx2<32>, sum_rows_avx2<40>, sum_rows_avx2<48>,
                                                 sum_rows_avx2<56>, sum_rows_avx2<64>};
#endif

}  // namespace

void add_scores(const int16_t* rows, std::span<const uint32_t> slots, size_t width, int32_t* score) {
#if defined(__x86_64__)
  static const bool avx2 = pii_scan::cpu_has_avx2();
  if (avx2) return kSumRowsAvx2[width_index(width)](rows, slots, score);
#endif
  add_scores_without_avx2(rows, slots, width, score);
}

void add_scores_without_avx2(const int16_t* rows, std::span<const uint32_t> slots, size_t width, int32_t* score) {
  kSumRows[width_index(width)](rows, slots, score);
}

}  // namespace tiergate::pii_scores
