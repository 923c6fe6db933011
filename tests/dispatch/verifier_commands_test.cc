// `tiergate verifier calibrate`, run as the real binary on labelled rows
// written here (synthetic drafts, no dataset rows).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "run_command.h"
#include "test_models.h"
#include "tiergate/dispatch/verifier.h"

namespace tiergate {
namespace {

using nlohmann::json;

class VerifierCommandsTest : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) { return cli_.write(name, text); }
  testing::CommandResult tiergate(std::vector<std::string> args) { return cli_.run(std::move(args)); }
  // Verifier-log rows, labelled: confident drafts good, unsure ones not, a
  // few exceptions each way.
  std::string labelled_log() {
    std::string text;
    for (int i = 0; i < 200; ++i) {
      const bool sure = i % 2 == 0;
      const bool good = sure ? i % 20 != 0 : i % 10 == 1;
      DraftFeatures f{24, sure ? -0.2 - 0.001 * i : -2.0 - 0.001 * i, sure ? -1.5 : -7.0, sure ? 0.3 : 1.8, 0.0,
                      sure, 0.1, "chat"};
      json row = {{"request_id", "chatcmpl-" + std::to_string(i)}, {"verdict", "accepted"},
                  {"features", json::parse(draft_features_json(f))}, {"good", good}};
      text += row.dump() + "\n";
    }
    return text;
  }
  testing::CommandSandbox cli_{TIERGATE_BIN, "tiergate-verifier-cli"};
  const std::string& dir_ = cli_.dir();
};

TEST_F(VerifierCommandsTest, CalibrateWritesAVerifierTheServerCanLoad) {
  const std::string data = write("labelled.jsonl", labelled_log());
  const std::string out = dir_ + "/verifier.json";
  auto r = tiergate({"verifier", "calibrate", "--data", data, "--target-quality", "0.9", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json report = json::parse(r.out);
  EXPECT_EQ(report["format"], "tiergate-verifier");
  EXPECT_GE(report["calibration"]["accepted_quality"].get<double>(), 0.9);
  EXPECT_GT(report["calibration"]["accepted_share"].get<double>(), 0.3);
  EXPECT_EQ(report["calibration"]["rows"], 200);
  StatusOr<Verifier> loaded = load_verifier(out);
  ASSERT_TRUE(loaded.is_ok()) << loaded.status().message();
  EXPECT_DOUBLE_EQ(loaded->threshold(), report["threshold"].get<double>());
  EXPECT_FALSE(std::filesystem::exists(out + ".tmp"));
}

TEST_F(VerifierCommandsTest, BadInputNamesTheFileAndLine) {
  std::string log = labelled_log();
  const std::string unlabelled = write("unlabelled.jsonl", log.substr(0, log.find('\n') + 1) +
                                                               R"({"features":{"mean_logprob":-1,"min_logprob":-2,)"
                                                               R"("mean_entropy":1,"repetition":0,"stopped":true,)"
                                                               R"("router_prior":0}})" "\n");
  auto r = tiergate({"verifier", "calibrate", "--data", unlabelled});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("unlabelled.jsonl:2: \"good\" must be true or false"), std::string::npos) << r.err;

  const std::string broken = write("broken.jsonl", "{\"features\": 3, \"good\": true}\n");
  r = tiergate({"verifier", "calibrate", "--data", broken});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("broken.jsonl:1: \"features\" must be an object"), std::string::npos) << r.err;

  r = tiergate({"verifier", "calibrate", "--data", dir_ + "/missing.jsonl"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("missing.jsonl"), std::string::npos);

  const std::string data = write("labelled.jsonl", log);
  r = tiergate({"verifier", "calibrate", "--data", data, "--target-quality", "2"});
  EXPECT_NE(r.exit_code, 0);
  r = tiergate({"verifier", "calibrate", "--data", data, "--out", dir_ + "/no/such/dir/v.json"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cannot write"), std::string::npos);
}

}  // namespace
}  // namespace tiergate
