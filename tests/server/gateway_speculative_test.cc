// Speculative edge execution through the gateway over HTTP: the `tiergate`
// object says what the verifier decided, the metrics count drafts, and the
// verifier log gets a row of features per verified draft (no text).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "gateway_harness.h"
#include "test_models.h"

namespace tiergate {
namespace {

using json = nlohmann::json;
using testing::http_call;
using testing::sse_payloads;

class GatewaySpeculativeTest : public testing::GatewayHarness {
 protected:
  void SetUp() override {
    log_ = testing::make_temp_dir("tiergate-verifier-log") + "/verifier.jsonl";
    // Appended piece by piece (g++ 12 warns falsely on a chain of string +).
    config_text_ = "listen: 127.0.0.1:0\nedge:\n  model: edge.gguf\ncloud:\n  - name: up1\n"
                   "    base_url: http://127.0.0.1:9/v1\n    models: [big]\n"
                   "speculative: {enabled: true, early_exit_tokens: 3, hold_back_tokens: 5, log: ";
    config_text_.append(log_).append("}\n");
    start_gateway(config_text_.c_str());
    edge_.pieces = {"w0 ", "w1 ", "w2 ", "w3 ", "w4 ", "w5 ", "w6 ", "w7 "};
    cloud_.pieces = {"cloud"};
  }
  testing::HttpResult chat(const json& body) { return http_call(port_, "POST", "/v1/chat/completions", body.dump()); }
  static json ask(const std::string& text, bool stream = false) {
    return {{"model", "auto"}, {"messages", json::array({{{"role", "user"}, {"content", text}}})}, {"stream", stream}};
  }
  std::vector<json> log_rows() {
    std::vector<json> rows;
    std::ifstream in(log_);
    for (std::string line; std::getline(in, line);) rows.push_back(json::parse(line));
    return rows;
  }

  std::string log_, config_text_;
};

TEST_F(GatewaySpeculativeTest, AcceptedAndEscalatedDraftsAreReportedCountedAndLogged) {
  // Confident edge: the draft is the answer.
  edge_.piece_logprob = -0.02;
  edge_.piece_top = {{"a", -0.02}, {"b", -4.5}};
  auto accepted = chat(ask("hi"));
  ASSERT_EQ(accepted.status, 200) << accepted.body;
  EXPECT_EQ(accepted.headers["x-tiergate-tier"], "edge");
  json a = json::parse(accepted.body)["tiergate"];
  EXPECT_EQ(a["speculative"]["verdict"], "accepted");
  EXPECT_EQ(a["speculative"]["drafts_discarded"], 0);
  EXPECT_EQ(a["speculative"]["draft_tokens"], 8);  // a plain answer is judged whole
  const json choice = json::parse(accepted.body)["choices"][0];
  EXPECT_TRUE(!choice.contains("logprobs") || choice["logprobs"].is_null());  // the client did not ask

  // A guessing edge: escalated at the early exit; the client sees the cloud's answer only.
  edge_.piece_logprob = -3.0;
  edge_.piece_top = {{"a", std::log(0.25)}, {"b", std::log(0.25)}, {"c", std::log(0.25)}, {"d", std::log(0.25)}};
  for (bool stream : {false, true}) {
    auto escalated = chat(ask("hi", stream));
    ASSERT_EQ(escalated.status, 200) << escalated.body;
    EXPECT_EQ(escalated.headers["x-tiergate-tier"], "up1");
    EXPECT_EQ(escalated.headers["x-tiergate-route"], "auto:short_prompt>escalated:up1");
    EXPECT_EQ(escalated.body.find("w0"), std::string::npos);  // no part of the draft
    json info;
    if (stream) {
      auto events = sse_payloads(escalated.body);
      ASSERT_GE(events.size(), 2u);
      info = json::parse(events[events.size() - 2])["tiergate"];
    } else {
      info = json::parse(escalated.body)["tiergate"];
    }
    EXPECT_EQ(info["speculative"]["verdict"], "escalated");
    EXPECT_EQ(info["speculative"]["drafts_discarded"], 1);
    EXPECT_EQ(info["speculative"]["draft_tokens"], 3);
    EXPECT_LT(info["speculative"]["confidence"].get<double>(), info["speculative"]["threshold"].get<double>());
    EXPECT_GE(info["speculative"]["time_lost_ms"].get<double>(), 0);
  }

  // Explicit models are not speculative.
  auto explicit_edge = chat({{"model", "edge"}, {"messages", json::array({{{"role", "user"}, {"content", "hi"}}})}});
  EXPECT_FALSE(json::parse(explicit_edge.body)["tiergate"].contains("speculative"));

  auto m = http_call(port_, "GET", "/metrics").body;
  EXPECT_NE(m.find("tiergate_speculative_drafts_total{verdict=\"accepted\"} 1"), std::string::npos) << m;
  EXPECT_NE(m.find("tiergate_speculative_drafts_total{verdict=\"escalated\"} 2"), std::string::npos);

  const std::vector<json> rows = log_rows();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0]["verdict"], "accepted");
  EXPECT_EQ(rows[0]["answered_by"], "edge");
  EXPECT_EQ(rows[1]["verdict"], "escalated");
  EXPECT_EQ(rows[1]["answered_by"], "up1");
  EXPECT_TRUE(rows[1]["features"].contains("mean_logprob"));
  EXPECT_TRUE(rows[1]["features"]["intent"].is_string());
  for (const json& row : rows) {
    EXPECT_EQ(row.dump().find("w0"), std::string::npos);  // metadata only: no draft text
    EXPECT_EQ(row.dump().find("hi"), std::string::npos);  // nor the prompt
  }
}

TEST_F(GatewaySpeculativeTest, TheRouteSaysWhenADraftWillBeVerified) {
  auto r = http_call(port_, "POST", "/v1/route", ask("hi").dump());
  json plan = json::parse(r.body);
  EXPECT_EQ(plan["tier"], "edge");
  EXPECT_EQ(plan["speculative"], true);
  auto cloud = http_call(port_, "POST", "/v1/route", ask("prove it").dump());
  EXPECT_FALSE(json::parse(cloud.body).contains("speculative"));  // goes to the cloud anyway
}

}  // namespace
}  // namespace tiergate
