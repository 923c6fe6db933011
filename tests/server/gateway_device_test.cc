// Run-time adaptation through the gateway: a DeviceMonitor fed observations
// by the test (no clock, no thread) moves the edge through its steps, and
// each step shows in routing, in the answers, in /readyz and in /metrics.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gateway_harness.h"
#include "tiergate/server/device_monitor.h"

namespace tiergate {
namespace {

using json = nlohmann::json;
using testing::http_call;

constexpr uint64_t kPlenty = 8ull << 30;

class GatewayDeviceTest : public testing::GatewayHarness {
 protected:
  void SetUp() override {
    EdgeAdaptationConfig adaptation;
    adaptation.enabled = true;
    adaptation.escalate_after = 1;
    adaptation.recover_after = 2;
    adaptation.max_tokens = 16;
    adaptation.context = 64;
    monitor_ = std::make_unique<DeviceMonitor>(DeviceMonitorOptions{adaptation, nullptr, std::nullopt, &metrics_});
    device_ = monitor_.get();
    start_gateway("listen: 127.0.0.1:0\nedge:\n  model: edge.gguf\n  adaptation: {enabled: true}\n"
                  "cloud:\n  - name: up1\n    base_url: http://127.0.0.1:9/v1\n    models: [big]\n");
    monitor_->observe({40.0, kPlenty});  // the baseline
  }
  testing::HttpResult chat(const json& body) { return http_call(port_, "POST", "/v1/chat/completions", body.dump()); }
  static json ask(const std::string& text) {
    return {{"model", "auto"}, {"messages", json::array({{{"role", "user"}, {"content", text}}})}};
  }
  json device_status() { return json::parse(http_call(port_, "GET", "/readyz").body)["device"]; }
  void slow() { monitor_->observe({10.0, kPlenty}); }
  void healthy() { monitor_->observe({std::nullopt, kPlenty}); }

  std::unique_ptr<DeviceMonitor> monitor_;
};

TEST_F(GatewayDeviceTest, ANormalDeviceChangesNothing) {
  EXPECT_EQ(device_status()["step"], "normal");
  auto r = chat(ask("hi"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.headers["x-tiergate-tier"], "edge");
  EXPECT_FALSE(r.headers.contains("x-tiergate-degraded"));
  EXPECT_FALSE(edge_.last_request.sampling.max_tokens.has_value());
  EXPECT_NE(http_call(port_, "GET", "/metrics").body.find("tiergate_device_adaptation_step 0"), std::string::npos);
}

TEST_F(GatewayDeviceTest, TheShortenedStepCapsEdgeAnswersAndSaysSo) {
  slow();
  const json status = device_status();
  EXPECT_EQ(status["step"], "shortened");
  EXPECT_NE(status["reason"].get<std::string>().find("decode 10.0 tok/s"), std::string::npos) << status.dump();
  EXPECT_EQ(status["baseline_decode_tps"], 40.0);

  auto capped = chat(ask("hi"));
  ASSERT_EQ(capped.status, 200) << capped.body;
  EXPECT_EQ(capped.headers["x-tiergate-tier"], "edge");
  EXPECT_EQ(edge_.last_request.sampling.max_tokens, 16);
  EXPECT_EQ(capped.headers["x-tiergate-degraded"], "device_constrained");
  EXPECT_EQ(json::parse(capped.body)["tiergate"]["degraded"], "device_constrained");

  // A request that asks for fewer tokens than the cap is not made weaker.
  json small = ask("hi");
  small["max_tokens"] = 8;
  auto r = chat(small);
  EXPECT_EQ(edge_.last_request.sampling.max_tokens, 8);
  EXPECT_FALSE(r.headers.contains("x-tiergate-degraded"));

  // A prompt longer than the shortened context goes to the cloud.
  auto long_prompt = chat(ask(std::string(400, 'a') + " please"));
  ASSERT_EQ(long_prompt.status, 200) << long_prompt.body;
  EXPECT_EQ(long_prompt.headers["x-tiergate-tier"], "up1");
  EXPECT_EQ(long_prompt.headers["x-tiergate-route"], "auto:device_constrained");

  const std::string metrics = http_call(port_, "GET", "/metrics").body;
  EXPECT_NE(metrics.find("tiergate_device_adaptation_step 1"), std::string::npos);
  EXPECT_NE(metrics.find("tiergate_device_adaptation_changes_total{to=\"shortened\"} 1"), std::string::npos);
  EXPECT_NE(metrics.find("tiergate_degraded_requests_total{reason=\"device_constrained\"} 1"), std::string::npos);
}

TEST_F(GatewayDeviceTest, TheLastStepPrefersTheCloudAndRecoveryComesBack) {
  slow();
  slow();  // no smaller variant without a manifest: shortened -> cloud_preferred
  EXPECT_EQ(device_status()["step"], "cloud_preferred");
  auto to_cloud = chat(ask("hi"));
  ASSERT_EQ(to_cloud.status, 200) << to_cloud.body;
  EXPECT_EQ(to_cloud.headers["x-tiergate-tier"], "up1");
  EXPECT_EQ(to_cloud.headers["x-tiergate-route"], "auto:device_constrained");
  // An explicit edge request still gets the edge (capped).
  auto explicit_edge = chat({{"model", "edge"}, {"messages", json::array({{{"role", "user"}, {"content", "hi"}}})}});
  EXPECT_EQ(explicit_edge.headers["x-tiergate-tier"], "edge");
  EXPECT_EQ(explicit_edge.headers["x-tiergate-degraded"], "device_constrained");

  healthy();
  healthy();
  EXPECT_EQ(device_status()["step"], "shortened");
  healthy();
  healthy();
  EXPECT_EQ(device_status()["step"], "normal");
  auto back = chat(ask("hi"));
  EXPECT_EQ(back.headers["x-tiergate-tier"], "edge");
  EXPECT_FALSE(back.headers.contains("x-tiergate-degraded"));
  EXPECT_EQ(device_status()["changes"], 4);
}

TEST_F(GatewayDeviceTest, WithoutACloudTheEdgeServesOnCapped) {
  cloud_.state = TierState::kUnavailable;
  cloud_.fail_before = unavailable("down");
  slow();
  slow();
  auto r = chat(ask("hi"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.headers["x-tiergate-tier"], "edge");
  EXPECT_EQ(edge_.last_request.sampling.max_tokens, 16);
}

}  // namespace
}  // namespace tiergate
