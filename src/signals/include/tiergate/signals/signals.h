// The signals stage of the routing cascade: from a chat request to what the
// router needs to decide — the intent, the expected cloud gain (complexity)
// and the prompt size. Thread-safe (const after construction); assess() does
// not allocate once its thread's scratch buffers have grown (the optional
// embedder aside).
#pragma once

#include <functional>
#include <memory>
#include <vector>

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

// The edge model's embedding of a request (engines/local PromptEmbedder,
// wrapped by whoever owns the model): writes it into `out` and returns true,
// or returns false (the request then counts as an average one). Called from
// any serving thread at once.
using RequestEmbedder = std::function<bool(const std::vector<ChatMessage>& messages, std::vector<float>& out)>;

class SignalExtractor {
 public:
  // Without an artifact: cue-rule intent only, no complexity estimate.
  SignalExtractor() = default;
  // With `embedder`, requests are embedded when the artifact has an
  // embedding part (complexity.h); that costs a forward pass of the edge
  // model (milliseconds, docs/routing.md), so it is off unless configured.
  explicit SignalExtractor(std::shared_ptr<const RouterArtifact> artifact, RequestEmbedder embedder = {});

  RequestSignals assess(const std::vector<ChatMessage>& messages) const;

  bool learned() const { return artifact_ != nullptr && !artifact_->complexity.empty(); }
  const RouterArtifact* artifact() const { return artifact_.get(); }

 private:
  std::shared_ptr<const RouterArtifact> artifact_;
  RequestEmbedder embedder_;  // set only when the artifact has an embedding part
  // The intent model's and the benchmark gate's logits in one PackedLinear
  // (both read the task turn's unigrams): one row read per term instead of
  // two. Empty when the artifact lacks either; the results are the same as
  // scoring them apart (same weights, same order of sums).
  PackedLinear task_labels_;
};

}  // namespace tiergate
