#include "subprocess.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace tiergate::testing {

Subprocess::Subprocess(std::vector<std::string> argv, std::map<std::string, std::string> env, Capture capture)
    : echo_(capture == Capture::kStdoutAndStderr) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  std::vector<std::string> envs;
  // The test's environment, with `env` overriding variables of the same name.
  for (char** e = environ; *e; ++e) {
    const std::string entry(*e);
    if (!env.contains(entry.substr(0, entry.find('=')))) envs.push_back(entry);
  }
  for (const auto& [k, v] : env) envs.push_back(k + "=" + v);
  std::vector<char*> cargv, cenv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  for (auto& e : envs) cenv.push_back(e.data());
  cenv.push_back(nullptr);

  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    dup2(fds[1], STDOUT_FILENO);
    if (capture == Capture::kStdoutAndStderr) dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    close(fds[1]);
    // Die with the test process, so a crashed test leaves no server behind.
    setpgid(0, 0);
    execve(cargv[0], cargv.data(), cenv.data());
    std::fprintf(stderr, "execve %s: %s\n", cargv[0], std::strerror(errno));
    _exit(127);
  }
  close(fds[1]);
  stdout_fd_ = fds[0];
  reader_ = std::thread([this] { reader(); });
}

Subprocess::~Subprocess() {
  terminate();
  if (reader_.joinable()) reader_.join();
  if (stdout_fd_ >= 0) close(stdout_fd_);
}

void Subprocess::reader() {
  std::string partial;
  char buf[4096];
  while (true) {
    ssize_t n = read(stdout_fd_, buf, sizeof buf);
    if (n <= 0) break;
    partial.append(buf, static_cast<size_t>(n));
    size_t nl;
    while ((nl = partial.find('\n')) != std::string::npos) {
      if (echo_) std::fprintf(stderr, "%.*s\n", static_cast<int>(nl), partial.data());
      std::lock_guard lock(mu_);
      lines_.push_back(partial.substr(0, nl));
      partial.erase(0, nl + 1);
      cv_.notify_all();
    }
  }
  std::lock_guard lock(mu_);
  if (!partial.empty()) lines_.push_back(partial);
  eof_ = true;
  cv_.notify_all();
}

std::optional<std::string> Subprocess::wait_for_line(const std::string& needle, std::chrono::seconds limit) {
  std::unique_lock lock(mu_);
  size_t seen = 0;
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (true) {
    for (; seen < lines_.size(); ++seen) {
      if (lines_[seen].find(needle) != std::string::npos) return lines_[seen];
    }
    if (eof_) return std::nullopt;
    if (cv_.wait_until(lock, deadline) == std::cv_status::timeout && seen == lines_.size()) return std::nullopt;
  }
}

bool Subprocess::running() {
  if (exit_status_) return false;
  int status = 0;
  pid_t r = waitpid(pid_, &status, WNOHANG);
  if (r == pid_) {
    exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return false;
  }
  return r == 0;
}

int Subprocess::terminate(std::chrono::seconds limit) {
  if (pid_ <= 0) return -1;
  if (!running()) return *exit_status_;
  kill(pid_, SIGTERM);
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (!running()) return *exit_status_;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  exit_status_ = -1;
  return -1;
}

uint16_t free_loopback_port() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

}  // namespace tiergate::testing
