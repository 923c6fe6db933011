// The signals stage of the routing cascade: from a chat request to what the
// router needs to decide — the intent, the expected cloud gain (complexity)
// and the prompt size. Thread-safe (const after construction); assess() does
// not allocate once its thread's scratch buffers have grown.
#pragma once

#include <memory>

#include "tiergate/core/chat.h"
#include "tiergate/signals/complexity.h"
#include "tiergate/signals/intent.h"
#include "tiergate/signals/router_artifact.h"

namespace tiergate {

struct RequestSignals {
  IntentResult intent;
  ComplexityParts complexity;  // complexity.gain is the cloud score
  int64_t prompt_tokens = 0;   // estimated (core/chat.h estimate_prompt_tokens)
  bool learned = false;        // false: no artifact, cue rules only and gain 0
};

class SignalExtractor {
 public:
  // Without an artifact: cue-rule intent only, no complexity estimate.
  SignalExtractor() = default;
  explicit SignalExtractor(std::shared_ptr<const RouterArtifact> artifact);

  RequestSignals assess(const std::vector<ChatMessage>& messages) const;

  bool learned() const { return artifact_ != nullptr && !artifact_->complexity.empty(); }
  const RouterArtifact* artifact() const { return artifact_.get(); }

 private:
  std::shared_ptr<const RouterArtifact> artifact_;
  // The intent model's and the benchmark gate's logits in one PackedLinear
  // (both read the task turn's unigrams): one row read per term instead of
  // two. Empty when the artifact lacks either; the results are the same as
  // scoring them apart (same weights, same order of sums).
  PackedLinear task_labels_;
};

}  // namespace tiergate
