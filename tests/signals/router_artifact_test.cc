#include "tiergate/signals/router_artifact.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "synthetic.h"
#include "tiergate/signals/router_training.h"

namespace tiergate {
namespace {

using ::testing::HasSubstr;
using nlohmann::json;

RouterTrainOptions small_options() {
  RouterTrainOptions options;
  options.space.buckets = 256;
  options.label_buckets = 64;
  options.expert_min_rows = 10;
  return options;
}

// Trained once: every part present (intent model, experts, topic prior).
const RouterArtifact& full_artifact() {
  static const RouterArtifact artifact = [] {
    RouterArtifact a = train_router(testing::synthetic_routing_rows(90, 1, "math"), {}, small_options());
    a.training_json = R"({"note":"from the test"})";
    return a;
  }();
  return artifact;
}

class RouterArtifactTest : public ::testing::Test {
 protected:
  // Saves `artifact`, lets `edit` change its JSON, writes it back and loads it.
  StatusOr<RouterArtifact> load_edited(const RouterArtifact& artifact, const std::function<void(json&)>& edit) {
    const std::string path = dir_.file("router.json");
    EXPECT_TRUE(save_router_artifact(artifact, path).is_ok());
    json doc = json::parse(testing::read_text(path));
    edit(doc);
    return load_router_artifact(dir_.write("edited.json", doc.dump()));
  }
  StatusOr<RouterArtifact> load_text(const std::string& text) { return load_router_artifact(dir_.write("text.json", text)); }

  testing::ScratchDir dir_;
};

TEST_F(RouterArtifactTest, RoundTripGivesIdenticalScores) {
  const RouterArtifact& artifact = full_artifact();
  ASSERT_TRUE(artifact.intent.has_model());
  ASSERT_FALSE(artifact.complexity.empty());
  ASSERT_EQ(artifact.complexity.experts().size(), 2u);
  ASSERT_GT(artifact.complexity.topic_weight(), 0.0f);
  ASSERT_EQ(artifact.score_quantiles.size(), 101u);

  const std::string path = dir_.file("router.json");
  ASSERT_TRUE(save_router_artifact(artifact, path).is_ok());
  auto loaded = load_router_artifact(path);
  ASSERT_TRUE(loaded.is_ok()) << loaded.status().message();
  EXPECT_EQ(loaded->space.buckets, artifact.space.buckets);
  EXPECT_TRUE(loaded->intent.has_model());
  EXPECT_EQ(loaded->intent.model().weights(), artifact.intent.model().weights());
  EXPECT_EQ(loaded->complexity.global().first.weights(), artifact.complexity.global().first.weights());
  EXPECT_EQ(loaded->complexity.gate().labels, artifact.complexity.gate().labels);
  EXPECT_EQ(loaded->complexity.expert_weight(), artifact.complexity.expert_weight());
  EXPECT_EQ(loaded->complexity.expert_offsets(), artifact.complexity.expert_offsets());
  EXPECT_EQ(loaded->complexity.topics().labels, artifact.complexity.topics().labels);
  EXPECT_EQ(loaded->complexity.topics().values, artifact.complexity.topics().values);
  EXPECT_EQ(loaded->complexity.topic_weight(), artifact.complexity.topic_weight());
  EXPECT_EQ(loaded->score_quantiles, artifact.score_quantiles);
  EXPECT_EQ(json::parse(loaded->training_json), json::parse(artifact.training_json));

  // Fresh rows (another seed) score exactly the same under both.
  const std::vector<RoutingRow> rows = testing::synthetic_routing_rows(40, 99);
  EXPECT_EQ(score_rows(*loaded, rows), score_rows(artifact, rows));
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

TEST_F(RouterArtifactTest, RoundTripWithoutIntentModelOrExperts) {
  RouterTrainOptions options = small_options();
  options.expert_weight = 0;
  options.topic_weight = 0;
  options.target = ComplexityTarget::kCloudWins;
  const RouterArtifact artifact = train_router(testing::synthetic_routing_rows(60), {}, options);
  ASSERT_FALSE(artifact.intent.has_model());  // no row maps onto an intent
  const std::string path = dir_.file("plain.json");
  ASSERT_TRUE(save_router_artifact(artifact, path).is_ok());
  auto loaded = load_router_artifact(path);
  ASSERT_TRUE(loaded.is_ok()) << loaded.status().message();
  EXPECT_FALSE(loaded->intent.has_model());
  EXPECT_EQ(loaded->complexity.global().target, ComplexityTarget::kCloudWins);
  EXPECT_TRUE(loaded->complexity.experts().empty());
  EXPECT_EQ(loaded->complexity.topic_weight(), 0.0f);
  const std::vector<RoutingRow> rows = testing::synthetic_routing_rows(20, 7);
  EXPECT_EQ(score_rows(*loaded, rows), score_rows(artifact, rows));
}

TEST_F(RouterArtifactTest, OtherVersionIsRefused) {
  auto loaded = load_edited(full_artifact(), [](json& doc) { doc["version"] = kRouterArtifactVersion + 1; });
  ASSERT_FALSE(loaded.is_ok());
  EXPECT_EQ(loaded.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(loaded.status().message(), HasSubstr("artifact version " + std::to_string(kRouterArtifactVersion + 1)));
  EXPECT_THAT(loaded.status().message(), HasSubstr("retrain"));
  EXPECT_THAT(loaded.status().message(), HasSubstr("edited.json"));

  auto missing = load_edited(full_artifact(), [](json& doc) { doc.erase("version"); });
  ASSERT_FALSE(missing.is_ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kFailedPrecondition);
}

TEST_F(RouterArtifactTest, OtherFeatureSetIsRefused) {
  auto loaded = load_edited(full_artifact(), [](json& doc) { doc["feature_set"] = 99; });
  ASSERT_FALSE(loaded.is_ok());
  EXPECT_EQ(loaded.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(loaded.status().message(), HasSubstr("feature set 99"));
  EXPECT_THAT(loaded.status().message(), HasSubstr("retrain"));
}

TEST_F(RouterArtifactTest, OtherFormatIsRefused) {
  for (const std::string& text : {std::string("not json at all"), std::string("[1, 2, 3]"), std::string("{}"),
                                  std::string(R"({"format": "something-else", "version": 1})")}) {
    auto loaded = load_text(text);
    ASSERT_FALSE(loaded.is_ok()) << text;
    EXPECT_EQ(loaded.status().code(), StatusCode::kInvalidArgument) << text;
    EXPECT_THAT(loaded.status().message(), HasSubstr("not a tiergate router artifact")) << text;
  }
}

TEST_F(RouterArtifactTest, NonStringFormatIsRefusedNotThrown) {
  // The loader promises errors as values: a "format" of the wrong JSON type
  // must not escape as an exception.
  StatusOr<RouterArtifact> loaded = invalid_argument("not run");
  EXPECT_NO_THROW(loaded = load_text(R"({"format": 1, "version": 1})"));
  ASSERT_FALSE(loaded.is_ok());
  EXPECT_THAT(loaded.status().message(), HasSubstr("not a tiergate router artifact"));
}

TEST_F(RouterArtifactTest, TruncatedWeightsAreRefused) {
  auto loaded = load_edited(full_artifact(), [](json& doc) {
    std::string& first = doc["complexity"]["global"]["first"].get_ref<std::string&>();
    first.resize(first.size() - 8);
  });
  ASSERT_FALSE(loaded.is_ok());
  EXPECT_EQ(loaded.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(loaded.status().message(), HasSubstr("complexity.global.first"));
  EXPECT_THAT(loaded.status().message(), HasSubstr("expected " + std::to_string(full_artifact().space.dimension() +
                                                                               kIntentFeatures)));
}

TEST_F(RouterArtifactTest, DamagedPartsAreRefused) {
  struct Case {
    const char* name;
    std::function<void(json&)> edit;
    const char* error;
  };
  const std::vector<Case> cases = {
      {"IntentNotBase64", [](json& doc) { doc["intent"]["weights"] = "!!!!"; }, "intent.weights: not base64"},
      {"IntentClassRenamed", [](json& doc) { doc["intent"]["classes"][3] = "extract"; }, "intent class 3"},
      {"IntentClassMissing", [](json& doc) { doc["intent"]["classes"].erase(0); }, "intent classes differ"},
      {"NoComplexity", [](json& doc) { doc.erase("complexity"); }, "malformed artifact"},
      {"UnknownTarget", [](json& doc) { doc["complexity"]["global"]["target"] = "vibes"; }, "unknown target"},
      {"DimensionDiffers", [](json& doc) { doc["complexity"]["global"]["dimension"] = 5; }, "dimension differs"},
      {"BucketsNotPowerOfTwo", [](json& doc) { doc["buckets"] = 100; }, "power of two"},
      {"ExpertMissing", [](json& doc) { doc["complexity"]["experts"]["models"].erase(0); }, "one expert per gate label"},
      {"ExpertOffsetMissing", [](json& doc) { doc["complexity"]["experts"]["offsets"].erase(0); },
       "one offset per expert"},
      {"GateBucketsNotPowerOfTwo", [](json& doc) { doc["complexity"]["experts"]["gate"]["buckets"] = 48; },
       "power of two"},
      {"TopicValuesMismatch", [](json& doc) { doc["complexity"]["topics"]["values"].erase(0); },
       "labels and values must match"},
      {"QuantilesWrongCount", [](json& doc) { doc["calibration"]["score_quantiles"] = {0.1, 0.2}; }, "101 values"},
      {"FamiliarityLowMissing", [](json& doc) { doc["complexity"]["familiarity"]["low"].erase(0); },
       "labels, low, high and intercepts must match"},
      {"FamiliarityHighNotAboveLow",
       [](json& doc) { doc["complexity"]["familiarity"]["high"] = doc["complexity"]["familiarity"]["low"]; },
       "high must exceed low"},
      {"FamiliarityBucketsNotPowerOfTwo", [](json& doc) { doc["complexity"]["familiarity"]["buckets"] = 1000; },
       "power of two"},
      {"FamiliarityCentroidsTruncated", [](json& doc) { doc["complexity"]["familiarity"]["centroids"] = "AAAA"; },
       "complexity.familiarity.centroids"},
  };
  for (const Case& c : cases) {
    StatusOr<RouterArtifact> loaded = invalid_argument("not run");
    EXPECT_NO_THROW(loaded = load_edited(full_artifact(), c.edit)) << c.name;
    ASSERT_FALSE(loaded.is_ok()) << c.name;
    EXPECT_THAT(loaded.status().message(), HasSubstr(c.error)) << c.name;
    EXPECT_THAT(loaded.status().message(), HasSubstr("edited.json")) << c.name;
  }
}

TEST_F(RouterArtifactTest, MissingFileAndUnwritablePath) {
  auto loaded = load_router_artifact(dir_.file("absent.json"));
  ASSERT_FALSE(loaded.is_ok());
  EXPECT_EQ(loaded.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(loaded.status().message(), HasSubstr("absent.json"));
  const Status saved = save_router_artifact(full_artifact(), dir_.file("no/such/dir/router.json"));
  EXPECT_FALSE(saved.is_ok());
  EXPECT_EQ(saved.code(), StatusCode::kUnavailable);
}

TEST(ScoreQuantilesTest, HandComputed) {
  const std::vector<float> q = score_quantiles({3.0, 1.0, 2.0});
  ASSERT_EQ(q.size(), 101u);
  EXPECT_FLOAT_EQ(q[0], 1.0f);
  EXPECT_FLOAT_EQ(q[25], 1.5f);
  EXPECT_FLOAT_EQ(q[50], 2.0f);
  EXPECT_FLOAT_EQ(q[75], 2.5f);
  EXPECT_FLOAT_EQ(q[100], 3.0f);
  EXPECT_TRUE(score_quantiles({}).empty());
  const std::vector<float> one = score_quantiles({0.25});
  ASSERT_EQ(one.size(), 101u);
  for (float v : one) EXPECT_EQ(v, 0.25f);
}

TEST(ScoreQuantilesTest, Monotone) {
  testing::Lcg rng(3);
  std::vector<double> scores;
  for (int i = 0; i < 777; ++i) scores.push_back(static_cast<double>(rng.below(100000)) / 50000.0 - 1.0);
  const std::vector<float> q = score_quantiles(scores);
  ASSERT_EQ(q.size(), 101u);
  EXPECT_TRUE(std::is_sorted(q.begin(), q.end()));
  EXPECT_EQ(q.front(), static_cast<float>(*std::min_element(scores.begin(), scores.end())));
  EXPECT_EQ(q.back(), static_cast<float>(*std::max_element(scores.begin(), scores.end())));
}

TEST(ThresholdForCloudShareTest, Interpolates) {
  std::vector<double> scores;
  for (int i = 0; i <= 100; ++i) scores.push_back(i);
  const std::vector<float> q = score_quantiles(scores);  // q[i] == i
  EXPECT_GT(threshold_for_cloud_share(q, 0.0), 100.0);   // above every score: nothing to the cloud
  EXPECT_LT(threshold_for_cloud_share(q, 1.0), 0.0);     // below every score: everything
  EXPECT_NEAR(threshold_for_cloud_share(q, 0.5), 50.0, 1e-6);
  EXPECT_NEAR(threshold_for_cloud_share(q, 0.25), 75.0, 1e-6);
  EXPECT_NEAR(threshold_for_cloud_share(q, 0.305), 69.5, 1e-4);
  // Out-of-range shares are clamped.
  EXPECT_EQ(threshold_for_cloud_share(q, 1.5), threshold_for_cloud_share(q, 1.0));
  EXPECT_EQ(threshold_for_cloud_share(q, -0.2), threshold_for_cloud_share(q, 0.0));
}

TEST(ThresholdForCloudShareTest, SendsTheShareOfCalibrationRows) {
  testing::Lcg rng(8);
  std::vector<double> scores;
  for (int i = 0; i < 1000; ++i) scores.push_back(static_cast<double>(rng.below(1u << 30)) / (1u << 30));
  const std::vector<float> q = score_quantiles(scores);
  for (double share : {0.0, 0.1, 0.3, 0.5, 0.9, 1.0}) {
    const double threshold = threshold_for_cloud_share(q, share);
    const auto above = std::count_if(scores.begin(), scores.end(), [&](double s) { return s > threshold; });
    EXPECT_NEAR(static_cast<double>(above) / 1000.0, share, 0.01) << share;
  }
}

}  // namespace
}  // namespace tiergate
