#include "tiergate/privacy/pii_eval.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

#include "tagger_tokens.h"

namespace tiergate {

namespace {

std::optional<double> ratio(size_t part, size_t whole) {
  if (whole == 0) return std::nullopt;
  return static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace

std::optional<double> PiiCounts::precision() const { return ratio(matched, predicted); }
std::optional<double> PiiCounts::recall() const { return ratio(matched, gold); }
std::optional<double> PiiCounts::coverage() const { return ratio(covered_same, gold_length); }
std::optional<double> PiiCounts::coverage_any_type() const { return ratio(covered_any, gold_length); }

std::optional<double> PiiCounts::token_precision() const { return ratio(matched_tokens, predicted_tokens); }
std::optional<double> PiiCounts::token_recall() const { return ratio(matched_tokens, gold_tokens); }

namespace {

std::optional<double> f_beta_of(std::optional<double> p, std::optional<double> r, double beta) {
  if (!p || !r) return std::nullopt;
  if (*p == 0 && *r == 0) return 0.0;
  const double b2 = beta * beta;
  return (1 + b2) * *p * *r / (b2 * *p + *r);
}

}  // namespace

std::optional<double> PiiCounts::f_beta(double beta) const { return f_beta_of(precision(), recall(), beta); }
std::optional<double> PiiCounts::token_f_beta(double beta) const {
  return f_beta_of(token_precision(), token_recall(), beta);
}

namespace {

uint32_t overlap(const PiiSpan& a, const PiiSpan& b) {
  const uint32_t lo = std::max(a.begin, b.begin), hi = std::min(a.end, b.end);
  return hi > lo ? hi - lo : 0;
}

// The length of `gold` inside the union of the spans of `predicted` that
// `counts` accepts.
template <typename Counts>
uint32_t covered(const PiiSpan& gold, std::span<const PiiSpan> predicted, Counts counts) {
  std::vector<std::pair<uint32_t, uint32_t>> parts;
  for (const PiiSpan& p : predicted) {
    if (counts(p) && overlap(gold, p) > 0) parts.emplace_back(std::max(gold.begin, p.begin), std::min(gold.end, p.end));
  }
  std::sort(parts.begin(), parts.end());
  uint32_t total = 0, reached = gold.begin;
  for (const auto& [lo, hi] : parts) {
    const uint32_t from = std::max(lo, reached);
    if (hi > from) total += hi - from;
    reached = std::max(reached, hi);
  }
  return total;
}

// Walks the text's tokens in order and names, for each, the type of the
// first span of `spans` (sorted by begin) that overlaps it.
class TokenTypes {
 public:
  explicit TokenTypes(std::span<const PiiSpan> spans) : spans_(spans.begin(), spans.end()) {
    std::stable_sort(spans_.begin(), spans_.end(), [](const PiiSpan& a, const PiiSpan& b) { return a.begin < b.begin; });
  }
  // Precondition: tokens come in order of begin.
  std::optional<PiiType> of(uint32_t begin, uint32_t end) {
    // A span that ends at or before this token ends before every later one.
    while (first_ < spans_.size() && spans_[first_].end <= begin) ++first_;
    for (size_t k = first_; k < spans_.size() && spans_[k].begin < end; ++k) {
      if (spans_[k].end > begin) return spans_[k].type;
    }
    return std::nullopt;
  }

 private:
  std::vector<PiiSpan> spans_;
  size_t first_ = 0;
};

bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

}  // namespace

bool pii_spans_match(const PiiSpan& gold, const PiiSpan& predicted) {
  if (gold.type != predicted.type) return false;
  const uint64_t o = overlap(gold, predicted);
  return o > 0 && 2 * o >= std::max(gold.size(), predicted.size());
}

void PiiScorer::add(std::string_view text, std::span<const PiiSpan> gold, std::span<const PiiSpan> predicted) {
  TokenTypes gold_types(gold), predicted_types(predicted);
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  for (size_t at = 0; at < text.size();) {
    if (is_space(s[at])) {
      ++at;
      continue;
    }
    size_t end = at + 1;
    if (pii_tokens::is_word_byte(s[at])) {
      while (end < text.size() && pii_tokens::is_word_byte(s[end])) ++end;
    }
    const auto begin32 = static_cast<uint32_t>(at), end32 = static_cast<uint32_t>(end);
    const std::optional<PiiType> g = gold_types.of(begin32, end32), p = predicted_types.of(begin32, end32);
    if (g) ++per_type_[static_cast<size_t>(*g)].gold_tokens;
    if (p) ++per_type_[static_cast<size_t>(*p)].predicted_tokens;
    if (g && g == p) ++per_type_[static_cast<size_t>(*g)].matched_tokens;
    at = end;
  }
  for (const PiiSpan& g : gold) {
    PiiCounts& c = per_type_[static_cast<size_t>(g.type)];
    ++c.gold;
    c.gold_length += g.size();
    c.covered_same += covered(g, predicted, [&](const PiiSpan& p) { return p.type == g.type; });
    c.covered_any += covered(g, predicted, [](const PiiSpan&) { return true; });
  }
  std::vector<bool> taken(gold.size(), false);
  for (const PiiSpan& p : predicted) {
    PiiCounts& c = per_type_[static_cast<size_t>(p.type)];
    ++c.predicted;
    size_t best = gold.size();
    uint32_t best_overlap = 0;
    for (size_t k = 0; k < gold.size(); ++k) {
      if (taken[k] || !pii_spans_match(gold[k], p)) continue;
      const uint32_t o = overlap(gold[k], p);
      if (o > best_overlap) best = k, best_overlap = o;
    }
    if (best < gold.size()) {
      taken[best] = true;
      ++c.matched;
    }
  }
}

PiiCounts PiiScorer::overall() const { return overall_for(kAllPiiTypes); }

PiiCounts PiiScorer::overall_for(std::span<const PiiType> types) const {
  PiiCounts sum;
  for (PiiType t : types) sum += counts(t);
  return sum;
}

std::string pii_eval_json(const PiiScorer& scorer) {
  using nlohmann::json;
  auto ratio = [](std::optional<double> v) { return v ? json(*v) : json(nullptr); };
  auto entry = [&](const PiiCounts& c) {
    return json{{"gold", c.gold},           {"predicted", c.predicted},     {"matched", c.matched},
                {"precision", ratio(c.precision())}, {"recall", ratio(c.recall())}, {"f2", ratio(c.f_beta(2.0))},
                {"coverage", ratio(c.coverage())}, {"coverage_any_type", ratio(c.coverage_any_type())},
                {"tokens", {{"gold", c.gold_tokens},
                            {"predicted", c.predicted_tokens},
                            {"matched", c.matched_tokens},
                            {"precision", ratio(c.token_precision())},
                            {"recall", ratio(c.token_recall())},
                            {"f2", ratio(c.token_f_beta(2.0))}}}};
  };
  json types = json::object();
  for (PiiType t : kAllPiiTypes) {
    const PiiCounts& c = scorer.counts(t);
    if (c.gold || c.predicted) types[std::string(pii_type_name(t))] = entry(c);
  }
  return json{{"overall", entry(scorer.overall())}, {"types", types}}.dump();
}

}  // namespace tiergate
