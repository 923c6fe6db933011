// The verifier of speculative edge execution: draft features from token
// log-probabilities, the built-in weights' ordering, calibration on labelled
// rows, the file format and its errors.
#include "tiergate/dispatch/verifier.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace tiergate {
namespace {

TokenLogprob token(const std::string& text, double logprob, std::vector<double> alternatives = {}) {
  TokenLogprob t{text, logprob, {}};
  for (double a : alternatives) t.top.push_back({"alt", a});
  return t;
}

TEST(VerifierTest, DraftFeaturesFromLogprobs) {
  const double half = std::log(0.5);
  std::vector<TokenLogprob> tokens = {token("a", -0.1, {half, half}), token("b", -0.5), token("c", -2.0),
                                      token("d", -0.2)};
  DraftFeatures f = draft_features(tokens, true, 0.3, "coding");
  EXPECT_EQ(f.tokens, 4);
  EXPECT_NEAR(f.mean_logprob, -0.7, 1e-12);
  EXPECT_DOUBLE_EQ(f.min_logprob, -2.0);
  EXPECT_NEAR(f.mean_entropy, std::log(2.0) / 4, 1e-12);  // one position of two equal alternatives
  EXPECT_DOUBLE_EQ(f.repetition, 0.0);
  EXPECT_TRUE(f.stopped);
  EXPECT_DOUBLE_EQ(f.router_prior, 0.3);
  EXPECT_EQ(f.intent, "coding");
  EXPECT_EQ(draft_features({}, false, 0, "").tokens, 0);
}

TEST(VerifierTest, RepetitionCountsRepeatedThreeTokenWindows) {
  std::vector<TokenLogprob> loop;
  for (int i = 0; i < 12; ++i) loop.push_back(token(i % 2 ? "la" : "di", -0.1));
  EXPECT_GT(draft_features(loop, false, 0, "").repetition, 0.7);
}

TEST(VerifierTest, BuiltInWeightsPreferConfidentNaturallyEndedDrafts) {
  Verifier v;
  EXPECT_FALSE(v.calibrated());
  DraftFeatures sure{40, -0.2, -2.0, 0.3, 0.0, true, 0.0, ""};
  DraftFeatures unsure{40, -2.5, -9.0, 2.0, 0.0, false, 0.0, ""};
  DraftFeatures looping = sure;
  looping.repetition = 0.9;
  EXPECT_TRUE(v.accepts(sure));
  EXPECT_FALSE(v.accepts(unsure));
  EXPECT_LT(v.confidence(looping), v.confidence(sure));
  DraftFeatures hard = sure;
  hard.router_prior = 2.0;
  EXPECT_LT(v.confidence(hard), v.confidence(sure));
}

// Rows whose drafts are good more often when the edge was confident.
std::vector<VerifierRow> synthetic_rows(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0, 0.4);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<VerifierRow> rows;
  for (size_t i = 0; i < n; ++i) {
    VerifierRow r;
    r.features.mean_logprob = -3.0 * u(rng);
    r.features.min_logprob = r.features.mean_logprob * 4;
    r.features.mean_entropy = -r.features.mean_logprob * 0.8 + std::abs(noise(rng));
    r.features.stopped = u(rng) < 0.8;
    r.features.intent = i % 2 ? "coding" : "chat";
    const double p_good = 1 / (1 + std::exp(-(3 + 2.5 * r.features.mean_logprob + noise(rng))));
    r.good = u(rng) < p_good;
    rows.push_back(r);
  }
  return rows;
}

TEST(VerifierTest, CalibrationReachesTheTargetQualityKeepingMostDrafts) {
  const std::vector<VerifierRow> rows = synthetic_rows(2000, 7);
  StatusOr<Verifier> v = Verifier::calibrate(rows, 0.9);
  ASSERT_TRUE(v.is_ok()) << v.status().message();
  ASSERT_TRUE(v->calibration().has_value());
  const Verifier::Calibration& c = *v->calibration();
  EXPECT_GE(c.accepted_quality, 0.9);
  EXPECT_GT(c.accepted_share, 0.1);
  EXPECT_LT(c.base_quality, 0.9);  // accepting everything would miss the target
  // The threshold holds on rows it did not see, within sampling noise.
  const std::vector<VerifierRow> fresh = synthetic_rows(2000, 8);
  size_t accepted = 0, good = 0;
  for (const VerifierRow& r : fresh) {
    if (!v->accepts(r.features)) continue;
    ++accepted;
    good += r.good ? 1 : 0;
  }
  ASSERT_GT(accepted, 0u);
  EXPECT_GT(static_cast<double>(good) / static_cast<double>(accepted), 0.85);
  // A stricter target keeps fewer drafts.
  StatusOr<Verifier> strict = Verifier::calibrate(rows, 0.97);
  ASSERT_TRUE(strict.is_ok());
  EXPECT_LT(strict->calibration()->accepted_share, c.accepted_share);
}

TEST(VerifierTest, AnUnreachableTargetRejectsEveryDraft) {
  std::vector<VerifierRow> rows = synthetic_rows(200, 3);
  for (VerifierRow& r : rows) r.features = DraftFeatures{};  // nothing tells them apart
  rows[0].good = true;
  rows[1].good = false;
  StatusOr<Verifier> v = Verifier::calibrate(rows, 1.0);
  ASSERT_TRUE(v.is_ok());
  EXPECT_EQ(v->calibration()->accepted_share, 0.0);
  EXPECT_FALSE(v->accepts(DraftFeatures{}));
}

TEST(VerifierTest, CalibrationErrors) {
  EXPECT_FALSE(Verifier::calibrate({}, 0.9).is_ok());
  std::vector<VerifierRow> rows = synthetic_rows(50, 1);
  EXPECT_FALSE(Verifier::calibrate(rows, 0.0).is_ok());
  EXPECT_FALSE(Verifier::calibrate(rows, 1.5).is_ok());
  for (VerifierRow& r : rows) r.good = true;
  StatusOr<Verifier> one_outcome = Verifier::calibrate(rows, 0.9);
  ASSERT_FALSE(one_outcome.is_ok());
  EXPECT_NE(one_outcome.status().message().find("both outcomes"), std::string::npos);
}

TEST(VerifierTest, FileRoundTripAndErrors) {
  StatusOr<Verifier> v = Verifier::calibrate(synthetic_rows(500, 5), 0.9);
  ASSERT_TRUE(v.is_ok());
  StatusOr<Verifier> back = Verifier::parse(v->to_json(), "v.json");
  ASSERT_TRUE(back.is_ok()) << back.status().message();
  EXPECT_DOUBLE_EQ(back->threshold(), v->threshold());
  EXPECT_TRUE(back->calibrated());
  for (const VerifierRow& r : synthetic_rows(50, 6)) {
    EXPECT_NEAR(back->confidence(r.features), v->confidence(r.features), 1e-9);
  }
  auto error = [](const std::string& text) { return Verifier::parse(text, "v.json").status().message(); };
  EXPECT_NE(error("{").find("v.json: not a JSON object"), std::string::npos);
  EXPECT_NE(error(R"({"format":"tiergate-router"})").find("not a verifier file"), std::string::npos);
  EXPECT_NE(error(R"({"format":"tiergate-verifier","version":9})").find("version 9"), std::string::npos);
  EXPECT_NE(error(R"({"format":"tiergate-verifier","version":1,"weights":{}})").find("weights.bias"), std::string::npos);
  EXPECT_EQ(load_verifier("/nonexistent/v.json").status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace tiergate
