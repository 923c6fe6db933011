// The gateway behind a real HTTP server on a loopback port (port 0), with
// scripted engines for the edge and the one upstream "up1" (fault injection).
// Test fixtures derive from it and call start_gateway() with their config.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "fake_engine.h"
#include "http_client.h"
#include "tiergate/server/gateway.h"

namespace tiergate::testing {

class GatewayHarness : public ::testing::Test {
 protected:
  // `config_yaml` must configure edge model "edge.gguf" and an upstream "up1".
  // With `privacy`, the config's privacy policy is enforced (as `tiergate
  // serve` does when privacy.enabled is true).
  void start_gateway(const char* config_yaml, std::shared_ptr<const RouterArtifact> router = nullptr,
                     bool privacy = false) {
    config_ = *parse_config(config_yaml, "test.yaml");
    std::shared_ptr<const PrivacyPolicy> policy;
    if (privacy) policy = std::make_shared<const PrivacyPolicy>(*PrivacyPolicy::from_config(*config_));
    dispatcher_ = std::make_unique<Dispatcher>(config_, &edge_, std::map<std::string, Engine*>{{"up1", &cloud_}},
                                               std::move(policy));
    if (privacy) audit_ = std::move(EgressAudit::open(config_->privacy.audit_log)).value();
    if (!config_->speculative.log_path.empty()) verifier_log_ = std::move(VerifierLog::open(config_->speculative.log_path)).value();
    gateway_ = std::make_unique<Gateway>(GatewayOptions{config_, dispatcher_.get(), &metrics_,
                                                        gateway_clock_ ? gateway_clock_.get() : &clock_, "edge.gguf",
                                                        std::move(router), audit_.get(), admin_token_, nullptr,
                                                        verifier_log_.get(), device_});
    server_ = std::make_unique<HttpServer>(HttpServerOptions{"127.0.0.1", 0, config_->max_body_bytes},
                                           [this](HttpExchange& ex) { gateway_->handle(ex); });
    ASSERT_TRUE(server_->listen().is_ok());
    server_->start();
    port_ = server_->port();
  }
  void TearDown() override {
    if (server_) server_->stop();
  }

  FakeEngine edge_, cloud_;
  MetricsRegistry metrics_;
  SystemClock clock_;
  // Set before start_gateway to give the gateway another clock. Held here,
  // not by a test: the server's threads may read it until TearDown.
  std::unique_ptr<Clock> gateway_clock_;
  ConfigPtr config_;
  std::unique_ptr<Dispatcher> dispatcher_;
  std::unique_ptr<EgressAudit> audit_;
  std::unique_ptr<VerifierLog> verifier_log_;
  std::string admin_token_;  // set before start_gateway to turn the admin API on
  const DeviceMonitor* device_ = nullptr;  // set before start_gateway for run-time adaptation
  std::unique_ptr<Gateway> gateway_;
  std::unique_ptr<HttpServer> server_;
  uint16_t port_ = 0;
};

}  // namespace tiergate::testing
