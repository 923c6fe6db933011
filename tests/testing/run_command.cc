#include "run_command.h"

#include "test_models.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

namespace tiergate::testing {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

CommandResult run_command(const std::vector<std::string>& argv, const std::string& scratch_dir) {
  const std::string out_path = scratch_dir + "/stdout.txt", err_path = scratch_dir + "/stderr.txt";
  std::vector<std::string> args = argv;
  std::vector<char*> cargv;
  for (std::string& a : args) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0) _exit(126);
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    execv(cargv[0], cargv.data());
    _exit(127);
  }
  CommandResult result;
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_file(out_path);
  result.err = read_file(err_path);
  return result;
}

CommandSandbox::CommandSandbox(std::string program, const std::string& dir_prefix)
    : program_(std::move(program)), dir_(make_temp_dir(dir_prefix)) {}

std::string CommandSandbox::write(const std::string& name, const std::string& text) const {
  const std::string path = dir_ + "/" + name;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  return path;
}

CommandResult CommandSandbox::run(std::vector<std::string> args) const {
  args.insert(args.begin(), program_);
  return run_command(args, dir_);
}

}  // namespace tiergate::testing
