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

}  // namespace tiergate::testing
