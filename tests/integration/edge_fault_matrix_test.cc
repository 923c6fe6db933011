// The edge side of the fault-injection matrix (issue 5), through the real
// `tiergate` binary with a real llama-server as the cloud: a missing, a
// corrupt and a truncated GGUF, a context overflow, a client that leaves
// mid-stream, every sequence busy. Each request gets a valid answer or a
// well-formed OpenAI error; auto requests move to the cloud when the edge
// cannot serve and say so; edge-only requests are never answered by the
// cloud; the server shuts down cleanly after (in the sanitizer build:
// without a leak).
#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "http_client.h"
#include "stack.h"
#include "test_models.h"

namespace tiergate::testing {
namespace {

using json = nlohmann::json;

json user(const std::string& text) { return json::array({{{"role", "user"}, {"content", text}}}); }

std::string config_for(const std::string& edge_model, const std::string& upstream_url, int parallel = 2,
                       int queue = 4) {
  return "listen: 127.0.0.1:0\nedge:\n  model: " + edge_model + "\n  context: 2048\n  parallel: " +
         std::to_string(parallel) + "\n  queue: " + std::to_string(queue) + "\n  threads: 1\ncloud:\n  - name: llama\n"
         "    base_url: " + upstream_url + "/v1\n    models: [upstream-model]\n    retries: {max: 0}\n";
}

// The edge's state once it left "loading".
json settled_readiness(uint16_t port) {
  json body;
  for (int i = 0; i < 200; ++i) {
    body = json::parse(http_call(port, "GET", "/readyz").body);
    if (body["tiers"]["edge"]["state"] != "loading") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return body;
}

class EdgeFaultMatrixTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { upstream_ = new RunningServer(start_llama_server(synthetic_upstream_model(), "upstream-model")); }
  static void TearDownTestSuite() { delete upstream_; }
  static RunningServer* upstream_;
  std::string dir_ = make_temp_dir("tiergate-edge-faults");
};
RunningServer* EdgeFaultMatrixTest::upstream_ = nullptr;

// An edge model that cannot load: the reason in /readyz, auto requests
// answered by the cloud marked degraded, edge-only requests a 503.
TEST_F(EdgeFaultMatrixTest, ModelsThatCannotLoad) {
  const std::string corrupt = dir_ + "/corrupt.gguf";
  std::ofstream(corrupt, std::ios::binary) << "GGUF" << std::string(64, '\x7f');
  const std::string truncated = dir_ + "/truncated.gguf";
  {
    std::ifstream whole(synthetic_model(), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(whole)), std::istreambuf_iterator<char>());
    std::ofstream(truncated, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  }
  for (const std::string& model : {dir_ + "/missing.gguf", corrupt, truncated}) {
    SCOPED_TRACE(model);
    RunningServer gw = start_tiergate(config_for(model, upstream_->url()));
    json ready = settled_readiness(gw.port);
    EXPECT_EQ(ready["tiers"]["edge"]["state"], "unavailable");
    EXPECT_FALSE(ready["tiers"]["edge"]["detail"].get<std::string>().empty());
    EXPECT_EQ(ready["mode"], "cloud_only");
    auto r = http_call(gw.port, "POST", "/v1/chat/completions",
                       json{{"model", "auto"}, {"messages", user("hi")}, {"max_tokens", 4}}.dump());
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.headers["x-tiergate-tier"], "llama");
    EXPECT_EQ(r.headers["x-tiergate-degraded"], "edge_unavailable");
    auto edge_only = http_call(gw.port, "POST", "/v1/chat/completions",
                               json{{"model", "edge"}, {"messages", user("hi")}}.dump());
    EXPECT_EQ(edge_only.status, 503);
    EXPECT_FALSE(json::parse(edge_only.body)["error"]["message"].get<std::string>().empty());
    EXPECT_FALSE(edge_only.headers["retry-after"].empty());
    EXPECT_EQ(gw.process->terminate(), 0) << "tiergate did not shut down cleanly";
  }
}

// A prompt too long for the edge context is the client's to fix: a 400
// naming context_length_exceeded, never silently sent elsewhere.
TEST_F(EdgeFaultMatrixTest, ContextOverflowIsAClearErrorWithoutFallback) {
  RunningServer gw = start_tiergate(config_for(synthetic_model(), upstream_->url()));
  ASSERT_EQ(settled_readiness(gw.port)["tiers"]["edge"]["state"], "ready");
  std::string long_text;
  for (int i = 0; i < 3000; ++i) long_text += "word ";
  auto r = http_call(gw.port, "POST", "/v1/chat/completions",
                     json{{"model", "edge"}, {"messages", user(long_text)}}.dump());
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(json::parse(r.body)["error"]["code"], "context_length_exceeded");
}

// Every sequence busy and no queue: edge-only requests get a 429 that says
// when to retry; auto requests go to the cloud (load shedding, not a tier
// down). A client that leaves mid-stream frees its sequence; twice over, so
// the second round shows the first left nothing taken.
TEST_F(EdgeFaultMatrixTest, BusySlotsAndAClientThatLeaves) {
  RunningServer gw = start_tiergate(config_for(synthetic_model(), upstream_->url(), /*parallel=*/1, /*queue=*/0));
  ASSERT_EQ(settled_readiness(gw.port)["tiers"]["edge"]["state"], "ready");
  auto edge_hi = [&] {
    return http_call(gw.port, "POST", "/v1/chat/completions",
                     json{{"model", "edge"}, {"messages", user("hi")}, {"max_tokens", 2}}.dump());
  };
  auto round = [&] {
    // Hold the only sequence with a stream of up to 2000 tokens (seconds of
    // work for this model) that the client leaves after its first bytes.
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket holder(io);
    holder.connect({boost::asio::ip::make_address("127.0.0.1"), gw.port});
    const std::string body = json{{"model", "edge"}, {"messages", user("tell a long story")}, {"stream", true},
                                  {"max_tokens", 2000}}.dump();
    const std::string head = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                             "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
    boost::asio::write(holder, boost::asio::buffer(head + body));
    char first[64];
    holder.read_some(boost::asio::buffer(first));  // the stream started: the sequence is taken

    auto busy = edge_hi();
    EXPECT_EQ(busy.status, 429) << busy.body;
    EXPECT_FALSE(busy.headers["retry-after"].empty());
    auto shed = http_call(gw.port, "POST", "/v1/chat/completions",
                          json{{"model", "auto"}, {"messages", user("hi")}, {"max_tokens", 2}}.dump());
    EXPECT_EQ(shed.status, 200) << shed.body;
    EXPECT_EQ(shed.headers["x-tiergate-tier"], "llama");
    EXPECT_EQ(shed.headers.count("x-tiergate-degraded"), 0u);

    holder.close();  // the client leaves mid-stream
    int status = 0;
    for (int i = 0; i < 100 && status != 200; ++i) {
      status = edge_hi().status;
      if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_EQ(status, 200);  // the sequence was freed
  };
  round();
  // Threads return to their number: engines, hedges and libcurl leave none
  // behind; the HTTP server keeps at most its idle pool of connection threads.
  const ThreadCounts baseline = thread_counts(gw.process->pid());
  round();
  ThreadCounts after = thread_counts(gw.process->pid());
  for (int i = 0; i < 100 && after.other > baseline.other; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a transient resolver thread ending
    after = thread_counts(gw.process->pid());
  }
  EXPECT_LE(after.other, baseline.other);
  EXPECT_LE(after.connection, kIdleConnectionThreads + 1);
  // In the sanitizer build (detect_leaks=1) a leak makes this fail.
  EXPECT_EQ(gw.process->terminate(), 0) << "tiergate did not shut down cleanly";
}

}  // namespace
}  // namespace tiergate::testing
