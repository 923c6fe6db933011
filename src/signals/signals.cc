#include "tiergate/signals/signals.h"

#include <array>
#include <span>

namespace tiergate {

SignalExtractor::SignalExtractor(std::shared_ptr<const RouterArtifact> artifact, RequestEmbedder embedder)
    : artifact_(std::move(artifact)) {
  if (artifact_ != nullptr && !artifact_->complexity.embedding().empty()) embedder_ = std::move(embedder);
  if (artifact_ == nullptr || !artifact_->intent.has_model() || artifact_->complexity.gate().empty()) return;
  const SoftmaxModel& intent = artifact_->intent.model();
  const SoftmaxModel& gate = artifact_->complexity.gate().model;
  if (kIntentCount + gate.classes() > PackedLinear::kMaxOutputs || intent.range() != FeatureRange::kTaskUnigrams ||
      gate.range() != FeatureRange::kTaskUnigrams) {
    return;
  }
  const SoftmaxModel* models[] = {&intent, &gate};
  task_labels_ = pack_softmax_models(models);
}

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
  // The edge model's embedding, when configured; none: an average request.
  thread_local std::vector<float> embedded;
  std::span<const float> embedding;
  if (embedder_ && embedder_(messages, embedded)) embedding = embedded;
  if (!task_labels_.empty()) {
    std::array<float, PackedLinear::kMaxOutputs> logits;
    task_labels_.logits(features, {}, logits);
    const std::span<const float> all(logits.data(), task_labels_.outputs());
    signals.intent = artifact_->intent.classify_logits(task_text(messages), all.first(kIntentCount));
    signals.complexity = artifact_->complexity.parts(features, signals.intent, all.subspan(kIntentCount), embedding);
  } else {
    signals.intent = artifact_->intent.classify(messages, features);
    signals.complexity = artifact_->complexity.parts(features, signals.intent, {}, embedding);
  }
  signals.learned = !artifact_->complexity.empty();
  return signals;
}

}  // namespace tiergate
