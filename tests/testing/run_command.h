// Runs a command-line program to its end (the `tiergate` subcommands that
// read and write files), its stdout and stderr captured through files in a
// scratch directory.
#pragma once

#include <string>
#include <vector>

namespace tiergate::testing {

struct CommandResult {
  int exit_code = -1;  // 128 + signal when killed; -1 when it could not run
  std::string out, err;
};

// argv[0] is the program's path; `scratch_dir` receives stdout.txt and stderr.txt.
CommandResult run_command(const std::vector<std::string>& argv, const std::string& scratch_dir);

// A scratch directory (removed at exit) and a program run in it: the shape
// of every test of a command that reads and writes files.
class CommandSandbox {
 public:
  CommandSandbox(std::string program, const std::string& dir_prefix);
  // Writes `text` to dir()/name and returns the path.
  std::string write(const std::string& name, const std::string& text) const;
  // The program with these arguments, to its end.
  CommandResult run(std::vector<std::string> args) const;
  const std::string& dir() const { return dir_; }

 private:
  std::string program_;
  std::string dir_;
};

}  // namespace tiergate::testing
