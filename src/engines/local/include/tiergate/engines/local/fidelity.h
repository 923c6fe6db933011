// How closely a quantized variant follows its reference checkpoint on the
// user's own queries: the next-token distributions of both, compared position
// by position over the query log's text.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tiergate/core/chat.h"
#include "tiergate/core/status.h"

namespace tiergate {

struct FidelityParams {
  int context = 512;          // tokens per chunk
  int64_t max_tokens = 1024;  // of the query log, at most; the reference keeps
                              // n_vocab floats per token in memory
  int threads = 0;            // 0 = all hardware threads
  std::function<void(int chunks_done, int chunks_total)> on_progress;  // may be empty
};

// The reference model's next-token log-probabilities on the query log, kept
// so that each variant is compared without running the reference again.
// Immutable once measured.
class ReferenceDistribution {
 public:
  ~ReferenceDistribution();
  int64_t positions() const;  // next-token predictions compared
  int n_vocab() const;
  double perplexity() const;

  struct Data;
  explicit ReferenceDistribution(std::unique_ptr<Data> data);
  const Data& data() const { return *data_; }

 private:
  std::unique_ptr<Data> data_;
};

// Errors: those of loading the checkpoint; kInvalidArgument when the
// conversations hold too little text; kInternal when decoding fails.
StatusOr<std::unique_ptr<ReferenceDistribution>> measure_reference(
    const std::string& checkpoint, const std::vector<std::vector<ChatMessage>>& conversations,
    const FidelityParams& params);

struct FidelityReport {
  double kl_mean = 0;         // mean KL(reference || variant), nats per token
  double kl_p99 = 0;          // 99th percentile over positions
  double top1_agreement = 0;  // share of positions where both pick the same token
  double perplexity = 0;      // the variant's, on the log's own next tokens
  double reference_perplexity = 0;
  int64_t tokens = 0;         // positions compared
};

// Runs the variant on the reference's tokens. Errors: those of loading the
// variant; kInvalidArgument when its vocabulary differs from the reference's;
// kInternal when decoding fails.
StatusOr<FidelityReport> measure_fidelity(const std::string& variant, const ReferenceDistribution& reference,
                                    const FidelityParams& params);

}  // namespace tiergate
