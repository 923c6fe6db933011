// The scorer: the overlap rule, one-to-one greedy matching, per-type and
// overall precision, recall and F2.
#include "tiergate/privacy/pii_eval.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace tiergate {
namespace {

constexpr PiiType kCard = PiiType::kCreditCard;
constexpr PiiType kPhone = PiiType::kPhoneNumber;
constexpr PiiType kName = PiiType::kPerson;

// A text of the given length without tokens: the span-level tests need no words.
std::string blank(size_t n) { return std::string(n, ' '); }

TEST(PiiEvalTest, OverlapOfHalfTheLongerSpan) {
  const PiiSpan gold{kName, 10, 20};
  EXPECT_TRUE(pii_spans_match(gold, {kName, 10, 20}));
  EXPECT_TRUE(pii_spans_match(gold, {kName, 15, 20}));   // overlap 5 of the longer 10
  EXPECT_FALSE(pii_spans_match(gold, {kName, 16, 20}));  // 4 of 10
  EXPECT_TRUE(pii_spans_match(gold, {kName, 5, 25}));    // 10 of the longer 20
  EXPECT_FALSE(pii_spans_match(gold, {kName, 4, 25}));   // 10 of 21
  EXPECT_FALSE(pii_spans_match(gold, {kPhone, 10, 20})); // other type
  EXPECT_FALSE(pii_spans_match(gold, {kName, 20, 30}));  // touching is no overlap
}

TEST(PiiEvalTest, CountsPerTypeAndOverall) {
  PiiScorer scorer;
  // Row 1: card found, phone found with a loose boundary, one name missed.
  scorer.add(blank(64), std::vector<PiiSpan>{{kCard, 0, 16}, {kPhone, 20, 32}, {kName, 40, 45}},
             std::vector<PiiSpan>{{kCard, 0, 16}, {kPhone, 19, 32}});
  // Row 2: a false phone; an API key the data never labels.
  scorer.add(blank(64), std::vector<PiiSpan>{}, std::vector<PiiSpan>{{kPhone, 0, 8}, {PiiType::kApiKey, 10, 40}});
  const PiiCounts& card = scorer.counts(kCard);
  EXPECT_EQ(card.gold, 1u);
  EXPECT_EQ(card.matched, 1u);
  EXPECT_DOUBLE_EQ(*card.precision(), 1.0);
  const PiiCounts& phone = scorer.counts(kPhone);
  EXPECT_EQ(phone.gold, 1u);
  EXPECT_EQ(phone.predicted, 2u);
  EXPECT_DOUBLE_EQ(*phone.precision(), 0.5);
  EXPECT_DOUBLE_EQ(*phone.recall(), 1.0);
  EXPECT_DOUBLE_EQ(*phone.f_beta(2.0), 5.0 * 0.5 * 1.0 / (4.0 * 0.5 + 1.0));
  const PiiCounts& name = scorer.counts(kName);
  EXPECT_FALSE(name.precision());  // nothing predicted
  EXPECT_DOUBLE_EQ(*name.recall(), 0.0);
  EXPECT_FALSE(name.f_beta());
  const PiiCounts& key = scorer.counts(PiiType::kApiKey);
  EXPECT_FALSE(key.recall());  // never labelled
  EXPECT_DOUBLE_EQ(*key.precision(), 0.0);
  // Overall: 4 predicted, 2 matched, 3 gold; the unlabelled key counts.
  const PiiCounts all = scorer.overall();
  EXPECT_EQ(all.predicted, 4u);
  EXPECT_EQ(all.matched, 2u);
  EXPECT_EQ(all.gold, 3u);
  const PiiType structured[] = {kCard, kPhone};
  const PiiCounts some = scorer.overall_for(structured);
  EXPECT_EQ(some.predicted, 3u);
  EXPECT_EQ(some.gold, 2u);
  EXPECT_EQ(some.matched, 2u);
}

TEST(PiiEvalTest, MatchingIsOneToOneAndTakesTheLargestOverlap) {
  PiiScorer scorer;
  // Two predictions over one gold span: one match, one false positive.
  scorer.add(blank(64), std::vector<PiiSpan>{{kName, 0, 10}}, std::vector<PiiSpan>{{kName, 0, 10}, {kName, 0, 9}});
  EXPECT_EQ(scorer.counts(kName).matched, 1u);
  EXPECT_EQ(scorer.counts(kName).predicted, 2u);
  // One prediction between two gold spans takes the one it overlaps most.
  PiiScorer second;
  second.add(blank(64), std::vector<PiiSpan>{{kName, 0, 6}, {kName, 6, 16}}, std::vector<PiiSpan>{{kName, 3, 15}});
  EXPECT_EQ(second.counts(kName).matched, 1u);
  // ...leaving the other for a later prediction.
  PiiScorer third;
  third.add(blank(64), std::vector<PiiSpan>{{kName, 0, 6}, {kName, 6, 16}}, std::vector<PiiSpan>{{kName, 3, 15}, {kName, 0, 6}});
  EXPECT_EQ(third.counts(kName).matched, 2u);
}

TEST(PiiEvalTest, ZeroPrecisionAndRecallGiveZeroF2) {
  PiiScorer scorer;
  scorer.add(blank(64), std::vector<PiiSpan>{{kCard, 0, 16}}, std::vector<PiiSpan>{{kCard, 30, 46}});
  EXPECT_DOUBLE_EQ(*scorer.counts(kCard).f_beta(), 0.0);
}

// An address labelled in three parts, found as one span: one part of three
// matches one to one (the longest, half the detection), but every labelled
// byte is covered.
TEST(PiiEvalTest, CoverageCountsWhatTheDetectionsHide) {
  constexpr PiiType kAddress = PiiType::kStreetAddress, kCity = PiiType::kLocation;
  PiiScorer scorer;
  scorer.add(blank(64), std::vector<PiiSpan>{{kAddress, 0, 2}, {kAddress, 3, 13}, {kAddress, 14, 20}, {kCity, 30, 40}},
             std::vector<PiiSpan>{{kAddress, 0, 20}, {kAddress, 30, 35}, {kAddress, 36, 38}});
  const PiiCounts& address = scorer.counts(kAddress);
  EXPECT_EQ(address.matched, 1u);
  EXPECT_EQ(address.gold, 3u);
  EXPECT_EQ(address.gold_length, 18u);
  EXPECT_DOUBLE_EQ(*address.coverage(), 1.0);
  // The city is covered by address detections in two pieces: 7 of 10 bytes, of any type only.
  EXPECT_DOUBLE_EQ(*scorer.counts(kCity).coverage(), 0.0);
  EXPECT_DOUBLE_EQ(*scorer.counts(kCity).coverage_any_type(), 0.7);
  const nlohmann::json report = nlohmann::json::parse(pii_eval_json(scorer));
  EXPECT_EQ(report["types"]["STREET_ADDRESS"]["coverage"], 1.0);
  EXPECT_DOUBLE_EQ(report["overall"]["coverage_any_type"].get<double>(), 25.0 / 28.0);
}

// Tokens take the type of the span over them, however the spans are cut:
// an address labelled in parts and found whole matches token for token.
TEST(PiiEvalTest, TokensAreScoredWhateverTheSpans) {
  constexpr PiiType kAddress = PiiType::kStreetAddress;
  //                      0         1         2         3         4
  //                      0123456789012345678901234567890123456789012345
  const std::string text = "Send it to 12 Elm Street, Apt 3 for Jo Smith.";
  PiiScorer scorer;
  scorer.add(text,
             std::vector<PiiSpan>{{kAddress, 11, 13}, {kAddress, 14, 24}, {kAddress, 26, 31}, {kName, 36, 44}},
             std::vector<PiiSpan>{{kAddress, 11, 31}, {kName, 39, 44}, {kPhone, 0, 4}});
  const PiiCounts& address = scorer.counts(kAddress);
  // "12", "Elm", "Street", ",", "Apt", "3": the comma is no labelled token.
  EXPECT_EQ(address.gold_tokens, 5u);
  EXPECT_EQ(address.predicted_tokens, 6u);
  EXPECT_EQ(address.matched_tokens, 5u);
  EXPECT_DOUBLE_EQ(*address.token_recall(), 1.0);
  EXPECT_DOUBLE_EQ(*address.token_precision(), 5.0 / 6.0);
  EXPECT_EQ(address.matched, 1u);  // one to one, only the street matches
  const PiiCounts& name = scorer.counts(kName);
  EXPECT_EQ(name.gold_tokens, 2u);
  EXPECT_EQ(name.matched_tokens, 1u);
  EXPECT_DOUBLE_EQ(*name.token_recall(), 0.5);
  EXPECT_EQ(scorer.counts(kPhone).predicted_tokens, 1u);
  EXPECT_EQ(scorer.counts(kPhone).matched_tokens, 0u);
  const PiiCounts all = scorer.overall();
  EXPECT_EQ(all.gold_tokens, 7u);
  EXPECT_EQ(all.predicted_tokens, 8u);
  EXPECT_EQ(all.matched_tokens, 6u);
  const nlohmann::json report = nlohmann::json::parse(pii_eval_json(scorer));
  EXPECT_EQ(report["types"]["STREET_ADDRESS"]["tokens"]["recall"], 1.0);
  EXPECT_EQ(report["overall"]["tokens"]["matched"], 6);
}

// A token partly inside a span counts for it; spans that overlap give the
// token the type of the one that begins first.
TEST(PiiEvalTest, TokensPartlyInsideASpan) {
  const std::string text = "call 5551234x now";
  PiiScorer scorer;
  scorer.add(text, std::vector<PiiSpan>{{kPhone, 5, 12}}, std::vector<PiiSpan>{{kName, 0, 7}, {kPhone, 6, 13}});
  // Tokens: "call" (name), "5551234x" (phone labelled; detected: name first), "now".
  EXPECT_EQ(scorer.counts(kPhone).gold_tokens, 1u);
  EXPECT_EQ(scorer.counts(kPhone).predicted_tokens, 0u);
  EXPECT_EQ(scorer.counts(kName).predicted_tokens, 2u);
  EXPECT_EQ(scorer.overall().matched_tokens, 0u);
}

TEST(PiiEvalTest, JsonReport) {
  PiiScorer scorer;
  scorer.add(blank(64), std::vector<PiiSpan>{{kCard, 0, 16}, {kName, 20, 25}}, std::vector<PiiSpan>{{kCard, 0, 16}});
  const nlohmann::json report = nlohmann::json::parse(pii_eval_json(scorer));
  EXPECT_EQ(report["types"]["CREDIT_CARD"]["precision"], 1.0);
  EXPECT_EQ(report["types"]["CREDIT_CARD"]["f2"], 1.0);
  EXPECT_TRUE(report["types"]["PERSON"]["precision"].is_null());
  EXPECT_EQ(report["types"]["PERSON"]["recall"], 0.0);
  EXPECT_FALSE(report["types"].contains("IP_ADDRESS"));
  EXPECT_EQ(report["overall"]["gold"], 2);
  EXPECT_EQ(report["overall"]["recall"], 0.5);
}

}  // namespace
}  // namespace tiergate
