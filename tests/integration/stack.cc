#include "stack.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <map>
#include <stdexcept>
#include <thread>

#include "http_client.h"
#include "test_models.h"

namespace tiergate::testing {

RunningServer start_llama_server(const std::string& model, const std::string& model_name) {
  // Port 0: llama-server binds a free port itself and logs it, so parallel
  // tests cannot race for the same port (and then talk to each other's server).
  // --no-jinja: the synthetic models answer with random tokens, and with its
  // Jinja chat formats llama-server parses each answer for the template's
  // markup (tool calls, reasoning), and answers with an error on random
  // bytes such as a cut UTF-8 sequence: about one request in nine of
  // LearnedRoutingTest did. The legacy templates pass the answer through as
  // content, which is all these tests ask of an upstream. Even so, its
  // content parser rejects an answer that ends in a cut UTF-8 sequence (one
  // run of GatewaySpeculativeTest in CI), so --seed fixes the sampler's seed:
  // a request that is not batched with another gets the same answer in
  // every run, and a test of such requests that passes once passes always.
  RunningServer s;
  s.process = std::make_unique<Subprocess>(
      std::vector<std::string>{LLAMA_SERVER_BIN, "-m", model, "--host", "127.0.0.1", "--port", "0", "-a", model_name,
                               "-c", "4096", "-np", "2", "-t", "1", "--no-webui", "--no-warmup", "--no-jinja",
                               "--seed", "20261203"},
      std::map<std::string, std::string>{}, Subprocess::Capture::kStdoutAndStderr);
  const std::string marker = "listening on http://127.0.0.1:";
  auto line = s.process->wait_for_line(marker, std::chrono::seconds(60));
  if (!line) throw std::runtime_error("llama-server did not start listening within 60 s (see its log above)");
  s.port = static_cast<uint16_t>(std::stoi(line->substr(line->find(marker) + marker.size())));
  for (int i = 0; i < 600; ++i) {  // bounded: 60 s for the model to load
    if (!s.process->running()) throw std::runtime_error("llama-server exited during start");
    if (http_call(s.port, "GET", "/health").status == 200) return s;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  throw std::runtime_error("llama-server did not become healthy within 60 s");
}

RunningServer start_tiergate(const std::string& config_yaml, const std::map<std::string, std::string>& env) {
  std::string dir = make_temp_dir("tiergate-it-");
  std::string path = dir + "/tiergate.yaml";
  std::ofstream(path) << config_yaml;
  RunningServer s;
  s.process = std::make_unique<Subprocess>(std::vector<std::string>{TIERGATE_BIN, "serve", "--config", path}, env);
  auto line = s.process->wait_for_line("listening on http://", std::chrono::seconds(60));
  if (!line) throw std::runtime_error("tiergate serve did not start (see stderr above)");
  s.port = static_cast<uint16_t>(std::stoi(line->substr(line->rfind(':') + 1)));
  return s;
}

double metric_sum(const std::string& metrics, const std::string& family) {
  double sum = 0;
  const std::regex sample("^" + family + "\\{[^}]*\\} ([0-9.e+-]+)$");
  std::smatch m;
  std::istringstream lines(metrics);
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_match(line, m, sample)) sum += std::stod(m[1]);
  }
  return sum;
}

ThreadCounts thread_counts(pid_t pid) {
  ThreadCounts counts;
  for (const auto& task : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task")) {
    std::ifstream comm(task.path() / "comm");
    std::string name;
    std::getline(comm, name);
    (name == "tg-http" ? counts.connection : counts.other) += 1;
  }
  return counts;
}

}  // namespace tiergate::testing
