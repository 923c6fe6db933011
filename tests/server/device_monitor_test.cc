// The device monitor on real GGUF variants: the variant chosen for this
// device at start, and the switch to the smaller one and back as the
// observations say the device slows down and recovers.
#include "tiergate/server/device_monitor.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_models.h"
#include "tiergate/engines/local/quantization.h"

namespace tiergate {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kPlenty = 8ull << 30;

class RecordingSink final : public TokenSink {
 public:
  bool on_delta(const Delta& delta) override {
    text += delta.text;
    return true;
  }
  bool cancelled() override { return false; }
  std::string text;
};

// One sequence of 256 tokens: enough for these tests, light to load twice.
LocalEngineParams small_edge(const std::string& model_path) {
  LocalEngineParams params = local_engine_default_params();
  params.model_path = model_path;
  params.context = 256;
  params.parallel = 1;
  return params;
}

// Two variants of the synthetic checkpoint with the figures `variants eval`
// would have written: q8_0 more faithful and larger, q4_k_m smaller and faster.
class DeviceMonitorTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(testing::make_temp_dir("tiergate-device-monitor-"));
    Manifest m;
    m.base = {"base", "base.gguf", std::string(64, 'a'), 1};
    for (const auto& [tier, kl, memory, decode] :
         {std::tuple{"q8_0", 0.001, 400ull << 20, 100.0}, std::tuple{"q4_k_m", 0.05, 300ull << 20, 150.0}}) {
      const std::string file = std::string(tier) + ".gguf";
      ASSERT_TRUE(quantize_checkpoint(testing::synthetic_checkpoint(), *dir_ + "/" + file, *parse_recipe(tier), {})
                      .is_ok());
      VariantEntry v;
      v.id = std::string("base-") + tier;
      v.base_id = "base";
      v.recipe = {tier, tier, false, {}};
      v.file = file;
      v.sha256 = *sha256_file(*dir_ + "/" + file);
      v.size_bytes = fs::file_size(*dir_ + "/" + file);
      v.min_memory_bytes = memory;
      v.requirements.backends = {"CPU"};
      v.fidelity = Fidelity{kl, 0.9, {}, {}, {}};
      v.speed = MeasuredSpeed{1000, decode, {}};
      m.variants.push_back(v);
    }
    ASSERT_TRUE(write_manifest(*dir_ + "/manifest.json", m).is_ok());
  }
  static std::string manifest_path() { return *dir_ + "/manifest.json"; }

  static std::string* dir_;
};
std::string* DeviceMonitorTest::dir_ = nullptr;

TEST_F(DeviceMonitorTest, TheMostFaithfulVariantThatFitsIsChosenAtStart) {
  EdgeConfig edge;
  edge.manifest = manifest_path();
  auto plan = plan_edge_variant(edge);
  ASSERT_TRUE(plan.is_ok()) << plan.status().message();
  EXPECT_EQ(plan->manifest.variants[plan->chosen].id, "base-q8_0");
  EXPECT_EQ(plan->model_path, *dir_ + "/q8_0.gguf");
  EXPECT_NE(plan->explanation.find("base-q8_0"), std::string::npos) << plan->explanation;

  // A speed target no variant meets on any machine: a clear refusal.
  edge.min_decode_tps = 1e12;
  auto none = plan_edge_variant(edge);
  ASSERT_FALSE(none.is_ok());
  EXPECT_EQ(none.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(none.status().message().find("no variant fits this device"), std::string::npos)
      << none.status().message();
}

TEST_F(DeviceMonitorTest, ADamagedVariantFileIsNotRun) {
  const std::string copy = testing::make_temp_dir("tiergate-device-monitor-bad-");
  for (const char* f : {"manifest.json", "q8_0.gguf", "q4_k_m.gguf"}) fs::copy_file(*dir_ + "/" + f, copy + "/" + f);
  fs::resize_file(copy + "/q8_0.gguf", 4096);
  EdgeConfig edge;
  edge.manifest = copy + "/manifest.json";
  auto plan = plan_edge_variant(edge);
  ASSERT_FALSE(plan.is_ok());
  EXPECT_NE(plan.status().message().find("q8_0.gguf"), std::string::npos) << plan.status().message();
}

TEST_F(DeviceMonitorTest, ASlowDeviceRunsTheSmallerVariantUntilItRecovers) {
  EdgeConfig edge;
  edge.manifest = manifest_path();
  auto plan = plan_edge_variant(edge);
  ASSERT_TRUE(plan.is_ok());
  SwitchableLocalEngine engine(small_edge(plan->model_path));
  ASSERT_TRUE(engine.wait_until_loaded().is_ok());

  EdgeAdaptationConfig adaptation;
  adaptation.enabled = true;
  adaptation.escalate_after = 1;
  adaptation.recover_after = 1;
  adaptation.context = 128;
  MetricsRegistry metrics;
  DeviceMonitor monitor(DeviceMonitorOptions{adaptation, &engine, *plan, &metrics});
  EXPECT_EQ(monitor.status().variant, "base-q8_0");

  monitor.observe({100.0, kPlenty});
  monitor.observe({20.0, kPlenty});
  EXPECT_EQ(monitor.status().step, AdaptationStep::kShortened);
  monitor.observe({20.0, kPlenty});
  EXPECT_EQ(monitor.status().step, AdaptationStep::kSmallerVariant);
  EXPECT_EQ(monitor.status().variant, "base-q4_k_m");
  EXPECT_EQ(engine.current_params().model_path, *dir_ + "/q4_k_m.gguf");
  EXPECT_EQ(engine.current_params().context, 128);  // the shortened context frees KV memory
  // The baseline follows the variant: q4_k_m decodes 1.5 x as fast as q8_0.
  EXPECT_DOUBLE_EQ(*monitor.status().baseline_decode_tps, 150.0);

  // The switched edge answers.
  ChatRequest request;
  request.messages = {ChatMessage{Role::kUser, "Hello"}};
  request.sampling.max_tokens = 4;
  request.sampling.temperature = 0;
  RecordingSink sink;
  auto answer = engine.generate(request, "", sink);
  ASSERT_TRUE(answer.is_ok()) << answer.status().message();
  EXPECT_GT(answer->usage.completion_tokens, 0);

  // Recovered: back to the shortened step and the variant chosen at start.
  monitor.observe({std::nullopt, kPlenty});
  EXPECT_EQ(monitor.status().step, AdaptationStep::kShortened);
  EXPECT_EQ(monitor.status().variant, "base-q8_0");
  EXPECT_EQ(engine.current_params().model_path, *dir_ + "/q8_0.gguf");
  EXPECT_EQ(engine.current_params().context, 256);
  EXPECT_NE(metrics.render().find("tiergate_device_adaptation_changes_total{to=\"smaller_variant\"} 1"),
            std::string::npos);
}

TEST_F(DeviceMonitorTest, AVariantThatFailsToLoadLeavesTheRunningOne) {
  const std::string copy = testing::make_temp_dir("tiergate-device-monitor-fail-");
  for (const char* f : {"manifest.json", "q8_0.gguf", "q4_k_m.gguf"}) fs::copy_file(*dir_ + "/" + f, copy + "/" + f);
  EdgeConfig edge;
  edge.manifest = copy + "/manifest.json";
  auto plan = plan_edge_variant(edge);
  ASSERT_TRUE(plan.is_ok());
  std::ofstream(copy + "/q4_k_m.gguf", std::ios::trunc) << "GGUF but broken";  // damaged after the start
  SwitchableLocalEngine engine(small_edge(plan->model_path));
  ASSERT_TRUE(engine.wait_until_loaded().is_ok());
  EdgeAdaptationConfig adaptation;
  adaptation.escalate_after = 1;
  adaptation.recover_after = 1;
  DeviceMonitor monitor(DeviceMonitorOptions{adaptation, &engine, *plan, nullptr});
  monitor.observe({100.0, kPlenty});
  monitor.observe({20.0, kPlenty});
  monitor.observe({20.0, kPlenty});
  EXPECT_EQ(monitor.status().variant, "base-q8_0");
  EXPECT_EQ(engine.current_params().model_path, plan->model_path);
  EXPECT_EQ(engine.health().state, TierState::kReady);
  // With the smaller variant gone, the next step is the cloud.
  monitor.observe({20.0, kPlenty});
  EXPECT_EQ(monitor.status().step, AdaptationStep::kCloudPreferred);
}

}  // namespace
}  // namespace tiergate
