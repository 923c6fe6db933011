// Intent: which kind of task a request is, from a fixed taxonomy, with a
// confidence. Two sources, combined by IntentClassifier::classify:
//   - a learned softmax model (from a router artifact), when one is loaded;
//   - cue rules: imperative phrases at the start of the task turn that name
//     the task outright ("summarize", "rewrite", "classify", "act as" ...).
//     They cover classes that public labelled data rarely carries, and work
//     with no artifact at all. The table is in intent.cc and docs/routing.md.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "tiergate/core/chat.h"
#include "tiergate/signals/features.h"
#include "tiergate/signals/linear_model.h"
#include "tiergate/signals/packed_linear.h"

namespace tiergate {

enum class Intent {
  kChat,
  kWriting,
  kRoleplay,
  kExtraction,
  kClassification,
  kSummarization,
  kRewrite,
  kKnowledgeQa,
  kReasoning,
  kMath,
  kCoding,
};
inline constexpr size_t kIntentCount = 11;

std::string_view intent_name(Intent intent);
std::optional<Intent> parse_intent(std::string_view name);

// Maps a dataset's category or source name onto the taxonomy (the documented
// table in docs/routing.md), e.g. "creative_writing" -> writing, "stem" ->
// knowledge_qa, "mmlu" -> knowledge_qa; nullopt for names it does not know.
std::optional<Intent> intent_for_category(std::string_view category);

struct IntentResult {
  Intent intent = Intent::kChat;
  float confidence = 0;                          // probability of `intent`, in [0, 1]
  std::array<float, kIntentCount> probabilities{};  // by Intent value; sums to 1
  bool from_cue = false;                         // a cue rule decided
};

// The cue rule matching the start of `task_text`, if any.
std::optional<Intent> intent_cue(std::string_view task_text);

class IntentClassifier {
 public:
  // Cue rules only (no learned model): everything else is chat.
  IntentClassifier() = default;
  // Precondition: model.classes() == kIntentCount.
  explicit IntentClassifier(SoftmaxModel model);

  bool has_model() const { return model_.classes() == kIntentCount; }
  const SoftmaxModel& model() const { return model_; }

  // `features` are extract_features() of the same messages, in the model's space.
  IntentResult classify(const std::vector<ChatMessage>& messages, const SparseFeatures& features) const;
  // The same from a task text alone (datasets of bare prompts).
  IntentResult classify_text(std::string_view task_text, const SparseFeatures& features) const;
  // The same from the model's kIntentCount logits, computed elsewhere
  // (SignalExtractor scores intent and the benchmark gate in one pass).
  // Precondition: has_model().
  IntentResult classify_logits(std::string_view task_text, std::span<const float> logits) const;

 private:
  SoftmaxModel model_;
  PackedLinear packed_;  // model_, packed for scoring
};

// The latest user turn (the task); the last message when there is none.
std::string_view task_text(const std::vector<ChatMessage>& messages);

}  // namespace tiergate
