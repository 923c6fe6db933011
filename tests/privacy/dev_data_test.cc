// The structured detectors on the labelled development data, read in place
// from ../shared/data/pii/ (never copied into the repository). Skips when the
// file is absent (a clone without the shared data).
//
// Prints precision, recall and F2 per type. With TIERGATE_PII_VERBOSE=1 it
// also prints every miss and false positive of the structured types, for
// looking at causes (tune to causes that generalise, never to single rows:
// held-out sets use other templates).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "tiergate/privacy/pii_dataset.h"
#include "tiergate/privacy/pii_eval.h"
#include "tiergate/privacy/structured_pii.h"

namespace tiergate {
namespace {

const char* kDevFile = TIERGATE_SOURCE_DIR "/../shared/data/pii/presidio_generated_dev.jsonl";

constexpr PiiType kStructured[] = {PiiType::kCreditCard, PiiType::kUsSsn,          PiiType::kIbanCode,
                                   PiiType::kEmailAddress, PiiType::kPhoneNumber,  PiiType::kIpAddress,
                                   PiiType::kDateTime,   PiiType::kDomainName,     PiiType::kUsDriverLicense,
                                   PiiType::kMacAddress, PiiType::kUsPassport,     PiiType::kApiKey,
                                   PiiType::kPrivateKey, PiiType::kPassword,       PiiType::kZipCode};

std::string show(const std::string& text, const PiiSpan& s) {
  std::string out = std::string(pii_type_name(s.type)) + " '" + text.substr(s.begin, s.size()) + "' in '";
  const size_t from = s.begin > 40 ? s.begin - 40 : 0;
  out += text.substr(from, std::min<size_t>(text.size() - from, s.end - from + 20)) + "'";
  for (char& c : out) {
    if (c == '\n') c = '|';
  }
  return out;
}

std::string ratio(std::optional<double> v) {
  if (!v) return "   -  ";
  char buf[16];
  std::snprintf(buf, sizeof buf, "%6.4f", *v);
  return buf;
}

TEST(PiiDevDataTest, StructuredRecallOnPresidioDev) {
  if (!std::filesystem::exists(kDevFile)) {
    GTEST_SKIP() << kDevFile << " is absent (the shared evaluation data lives beside the repository); skipping";
  }
  StatusOr<std::vector<PiiExample>> rows = load_pii_jsonl(kDevFile);
  ASSERT_TRUE(rows.is_ok()) << rows.status().to_string();
  ASSERT_FALSE(rows->empty());
  const bool verbose = std::getenv("TIERGATE_PII_VERBOSE") != nullptr;
  PiiScorer scorer;
  for (const PiiExample& row : *rows) {
    std::vector<PiiSpan> found;
    find_structured_pii(row.text, found);
    // Score the structured types only: gold spans of the tagger's types are
    // left out (this detector does not look for them).
    std::vector<PiiSpan> gold;
    for (const PiiSpan& g : row.spans) {
      if (std::find(std::begin(kStructured), std::end(kStructured), g.type) != std::end(kStructured)) gold.push_back(g);
    }
    scorer.add(row.text, gold, found);
    if (!verbose) continue;
    for (const PiiSpan& g : gold) {
      bool hit = false;
      for (const PiiSpan& f : found) hit = hit || pii_spans_match(g, f);
      if (!hit) std::printf("MISS %s\n", show(row.text, g).c_str());
    }
    for (const PiiSpan& f : found) {
      bool hit = false;
      for (const PiiSpan& g : gold) hit = hit || pii_spans_match(g, f);
      if (!hit) std::printf("FP   %s\n", show(row.text, f).c_str());
    }
  }
  std::printf("%-18s %6s %6s %6s  %-6s %-6s %-6s\n", "type", "gold", "pred", "match", "prec", "recall", "f2");
  for (PiiType t : kStructured) {
    const PiiCounts& c = scorer.counts(t);
    if (!c.gold && !c.predicted) continue;
    std::printf("%-18s %6zu %6zu %6zu  %s %s %s\n", std::string(pii_type_name(t)).c_str(), c.gold, c.predicted,
                c.matched, ratio(c.precision()).c_str(), ratio(c.recall()).c_str(), ratio(c.f_beta()).c_str());
  }
  const PiiCounts all = scorer.overall_for(kStructured);
  std::printf("%-18s %6zu %6zu %6zu  %s %s %s\n", "structured", all.gold, all.predicted, all.matched,
              ratio(all.precision()).c_str(), ratio(all.recall()).c_str(), ratio(all.f_beta()).c_str());

  // Issue 4's target for the structured types: recall >= 0.99 each.
  for (PiiType t : {PiiType::kCreditCard, PiiType::kUsSsn, PiiType::kIbanCode, PiiType::kEmailAddress,
                    PiiType::kPhoneNumber, PiiType::kIpAddress}) {
    const PiiCounts& c = scorer.counts(t);
    ASSERT_GT(c.gold, 0u) << pii_type_name(t);
    EXPECT_GE(*c.recall(), 0.99) << pii_type_name(t);
  }
}

}  // namespace
}  // namespace tiergate
