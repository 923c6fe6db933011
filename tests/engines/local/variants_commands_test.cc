// `tiergate variants build`, `variants eval` and `variants measure`, run as
// the real binary on a synthetic checkpoint: end to end, resumption, and the
// bad input the issue lists (corrupt checkpoint, unknown tier, a budget no
// recipe meets, a disk that fills mid-write, a malformed query log), each of
// which must leave no partial output behind.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "run_command.h"
#include "subprocess.h"
#include "test_models.h"
#include "tiergate/fleet/manifest.h"

namespace tiergate {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Files whose name ends in `suffix` under dir (none when dir is absent).
std::vector<std::string> files_ending(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().string().ends_with(suffix)) out.push_back(e.path().filename().string());
  }
  return out;
}

class VariantsCommandsTest : public ::testing::Test {
 protected:
  VariantsCommandsTest() {
    std::string log;
    for (const char* prompt :
         {"Summarize the meeting notes in three bullet points.", "What is the capital of Australia?",
          "Write a polite email asking for a refund of my train ticket.", "Explain recursion to a child.",
          "List four ways to reduce the memory use of a web server.", "Translate good morning into Spanish.",
          "How long does it take to boil an egg at high altitude, and why?",
          "Draft a short product description for a waterproof hiking backpack."}) {
      for (int i = 0; i < 3; ++i) {
        log += json{{"model", "edge"}, {"messages", json::array({{{"role", "user"}, {"content", prompt}}})}}.dump();
        log += "\n";
      }
    }
    queries_ = cli_.write("queries.jsonl", log);
    out_ = cli_.dir() + "/variants";
  }

  testing::CommandResult tiergate(std::vector<std::string> args) const { return cli_.run(std::move(args)); }

  testing::CommandResult build(std::vector<std::string> extra) const {
    std::vector<std::string> args = {"variants", "build", "--checkpoint", testing::synthetic_checkpoint(),
                                     "--out", out_, "--context", "64", "--threads", "2"};
    args.insert(args.end(), extra.begin(), extra.end());
    return tiergate(args);
  }

  testing::CommandSandbox cli_{TIERGATE_BIN, "tiergate-variants-cli"};
  std::string queries_;
  std::string out_;
};

TEST_F(VariantsCommandsTest, BuildsEvaluatesAndAdvertisesVariantsEndToEnd) {
  auto built = build({"--tiers", "q8_0,q3_k_m", "--queries", queries_, "--compare-imatrix", "--budget", "11.5M"});
  ASSERT_EQ(built.exit_code, 0) << built.err;
  // Progress per variant: tensors done, elapsed, ETA.
  EXPECT_NE(built.err.find("[q3_k_m-imat.gguf]"), std::string::npos) << built.err;
  EXPECT_NE(built.err.find("tensors"), std::string::npos);
  EXPECT_NE(built.err.find("ETA"), std::string::npos);
  EXPECT_NE(built.err.find("[importance]"), std::string::npos);

  const std::string manifest_path = out_ + "/manifest.json";
  auto manifest = read_manifest(manifest_path);
  ASSERT_TRUE(manifest.is_ok()) << manifest.status().message();
  EXPECT_EQ(manifest->base.id, "tiergate-synthetic-L2-E256");
  std::vector<std::string> files;
  for (const VariantEntry& v : manifest->variants) {
    files.push_back(v.file);
    EXPECT_TRUE(verify_variant_file(manifest_path, v).is_ok()) << v.file;
    EXPECT_FALSE(v.fidelity.has_value());
    EXPECT_GT(v.min_memory_bytes, v.size_bytes);
  }
  EXPECT_EQ(files, (std::vector<std::string>{"q8_0.gguf", "q8_0-imat.gguf", "q3_k_m.gguf", "q3_k_m-imat.gguf",
                                             "budget-11.5mib-imat.gguf"}));
  const VariantEntry& mixed = manifest->variants.back();
  EXPECT_TRUE(mixed.recipe.imatrix);
  EXPECT_EQ(mixed.recipe.tensor_types.size(), 2u + 2u * 7u);  // one type per weight matrix
  EXPECT_LE(mixed.size_bytes, 11.5 * 1024 * 1024 + 65536);
  const json search = json::parse(read_text(out_ + "/budget-11.5mib-imat.search.json"));
  EXPECT_FALSE(search["path"].empty());
  EXPECT_TRUE(files_ending(out_, ".tmp").empty());

  auto evaluated = tiergate({"variants", "eval", "--dir", out_, "--reference", testing::synthetic_checkpoint(),
                             "--queries", queries_, "--context", "64", "--max-tokens", "256", "--threads", "2"});
  ASSERT_EQ(evaluated.exit_code, 0) << evaluated.err;
  EXPECT_NE(evaluated.out.find("KL mean"), std::string::npos) << evaluated.out;
  const json report = json::parse(read_text(out_ + "/eval.json"));
  ASSERT_EQ(report["variants"].size(), 6u);  // the reference, then the five variants
  for (const auto& row : report["variants"]) {
    EXPECT_GT(row["decode_tps"].get<double>(), 0) << row.dump();
    EXPECT_GT(row["prefill_tps"].get<double>(), 0) << row.dump();
    EXPECT_GT(row["peak_rss_bytes"].get<double>(), row["size_bytes"].get<double>() / 4) << row.dump();
  }
  auto kl = [&](size_t i) { return report["variants"][i]["kl_mean"].get<double>(); };
  EXPECT_EQ(kl(0), 0);
  EXPECT_LT(kl(1), kl(3));  // q8_0 follows the reference more closely than q3_k_m
  EXPECT_NE(read_text(out_ + "/eval.svg").find("<svg"), std::string::npos);

  manifest = read_manifest(manifest_path);
  ASSERT_TRUE(manifest.is_ok());
  for (const VariantEntry& v : manifest->variants) {
    ASSERT_TRUE(v.fidelity.has_value()) << v.id;
    ASSERT_TRUE(v.speed.has_value()) << v.id;
    EXPECT_GT(v.fidelity->kl_mean, 0) << v.id;
    EXPECT_EQ(v.min_memory_bytes, *v.peak_rss_bytes);
  }

  // The measured manifest is what `device choose` reads.
  auto chosen = tiergate({"device", "choose", "--manifest", manifest_path, "--memory-budget", "64G", "--json"});
  EXPECT_EQ(chosen.exit_code, 0) << chosen.err << chosen.out;
}

TEST_F(VariantsCommandsTest, ARerunKeepsFinishedVariantsAndRebuildsADamagedOne) {
  ASSERT_EQ(build({"--tiers", "q8_0,q4_k_m"}).exit_code, 0);
  const auto q8_time = fs::last_write_time(out_ + "/q8_0.gguf");
  fs::resize_file(out_ + "/q4_k_m.gguf", 1000);  // as if damaged after the run
  std::ofstream(out_ + "/q2_k.gguf.tmp") << "left by an interrupted run";

  auto again = build({"--tiers", "q8_0,q4_k_m"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("[q8_0.gguf] up to date"), std::string::npos) << again.err;
  EXPECT_EQ(again.err.find("[q4_k_m.gguf] up to date"), std::string::npos) << again.err;
  EXPECT_EQ(fs::last_write_time(out_ + "/q8_0.gguf"), q8_time);
  EXPECT_GT(fs::file_size(out_ + "/q4_k_m.gguf"), 1000u);
  EXPECT_TRUE(files_ending(out_, ".tmp").empty());
  auto manifest = read_manifest(out_ + "/manifest.json");
  ASSERT_TRUE(manifest.is_ok());
  for (const VariantEntry& v : manifest->variants) {
    EXPECT_TRUE(verify_variant_file(out_ + "/manifest.json", v).is_ok()) << v.file;
  }
}

TEST_F(VariantsCommandsTest, ARunKilledMidWriteResumesCleanly) {
  {
    testing::Subprocess build({TIERGATE_BIN, "variants", "build", "--checkpoint", testing::synthetic_checkpoint(),
                               "--tiers", "q8_0,q4_k_m,q2_k", "--out", out_, "--threads", "1"},
                              {}, testing::Subprocess::Capture::kStdoutAndStderr);
    // q8_0 is done once q4_k_m's progress shows; kill the run there.
    ASSERT_TRUE(build.wait_for_line("[q4_k_m.gguf]", std::chrono::seconds(120)));
    kill(build.pid(), SIGKILL);
  }
  auto resumed = build({"--tiers", "q8_0,q4_k_m,q2_k"});
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("[q8_0.gguf] up to date"), std::string::npos) << resumed.err;
  EXPECT_TRUE(files_ending(out_, ".tmp").empty());
  auto manifest = read_manifest(out_ + "/manifest.json");
  ASSERT_TRUE(manifest.is_ok());
  ASSERT_EQ(manifest->variants.size(), 3u);
  for (const VariantEntry& v : manifest->variants) {
    EXPECT_TRUE(verify_variant_file(out_ + "/manifest.json", v).is_ok()) << v.file;
  }
}

TEST_F(VariantsCommandsTest, BadInputIsRefusedBeforeAnythingIsWritten) {
  const std::string corrupt = cli_.write("corrupt.gguf", "GGUF and then nothing that makes sense");
  struct Case {
    std::vector<std::string> args;
    const char* message_part;
  };
  const std::string malformed = cli_.write("malformed.jsonl", "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}\n{oops\n");
  const std::vector<Case> cases = {
      {{"--tiers", "q9_k"}, "unknown tier 'q9_k'"},
      {{"--tiers", "q4_k_m+mlp=q8_0"}, "unknown tensor group 'mlp'"},
      {{"--tiers", "q4_k_m", "--queries", malformed}, "malformed.jsonl:2"},
      {{"--tiers", "q4_k_m", "--queries", cli_.dir() + "/absent.jsonl"}, "absent.jsonl"},
      {{"--budget", "1M"}, "no recipe meets a budget of"},
      {{"--budget", "lots"}, "--budget"},
      {{"--tiers", "q4_k_m+ffn=iq2_xxs"}, "needs an importance matrix"},
  };
  for (const Case& c : cases) {
    auto r = build(c.args);
    EXPECT_EQ(r.exit_code, 1) << c.args.back();
    EXPECT_NE(r.err.find(c.message_part), std::string::npos) << c.args.back() << ": " << r.err;
    EXPECT_FALSE(fs::exists(out_)) << c.args.back() << " left " << out_;
  }
  for (const std::string& checkpoint : {corrupt, cli_.dir() + "/absent.gguf"}) {
    auto r = tiergate({"variants", "build", "--checkpoint", checkpoint, "--tiers", "q4_k_m", "--out", out_});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find(checkpoint), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out_));
  }
  auto quantized = build({"--tiers", "q8_0"});
  ASSERT_EQ(quantized.exit_code, 0);
  auto requantize = tiergate({"variants", "build", "--checkpoint", out_ + "/q8_0.gguf", "--tiers", "q4_k_m", "--out",
                              cli_.dir() + "/again"});
  EXPECT_EQ(requantize.exit_code, 1);
  EXPECT_NE(requantize.err.find("already quantized"), std::string::npos) << requantize.err;

  auto wrong_reference = tiergate({"variants", "eval", "--dir", out_, "--reference", testing::synthetic_model(),
                                   "--queries", queries_});
  EXPECT_EQ(wrong_reference.exit_code, 1);
  EXPECT_NE(wrong_reference.err.find("is not the checkpoint these variants were built from"), std::string::npos)
      << wrong_reference.err;
}

TEST_F(VariantsCommandsTest, ADiskThatFillsMidWriteLeavesNoPartialFile) {
  // A file size limit of 4 MiB stands in for a full disk: the 19 MiB q8_0
  // variant cannot be written. SIGXFSZ is ignored so that the write fails
  // with EFBIG as on a full disk, instead of killing the process.
  testing::CommandSandbox shell("/bin/bash", "tiergate-variants-fsize");
  const std::string script = "trap '' XFSZ; ulimit -f 4096; exec \"$0\" \"$@\"";
  auto r = shell.run({"-c", script, TIERGATE_BIN, "variants", "build", "--checkpoint",
                      testing::synthetic_checkpoint(), "--tiers", "q8_0", "--out", out_});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("writing"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nothing was kept"), std::string::npos) << r.err;
  EXPECT_TRUE(files_ending(out_, ".gguf").empty());  // neither the variant nor the base link
  EXPECT_TRUE(files_ending(out_, ".tmp").empty());
}

TEST_F(VariantsCommandsTest, MeasureReportsSpeedAndPeakMemory) {
  auto r = tiergate({"variants", "measure", "--model", testing::synthetic_checkpoint(), "--prompt-tokens", "32",
                     "--decode-tokens", "8", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_GT(j["prefill_tps"].get<double>(), 0);
  EXPECT_GT(j["decode_tps"].get<double>(), 0);
  EXPECT_GT(j["peak_rss_bytes"].get<double>(), 0);
  auto missing = tiergate({"variants", "measure", "--model", cli_.dir() + "/absent.gguf"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("absent.gguf"), std::string::npos);
}

}  // namespace
}  // namespace tiergate
