// Real processes for integration tests: `tiergate serve` and llama.cpp's
// `llama-server` as the cloud upstream, on loopback ports, stopped when the
// objects go away.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <sys/types.h>

#include "subprocess.h"

namespace tiergate::testing {

struct RunningServer {
  std::unique_ptr<Subprocess> process;
  uint16_t port = 0;
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port); }
};

// llama-server serving model under the alias model_name; waits until /health is 200.
RunningServer start_llama_server(const std::string& model, const std::string& model_name);
// tiergate serve with this config text (written to a temp file); waits for
// its "listening on" line. `listen` must use port 0.
RunningServer start_tiergate(const std::string& config_yaml, const std::map<std::string, std::string>& env = {});

// The threads of a running process, as the HTTP server's pooled connection
// threads (named "tg-http") and all others (engines, hedges, libcurl, ...).
// At most this many connection threads wait idle (http_server.h
// kMaxIdleConnectionThreads); one more may be serving.
inline constexpr int kIdleConnectionThreads = 16;
struct ThreadCounts {
  int connection = 0;
  int other = 0;
};
ThreadCounts thread_counts(pid_t pid);

// The sum of a Prometheus family's labelled samples in /metrics text
// (`family{...} value` lines).
double metric_sum(const std::string& metrics, const std::string& family);

}  // namespace tiergate::testing
