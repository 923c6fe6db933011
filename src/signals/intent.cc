#include "tiergate/signals/intent.h"

#include <algorithm>
#include <array>
#include <bit>

namespace tiergate {
namespace {

constexpr std::array<std::string_view, kIntentCount> kIntentNames = {
    "chat",          "writing",       "roleplay",    "extraction", "classification", "summarization",
    "rewrite",       "knowledge_qa",  "reasoning",   "math",       "coding",
};

struct CategoryMapping {
  std::string_view category;
  Intent intent;
};

// Dataset categories and sources -> taxonomy. Keep docs/routing.md in step.
constexpr CategoryMapping kCategoryTable[] = {
    // the taxonomy's own names
    {"chat", Intent::kChat}, {"writing", Intent::kWriting}, {"roleplay", Intent::kRoleplay},
    {"extraction", Intent::kExtraction}, {"classification", Intent::kClassification},
    {"summarization", Intent::kSummarization}, {"rewrite", Intent::kRewrite},
    {"knowledge_qa", Intent::kKnowledgeQa}, {"reasoning", Intent::kReasoning}, {"math", Intent::kMath},
    {"coding", Intent::kCoding},
    // Vicuna bench, Arena-Hard, MT-Bench categories
    {"generic", Intent::kChat}, {"creative_writing", Intent::kWriting}, {"knowledge", Intent::kKnowledgeQa},
    {"common-sense", Intent::kReasoning}, {"counterfactual", Intent::kReasoning}, {"fermi", Intent::kReasoning},
    {"stem", Intent::kKnowledgeQa}, {"humanities", Intent::kKnowledgeQa},
    // benchmark sources (the part of `source` before '/')
    {"mmlu", Intent::kKnowledgeQa}, {"gsm8k", Intent::kMath}, {"mbpp", Intent::kCoding},
    {"arc-challenge", Intent::kKnowledgeQa}, {"winogrande", Intent::kReasoning},
    {"summarisation", Intent::kSummarization}, {"summarize", Intent::kSummarization},
    {"translation", Intent::kRewrite}, {"code", Intent::kCoding},
};

struct Cue {
  std::string_view phrase;  // lower case, matched at a word start
  Intent intent;
};

// Phrases that name the task outright when they open the request (within
// kCueWindow bytes of its start). Order matters: the first match wins.
constexpr Cue kCues[] = {
    {"summarize", Intent::kSummarization}, {"summarise", Intent::kSummarization},
    {"summary of", Intent::kSummarization}, {"tl;dr", Intent::kSummarization}, {"tldr", Intent::kSummarization},
    {"rewrite", Intent::kRewrite}, {"rephrase", Intent::kRewrite}, {"paraphrase", Intent::kRewrite},
    {"reword", Intent::kRewrite}, {"proofread", Intent::kRewrite}, {"translate", Intent::kRewrite},
    {"correct the grammar", Intent::kRewrite}, {"fix the grammar", Intent::kRewrite},
    {"classify", Intent::kClassification}, {"categorize", Intent::kClassification},
    {"categorise", Intent::kClassification}, {"what is the sentiment", Intent::kClassification},
    {"sentiment of", Intent::kClassification},
    {"extract", Intent::kExtraction}, {"list all the", Intent::kExtraction}, {"pull out", Intent::kExtraction},
    {"pretend you are", Intent::kRoleplay}, {"pretend to be", Intent::kRoleplay}, {"act as", Intent::kRoleplay},
    {"roleplay", Intent::kRoleplay}, {"role-play", Intent::kRoleplay}, {"role play", Intent::kRoleplay},
};
constexpr size_t kCueWindow = 160;
constexpr float kCueConfidence = 0.75f;
// A learned prediction at least this confident overrides a cue.
constexpr float kModelOverridesCue = 0.9f;

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }

constexpr std::array<bool, 256> make_word_chars() {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c) {
    t[static_cast<size_t>(c)] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }
  return t;
}
constexpr std::array<bool, 256> kWordChar = make_word_chars();

bool is_word_char(char c) { return kWordChar[static_cast<unsigned char>(c)]; }

// For each byte, the cues (bit i = kCues[i]) that open with it, either case:
// the scan tries only those.
constexpr std::array<uint32_t, 256> make_cues_by_opener() {
  static_assert(std::size(kCues) <= 32);
  std::array<uint32_t, 256> t{};
  for (size_t i = 0; i < std::size(kCues); ++i) {
    const auto c = static_cast<unsigned char>(kCues[i].phrase[0]);
    t[c] |= uint32_t{1} << i;
    if (c >= 'a' && c <= 'z') t[c - 32] |= uint32_t{1} << i;
  }
  return t;
}
constexpr std::array<uint32_t, 256> kCuesByOpener = make_cues_by_opener();

bool matches_at(std::string_view text, size_t at, std::string_view phrase) {
  if (at + phrase.size() > text.size()) return false;
  for (size_t i = 0; i < phrase.size(); ++i) {
    if (lower(text[at + i]) != phrase[i]) return false;
  }
  return true;
}

}  // namespace

std::string_view intent_name(Intent intent) { return kIntentNames[static_cast<size_t>(intent)]; }

std::optional<Intent> parse_intent(std::string_view name) {
  for (size_t i = 0; i < kIntentCount; ++i) {
    if (kIntentNames[i] == name) return static_cast<Intent>(i);
  }
  return std::nullopt;
}

std::optional<Intent> intent_for_category(std::string_view category) {
  for (const CategoryMapping& m : kCategoryTable) {
    if (m.category == category) return m.intent;
  }
  return std::nullopt;
}

std::optional<Intent> intent_cue(std::string_view text) {
  const size_t window = std::min(text.size(), kCueWindow);
  size_t at = 0;
  while (at < window) {
    if (!is_word_char(text[at])) {
      ++at;
      continue;
    }
    // A word starts here: try the cues that open with its first letter, in
    // table order (the first match wins), then skip the rest of the word.
    for (uint32_t cues = kCuesByOpener[static_cast<unsigned char>(text[at])]; cues != 0; cues &= cues - 1) {
      const Cue& cue = kCues[std::countr_zero(cues)];
      if (matches_at(text, at, cue.phrase)) return cue.intent;
    }
    while (at < window && is_word_char(text[at])) ++at;
  }
  return std::nullopt;
}

std::string_view task_text(const std::vector<ChatMessage>& messages) {
  return messages.empty() ? std::string_view() : std::string_view(messages[task_turn_index(messages)].content);
}

IntentClassifier::IntentClassifier(SoftmaxModel model) : model_(std::move(model)) {
  if (has_model()) {
    const SoftmaxModel* models[] = {&model_};
    packed_ = pack_softmax_models(models);
  }
}

IntentResult IntentClassifier::classify(const std::vector<ChatMessage>& messages,
                                        const SparseFeatures& features) const {
  return classify_text(task_text(messages), features);
}

IntentResult IntentClassifier::classify_text(std::string_view text, const SparseFeatures& features) const {
  std::array<float, kIntentCount> logits{};
  if (has_model()) packed_.logits(features, {}, logits);
  return classify_logits(text, logits);
}

IntentResult IntentClassifier::classify_logits(std::string_view text, std::span<const float> logits) const {
  IntentResult result;
  if (has_model()) {
    std::copy_n(logits.begin(), kIntentCount, result.probabilities.begin());
    softmax_in_place(result.probabilities);
  } else {
    result.probabilities[static_cast<size_t>(Intent::kChat)] = 1.0f;
  }
  auto top = std::max_element(result.probabilities.begin(), result.probabilities.end());
  result.intent = static_cast<Intent>(top - result.probabilities.begin());
  result.confidence = *top;

  // A model this sure is not overridden: no need to look for a cue.
  if (has_model() && result.confidence >= kModelOverridesCue) return result;
  std::optional<Intent> cue = intent_cue(text);
  if (cue && *cue != result.intent) {
    // The cue's class takes kCueConfidence; the rest keep their proportions.
    const size_t c = static_cast<size_t>(*cue);
    const float rest = 1.0f - result.probabilities[c];
    for (size_t k = 0; k < kIntentCount; ++k) {
      result.probabilities[k] = k == c ? kCueConfidence
                                       : (rest > 0 ? result.probabilities[k] / rest * (1.0f - kCueConfidence) : 0.0f);
    }
    result.intent = *cue;
    result.confidence = kCueConfidence;
    result.from_cue = true;
  }
  return result;
}

}  // namespace tiergate
