// `tiergate` subcommands. Each registers its options on the CLI11 app and
// returns the function that runs it; main() only dispatches.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace tiergate::cli {

using Run = std::function<int()>;

Run add_serve_command(CLI::App& app);
Run add_make_test_model_command(CLI::App& app);

}  // namespace tiergate::cli
