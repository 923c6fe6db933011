// Model `auto` through the learned cascade, end to end: `tiergate router
// train` makes an artifact from generated routing rows, `tiergate serve` loads
// it, and requests that resemble the rows the cloud won go to the cloud (a
// real llama-server) while the others stay on the edge (a real GGUF model).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <thread>

#include "http_client.h"
#include "stack.h"
#include "test_models.h"

namespace tiergate::testing {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

const char* kEasy = "Say hello to my friend and wish them a nice day";
const char* kHard = "Prove the theorem about the integral step by step with a rigorous derivation of every lemma";

// Rows where the cloud wins exactly on the hard kind of prompt.
void write_rows(const fs::path& path) {
  std::ofstream out(path);
  for (int i = 0; i < 300; ++i) {
    const bool hard = i % 2 == 1;
    json row = {{"id", "row-" + std::to_string(i)},
                {"source", std::string("synthetic/") + (hard ? "proofs" : "greetings")},
                {"messages", json::array({{{"role", "user"},
                                           {"content", std::string(hard ? kHard : kEasy) + " #" + std::to_string(i)}}})},
                {"edge", {{"score", hard ? 0.0 : 1.0}}},
                {"cloud", {{"score", 1.0}}}};
    out << row.dump() << "\n";
  }
}

bool wait_ready(uint16_t port) {
  for (int i = 0; i < 600; ++i) {
    if (http_call(port, "GET", "/readyz").status == 200) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

json chat_body(const std::string& text) {
  return {{"model", "auto"}, {"messages", json::array({{{"role", "user"}, {"content", text}}})}, {"max_tokens", 4}};
}

class LearnedRoutingTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() / ("tiergate-learned-" + std::to_string(::getpid())));
    fs::create_directories(*dir_);
    const fs::path rows = *dir_ / "rows.jsonl", router = *dir_ / "router.json";
    write_rows(rows);
    const std::string train = std::string(TIERGATE_BIN) + " router train --data " + rows.string() + " --out " +
                              router.string() + " --cv 0 > " + (*dir_ / "train.log").string() + " 2>&1";
    ASSERT_EQ(std::system(train.c_str()), 0) << "router train failed; see " << (*dir_ / "train.log");
    upstream_ = new RunningServer(start_llama_server(synthetic_upstream_model(), "upstream-model"));
    const std::string config = "listen: 127.0.0.1:0\nedge:\n  model: " + synthetic_model() +
                               "\n  context: 1024\n  parallel: 2\n  threads: 1\ncloud:\n  - name: llama\n    base_url: " +
                               upstream_->url() + "/v1\n    models: [upstream-model]\nrouting:\n  router: " +
                               router.string() + "\n  quality: 0.5\n";
    gateway_ = new RunningServer(start_tiergate(config));
    ASSERT_TRUE(wait_ready(gateway_->port));
  }
  static void TearDownTestSuite() {
    delete gateway_;
    delete upstream_;
    std::error_code ec;
    fs::remove_all(*dir_, ec);
    delete dir_;
  }

  static fs::path* dir_;
  static RunningServer* upstream_;
  static RunningServer* gateway_;
};

fs::path* LearnedRoutingTest::dir_ = nullptr;
RunningServer* LearnedRoutingTest::upstream_ = nullptr;
RunningServer* LearnedRoutingTest::gateway_ = nullptr;

TEST_F(LearnedRoutingTest, EasyStaysOnTheEdgeHardGoesToTheCloud) {
  HttpResult easy = http_call(gateway_->port, "POST", "/v1/chat/completions", chat_body(std::string(kEasy) + " #x").dump());
  ASSERT_EQ(easy.status, 200) << easy.body;
  EXPECT_EQ(easy.headers["x-tiergate-tier"], "edge");
  EXPECT_EQ(easy.headers["x-tiergate-route"], "auto:complexity");

  HttpResult hard = http_call(gateway_->port, "POST", "/v1/chat/completions", chat_body(std::string(kHard) + " #x").dump());
  ASSERT_EQ(hard.status, 200) << hard.body;
  EXPECT_EQ(hard.headers["x-tiergate-tier"], "llama");
  EXPECT_EQ(hard.headers["x-tiergate-route"], "auto:complexity");

  // The answer carries the full trace: the signals and the threshold compared.
  json body = json::parse(hard.body);
  ASSERT_TRUE(body.contains("tiergate")) << hard.body;
  const std::string trace = body["tiergate"].dump();
  EXPECT_NE(trace.find("intent"), std::string::npos) << trace;
  EXPECT_NE(trace.find("threshold"), std::string::npos) << trace;
  EXPECT_EQ(trace.find("rigorous"), std::string::npos) << "the trace must not carry prompt text";
}

TEST_F(LearnedRoutingTest, QualityDialMovesTheDecision) {
  json hard = chat_body(std::string(kHard) + " #y");
  HttpResult cheapest = http_call(gateway_->port, "POST", "/v1/chat/completions", hard.dump(), {{"x-tiergate-quality", "0"}});
  ASSERT_EQ(cheapest.status, 200) << cheapest.body;
  EXPECT_EQ(cheapest.headers["x-tiergate-tier"], "edge");
  HttpResult bad = http_call(gateway_->port, "POST", "/v1/chat/completions", hard.dump(), {{"x-tiergate-quality", "1.5"}});
  EXPECT_EQ(bad.status, 400) << bad.body;
}

TEST_F(LearnedRoutingTest, RouteDryRunDecidesWithoutGenerating) {
  HttpResult r = http_call(gateway_->port, "POST", "/v1/route", chat_body(std::string(kHard) + " #z").dump());
  ASSERT_EQ(r.status, 200) << r.body;
  json plan = json::parse(r.body);
  EXPECT_EQ(plan["tier"], "llama");
  EXPECT_EQ(plan["reason"], "auto:complexity");
  EXPECT_TRUE(plan.contains("trace"));
  EXPECT_FALSE(plan.contains("choices"));
}

// The optional embedding part: trained on the edge model's embeddings of the
// rows (`router train --edge-model`), and served by a gateway whose edge runs
// that model, which embeds each auto request and shows the part in the trace.
TEST(LearnedRoutingEmbeddingTest, TheEdgeModelsEmbeddingEntersTheDecision) {
  const fs::path dir = fs::temp_directory_path() / ("tiergate-embedding-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path rows = dir / "rows.jsonl", router = dir / "router.json", log = dir / "train.log";
  write_rows(rows);
  const std::string train = std::string(TIERGATE_BIN) + " router train --data " + rows.string() + " --out " +
                            router.string() + " --cv 0 --edge-model " + synthetic_model() + " > " + log.string() +
                            " 2>&1";
  ASSERT_EQ(std::system(train.c_str()), 0) << "router train failed; see " << log;
  std::ifstream in(router);
  const json artifact = json::parse(in);
  ASSERT_TRUE(artifact["complexity"].contains("embedding")) << "no embedding part in " << router;
  EXPECT_GT(artifact["training"]["embedding_ms_per_request"].get<double>(), 0.0);

  // Scoring with another edge model's embeddings is refused, naming both.
  const std::string eval = std::string(TIERGATE_BIN) + " router eval --router " + router.string() + " --data " +
                           rows.string() + " --edge-model " + synthetic_upstream_model() + " > " +
                           (dir / "eval.log").string() + " 2>&1";
  EXPECT_NE(std::system(eval.c_str()), 0);
  std::ifstream eval_log(dir / "eval.log");
  const std::string eval_text((std::istreambuf_iterator<char>(eval_log)), std::istreambuf_iterator<char>());
  EXPECT_NE(eval_text.find("another edge model"), std::string::npos) << eval_text;

  const std::string config = "listen: 127.0.0.1:0\nedge:\n  model: " + synthetic_model() +
                             "\n  context: 1024\n  parallel: 2\n  threads: 1\nrouting:\n  router: " +
                             router.string() + "\n";
  RunningServer gateway = start_tiergate(config);
  ASSERT_TRUE(wait_ready(gateway.port));
  HttpResult r = http_call(gateway.port, "POST", "/v1/route", chat_body(std::string(kHard) + " #e").dump());
  ASSERT_EQ(r.status, 200) << r.body;
  const json plan = json::parse(r.body);
  const json& complexity = plan["trace"]["signals"]["complexity"];
  ASSERT_TRUE(complexity.contains("embedding")) << r.body;
  EXPECT_NE(complexity["embedding"].get<double>(), 0.0) << r.body;

  // `tiergate route` decides the same way from the same config.
  const fs::path config_file = dir / "tiergate.yaml", request = dir / "request.json", routed = dir / "route.json";
  std::ofstream(config_file) << config;
  std::ofstream(request) << chat_body(std::string(kHard) + " #e").dump();
  const std::string route = std::string(TIERGATE_BIN) + " route --config " + config_file.string() + " --json < " +
                            request.string() + " > " + routed.string() + " 2> " + (dir / "route.log").string();
  ASSERT_EQ(std::system(route.c_str()), 0) << "tiergate route failed; see " << (dir / "route.log");
  std::ifstream routed_in(routed);
  const json offline = json::parse(routed_in);
  EXPECT_EQ(offline["trace"]["signals"]["complexity"]["embedding"], complexity["embedding"]) << offline.dump();
  std::error_code ec;
  fs::remove_all(dir, ec);
}

}  // namespace
}  // namespace tiergate::testing
