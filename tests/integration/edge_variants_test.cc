// The compression pipeline end to end through the real binary: `tiergate
// variants build` and `variants eval` make and measure variants of a
// checkpoint, and `tiergate serve` with edge.manifest runs the one that fits
// this device, with run-time adaptation on and visible in /readyz and
// /metrics.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "http_client.h"
#include "run_command.h"
#include "stack.h"
#include "test_models.h"

namespace tiergate::testing {
namespace {

using json = nlohmann::json;

TEST(EdgeVariantsTest, ServeRunsTheVariantChosenForThisDevice) {
  CommandSandbox cli(TIERGATE_BIN, "tiergate-edge-variants-");
  std::string log;
  for (const char* prompt : {"Summarize this report in two lines.", "What is the boiling point of water?",
                             "Write a haiku about trains.", "Explain what a hash map is."}) {
    for (int i = 0; i < 4; ++i) {
      log += json{{"messages", json::array({{{"role", "user"}, {"content", prompt}}})}}.dump() + "\n";
    }
  }
  const std::string queries = cli.write("queries.jsonl", log);
  const std::string dir = cli.dir() + "/variants";
  auto built = cli.run({"variants", "build", "--checkpoint", synthetic_checkpoint(), "--tiers", "q8_0,q4_k_m",
                        "--out", dir, "--context", "64"});
  ASSERT_EQ(built.exit_code, 0) << built.err;
  auto evaluated = cli.run({"variants", "eval", "--dir", dir, "--reference", synthetic_checkpoint(), "--queries",
                            queries, "--context", "64", "--max-tokens", "128"});
  ASSERT_EQ(evaluated.exit_code, 0) << evaluated.err;

  RunningServer server = start_tiergate("listen: 127.0.0.1:0\nedge:\n  manifest: " + dir +
                                        "/manifest.json\n  context: 512\n  parallel: 1\n  threads: 1\n"
                                        "  adaptation: {enabled: true, interval_ms: 50}\n");
  json ready;
  for (int i = 0; i < 200; ++i) {
    auto r = http_call(server.port, "GET", "/readyz");
    ready = json::parse(r.body);
    if (r.status == 200) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(ready["status"], "ready") << ready.dump();
  // q8_0 follows the checkpoint more closely, and both fit: q8_0 runs.
  EXPECT_EQ(ready["device"]["variant"], "tiergate-synthetic-L2-E256-q8_0") << ready.dump();
  EXPECT_EQ(ready["device"]["step"], "normal");
  EXPECT_EQ(ready["tiers"]["edge"]["detail"], "q8_0.gguf");

  // The edge's model name is the manifest's base id, stable across variants.
  const json models = json::parse(http_call(server.port, "GET", "/v1/models").body);
  bool listed = false;
  for (const auto& m : models["data"]) listed = listed || m["id"] == "tiergate-synthetic-L2-E256";
  EXPECT_TRUE(listed) << models.dump();
  auto answer = http_call(server.port, "POST", "/v1/chat/completions",
                          json{{"model", "tiergate-synthetic-L2-E256"},
                               {"max_tokens", 4},
                               {"messages", json::array({{{"role", "user"}, {"content", "hi"}}})}}
                              .dump());
  ASSERT_EQ(answer.status, 200) << answer.body;
  EXPECT_EQ(answer.headers["x-tiergate-tier"], "edge");
  // The monitor observes (memory at least) every 50 ms.
  json device;
  for (int i = 0; i < 200; ++i) {
    device = json::parse(http_call(server.port, "GET", "/readyz").body)["device"];
    if (device.contains("memory_available_bytes")) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_GT(device["memory_available_bytes"].get<double>(), 0) << device.dump();
  EXPECT_NE(http_call(server.port, "GET", "/metrics").body.find("tiergate_device_adaptation_step 0"),
            std::string::npos);
  EXPECT_EQ(server.process->terminate(), 0);
}

TEST(EdgeVariantsTest, AManifestWithNoFittingVariantStopsTheStartWithTheReason) {
  CommandSandbox cli(TIERGATE_BIN, "tiergate-edge-variants-none-");
  const std::string dir = cli.dir() + "/variants";
  ASSERT_EQ(cli.run({"variants", "build", "--checkpoint", synthetic_checkpoint(), "--tiers", "q4_k_m", "--out", dir})
                .exit_code,
            0);
  const std::string config = cli.write("tiergate.yaml", "listen: 127.0.0.1:0\nedge:\n  manifest: " + dir +
                                                            "/manifest.json\n  min_decode_tps: 100000000\n");
  auto serve = cli.run({"serve", "--config", config});
  EXPECT_EQ(serve.exit_code, 2);
  EXPECT_NE(serve.err.find("no variant fits this device"), std::string::npos) << serve.err;
}

}  // namespace
}  // namespace tiergate::testing
