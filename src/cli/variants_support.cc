#include "variants_support.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "tiergate/signals/dataset.h"

namespace tiergate::cli {

StatusOr<std::vector<std::vector<ChatMessage>>> load_query_log(const std::string& path) {
  auto rows = load_prompt_rows(path);
  if (!rows.is_ok()) return rows.status();
  std::vector<std::vector<ChatMessage>> conversations;
  conversations.reserve(rows->size());
  for (auto& row : *rows) conversations.push_back(std::move(row.messages));
  if (conversations.empty()) return invalid_argument(path + ": the query log has no rows");
  return conversations;
}

ProgressLine::ProgressLine(std::string task, std::string unit)
    : task_(std::move(task)), unit_(std::move(unit)), start_(std::chrono::steady_clock::now()),
      terminal_(isatty(STDERR_FILENO) != 0) {}

double ProgressLine::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ProgressLine::update(int64_t done, int64_t total) {
  if (total <= 0) return;
  const int tenth = static_cast<int>(10 * done / total);
  if (!terminal_ && tenth == last_tenth_) return;
  last_tenth_ = tenth;
  const double elapsed = elapsed_seconds();
  const double eta = done > 0 ? elapsed * double(total - done) / double(done) : 0;
  char line[256];
  std::snprintf(line, sizeof line, "[%s] %lld/%lld %s  %.1f s  ETA %.1f s", task_.c_str(),
                static_cast<long long>(done), static_cast<long long>(total), unit_.c_str(), elapsed, eta);
  if (terminal_) {
    std::cerr << "\r\033[K" << line << std::flush;
    drawn_ = true;
  } else {
    std::cerr << line << "\n";
  }
}

void ProgressLine::finish(const std::string& note) {
  char line[256];
  std::snprintf(line, sizeof line, "[%s] %s in %.1f s", task_.c_str(), note.empty() ? "done" : note.c_str(),
                elapsed_seconds());
  if (terminal_ && drawn_) std::cerr << "\r\033[K";
  std::cerr << line << "\n";
}

std::string tier_file_stem(const std::string& tier) {
  std::string out;
  for (char c : tier) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-') {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (c == '+') {
      out += '-';
    } else {
      out += '_';
    }
  }
  return out;
}

StatusOr<std::string> run_self(const std::vector<std::string>& args) {
  int out_pipe[2];
  int err_pipe[2];
  if (pipe(out_pipe) != 0) return internal_error("pipe() failed");
  if (pipe(err_pipe) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return internal_error("pipe() failed");
  }
  std::vector<std::string> argv_storage = {"tiergate"};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return internal_error("fork() failed");
  if (pid == 0) {
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    close(out_pipe[0]);
    close(err_pipe[0]);
    execv("/proc/self/exe", argv.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  // The child's stderr is small (errors only); drain stdout first, then it.
  std::string out;
  std::string err;
  char buf[4096];
  for (ssize_t n; (n = read(out_pipe[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  for (ssize_t n; (n = read(err_pipe[0], buf, sizeof buf)) > 0;) err.append(buf, static_cast<size_t>(n));
  close(out_pipe[0]);
  close(err_pipe[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return out;
  if (err.size() > 600) err = err.substr(err.size() - 600);
  std::string how = WIFEXITED(status) ? "exited with " + std::to_string(WEXITSTATUS(status))
                                      : "was killed by signal " + std::to_string(WTERMSIG(status));
  return internal_error("`tiergate " + args.front() + " " + (args.size() > 1 ? args[1] : "") + "` " + how + ": " +
                        err);
}

}  // namespace tiergate::cli
