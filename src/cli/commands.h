// `tiergate` subcommands. Each registers its options on the CLI11 app and
// returns the function that runs it; main() only dispatches.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <map>
#include <string>

namespace tiergate::cli {

using Run = std::function<int()>;
// The leaf subcommands' runs; main() runs the one that was parsed.
using Runs = std::map<CLI::App*, Run>;

Run add_serve_command(CLI::App& app);
Run add_make_test_model_command(CLI::App& app);
Run add_route_command(CLI::App& app);
void add_router_commands(CLI::App& app, Runs& runs);
void add_privacy_commands(CLI::App& app, Runs& runs);
void add_verifier_commands(CLI::App& app, Runs& runs);
void add_device_commands(CLI::App& app, Runs& runs);
// `tiergate variants build|eval|measure` (variants_*.cc).
void add_variants_commands(CLI::App& app, Runs& runs);
void add_variants_build_command(CLI::App& variants, Runs& runs);
void add_variants_eval_commands(CLI::App& variants, Runs& runs);

// Prints "tiergate <command>: <message>" on stderr; returns the exit code 1.
int fail(const std::string& command, const std::string& message);

}  // namespace tiergate::cli
