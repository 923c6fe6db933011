// Several linear models over the same sparse features, scored in one pass:
// the routing decision's inner loop. Weights are interleaved per feature, so
// each feature costs one short row read whatever the number of models:
//   dense slots and extra inputs   float, [feature][lane]
//   hashed slots                   bfloat16, [slot][lane], 32-byte rows
// Lanes come in blocks of 16 (outputs rounded up). bfloat16 keeps 8
// significant bits: rounding moves a hashed weight by at most 0.4%, which
// moves a logit by far less than the models' own error, and it halves the
// memory a request touches (the weights of 2^16 slots exceed L2 in float).
// Built once from the trained float weights; scoring does not allocate.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "tiergate/signals/features.h"
#include "tiergate/signals/linear_model.h"

namespace tiergate {

class PackedLinear {
 public:
  static constexpr uint32_t kBlockLanes = 16;
  static constexpr uint32_t kMaxOutputs = 48;

  // The weight of input `feature` for output `output`. Inputs are numbered as
  // in the models: dense slots [0, kDenseFeatures), hashed slots
  // [kDenseFeatures, kDenseFeatures + buckets), then `extra` further inputs.
  using WeightOf = std::function<float(uint32_t feature, uint32_t output)>;

  PackedLinear() = default;
  // Preconditions: 1 <= outputs <= kMaxOutputs; buckets a power of two.
  PackedLinear(uint32_t outputs, uint32_t buckets, uint32_t extra, FeatureRange range, const WeightOf& weight_of);

  bool empty() const { return outputs_ == 0; }
  uint32_t outputs() const { return outputs_; }

  // out[k] (k < outputs()) = the logit of output k over the features in
  // range(), reading hashed slots folded onto this model's buckets
  // (fold_index), plus sum_e extra[e] * weight(extra input e, k).
  // Preconditions: out.size() >= outputs(); extra.size() is 0 or the
  // constructor's `extra`; x comes from extract_features (dense slots first).
  void logits(const SparseFeatures& x, std::span<const float> extra, std::span<float> out) const;

 private:
  struct alignas(32) Row {
    uint16_t lane[kBlockLanes];
  };

  uint32_t outputs_ = 0;
  uint32_t blocks_ = 0;
  uint32_t buckets_ = 0;
  uint32_t extra_ = 0;
  FeatureRange range_ = FeatureRange::kAll;
  std::vector<float> dense_;  // (kDenseFeatures + extra) x blocks x 16
  std::vector<Row> hashed_;   // buckets x blocks
};

// Softmax models that read the same range, packed as one PackedLinear: their
// classes as outputs, in order; rows for the largest model's hashed slots,
// each model reading its own folded slot (fold_index), so that the logits are
// those of each model packed alone. Preconditions: models non-empty, the
// same range, classes summing to at most PackedLinear::kMaxOutputs.
PackedLinear pack_softmax_models(std::span<const SoftmaxModel* const> models);

}  // namespace tiergate
