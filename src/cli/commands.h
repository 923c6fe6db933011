// `tiergate` subcommands. Each registers its options on the CLI11 app and
// returns the function that runs it; main() only dispatches.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <map>

namespace tiergate::cli {

using Run = std::function<int()>;
// The leaf subcommands' runs; main() runs the one that was parsed.
using Runs = std::map<CLI::App*, Run>;

Run add_serve_command(CLI::App& app);
Run add_make_test_model_command(CLI::App& app);
Run add_route_command(CLI::App& app);
void add_router_commands(CLI::App& app, Runs& runs);
void add_privacy_commands(CLI::App& app, Runs& runs);

}  // namespace tiergate::cli
