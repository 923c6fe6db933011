// A child process for integration tests: started with argv and extra
// environment, its stdout captured line by line, killed (SIGTERM, then
// SIGKILL) when the object goes away so no test leaves a server behind.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <map>
#include <mutex>
#include <condition_variable>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace tiergate::testing {

class Subprocess {
 public:
  // Which of the child's streams wait_for_line() sees. stderr not captured
  // goes to the test's stderr; captured stderr lines are echoed there too, so
  // both stay visible in ctest --output-on-failure.
  enum class Capture { kStdout, kStdoutAndStderr };

  // `env` adds to the test's environment, replacing variables of the same name.
  Subprocess(std::vector<std::string> argv, std::map<std::string, std::string> env = {},
             Capture capture = Capture::kStdout);
  ~Subprocess();
  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;

  // Waits (bounded) for a stdout line containing needle; returns that line.
  std::optional<std::string> wait_for_line(const std::string& needle, std::chrono::seconds limit);
  // Sends SIGTERM and waits (bounded) for exit; returns the exit status or -1.
  int terminate(std::chrono::seconds limit = std::chrono::seconds(10));
  bool running();
  pid_t pid() const { return pid_; }

 private:
  void reader();

  pid_t pid_ = -1;
  int stdout_fd_ = -1;
  bool echo_ = false;  // echo captured lines to stderr
  std::thread reader_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> lines_;
  bool eof_ = false;
  std::optional<int> exit_status_;
};

// A port that was free a moment ago (bind to port 0, read it, close), for
// servers like llama-server that cannot report the port they chose.
uint16_t free_loopback_port();

}  // namespace tiergate::testing
