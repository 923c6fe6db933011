// `tiergate device profile` and `tiergate device choose`, run as the real
// binary on fake /proc trees, profiles and manifests written here.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "run_command.h"
#include "tiergate/fleet/device_profile.h"
#include "tiergate/fleet/manifest.h"

namespace tiergate {
namespace {

using nlohmann::json;

class DeviceCommandsTest : public ::testing::Test {
 protected:
  DeviceCommandsTest() {
    std::filesystem::create_directories(dir_ + "/os/proc");
    cli_.write("os/proc/meminfo", "MemTotal: 16318448 kB\nMemAvailable: 4194304 kB\n");
    cli_.write("os/proc/cpuinfo", "processor\t: 0\nmodel name\t: Fake CPU\nflags\t\t: avx avx2 fma\n");
  }
  testing::CommandResult tiergate(std::vector<std::string> args) { return cli_.run(std::move(args)); }

  // Two variants: a large one needing 6 GiB, a small one needing 1 GiB.
  std::string write_manifest_file() {
    Manifest m;
    m.base = {"base", "base.gguf", std::string(64, 'a'), 100};
    for (auto [id, memory, kl] : {std::tuple{"large", 6ull << 30, 0.001}, std::tuple{"small", 1ull << 30, 0.02}}) {
      VariantEntry v;
      v.id = id;
      v.base_id = "base";
      v.recipe = {id, "q4_k_m", false, {}};
      v.file = std::string(id) + ".gguf";
      v.sha256 = std::string(64, 'b');
      v.size_bytes = 1 << 20;
      v.min_memory_bytes = memory;
      v.requirements = {{"AVX2"}, {"CPU"}};
      v.fidelity = Fidelity{kl, 0.9, {}, {}, {}};
      v.speed = MeasuredSpeed{500, 40, 200};
      m.variants.push_back(v);
    }
    const std::string path = dir_ + "/manifest.json";
    EXPECT_TRUE(tiergate::write_manifest(path, m).is_ok());
    return path;
  }
  std::string write_profile_file(uint64_t available) {
    DeviceProfile p;
    p.memory_total_bytes = 16ull << 30;
    p.memory_available_bytes = available;
    p.disk_path = dir_;
    p.disk_free_bytes = 10ull << 30;
    p.cpu_features = {"AVX2"};
    p.ggml_backends = {"CPU"};
    return cli_.write("profile.json", profile_to_json(p));
  }

  testing::CommandSandbox cli_{TIERGATE_BIN, "tiergate-device-cli"};
  const std::string& dir_ = cli_.dir();
};

TEST_F(DeviceCommandsTest, ProfileReadsTheOsTreeAndWritesJson) {
  const std::string out = dir_ + "/profile.json";
  auto r = tiergate({"device", "profile", "--os-root", dir_ + "/os", "--no-bench", "--disk-path", dir_, "--json",
                     "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  EXPECT_EQ(doc["format"], "tiergate-device-profile");
  EXPECT_EQ(doc["memory"]["available_bytes"], 4194304ull * 1024);
  EXPECT_EQ(doc["cpu"]["model"], "Fake CPU");
  EXPECT_EQ(doc["cpu"]["features"], json({"AVX", "AVX2", "FMA"}));
  EXPECT_EQ(doc["disk"]["path"], dir_);
  EXPECT_TRUE(doc["ggml"]["backends"].is_array());
  EXPECT_FALSE(doc.contains("benchmark"));
  EXPECT_FALSE(doc.contains("batteries"));
  StatusOr<DeviceProfile> written = read_profile_file(out);
  ASSERT_TRUE(written.is_ok()) << written.status().message();
  EXPECT_EQ(written->memory_available_bytes, 4194304ull * 1024);
  EXPECT_FALSE(std::filesystem::exists(out + ".tmp"));

  r = tiergate({"device", "profile", "--os-root", dir_ + "/os", "--no-bench"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("memory available  4 GiB"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("battery           (none exposed)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("micro-benchmark   (not run)"), std::string::npos) << r.out;
}

TEST_F(DeviceCommandsTest, ProfileRunsTheMicroBenchmark) {
  auto r = tiergate({"device", "profile", "--os-root", dir_ + "/os", "--json", "--vocab-from",
                     TIERGATE_LLAMA_SOURCE_DIR "/models/ggml-vocab-llama-spm.gguf"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  ASSERT_EQ(doc["benchmark"]["outcome"], "measured") << doc["benchmark"].dump();
  EXPECT_GT(doc["benchmark"]["decode_tps"].get<double>(), 0);
  EXPECT_GT(doc["benchmark"]["prefill_tps"].get<double>(), 0);
}

TEST_F(DeviceCommandsTest, ChooseWithAProfile) {
  const std::string manifest = write_manifest_file();
  auto r = tiergate({"device", "choose", "--manifest", manifest, "--profile", write_profile_file(8ull << 30)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("chosen large: best fidelity among 2 of 2 that fit", 0), 0u) << r.out;

  r = tiergate({"device", "choose", "--manifest", manifest, "--profile", write_profile_file(4ull << 30), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  EXPECT_EQ(doc["chosen"], "small");
  EXPECT_EQ(doc["variants"][0]["rejections"][0]["reason"], "doesn't fit memory: needs 6 GiB, has 3.8 GiB");

  r = tiergate({"device", "choose", "--manifest", manifest, "--profile", write_profile_file(8ull << 30),
                "--memory-budget", "512M"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("none fits: none of the 2 variants fits"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("memory budget: 512 MiB (--memory-budget)"), std::string::npos) << r.out;

  // No device benchmark in the profile: the manifest's 40 tok/s stands.
  r = tiergate({"device", "choose", "--manifest", manifest, "--profile", write_profile_file(8ull << 30),
                "--min-decode-tps", "50"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("estimated decode 40.0 tok/s below 50.0"), std::string::npos) << r.out;
}

TEST_F(DeviceCommandsTest, ChooseMeasuresThisDeviceWhenNoProfileIsGiven) {
  const std::string manifest = write_manifest_file();
  auto r = tiergate({"device", "choose", "--manifest", manifest, "--os-root", dir_ + "/os", "--no-bench", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  EXPECT_EQ(doc["chosen"], "small");  // the fake tree has 4 GiB available
  EXPECT_EQ(doc["memory_budget"]["source"], "MemAvailable 4 GiB minus 256 MiB reserve");
  EXPECT_NE(doc["disk_budget"]["source"].get<std::string>().find(dir_), std::string::npos) << doc["disk_budget"];
}

TEST_F(DeviceCommandsTest, BadInputGivesClearErrors) {
  const std::string manifest = write_manifest_file();
  const std::string profile = write_profile_file(8ull << 30);

  auto r = tiergate({"device", "choose", "--manifest", manifest, "--profile", profile, "--memory-budget", "2X"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("tiergate device choose: --memory-budget: \"2X\" is not a size"), std::string::npos) << r.err;
  r = tiergate({"device", "choose", "--manifest", manifest, "--profile", profile, "--disk-budget", "-1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--disk-budget: \"-1\" is not a size"), std::string::npos) << r.err;

  r = tiergate({"device", "choose", "--manifest", dir_ + "/absent.json", "--profile", profile});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("absent.json: cannot open the manifest"), std::string::npos) << r.err;

  const std::string broken = cli_.write("broken.json", R"({"format": "tiergate-variant-manifest", "version": 1,
      "base": {"id": "b", "file": "b.gguf", "sha256": ")" + std::string(64, 'a') + R"(", "size_bytes": 1},
      "variants": [{"id": "v"}]})");
  r = tiergate({"device", "choose", "--manifest", broken, "--profile", profile});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("broken.json: variants[0].base_id: missing (a string)"), std::string::npos) << r.err;

  const std::string bad_profile = cli_.write("bad_profile.json", R"({"format": "tiergate-device-profile",
      "version": 1, "memory": {"available_bytes": "8G"}})");
  r = tiergate({"device", "choose", "--manifest", manifest, "--profile", bad_profile});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("bad_profile.json: memory.available_bytes: must be a non-negative integer"), std::string::npos)
      << r.err;

  r = tiergate({"device", "choose", "--manifest", manifest, "--profile", profile, "--no-bench"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("excludes"), std::string::npos) << r.err;
  r = tiergate({"device", "choose", "--profile", profile});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--manifest"), std::string::npos) << r.err;
  r = tiergate({"device", "choose", "--manifest", manifest, "--profile", profile, "--min-decode-tps", "fast"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--min-decode-tps"), std::string::npos) << r.err;
  r = tiergate({"device", "profile", "--os-root", dir_ + "/nowhere"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--os-root"), std::string::npos) << r.err;
  r = tiergate({"device", "profile", "--no-bench", "--out", dir_ + "/no/such/dir/p.json"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("p.json"), std::string::npos) << r.err;
}

TEST_F(DeviceCommandsTest, HelpDocumentsTheExitCodes) {
  auto r = tiergate({"device", "choose", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("3 when none fits"), std::string::npos) << r.out;
  r = tiergate({"device", "profile", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--no-bench"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tiergate
