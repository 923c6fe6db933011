// tiergate: the hybrid edge-cloud LLM gateway. Wiring only; see commands.h.
#include <iostream>
#include <map>

#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{"Tiergate: an OpenAI-compatible gateway that answers each request on the cheapest tier that "
               "will answer it well: a local llama.cpp model (edge) or a cloud upstream."};
  app.set_version_flag("--version", std::string("tiergate 0.1.0"));
  app.require_subcommand(1);
  tiergate::cli::Runs runs;
  auto add = [&](tiergate::cli::Run run) { runs[app.get_subcommands({}).back()] = std::move(run); };
  add(tiergate::cli::add_serve_command(app));
  add(tiergate::cli::add_make_test_model_command(app));
  add(tiergate::cli::add_route_command(app));
  tiergate::cli::add_router_commands(app, runs);
  tiergate::cli::add_privacy_commands(app, runs);
  tiergate::cli::add_verifier_commands(app, runs);
  tiergate::cli::add_device_commands(app, runs);
  tiergate::cli::add_variants_commands(app, runs);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  for (auto& [sub, run] : runs) {
    if (sub->parsed() && sub->get_subcommands().empty()) return run();
  }
  return 2;
}
