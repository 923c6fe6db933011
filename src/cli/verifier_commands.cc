// `tiergate verifier calibrate`: fits the speculative-execution verifier
// (dispatch/verifier.h) and its threshold from labelled verifier-log rows.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "tiergate/core/file_output.h"
#include "tiergate/dispatch/verifier.h"

namespace tiergate::cli {
namespace {

struct CalibrateArgs {
  std::string data;
  double target_quality = 0.9;
  std::string out;
};

int run_calibrate(const CalibrateArgs& args) {
  const std::string command = "verifier calibrate";
  StatusOr<std::vector<VerifierRow>> rows = load_verifier_rows(args.data);
  if (!rows.is_ok()) return fail(command, rows.status().message());
  StatusOr<Verifier> verifier = Verifier::calibrate(*rows, args.target_quality);
  if (!verifier.is_ok()) return fail(command, args.data + ": " + verifier.status().message());
  if (!args.out.empty()) {
    if (Status written = write_file_atomically(args.out, verifier->to_json()); !written.is_ok()) {
      return fail(command, written.message());
    }
  }
  nlohmann::json report = nlohmann::json::parse(verifier->to_json());
  if (!args.out.empty()) report["out"] = args.out;
  std::cout << report.dump(2) << "\n";
  const Verifier::Calibration& c = *verifier->calibration();
  if (c.accepted_share == 0) {
    std::cerr << "tiergate " << command << ": no threshold reaches quality " << args.target_quality
              << " on these rows; the verifier rejects every draft (all verified requests escalate)\n";
  }
  return 0;
}

}  // namespace

void add_verifier_commands(CLI::App& app, Runs& runs) {
  CLI::App* verifier = app.add_subcommand("verifier", "The verifier of speculative edge execution (speculative: in the config).");
  verifier->require_subcommand(1);
  auto args = std::make_shared<CalibrateArgs>();
  CLI::App* c = verifier->add_subcommand(
      "calibrate",
      "Fit the verifier's weights and threshold from labelled drafts: rows of the verifier log (speculative.log) "
      "with \"good\": true|false added. Prints the verifier as JSON; --out writes it for speculative.verifier.");
  c->add_option("--data", args->data, "labelled verifier-log JSONL")->required()->check(CLI::ExistingFile);
  c->add_option("--target-quality", args->target_quality,
                "share of accepted drafts that must be good, (0, 1]; the threshold keeps as many drafts as reach it")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  c->add_option("-o,--out", args->out, "verifier file to write (JSON)");
  runs[c] = [args] { return run_calibrate(*args); };
}

}  // namespace tiergate::cli
