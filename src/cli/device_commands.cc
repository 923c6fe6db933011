// `tiergate device profile` and `tiergate device choose`: what this device
// offers a model, and which variant of a manifest it should run
// (fleet/device_profile.h, fleet/variant_choice.h; docs/fleet.md).
#include <iostream>
#include <memory>
#include <tuple>
#include <vector>

#include "commands.h"
#include "tiergate/core/file_output.h"
#include "tiergate/fleet/byte_size.h"
#include "tiergate/fleet/device_profile.h"
#include "tiergate/fleet/manifest.h"
#include "tiergate/fleet/variant_choice.h"

namespace tiergate::cli {
namespace {

// Exit code of `device choose` when no variant fits (documented in --help
// and docs/fleet.md): distinct from 1 (an error) so scripts can tell them apart.
constexpr int kNoVariantFits = 3;

// Options shared by both commands for measuring this device now.
struct MeasureArgs {
  std::string disk_path;
  bool no_bench = false;
  std::string vocab_from;
  std::string os_root = "/";
};

// Returns the options, so that --profile can exclude them.
std::vector<CLI::Option*> add_measure_options(CLI::App* c, MeasureArgs& args, const std::string& disk_default) {
  std::vector<CLI::Option*> options;
  options.push_back(c->add_option("--disk-path", args.disk_path,
                std::string("directory whose free space is reported (default: ").append(disk_default).append(")")));
  options.push_back(
      c->add_flag("--no-bench", args.no_bench, "skip the micro-benchmark (a synthetic model run, about a second)"));
  options.push_back(c->add_option("--vocab-from", args.vocab_from,
                "vocab-only GGUF for the micro-benchmark's synthetic model (default: llama.cpp's "
                "models/ggml-vocab-llama-spm.gguf in the source tree this build used)")
      ->check(CLI::ExistingFile));
  options.push_back(c->add_option("--os-root", args.os_root,
                "read /proc and /sys under this directory instead of / (tests, or a device's tree mounted elsewhere)")
      ->capture_default_str()
      ->check(CLI::ExistingDirectory));
  return options;
}

DeviceProfile measure(const MeasureArgs& args, const std::string& disk_default) {
  MeasureOptions options;
  options.root = args.os_root;
  options.disk_path = args.disk_path.empty() ? disk_default : args.disk_path;
  options.run_benchmark = !args.no_bench;
  if (!args.vocab_from.empty()) options.benchmark.vocab_path = args.vocab_from;
  return measure_device_profile(options);
}

struct ProfileArgs {
  MeasureArgs measure;
  bool json = false;
  std::string out;
};

int run_profile(const ProfileArgs& args) {
  const std::string command = "device profile";
  const DeviceProfile profile = measure(args.measure, ".");
  const std::string json = profile_to_json(profile);
  if (!args.out.empty()) {
    if (Status written = write_file_atomically(args.out, json + "\n"); !written.is_ok()) {
      return fail(command, written.message());
    }
  }
  std::cout << (args.json ? json + "\n" : format_profile(profile));
  return 0;
}

struct ChooseArgs {
  std::string manifest;
  std::string profile;
  MeasureArgs measure;
  std::string memory_budget;
  std::string memory_reserve;
  std::string disk_budget;
  double min_decode_tps = -1;
  bool json = false;
};

// Parses a SIZE option; the error names it.
Status parse_size_option(const std::string& option, const std::string& text, std::optional<uint64_t>& out) {
  if (text.empty()) return Status::ok();
  StatusOr<uint64_t> bytes = parse_byte_size(text);
  if (!bytes.is_ok()) return invalid_argument(std::string(option).append(": ").append(bytes.status().message()));
  out = *bytes;
  return Status::ok();
}

int run_choose(const ChooseArgs& args) {
  const std::string command = "device choose";
  ChoiceConstraints constraints;
  std::optional<uint64_t> reserve;
  for (auto [option, text, out] : {std::tuple{"--memory-budget", &args.memory_budget, &constraints.memory_budget_bytes},
                                   std::tuple{"--memory-reserve", &args.memory_reserve, &reserve},
                                   std::tuple{"--disk-budget", &args.disk_budget, &constraints.disk_budget_bytes}}) {
    if (Status s = parse_size_option(option, *text, *out); !s.is_ok()) return fail(command, s.message());
  }
  if (reserve) constraints.memory_reserve_bytes = *reserve;
  if (args.min_decode_tps >= 0) constraints.min_decode_tps = args.min_decode_tps;

  StatusOr<Manifest> manifest = read_manifest(args.manifest);
  if (!manifest.is_ok()) return fail(command, manifest.status().message());
  DeviceProfile profile;
  if (!args.profile.empty()) {
    StatusOr<DeviceProfile> loaded = read_profile_file(args.profile);
    if (!loaded.is_ok()) return fail(command, loaded.status().message());
    profile = std::move(*loaded);
  } else {
    // Measured now; free disk where the manifest's files live by default,
    // since that is where a chosen variant is stored.
    std::string manifest_dir = manifest_file_path(args.manifest, ".");
    profile = measure(args.measure, manifest_dir);
  }
  const VariantChoice choice = choose_variant(*manifest, profile, constraints);
  std::cout << (args.json ? choice_to_json(*manifest, choice) + "\n" : format_choice(*manifest, choice));
  return choice.chosen ? 0 : kNoVariantFits;
}

}  // namespace

void add_device_commands(CLI::App& app, Runs& runs) {
  CLI::App* device = app.add_subcommand("device", "This device's profile and the model variant it should run.");
  device->require_subcommand(1);

  auto profile_args = std::make_shared<ProfileArgs>();
  CLI::App* p = device->add_subcommand(
      "profile",
      "Report memory (total, available), free disk, CPU model and features, the ggml backends this build can use, "
      "battery and thermal state where the OS exposes them, and a micro-benchmark (tokens/s of a small synthetic "
      "model). Prints a table; --json prints the profile JSON that `device choose --profile` reads.");
  add_measure_options(p, profile_args->measure, "the current directory");
  p->add_flag("--json", profile_args->json, "print JSON instead of the table");
  p->add_option("-o,--out", profile_args->out, "also write the profile JSON to this file");
  runs[p] = [profile_args] { return run_profile(*profile_args); };

  auto choose_args = std::make_shared<ChooseArgs>();
  CLI::App* c = device->add_subcommand(
      "choose",
      "Choose the variant of a manifest this device should run: the best fidelity (lowest kl_mean, then top-1 "
      "agreement) among the variants that fit the memory and disk budgets, this CPU's features and backends, and "
      "the decode-speed target; explain every verdict. Exit code 0 when a variant was chosen, 3 when none fits, "
      "1 on an error. SIZE: bytes, or a number with K/M/G/T (KiB.., powers of 1024) or KB/MB/GB/TB (powers of "
      "1000), e.g. 512M, 2G, 1.5GiB.");
  c->add_option("--manifest", choose_args->manifest, "variant manifest (JSON, written by `variants build`)")
      ->required();
  CLI::Option* profile_option =
      c->add_option("--profile", choose_args->profile,
                    "device profile JSON (`device profile --json`); default: measure this device now");
  for (CLI::Option* measure_option : add_measure_options(c, choose_args->measure, "the manifest's directory")) {
    profile_option->excludes(measure_option);
  }
  c->add_option("--memory-budget", choose_args->memory_budget,
                "SIZE of memory a variant may use (default: MemAvailable minus the reserve)");
  c->add_option("--memory-reserve", choose_args->memory_reserve,
                "SIZE kept free when the budget comes from MemAvailable (default 256M)");
  c->add_option("--disk-budget", choose_args->disk_budget, "SIZE of disk a variant may take (default: free disk)");
  c->add_option("--min-decode-tps", choose_args->min_decode_tps,
                "decode tokens/s a variant must reach on this device (estimated; default: no target)")
      ->check(CLI::NonNegativeNumber);
  c->add_flag("--json", choose_args->json, "print the choice as JSON");
  runs[c] = [choose_args] { return run_choose(*choose_args); };
}

}  // namespace tiergate::cli
