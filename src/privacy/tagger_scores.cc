#include "tagger_scores.h"

#include "scan.h"

#include <algorithm>
#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace tiergate::pii_scores {
namespace {

// Four lanes at a time, in GCC's generic vectors (SSE2): a row's shorts
// widen to ints.
using Shorts4 = int16_t __attribute__((vector_size(8)));
using Ints4 = int32_t __attribute__((vector_size(16)));

template <size_t Width>
void sum_rows(const int16_t* rows, const uint32_t* row_of_slot, std::span<const uint32_t> slots, int32_t* score) {
  Ints4 sum[Width / 4] = {};
  for (uint32_t s : slots) {
    const int16_t* row = rows + size_t{row_of_slot[s]} * Width;
    for (size_t k = 0; k < Width / 4; ++k) {
      Shorts4 v;
      std::memcpy(&v, row + 4 * k, sizeof v);
      sum[k] += __builtin_convertvector(v, Ints4);
    }
  }
  std::memcpy(score, sum, sizeof sum);
}

using SumRows = void (*)(const int16_t*, const uint32_t*, std::span<const uint32_t>, int32_t*);

// By Width / 8 - 1.
constexpr std::array<SumRows, 8> kSumRows = {sum_rows<8>,  sum_rows<16>, sum_rows<24>, sum_rows<32>,
                                             sum_rows<40>, sum_rows<48>, sum_rows<56>, sum_rows<64>};

size_t width_index(size_t width) { return std::clamp<size_t>(width, 8, 64) / 8 - 1; }

#if defined(__x86_64__)
// With intrinsics: GCC widens a generic vector of 8 shorts in two halves,
// where one vpmovsxwd from memory does.
template <size_t Width>
[[gnu::target("avx2")]] void sum_rows_avx2(const int16_t* rows, const uint32_t* row_of_slot,
                                          std::span<const uint32_t> slots, int32_t* score) {
  __m256i sum[Width / 8];
  for (__m256i& s : sum) s = _mm256_setzero_si256();
  for (uint32_t s : slots) {
    const int16_t* row = rows + size_t{row_of_slot[s]} * Width;
    for (size_t k = 0; k < Width / 8; ++k) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + 8 * k));
      sum[k] = _mm256_add_epi32(sum[k], _mm256_cvtepi16_epi32(v));
    }
  }
  for (size_t k = 0; k < Width / 8; ++k) _mm256_storeu_si256(reinterpret_cast<__m256i*>(score + 8 * k), sum[k]);
}

constexpr std::array<SumRows, 8> kSumRowsAvx2 = {sum_rows_avx2<8>,  sum_rows_avx2<16>, sum_rows_avx2<24>,
                                                 sum_rows_avx2<32>, sum_rows_avx2<40>, sum_rows_avx2<48>,
                                                 sum_rows_avx2<56>, sum_rows_avx2<64>};
#endif

}  // namespace

void add_scores(const int16_t* rows, const uint32_t* row_of_slot, std::span<const uint32_t> slots, size_t width,
                int32_t* score) {
#if defined(__x86_64__)
  static const bool avx2 = pii_scan::cpu_has_avx2();
  if (avx2) return kSumRowsAvx2[width_index(width)](rows, row_of_slot, slots, score);
#endif
  add_scores_without_avx2(rows, row_of_slot, slots, width, score);
}

void add_scores_without_avx2(const int16_t* rows, const uint32_t* row_of_slot, std::span<const uint32_t> slots,
                             size_t width, int32_t* score) {
  kSumRows[width_index(width)](rows, row_of_slot, slots, score);
}

}  // namespace tiergate::pii_scores
