// The privacy policy end to end over HTTP on loopback: the gateway scans
// each request, the scripted upstream records what reached it, and the
// client gets the originals back. The leak test on the labelled dev data is
// tests/integration/privacy_integration_test.cc (real processes).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>

#include <nlohmann/json.hpp>

#include "gateway_harness.h"

namespace tiergate {
namespace {

using json = nlohmann::json;
using testing::http_call;
using testing::sse_payloads;

const char* kConfig = R"(listen: 127.0.0.1:0
edge:
  model: edge.gguf
cloud:
  - name: up1
    base_url: http://127.0.0.1:9/v1
    models: [big]
)";

json user(const std::string& text) { return json::array({{{"role", "user"}, {"content", text}}}); }

class GatewayPrivacyTest : public testing::GatewayHarness {
 protected:
  testing::HttpResult chat(const json& body) { return http_call(port_, "POST", "/v1/chat/completions", body.dump()); }
};

TEST_F(GatewayPrivacyTest, TheCloudSeesPlaceholdersAndTheClientTheValues) {
  start_gateway(kConfig, nullptr, true);
  cloud_.pieces = {"Noted: [EMAIL_ADD", "RESS_1] and ", "[CREDIT_CARD_1]."};
  const std::string prompt = "Mail jane.roe@example.com about card 4111 1111 1111 1111 please.";
  for (bool stream : {false, true}) {
    auto r = chat({{"model", "big"}, {"messages", user(prompt)}, {"stream", stream}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(cloud_.last_request.messages[0].content, "Mail [EMAIL_ADDRESS_1] about card [CREDIT_CARD_1] please.");
    EXPECT_EQ(r.headers["x-tiergate-route"], "model:up1+redacted");
    std::string answer;
    if (stream) {
      for (const std::string& p : sse_payloads(r.body)) {
        if (p == "[DONE]") continue;
        const json chunk = json::parse(p);
        if (!chunk["choices"].empty() && chunk["choices"][0]["delta"].contains("content")) {
          answer += chunk["choices"][0]["delta"]["content"].get<std::string>();
        }
      }
    } else {
      answer = json::parse(r.body)["choices"][0]["message"]["content"];
    }
    EXPECT_EQ(answer, "Noted: jane.roe@example.com and 4111 1111 1111 1111.") << (stream ? "stream" : "whole");
  }
  const std::string metrics = metrics_.render();
  EXPECT_NE(metrics.find("tiergate_privacy_detections_total{type=\"EMAIL_ADDRESS\",class=\"pii\"} 2"), std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find("tiergate_privacy_requests_total{action=\"redact\"} 2"), std::string::npos);
}

TEST_F(GatewayPrivacyTest, TheUserFieldAndStopSequencesAreRedactedToo) {
  start_gateway(kConfig, nullptr, true);
  cloud_.pieces = {"Noted."};
  auto r = chat({{"model", "big"},
                 {"messages", user("Summarise the meeting notes.")},
                 {"user", "jane.roe@example.com"},
                 {"stop", json::array({"jane.roe@example.com"})}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(cloud_.last_request.user, "[EMAIL_ADDRESS_1]");
  EXPECT_EQ(cloud_.last_request.sampling.stop, std::vector<std::string>{"[EMAIL_ADDRESS_1]"});
  EXPECT_EQ(r.headers["x-tiergate-route"], "model:up1+redacted");
  EXPECT_NE(metrics_.render().find("tiergate_privacy_detections_total{type=\"EMAIL_ADDRESS\",class=\"pii\"} 2"),
            std::string::npos);
}

TEST_F(GatewayPrivacyTest, WhatThePolicyDidIsCountedPerClass) {
  start_gateway(kConfig, nullptr, true);
  cloud_.pieces = {"Noted."};
  // pii is redacted for a public upstream; a date (class context) goes as
  // it was; a secret keeps the next request on the device.
  auto mixed = chat({{"model", "big"}, {"messages", user("Mail jane.roe@example.com before 2024-05-01 please.")}});
  ASSERT_EQ(mixed.status, 200) << mixed.body;
  EXPECT_EQ(cloud_.last_request.messages.at(0).content, "Mail [EMAIL_ADDRESS_1] before 2024-05-01 please.");
  auto secret = chat({{"model", "big"}, {"messages", user("Is sk-proj-4fJ9xQ2LmZ8vT1wR6yU3pK0aB5nC7dE2 valid?")}});
  ASSERT_EQ(secret.status, 200) << secret.body;
  const std::string metrics = metrics_.render();
  for (const char* line : {"tiergate_privacy_class_actions_total{class=\"pii\",action=\"redact\"} 1",
                           "tiergate_privacy_class_actions_total{class=\"context\",action=\"allow\"} 1",
                           "tiergate_privacy_class_actions_total{class=\"secret\",action=\"local_only\"} 1",
                           "tiergate_privacy_requests_total{action=\"redact\"} 1",
                           "tiergate_privacy_requests_total{action=\"local_only\"} 1"}) {
    EXPECT_NE(metrics.find(line), std::string::npos) << line << "\n" << metrics;
  }
}

TEST_F(GatewayPrivacyTest, SecretsStayOnTheDevice) {
  start_gateway(kConfig, nullptr, true);
  const std::string prompt = "Why does my key sk-proj-4fJ9xQ2LmZ8vT1wR6yU3pK0aB5nC7dE2 fail?";
  auto r = chat({{"model", "big"}, {"messages", user(prompt)}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(cloud_.calls, 0);
  EXPECT_EQ(r.headers["x-tiergate-tier"], "edge");
  EXPECT_EQ(r.headers["x-tiergate-route"], "model:up1>privacy_denied:up1>privacy:edge");
  EXPECT_EQ(edge_.last_request.messages[0].content, prompt);
  EXPECT_NE(metrics_.render().find("tiergate_privacy_requests_total{action=\"local_only\"} 1"), std::string::npos);
}

TEST_F(GatewayPrivacyTest, ARequestMayAskForAStricterPolicyNeverALooserOne) {
  start_gateway(kConfig, nullptr, true);
  const std::string prompt = "Ask jane.roe@example.com about Lisbon.";
  auto send = [&](const std::string& privacy) {
    return http_call(port_, "POST", "/v1/chat/completions",
                     json{{"model", "big"}, {"messages", user(prompt)}}.dump(), {{"x-tiergate-privacy", privacy}});
  };
  auto local = send("local_only");
  ASSERT_EQ(local.status, 200) << local.body;
  EXPECT_EQ(local.headers["x-tiergate-tier"], "edge");
  EXPECT_EQ(cloud_.calls, 0);
  auto allow = send("allow");  // the config redacts e-mail addresses: it still does
  ASSERT_EQ(allow.status, 200) << allow.body;
  EXPECT_EQ(cloud_.last_request.messages[0].content, "Ask [EMAIL_ADDRESS_1] about Lisbon.");
  cloud_.calls = 0;
  auto plain = http_call(port_, "POST", "/v1/chat/completions",
                         json{{"model", "big"}, {"messages", user("What is 2 + 2?")}}.dump(),
                         {{"x-tiergate-privacy", "local_only"}});
  ASSERT_EQ(plain.status, 200) << plain.body;
  EXPECT_EQ(plain.headers["x-tiergate-tier"], "edge");  // nothing found, still kept local as asked
  EXPECT_EQ(cloud_.calls, 0);
  auto bad = send("none");
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(bad.body.find("x-tiergate-privacy: expected redact or local_only"), std::string::npos) << bad.body;
}

TEST_F(GatewayPrivacyTest, EveryBodyThatLeavesIsAudited) {
  admin_token_ = "s3cret-admin";
  start_gateway(kConfig, nullptr, true);
  cloud_.reports_egress = true;
  const std::string prompt = "Mail jane.roe@example.com twice: jane.roe@example.com";
  ASSERT_EQ(chat({{"model", "big"}, {"messages", user(prompt)}}).status, 200);
  ASSERT_EQ(chat({{"model", "big"}, {"messages", user("no personal data")}}).status, 200);
  ASSERT_EQ(chat({{"model", "edge"}, {"messages", user(prompt)}}).status, 200);  // stays local: no entry

  auto unauthorised = http_call(port_, "GET", "/admin/audit");
  EXPECT_EQ(unauthorised.status, 401);
  auto wrong = http_call(port_, "GET", "/admin/audit", "", {{"authorization", "Bearer nope"}});
  EXPECT_EQ(wrong.status, 401);
  auto r = http_call(port_, "GET", "/admin/audit?limit=10", "", {{"authorization", "Bearer s3cret-admin"}});
  ASSERT_EQ(r.status, 200) << r.body;
  const json log = json::parse(r.body);
  EXPECT_EQ(log["total"], 2);
  ASSERT_EQ(log["entries"].size(), 2u);
  const json& first = log["entries"][0];
  EXPECT_EQ(first["upstream"], "up1");
  EXPECT_EQ(first["action"], "redact");
  EXPECT_EQ(first["types"], json({{"EMAIL_ADDRESS", 2}}));
  EXPECT_EQ(first["classes"], json({{"pii", 2}}));
  ChatRequest sent;
  sent.messages = {{Role::kUser, "Mail [EMAIL_ADDRESS_1] twice: [EMAIL_ADDRESS_1]"}};
  EXPECT_EQ(first["sent_sha256"], sha256_hex(testing::FakeEngine::wire_body(sent)));
  EXPECT_EQ(log["entries"][1]["action"], "allow");
  EXPECT_EQ(log["entries"][1]["types"], json::object());
  EXPECT_EQ(r.body.find("jane.roe"), std::string::npos);  // metadata only
  // The entries verify as a chain.
  std::string lines;
  for (const json& e : log["entries"]) lines += e.dump() + "\n";
  EXPECT_TRUE(verify_audit_log(lines, "admin").is_ok());
}

TEST_F(GatewayPrivacyTest, TheAdminApiIsOffWithoutAToken) {
  start_gateway(kConfig, nullptr, true);
  EXPECT_EQ(http_call(port_, "GET", "/admin/audit", "", {{"authorization", "Bearer "}}).status, 404);
}

TEST_F(GatewayPrivacyTest, TheDryRunSaysWhatThePolicyWouldDo) {
  start_gateway(kConfig, nullptr, true);
  auto r = http_call(port_, "POST", "/v1/route",
                     json{{"model", "big"}, {"messages", user("Call me on +44 20 7946 0958 or mail a@b.example.com")}}.dump());
  ASSERT_EQ(r.status, 200) << r.body;
  const json j = json::parse(r.body);
  EXPECT_EQ(j["privacy"]["found"], json({{"EMAIL_ADDRESS", 1}, {"PHONE_NUMBER", 1}}));
  EXPECT_EQ(j["privacy"]["upstreams"]["up1"]["trust"], "public");
  EXPECT_EQ(j["privacy"]["upstreams"]["up1"]["action"], "redact");
  EXPECT_EQ(j["privacy"]["upstreams"]["up1"]["redact"], json({"PHONE_NUMBER", "EMAIL_ADDRESS"}));
  EXPECT_EQ(r.body.find("7946"), std::string::npos);  // metadata only
  EXPECT_EQ(cloud_.calls, 0);
}

// Bad input (issue 4): none of it crashes, hangs or leaks.
// kConfig with room for the big bodies below.
const std::string kBigBodies = std::string("max_body_bytes: 4194304\n") + kConfig;

// A conversation's earlier turns come back with every new turn: their
// findings come from the scan cache (privacy.scan_cache_mb), and they are
// redacted as when they were scanned.
TEST_F(GatewayPrivacyTest, EarlierTurnsAreNotScannedAgainAndStayRedacted) {
  start_gateway(kConfig, nullptr, true);
  cloud_.pieces = {"Noted."};
  json messages = json::array({{{"role", "system"}, {"content", "Escalations go to ops@example.com."}},
                               {{"role", "user"}, {"content", "Mail jane.roe@example.com about it."}}});
  for (int turn = 0; turn < 3; ++turn) {
    auto r = chat({{"model", "big"}, {"messages", messages}});
    ASSERT_EQ(r.status, 200) << r.body;
    const auto& sent = cloud_.last_request.messages;
    ASSERT_EQ(sent.size(), messages.size());
    EXPECT_EQ(sent[0].content, "Escalations go to [EMAIL_ADDRESS_1].");
    EXPECT_EQ(sent[1].content, "Mail [EMAIL_ADDRESS_2] about it.");
    messages.push_back({{"role", "assistant"}, {"content", "Noted."}});
    messages.push_back({{"role", "user"}, {"content", "Turn " + std::to_string(turn) + "."}});
  }
  // Requests of 2, 4 and 6 messages: each new message scanned once (the
  // second "Noted." is the first one's bytes again).
  const std::string metrics = metrics_.render();
  EXPECT_NE(metrics.find("tiergate_privacy_scanned_messages_total{source=\"scan\"} 5"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("tiergate_privacy_scanned_messages_total{source=\"cache\"} 7"), std::string::npos);
  EXPECT_NE(metrics.find("tiergate_privacy_detections_total{type=\"EMAIL_ADDRESS\",class=\"pii\"} 6"),
            std::string::npos);
  // Five messages held, two of them with an email address.
  const std::string held = "tiergate_privacy_scan_cache_bytes " +
                           std::to_string(3 * ScanCache::entry_bytes(0) + 2 * ScanCache::entry_bytes(1)) + "\n";
  EXPECT_NE(metrics.find(held), std::string::npos) << metrics;
}

// The cache is kept per API key: one caller's request never finds what
// another's scanned (its time would tell that someone sent those bytes).
TEST_F(GatewayPrivacyTest, OneCallerDoesNotFindAnothersMessagesInTheScanCache) {
  start_gateway(kConfig, nullptr, true);
  cloud_.pieces = {"Noted."};
  const std::string body = json{{"model", "big"}, {"messages", user("Mail jane.roe@example.com about it.")}}.dump();
  for (const char* key : {"Bearer sk-alice", "Bearer sk-bob", "Bearer sk-alice"}) {
    ASSERT_EQ(http_call(port_, "POST", "/v1/chat/completions", body, {{"Authorization", key}}).status, 200);
    EXPECT_EQ(cloud_.last_request.messages[0].content, "Mail [EMAIL_ADDRESS_1] about it.");
  }
  const std::string metrics = metrics_.render();
  EXPECT_NE(metrics.find("tiergate_privacy_scanned_messages_total{source=\"scan\"} 2"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("tiergate_privacy_scanned_messages_total{source=\"cache\"} 1"), std::string::npos);
}

TEST_F(GatewayPrivacyTest, WithoutAScanCacheEveryMessageIsScanned) {
  const std::string config = std::string(kConfig) + "privacy:\n  scan_cache_mb: 0\n";
  start_gateway(config.c_str(), nullptr, true);
  cloud_.pieces = {"Noted."};
  const json body = {{"model", "big"}, {"messages", user("Mail jane.roe@example.com about it.")}};
  for (int i = 0; i < 2; ++i) ASSERT_EQ(chat(body).status, 200);
  EXPECT_EQ(cloud_.last_request.messages[0].content, "Mail [EMAIL_ADDRESS_1] about it.");
  const std::string metrics = metrics_.render();
  EXPECT_NE(metrics.find("tiergate_privacy_scanned_messages_total{source=\"scan\"} 2"), std::string::npos) << metrics;
  EXPECT_EQ(metrics.find("tiergate_privacy_scanned_messages_total{source=\"cache\"}"), std::string::npos);
  EXPECT_EQ(metrics.find("tiergate_privacy_scan_cache_bytes"), std::string::npos);
}

TEST_F(GatewayPrivacyTest, AOneMegabyteSingleLinePromptIsScannedToItsEnd) {
  start_gateway(kBigBodies.c_str(), nullptr, true);
  std::string prompt;
  while (prompt.size() < (1u << 20)) prompt += "lorem ipsum dolor sit amet 42, ";
  prompt += "write to jane.roe@example.com";
  auto r = chat({{"model", "big"}, {"messages", user(prompt)}});
  ASSERT_EQ(r.status, 200) << r.body.substr(0, 300);
  const std::string& sent = cloud_.last_request.messages.at(0).content;
  EXPECT_EQ(sent.find("jane.roe"), std::string::npos);
  EXPECT_EQ(sent.substr(sent.size() - 26), "write to [EMAIL_ADDRESS_1]");
}

// A clock that moves one second on at every reading.
class SteppingClock final : public Clock {
 public:
  SteadyTime now() const override { return SteadyTime{} + std::chrono::seconds(++readings_); }
  int64_t unix_seconds() const override { return 1'700'000'000; }

 private:
  mutable std::atomic<int64_t> readings_{0};
};

TEST_F(GatewayPrivacyTest, AScanThatRunsPastItsTimeLimitKeepsTheRequestOnTheDevice) {
  // Each reading of the clock is a second later: the scan, allowed 500 ms,
  // is past its limit when it first asks.
  gateway_clock_ = std::make_unique<SteppingClock>();
  const std::string config = std::string(kConfig) + "privacy:\n  scan_timeout_ms: 500\n";
  start_gateway(config.c_str(), nullptr, true);
  auto r = chat({{"model", "big"}, {"messages", user("Nothing personal in here at all.")}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(cloud_.calls, 0);
  EXPECT_EQ(r.headers["x-tiergate-tier"], "edge");
  EXPECT_EQ(r.headers["x-tiergate-route"], "model:up1>privacy_denied:up1>privacy:edge");
  const std::string metrics = metrics_.render();
  EXPECT_NE(metrics.find("tiergate_privacy_scan_failures_total{reason=\"timeout\"} 1"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("tiergate_privacy_requests_total{action=\"local_only\"} 1"), std::string::npos) << metrics;

  // The dry run says why.
  auto route = http_call(port_, "POST", "/v1/route",
                         json{{"model", "big"}, {"messages", user("Nothing personal in here at all.")}}.dump());
  ASSERT_EQ(route.status, 200) << route.body;
  EXPECT_NE(route.body.find("the privacy scan did not complete (it ran past privacy.scan_timeout_ms, 500 ms)"),
            std::string::npos)
      << route.body;
}

TEST_F(GatewayPrivacyTest, WithoutATimeLimitTheScanRunsToItsEnd) {
  gateway_clock_ = std::make_unique<SteppingClock>();
  const std::string config = std::string(kConfig) + "privacy:\n  scan_timeout_ms: 0\n";
  start_gateway(config.c_str(), nullptr, true);
  cloud_.pieces = {"Noted."};
  auto r = chat({{"model", "big"}, {"messages", user("Mail jane.roe@example.com about it.")}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(cloud_.last_request.messages.at(0).content, "Mail [EMAIL_ADDRESS_1] about it.");
  EXPECT_EQ(metrics_.render().find("tiergate_privacy_scan_failures_total{"), std::string::npos);
}

TEST_F(GatewayPrivacyTest, APlaceholderAlreadyInTheTextStaysTheUsersOwn) {
  start_gateway(kConfig, nullptr, true);
  cloud_.pieces = {"[EMAIL_ADDRESS_1] is what you wrote; I will use [EMAIL_ADDRESS_2]."};
  auto r = chat({{"model", "big"}, {"messages", user("My template says [EMAIL_ADDRESS_1]; use jane@example.com")}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(cloud_.last_request.messages[0].content, "My template says [EMAIL_ADDRESS_1]; use [EMAIL_ADDRESS_2]");
  EXPECT_EQ(json::parse(r.body)["choices"][0]["message"]["content"],
            "[EMAIL_ADDRESS_1] is what you wrote; I will use jane@example.com.");
}

TEST_F(GatewayPrivacyTest, InvalidUtf8AndDeeplyNestedBodiesAreRefusedCleanly) {
  start_gateway(kBigBodies.c_str(), nullptr, true);
  const std::string invalid = "{\"model\": \"big\", \"messages\": [{\"role\": \"user\", \"content\": \"mail a@b.example.com \xff\xfe\"}]}";
  auto r = http_call(port_, "POST", "/v1/chat/completions", invalid);
  EXPECT_EQ(r.status, 400) << r.body;
  std::string nested = "{\"model\": \"big\", \"messages\": ";
  nested += std::string(1000000, '[') + std::string(1000000, ']') + "}";
  r = http_call(port_, "POST", "/v1/chat/completions", nested);
  EXPECT_EQ(r.status, 400) << r.body.substr(0, 300);
  EXPECT_EQ(cloud_.calls, 0);
}

}  // namespace
}  // namespace tiergate
