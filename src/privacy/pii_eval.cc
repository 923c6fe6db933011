#include "tiergate/privacy/pii_eval.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

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

std::optional<double> PiiCounts::f_beta(double beta) const {
  const std::optional<double> p = precision(), r = recall();
  if (!p || !r) return std::nullopt;
  if (*p == 0 && *r == 0) return 0.0;
  const double b2 = beta * beta;
  return (1 + b2) * *p * *r / (b2 * *p + *r);
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

}  // namespace

bool pii_spans_match(const PiiSpan& gold, const PiiSpan& predicted) {
  if (gold.type != predicted.type) return false;
  const uint64_t o = overlap(gold, predicted);
  return o > 0 && 2 * o >= std::max(gold.size(), predicted.size());
}

void PiiScorer::add(std::span<const PiiSpan> gold, std::span<const PiiSpan> predicted) {
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
                {"coverage", ratio(c.coverage())}, {"coverage_any_type", ratio(c.coverage_any_type())}};
  };
  json types = json::object();
  for (PiiType t : kAllPiiTypes) {
    const PiiCounts& c = scorer.counts(t);
    if (c.gold || c.predicted) types[std::string(pii_type_name(t))] = entry(c);
  }
  return json{{"overall", entry(scorer.overall())}, {"types", types}}.dump();
}

}  // namespace tiergate
