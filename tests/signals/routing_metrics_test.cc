#include "tiergate/signals/routing_metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace tiergate {
namespace {

constexpr double kEps = 1e-9;

// Four rows worked out by hand: gains (cloud - edge) 1, 0.5, 0, 0.
// Q(0) = 1.5 / 4, Q(1) = 3 / 4, gap (in totals) 1.5.
const std::vector<RoutingOutcome> kFour = {{0.0, 1.0}, {0.0, 0.5}, {1.0, 1.0}, {0.5, 0.5}};

TEST(RoutingMetricsTest, OracleOrderOnFourRows) {
  // Send rows by gain: PGR after k = 1..4 rows is 2/3, 1, 1, 1.
  const std::vector<double> scores = {4, 3, 2, 1};
  const RoutingSummary s = summarize_routing(kFour, scores);
  EXPECT_EQ(s.rows, 4u);
  EXPECT_TRUE(s.gap_defined);
  EXPECT_NEAR(s.edge_quality, 0.375, kEps);
  EXPECT_NEAR(s.cloud_quality, 0.75, kEps);
  // Trapezoids: (0 + 2/3)/2 + (2/3 + 1)/2 + 1 + 1 = 19/6, over 4 steps.
  EXPECT_NEAR(s.apgr, 19.0 / 24.0, kEps);
  EXPECT_GT(s.apgr, 0.5);
  EXPECT_NEAR(s.cpt50, 0.25, kEps);
  EXPECT_NEAR(s.cpt80, 0.5, kEps);
  EXPECT_NEAR(s.cpt95, 0.5, kEps);
  // 95% of the cloud's total 3 is 2.85: reached at k = 2 (total 3), not k = 1 (2.5).
  EXPECT_NEAR(s.cloud_share_for_95_quality, 0.5, kEps);
}

TEST(RoutingMetricsTest, ReversedOrderOnFourRows) {
  // Rows sent worst first: PGR after k = 1..4 rows is 0, 0, 1/3, 1.
  const std::vector<double> scores = {1, 2, 3, 4};
  const RoutingSummary s = summarize_routing(kFour, scores);
  EXPECT_NEAR(s.apgr, (1.0 / 6.0 + 2.0 / 3.0) / 4.0, kEps);
  EXPECT_LT(s.apgr, 0.5);
  EXPECT_NEAR(s.cpt50, 1.0, kEps);
  EXPECT_NEAR(s.cpt80, 1.0, kEps);
  EXPECT_NEAR(s.cpt95, 1.0, kEps);
  EXPECT_NEAR(s.cloud_share_for_95_quality, 1.0, kEps);
}

TEST(RoutingMetricsTest, TiesFollowRowOrder) {
  const std::vector<double> tied = {0.5, 0.5, 0.5, 0.5};
  const RoutingSummary s = summarize_routing(kFour, tied);
  // Row order happens to be the oracle order here.
  EXPECT_NEAR(s.apgr, 19.0 / 24.0, kEps);
  EXPECT_NEAR(s.cpt50, 0.25, kEps);
}

TEST(RoutingMetricsTest, ExactCptOnMixedOrder) {
  // Scores put the 0.5-gain row first, then the 1-gain row:
  // PGR after k = 1..4 is 1/3, 1, 1, 1.
  const std::vector<double> scores = {0.8, 0.9, 0.1, 0.2};
  const RoutingSummary s = summarize_routing(kFour, scores);
  EXPECT_NEAR(s.cpt50, 0.5, kEps);
  EXPECT_NEAR(s.cpt80, 0.5, kEps);
  EXPECT_NEAR(s.cpt95, 0.5, kEps);
  EXPECT_NEAR(s.apgr, ((0 + 1.0 / 3.0) / 2 + (1.0 / 3.0 + 1) / 2 + 1 + 1) / 4.0, kEps);
  EXPECT_NEAR(s.cloud_share_for_95_quality, 0.5, kEps);
}

TEST(RoutingMetricsTest, RandomLikeOrderOnUniformGainsIsAboutHalf) {
  // Every row gains the same: any order is as good as random, APGR = 0.5
  // exactly. (Scores in binary fractions keep the sums exact.)
  const std::vector<RoutingOutcome> outcomes(10, RoutingOutcome{0.25, 0.75});
  std::vector<double> scores;
  for (int i = 0; i < 10; ++i) scores.push_back((i * 7) % 10);
  const RoutingSummary s = summarize_routing(outcomes, scores);
  EXPECT_NEAR(s.apgr, 0.5, kEps);
  EXPECT_NEAR(s.cpt50, 0.5, kEps);
  EXPECT_NEAR(s.cpt80, 0.8, kEps);
  // Q(c) = 0.25 + 0.5c >= 0.95 * 0.75 = 0.7125 needs c >= 0.925: k = 10 (0.9 gives 0.7).
  EXPECT_NEAR(s.cloud_share_for_95_quality, 1.0, kEps);
}

TEST(RoutingMetricsTest, CloudShareFor95QualityCanBeZero) {
  // The edge already reaches 95% of the cloud's quality.
  const std::vector<RoutingOutcome> outcomes = {{0.96, 1.0}, {1.0, 1.0}};
  const std::vector<double> scores = {1, 0};
  EXPECT_NEAR(summarize_routing(outcomes, scores).cloud_share_for_95_quality, 0.0, kEps);
}

TEST(RoutingMetricsTest, GapUndefinedWhenCloudIsNotBetter) {
  for (const std::vector<RoutingOutcome>& outcomes :
       {std::vector<RoutingOutcome>{{1.0, 0.5}, {1.0, 1.0}}, std::vector<RoutingOutcome>{{0.5, 0.5}, {0.7, 0.7}}}) {
    const std::vector<double> scores = {1, 0};
    const RoutingSummary s = summarize_routing(outcomes, scores);
    EXPECT_FALSE(s.gap_defined);
    EXPECT_EQ(s.apgr, 0.0);
    EXPECT_EQ(s.cpt50, 1.0);
    EXPECT_EQ(s.cpt80, 1.0);
    EXPECT_EQ(s.cpt95, 1.0);
    EXPECT_EQ(s.cloud_share_for_95_quality, 0.0);  // the edge alone already reaches it
  }
}

TEST(RoutingMetricsTest, NoRows) {
  const RoutingSummary s = summarize_routing({}, {});
  EXPECT_EQ(s.rows, 0u);
  EXPECT_FALSE(s.gap_defined);
  EXPECT_EQ(s.apgr, 0.0);
  EXPECT_EQ(s.cpt50, 1.0);
}

// 400 rows, half of them gaining 1 from the cloud and half nothing.
std::vector<RoutingOutcome> half_gaining() {
  std::vector<RoutingOutcome> rows;
  for (int i = 0; i < 400; ++i) rows.push_back(i % 2 == 0 ? RoutingOutcome{0.0, 1.0} : RoutingOutcome{1.0, 1.0});
  return rows;
}

// n scores drawn uniformly from [0, 1).
std::vector<double> random_scores(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<double> scores(n);
  for (double& s : scores) s = uniform(rng);
  return scores;
}

TEST(ApgrDifferenceTest, SameScoresDifferByNothing) {
  const std::vector<RoutingOutcome> rows = half_gaining();
  std::vector<double> scores(rows.size());
  for (size_t i = 0; i < scores.size(); ++i) scores[i] = static_cast<double>((i * 37) % 101);
  const ApgrDifference d = bootstrap_apgr_difference(rows, scores, scores, 50, 1);
  EXPECT_EQ(d.resamples, 50u);
  EXPECT_EQ(d.observed, 0.0);
  EXPECT_EQ(d.low, 0.0);
  EXPECT_EQ(d.high, 0.0);
  EXPECT_EQ(d.share_below_zero, 0.0);
}

// The oracle against a random order: its APGR is higher on the rows and in
// every draw, and the interval holds the observed difference.
TEST(ApgrDifferenceTest, OracleBeatsRandomInEveryDraw) {
  const std::vector<RoutingOutcome> rows = half_gaining();
  const std::vector<double> random = random_scores(rows.size(), 5);
  std::vector<double> oracle(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) oracle[i] = rows[i].cloud_score - rows[i].edge_score;
  const ApgrDifference d = bootstrap_apgr_difference(rows, oracle, random, 100, 1);
  EXPECT_EQ(d.resamples, 100u);
  EXPECT_NEAR(d.observed, summarize_routing(rows, oracle).apgr - summarize_routing(rows, random).apgr, kEps);
  EXPECT_GT(d.observed, 0.2);
  EXPECT_GT(d.low, 0.0);
  EXPECT_LE(d.low, d.observed);
  EXPECT_GE(d.high, d.observed);
  EXPECT_EQ(d.share_below_zero, 0.0);
  // Reversed: the same interval, negated.
  const ApgrDifference r = bootstrap_apgr_difference(rows, random, oracle, 100, 1);
  EXPECT_NEAR(r.low, -d.high, kEps);
  EXPECT_NEAR(r.high, -d.low, kEps);
  EXPECT_EQ(r.share_below_zero, 1.0);
}

// Two routers that differ by chance: the interval straddles zero, it is the
// same for the same seed, and another seed moves it.
TEST(ApgrDifferenceTest, ChanceDifferenceStraddlesZeroAndFollowsTheSeed) {
  const std::vector<RoutingOutcome> rows = half_gaining();
  const std::vector<double> a = random_scores(rows.size(), 9), b = random_scores(rows.size(), 10);
  const ApgrDifference d = bootstrap_apgr_difference(rows, a, b, 200, 1);
  EXPECT_LT(d.low, 0.0);
  EXPECT_GT(d.high, 0.0);
  EXPECT_GT(d.share_below_zero, 0.0);
  EXPECT_LT(d.share_below_zero, 1.0);
  const ApgrDifference again = bootstrap_apgr_difference(rows, a, b, 200, 1);
  EXPECT_EQ(again.low, d.low);
  EXPECT_EQ(again.high, d.high);
  const ApgrDifference other = bootstrap_apgr_difference(rows, a, b, 200, 2);
  EXPECT_EQ(other.observed, d.observed);
  EXPECT_NE(other.low, d.low);
}

TEST(ApgrDifferenceTest, NothingToCompareWithoutAGap) {
  const std::vector<RoutingOutcome> rows(10, RoutingOutcome{1.0, 1.0});
  const std::vector<double> scores(10, 0.0);
  const ApgrDifference d = bootstrap_apgr_difference(rows, scores, scores, 20, 1);
  EXPECT_EQ(d.resamples, 0u);
  EXPECT_EQ(bootstrap_apgr_difference({}, {}, {}, 20, 1).resamples, 0u);
}

}  // namespace
}  // namespace tiergate
