// `tiergate router train|cv|eval|calibrate` and `tiergate intent classify`,
// run as the real binary on small generated data files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "run_command.h"
#include "synthetic.h"
#include "tiergate/config/config.h"

namespace tiergate {
namespace {

using ::testing::HasSubstr;
using nlohmann::json;

using Result = testing::CommandResult;

// Runs tiergate with `args`, stdout and stderr captured through files in `dir`.
Result run_tiergate(const testing::ScratchDir& dir, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {TIERGATE_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  return testing::run_command(argv, dir.file(""));
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

// Small hashed spaces keep the artifact and the run small.
const std::vector<std::string> kSmall = {"--buckets", "4096", "--label-buckets", "1024"};

std::vector<std::string> with_small(std::vector<std::string> args) {
  args.insert(args.end(), kSmall.begin(), kSmall.end());
  return args;
}

class RouterCommandsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::ScratchDir();
    rows_ = new std::vector<RoutingRow>(testing::synthetic_routing_rows(150, 11));
    data_ = new std::string(dir_->write("routing.jsonl", testing::routing_jsonl(*rows_)));
    router_ = new std::string(dir_->file("router.json"));
    train_ = new Result(run_tiergate(*dir_, with_small({"router", "train", "--data", *data_, "--out", *router_, "--cv", "2"})));
  }
  static void TearDownTestSuite() {
    delete train_;
    delete router_;
    delete data_;
    delete rows_;
    delete dir_;
  }
  void SetUp() override { ASSERT_EQ(train_->exit_code, 0) << train_->err; }

  static testing::ScratchDir* dir_;
  static std::vector<RoutingRow>* rows_;
  static std::string* data_;
  static std::string* router_;
  static Result* train_;
};

testing::ScratchDir* RouterCommandsTest::dir_ = nullptr;
std::vector<RoutingRow>* RouterCommandsTest::rows_ = nullptr;
std::string* RouterCommandsTest::data_ = nullptr;
std::string* RouterCommandsTest::router_ = nullptr;
Result* RouterCommandsTest::train_ = nullptr;

TEST_F(RouterCommandsTest, TrainWritesAnArtifactAndReportsCrossValidation) {
  const json out = json::parse(train_->out);
  EXPECT_EQ(out["router"], *router_);
  EXPECT_EQ(out["rows"], rows_->size());
  const json& overall = out["cross_validation"]["overall"];
  EXPECT_EQ(overall["rows"], rows_->size());
  EXPECT_TRUE(overall["gap_defined"].get<bool>());
  EXPECT_GT(overall["apgr"].get<double>(), 0.6);
  EXPECT_TRUE(overall["baselines"].contains("random_mean_of_10"));
  // The router against length alone, with its bootstrap interval.
  const json& length = overall["baselines"]["length"];
  const json& minus_length = length["router_apgr_minus_length"];
  EXPECT_NEAR(minus_length["observed"].get<double>(),
              overall["apgr"].get<double>() - length["apgr"].get<double>(), 1e-12);
  EXPECT_EQ(minus_length["resamples"], 1000);
  EXPECT_LE(minus_length["ci95_low"].get<double>(), minus_length["observed"].get<double>());
  EXPECT_GE(minus_length["ci95_high"].get<double>(), minus_length["observed"].get<double>());
  EXPECT_TRUE(out["cross_validation"]["benchmarks"].contains("alpha"));
  EXPECT_TRUE(out["cross_validation"]["benchmarks"].contains("beta"));
  const json artifact = json::parse(testing::read_text(*router_));
  EXPECT_EQ(artifact["format"], "tiergate-router");
  EXPECT_EQ(artifact["buckets"], 4096);
  EXPECT_EQ(artifact["training"]["calibration"], "cross-validated scores");
  EXPECT_EQ(artifact["calibration"]["score_quantiles"].size(), 101u);
}

TEST_F(RouterCommandsTest, EvalPrintsMetricsAndWritesScores) {
  const std::string scores = dir_->file("scores.jsonl");
  const Result r = run_tiergate(*dir_, {"router", "eval", "--router", *router_, "--data", *data_, "--scores-out", scores});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json out = json::parse(r.out);
  for (const char* key : {"rows", "APGR", "CPT(50%)", "CPT(80%)", "CPT(95%)", "cloud_share_for_95pct_quality",
                          "edge_quality", "cloud_quality", "details"}) {
    EXPECT_TRUE(out.contains(key)) << key;
  }
  EXPECT_EQ(out["rows"], rows_->size());
  EXPECT_GT(out["APGR"].get<double>(), 0.7);  // in-sample, on a learnable set
  EXPECT_LE(out["CPT(50%)"].get<double>(), out["CPT(80%)"].get<double>());
  EXPECT_LE(out["CPT(80%)"].get<double>(), out["CPT(95%)"].get<double>());
  const std::vector<std::string> lines = lines_of(testing::read_text(scores));
  ASSERT_EQ(lines.size(), rows_->size());
  for (size_t i = 0; i < lines.size(); ++i) {
    const json line = json::parse(lines[i]);
    EXPECT_EQ(line["id"], (*rows_)[i].id);
    EXPECT_TRUE(line["cloud_score"].is_number());
  }
}

TEST_F(RouterCommandsTest, CvPrintsPerBenchmarkReport) {
  const Result r = run_tiergate(*dir_, with_small({"router", "cv", "--data", *data_, "--folds", "2"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json out = json::parse(r.out);
  EXPECT_EQ(out["folds"], 2);
  EXPECT_EQ(out["overall"]["rows"], rows_->size());
  EXPECT_GT(out["overall"]["apgr"].get<double>(), 0.6);
  EXPECT_EQ(out["benchmarks"].size(), 2u);
}

TEST_F(RouterCommandsTest, CalibrateForACloudShare) {
  const Result r = run_tiergate(
      *dir_, {"router", "calibrate", "--router", *router_, "--data", *data_, "--target-cloud-share", "0.3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json out = json::parse(r.out);
  ASSERT_TRUE(out["threshold"].is_number());
  EXPECT_NEAR(out["cloud_share"].get<double>(), 0.3, 0.02);
  EXPECT_EQ(out["rows"], rows_->size());
  EXPECT_FALSE(out.contains("written_to"));
}

TEST_F(RouterCommandsTest, CalibrateForAQuality) {
  const Result r =
      run_tiergate(*dir_, {"router", "calibrate", "--router", *router_, "--data", *data_, "--target-quality", "0.95"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json out = json::parse(r.out);
  EXPECT_GE(out["quality_vs_cloud"].get<double>(), 0.95 - 1e-9);
  EXPECT_LT(out["cloud_share"].get<double>(), 1.0);
}

TEST_F(RouterCommandsTest, CalibrateNeedsATarget) {
  const Result r = run_tiergate(*dir_, {"router", "calibrate", "--router", *router_, "--data", *data_});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("--target-cloud-share"));
}


TEST_F(RouterCommandsTest, CalibrateWritesTheThresholdIntoAConfig) {
  const std::string config = dir_->write("tiergate.yaml", testing::kMinimalConfig);
  const Result r = run_tiergate(*dir_, {"router", "calibrate", "--router", *router_, "--data", *data_,
                                        "--target-cloud-share", "0.3", "--config", config});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json out = json::parse(r.out);
  EXPECT_EQ(out["written_to"], config);
  const std::string text = testing::read_text(config);
  EXPECT_THAT(text, HasSubstr("routing:\n  threshold: "));
  auto parsed = parse_config(text, config);
  ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
}

TEST_F(RouterCommandsTest, CalibrateLeavesAnInvalidConfigAlone) {
  const std::string text = "edge:\n  model: m.gguf\n";  // no listen: does not load
  const std::string config = dir_->write("broken.yaml", text);
  const Result r = run_tiergate(*dir_, {"router", "calibrate", "--router", *router_, "--data", *data_,
                                        "--target-cloud-share", "0.3", "--config", config});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("left unchanged"));
  EXPECT_EQ(testing::read_text(config), text);
}

TEST_F(RouterCommandsTest, IntentClassifyWritesOneLinePerRow) {
  const std::string prompts = dir_->write("prompts.jsonl",
                                          "{\"id\": \"s\", \"prompt\": \"Summarize the report below.\"}\n"
                                          "{\"prompt\": \"hello there, how are you\"}\n"
                                          "\n"
                                          "{\"id\": \"c\", \"messages\": [{\"role\": \"user\", \"content\": "
                                          "\"Classify this email as spam or not\"}], \"category\": \"classification\"}\n");
  for (const bool with_router : {false, true}) {
    const std::string out = dir_->file("intents.jsonl");
    std::vector<std::string> args = {"intent", "classify", "--data", prompts, "--out", out};
    if (with_router) args.insert(args.end(), {"--router", *router_});
    const Result r = run_tiergate(*dir_, args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::vector<std::string> lines = lines_of(testing::read_text(out));
    ASSERT_EQ(lines.size(), 3u);
    const json first = json::parse(lines[0]), second = json::parse(lines[1]), third = json::parse(lines[2]);
    EXPECT_EQ(first["id"], "s");
    EXPECT_EQ(first["intent"], "summarization");
    EXPECT_EQ(second["id"], "line-2");
    EXPECT_EQ(second["intent"], "chat");
    EXPECT_EQ(third["id"], "c");
    EXPECT_EQ(third["intent"], "classification");
    for (const json& line : {first, second, third}) {
      EXPECT_GE(line["confidence"].get<double>(), 0.0);
      EXPECT_LE(line["confidence"].get<double>(), 1.0);
    }
    EXPECT_THAT(r.err, HasSubstr("\"accuracy\":1.0"));  // the one labelled row is right
  }
}

TEST_F(RouterCommandsTest, MissingDataFileFails) {
  const Result r = run_tiergate(*dir_, {"router", "eval", "--router", *router_, "--data", dir_->file("absent.jsonl")});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("absent.jsonl"));
  const Result train = run_tiergate(*dir_, {"router", "train", "--data", dir_->file("absent.jsonl"), "--out",
                                            dir_->file("never.json")});
  EXPECT_NE(train.exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(dir_->file("never.json")));
}

TEST_F(RouterCommandsTest, MalformedRowNamesFileAndLine) {
  const std::string bad = dir_->write(
      "bad.jsonl", testing::routing_jsonl({(*rows_)[0], (*rows_)[1]}) + "{\"id\": \"x\", \"prompt\": \"p\", \"edge\": {\"score\": 2}, \"cloud\": {\"score\": 1}}\n");
  for (const std::vector<std::string>& args :
       {with_small({"router", "train", "--data", bad, "--out", dir_->file("bad-router.json"), "--cv", "0"}),
        std::vector<std::string>{"router", "eval", "--router", *router_, "--data", bad},
        std::vector<std::string>{"router", "calibrate", "--router", *router_, "--data", bad, "--target-cloud-share", "0.5"}}) {
    const Result r = run_tiergate(*dir_, args);
    EXPECT_EQ(r.exit_code, 1) << args[1];
    EXPECT_THAT(r.err, HasSubstr(bad + ":3: `edge.score` must be in [0, 1]")) << args[1];
  }
  const std::string bad_prompts = dir_->write("bad-prompts.jsonl", "{\"prompt\": \"ok\"}\nnot json\n");
  const Result r = run_tiergate(*dir_, {"intent", "classify", "--data", bad_prompts, "--out", dir_->file("o.jsonl")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr(bad_prompts + ":2: not valid JSON"));
}

TEST_F(RouterCommandsTest, ArtifactOfAnotherVersionIsRefused) {
  json artifact = json::parse(testing::read_text(*router_));
  artifact["version"] = 99;
  const std::string old = dir_->write("old-router.json", artifact.dump());
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"router", "eval", "--router", old, "--data", *data_},
        std::vector<std::string>{"router", "calibrate", "--router", old, "--data", *data_, "--target-cloud-share", "0.5"},
        std::vector<std::string>{"intent", "classify", "--router", old, "--data", *data_, "--out", dir_->file("o.jsonl")}}) {
    const Result r = run_tiergate(*dir_, args);
    EXPECT_EQ(r.exit_code, 1) << args[1];
    EXPECT_THAT(r.err, HasSubstr("artifact version 99")) << args[1];
  }
  const Result missing = run_tiergate(*dir_, {"router", "eval", "--router", dir_->file("none.json"), "--data", *data_});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_THAT(missing.err, HasSubstr("cannot open the router artifact"));
}

TEST_F(RouterCommandsTest, BadTrainOptionsAreRefused) {
  const Result buckets =
      run_tiergate(*dir_, {"router", "train", "--data", *data_, "--out", dir_->file("x.json"), "--buckets", "100"});
  EXPECT_EQ(buckets.exit_code, 1);
  EXPECT_THAT(buckets.err, HasSubstr("--buckets must be a power of two"));
  const Result target = run_tiergate(
      *dir_, with_small({"router", "train", "--data", *data_, "--out", dir_->file("x.json"), "--target", "vibes"}));
  EXPECT_EQ(target.exit_code, 1);
  EXPECT_THAT(target.err, HasSubstr("--target must be tier_gap or cloud_wins"));
  const Result folds = run_tiergate(*dir_, with_small({"router", "cv", "--data", *data_, "--folds", "1"}));
  EXPECT_EQ(folds.exit_code, 1);
  EXPECT_THAT(folds.err, HasSubstr("--folds must be at least 2"));
}

}  // namespace
}  // namespace tiergate
