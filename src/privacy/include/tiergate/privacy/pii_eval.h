// Scoring PII detections against labelled spans: precision, recall and F2 per
// type and overall (recall weighs more than precision: a missed value leaks,
// an extra one is only redacted).
//
// Matching rule: a predicted span matches a gold span of the same type when
// their overlap is at least half the length of the longer of the two
// (2 * overlap >= max(len_gold, len_predicted)). Matching is one-to-one and
// greedy: predicted spans are taken in the order given (the detectors give
// them sorted by begin), each takes the still unmatched gold span with the
// largest overlap (the earliest on a tie). Offsets are bytes into the text.
//
// Coverage, beside the one-to-one match: the share of the labelled spans'
// length (bytes or code points) that detections cover, by detections of the
// same type and by detections of any type. It is what redaction would hide,
// and it counts a labelled address split into parts ("12", "Elm Street",
// "Apt 3") as found when one detection spans the whole address, which the
// one-to-one match cannot.
//
// Tokens, beside the spans (presidio-research's evaluator scores tokens, not
// spans): each token of the text (a run of letters, digits and bytes >= 0x80,
// or one other byte that is no white space) takes the type of the first
// labelled span that overlaps it and the type of the first detection that
// overlaps it, if any; a token is matched when the two agree. It is
// indifferent to how a value is cut into spans, which the labels of the
// presidio data do differently from template to template (one address span,
// or its number, street, unit and city apart), and it weighs a long value
// more than a short one.
//
// Types the data never labels (API_KEY on the presidio data, say) still count:
// their predictions appear per type (with no recall) and are false positives in
// the overall precision. Gold types no detector predicts count as misses in
// the overall recall; overall_for() restricts the totals to a set of types.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "tiergate/privacy/pii_types.h"

namespace tiergate {

struct PiiCounts {
  size_t gold = 0;       // labelled spans
  size_t predicted = 0;  // detected spans
  size_t matched = 0;    // matched pairs (true positives)
  size_t gold_length = 0;   // summed length of the labelled spans
  size_t covered_same = 0;  // of which inside a detection of the same type
  size_t covered_any = 0;   // of which inside a detection of any type
  size_t gold_tokens = 0;       // tokens labelled with this type
  size_t predicted_tokens = 0;  // tokens detected as this type
  size_t matched_tokens = 0;    // tokens both labelled and detected as this type

  // nullopt when there is nothing to divide by (no predictions / no gold).
  std::optional<double> precision() const;
  std::optional<double> recall() const;
  // covered_same / gold_length and covered_any / gold_length.
  std::optional<double> coverage() const;
  std::optional<double> coverage_any_type() const;
  // F-beta from precision and recall (beta = 2: recall weighs four times);
  // nullopt when either is undefined, 0 when both are 0.
  std::optional<double> f_beta(double beta = 2.0) const;
  // The same over tokens.
  std::optional<double> token_precision() const;
  std::optional<double> token_recall() const;
  std::optional<double> token_f_beta(double beta = 2.0) const;

  PiiCounts& operator+=(const PiiCounts& o) {
    gold += o.gold;
    predicted += o.predicted;
    matched += o.matched;
    gold_length += o.gold_length;
    covered_same += o.covered_same;
    covered_any += o.covered_any;
    gold_tokens += o.gold_tokens;
    predicted_tokens += o.predicted_tokens;
    matched_tokens += o.matched_tokens;
    return *this;
  }
};

// Whether `predicted` may match `gold` under the rule above (types included).
bool pii_spans_match(const PiiSpan& gold, const PiiSpan& predicted);

// Accumulates counts over examples. Not thread-safe; one per evaluation.
class PiiScorer {
 public:
  // Scores one text's predictions against its gold spans, both in byte
  // offsets into `text`.
  void add(std::string_view text, std::span<const PiiSpan> gold, std::span<const PiiSpan> predicted);

  const PiiCounts& counts(PiiType type) const { return per_type_[static_cast<size_t>(type)]; }
  // Summed over every type.
  PiiCounts overall() const;
  // Summed over `types` only (e.g. the structured types, to judge one detector).
  PiiCounts overall_for(std::span<const PiiType> types) const;

 private:
  std::array<PiiCounts, kAllPiiTypes.size()> per_type_{};
};

// The report `tiergate pii eval` prints: {"overall": {...}, "types": {"CREDIT_CARD":
// {"gold", "predicted", "matched", "precision", "recall", "f2", "coverage",
// "coverage_any_type", "tokens": {"gold", "predicted", "matched",
// "precision", "recall", "f2"}}, ...}}, types
// with neither gold nor predictions left out, undefined ratios as null.
std::string pii_eval_json(const PiiScorer& scorer);

}  // namespace tiergate
