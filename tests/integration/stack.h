// Real processes for integration tests: `tiergate serve` and llama.cpp's
// `llama-server` as the cloud upstream, on loopback ports, stopped when the
// objects go away.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

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

}  // namespace tiergate::testing
