#include "tiergate/signals/signals.h"

namespace tiergate {

RequestSignals SignalExtractor::assess(const std::vector<ChatMessage>& messages) const {
  // Per-thread scratch: the gateway serves each request on one thread.
  thread_local SparseFeatures features;
  RequestSignals signals;
  signals.prompt_tokens = estimate_prompt_tokens(messages);
  if (artifact_ == nullptr) {
    signals.intent = IntentClassifier().classify(messages, features);
    return signals;
  }
  extract_features(artifact_->space, messages, features);
  signals.intent = artifact_->intent.classify(messages, features);
  signals.complexity = artifact_->complexity.parts(features, signals.intent);
  signals.learned = !artifact_->complexity.empty();
  return signals;
}

}  // namespace tiergate
