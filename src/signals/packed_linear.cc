#include "tiergate/signals/packed_linear.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

namespace tiergate {
namespace {

constexpr uint32_t kLanes = PackedLinear::kBlockLanes;

uint16_t to_bfloat16(float f) {
  const auto bits = std::bit_cast<uint32_t>(f);
  // Round to nearest, ties to even (weights are finite).
  return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

float from_bfloat16(uint16_t h) { return std::bit_cast<float>(static_cast<uint32_t>(h) << 16); }

// acc[b][k] += row[b].lane[k] * v for each of kBlocks blocks of 16 lanes.
template <uint32_t kBlocks, typename Row>
[[gnu::always_inline]] inline void add_rows(const Row* rows, float v, float (*acc)[kLanes]) {
  for (uint32_t b = 0; b < kBlocks; ++b) {
    for (uint32_t k = 0; k < kLanes; ++k) acc[b][k] += from_bfloat16(rows[b].lane[k]) * v;
  }
}

template <uint32_t kBlocks, typename Row>
[[gnu::always_inline]] inline void add_hashed_body(const SparseFeatures& x, size_t begin, size_t end,
                                                   const Row* hashed, uint32_t buckets, float (*acc)[kLanes]) {
  const uint32_t slots = buckets - 1;
  // Rows of rare terms miss the caches: ask for the row kPrefetchAhead
  // features ahead, so that the misses overlap instead of queueing.
  constexpr size_t kPrefetchAhead = 8;
  for (size_t i = begin; i < end; ++i) {
    if (i + kPrefetchAhead < end) {
      __builtin_prefetch(hashed + size_t{(x.index[i + kPrefetchAhead] - kDenseFeatures) & slots} * kBlocks);
    }
    const uint32_t slot = (x.index[i] - kDenseFeatures) & slots;
    add_rows<kBlocks>(hashed + size_t{slot} * kBlocks, x.value[i], acc);
  }
}

template <uint32_t kBlocks, typename Row>
void add_hashed_baseline(const SparseFeatures& x, size_t begin, size_t end, const Row* hashed, uint32_t buckets,
                         float (*acc)[kLanes]) {
  add_hashed_body<kBlocks>(x, begin, end, hashed, buckets, acc);
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same loop compiled for AVX2 (two 8-lane registers per block instead of
// four), chosen at run time on CPUs that have it. No FMA: sums stay the same
// as the baseline's.
template <uint32_t kBlocks, typename Row>
[[gnu::target("avx2")]] void add_hashed_avx2(const SparseFeatures& x, size_t begin, size_t end, const Row* hashed,
                                             uint32_t buckets, float (*acc)[kLanes]) {
  add_hashed_body<kBlocks>(x, begin, end, hashed, buckets, acc);
}
// __builtin_cpu_init first: this runs among the static constructors.
const bool kHasAvx2 = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
}();
#endif

template <uint32_t kBlocks, typename Row>
void add_hashed(const SparseFeatures& x, size_t begin, size_t end, const Row* hashed, uint32_t buckets,
                float (*acc)[kLanes]) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (kHasAvx2) return add_hashed_avx2<kBlocks>(x, begin, end, hashed, buckets, acc);
#endif
  add_hashed_baseline<kBlocks>(x, begin, end, hashed, buckets, acc);
}

}  // namespace

PackedLinear::PackedLinear(uint32_t outputs, uint32_t buckets, uint32_t extra, FeatureRange range,
                           const WeightOf& weight_of)
    : outputs_(outputs), blocks_((outputs + kLanes - 1) / kLanes), buckets_(buckets), extra_(extra), range_(range) {
  const uint32_t width = blocks_ * kLanes;
  dense_.assign(size_t{kDenseFeatures + extra} * width, 0.0f);
  for (uint32_t f = 0; f < kDenseFeatures + extra; ++f) {
    const uint32_t feature = f < kDenseFeatures ? f : kDenseFeatures + buckets + (f - kDenseFeatures);
    for (uint32_t k = 0; k < outputs; ++k) dense_[size_t{f} * width + k] = weight_of(feature, k);
  }
  hashed_.assign(size_t{buckets} * blocks_, Row{});
  for (uint32_t s = 0; s < buckets; ++s) {
    for (uint32_t k = 0; k < outputs; ++k) {
      hashed_[size_t{s} * blocks_ + k / kLanes].lane[k % kLanes] = to_bfloat16(weight_of(kDenseFeatures + s, k));
    }
  }
}

void PackedLinear::logits(const SparseFeatures& x, std::span<const float> extra, std::span<float> out) const {
  float acc[kMaxOutputs / kLanes][kLanes] = {};
  const uint32_t width = blocks_ * kLanes;
  const size_t end = range_end(x, range_);
  const size_t dense_end = std::min<size_t>(end, kDenseFeatures);
  auto add_dense = [&](size_t row, float v) {
    const float* w = dense_.data() + row * width;
    for (uint32_t b = 0; b < blocks_; ++b) {
      for (uint32_t k = 0; k < kLanes; ++k) acc[b][k] += w[b * kLanes + k] * v;
    }
  };
  for (size_t i = 0; i < dense_end; ++i) {
    if (x.value[i] != 0.0f) add_dense(x.index[i], x.value[i]);
  }
  for (size_t e = 0; e < extra.size() && e < extra_; ++e) add_dense(kDenseFeatures + e, extra[e]);
  switch (blocks_) {
    case 1:
      add_hashed<1>(x, dense_end, end, hashed_.data(), buckets_, acc);
      break;
    case 2:
      add_hashed<2>(x, dense_end, end, hashed_.data(), buckets_, acc);
      break;
    default:
      add_hashed<3>(x, dense_end, end, hashed_.data(), buckets_, acc);
      break;
  }
  for (uint32_t k = 0; k < outputs_; ++k) out[k] = acc[k / kLanes][k % kLanes];
}

PackedLinear pack_softmax_models(std::span<const SoftmaxModel* const> models) {
  uint32_t outputs = 0, buckets = 0;
  for (const SoftmaxModel* m : models) {
    outputs += m->classes();
    buckets = std::max(buckets, m->dimension() - kDenseFeatures);
  }
  return PackedLinear(outputs, buckets, 0, models.front()->range(), [&](uint32_t f, uint32_t k) {
    for (const SoftmaxModel* m : models) {
      const uint32_t classes = m->classes();
      if (k < classes) {
        const uint32_t own = f < kDenseFeatures ? f : fold_index(f, m->dimension() - kDenseFeatures);
        return m->weights()[size_t{own} * classes + k];
      }
      k -= classes;
    }
    return 0.0f;
  });
}

}  // namespace tiergate
