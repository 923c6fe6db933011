// `tiergate variants eval` (fidelity and speed of every variant of a
// manifest, on the user's query log) and `tiergate variants measure` (speed
// and peak memory of one model, run by eval in a child process so that each
// variant's peak resident memory is its own).
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "tiergate/core/file_output.h"
#include "tiergate/engines/local/fidelity.h"
#include "tiergate/engines/local/speed_probe.h"
#include "tiergate/fleet/byte_size.h"
#include "tiergate/fleet/manifest.h"
#include "tiergate/fleet/micro_benchmark.h"
#include "variants_plot.h"
#include "variants_support.h"

namespace tiergate::cli {
namespace {

namespace fs = std::filesystem;

struct EvalArgs {
  std::string dir;
  std::string reference;
  std::string queries;
  bool json = false;
  bool speed = true;
  int context = 512;
  int64_t max_tokens = 1024;
  int threads = 0;
};

struct MeasureArgs {
  std::string model;
  SpeedParams speed;
  bool json = false;
};

struct Measured {
  SpeedReport speed;
  uint64_t peak_rss_bytes = 0;
};

// This process's peak resident memory: VmHWM of /proc/self/status, the
// high-water mark of this program's own address space. Not getrusage's
// ru_maxrss, which after fork and exec starts from the parent's peak (Linux
// keeps the larger of the two), so in `variants eval`'s child it would show
// eval's own memory.
uint64_t peak_rss_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;  // "VmHWM:   123456 kB"
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);  // no /proc: the best there is
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;
}

int run_measure(const MeasureArgs& args) {
  auto report = measure_speed(args.model, args.speed);
  if (!report.is_ok()) return fail("variants measure", report.status().message());
  const uint64_t rss = peak_rss_bytes();
  if (args.json) {
    const nlohmann::json j = {{"model", args.model},
                              {"load_seconds", report->load_seconds},
                              {"prefill_tps", report->prefill_tps},
                              {"decode_tps", report->decode_tps},
                              {"prompt_tokens", report->prompt_tokens},
                              {"decode_tokens", report->decode_tokens},
                              {"peak_rss_bytes", rss}};
    std::cout << j.dump() << "\n";
  } else {
    std::printf("%s: prefill %.1f tok/s (%d tokens), decode %.1f tok/s (%d tokens), load %.2f s, peak RSS %s\n",
                args.model.c_str(), report->prefill_tps, report->prompt_tokens, report->decode_tps,
                report->decode_tokens, report->load_seconds, format_bytes(rss).c_str());
  }
  return 0;
}

// Speed and peak memory of one model, in a child process of its own.
StatusOr<Measured> measure_in_child(const std::string& model, int threads) {
  auto out = run_self({"variants", "measure", "--model", model, "--threads", std::to_string(threads), "--json"});
  if (!out.is_ok()) return out.status();
  const auto j = nlohmann::json::parse(*out, nullptr, false);
  if (!j.is_object() || !j.contains("decode_tps") || !j.contains("peak_rss_bytes")) {
    return internal_error("`variants measure` printed no result for " + model);
  }
  Measured m;
  m.speed.prefill_tps = j.value("prefill_tps", 0.0);
  m.speed.decode_tps = j.value("decode_tps", 0.0);
  m.speed.load_seconds = j.value("load_seconds", 0.0);
  m.peak_rss_bytes = j.value("peak_rss_bytes", uint64_t{0});
  return m;
}

nlohmann::json row_json(const std::string& id, const std::string& file, uint64_t size, bool importance,
                        const std::optional<FidelityReport>& f, const std::optional<Measured>& m) {
  nlohmann::json row = {{"id", id}, {"file", file}, {"size_bytes", size}, {"imatrix", importance}};
  if (f) {
    row["kl_mean"] = f->kl_mean;
    row["kl_p99"] = f->kl_p99;
    row["top1_agreement"] = f->top1_agreement;
    row["perplexity"] = f->perplexity;
    row["tokens"] = f->tokens;
  }
  if (m) {
    row["prefill_tps"] = m->speed.prefill_tps;
    row["decode_tps"] = m->speed.decode_tps;
    row["peak_rss_bytes"] = m->peak_rss_bytes;
  }
  return row;
}

void print_table(const nlohmann::json& report) {
  std::printf("%-44s %10s %10s %8s %9s %10s %10s %10s\n", "variant", "size", "KL mean", "top-1", "ppl",
              "prefill/s", "decode/s", "peak RSS");
  auto num = [](const nlohmann::json& row, const char* key, const char* fmt) {
    if (!row.contains(key)) return std::string("-");
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, row[key].get<double>());
    return std::string(buf);
  };
  for (const auto& row : report["variants"]) {
    std::printf("%-44s %10s %10s %8s %9s %10s %10s %10s\n", row["id"].get<std::string>().c_str(),
                format_bytes(row["size_bytes"].get<uint64_t>()).c_str(), num(row, "kl_mean", "%.5f").c_str(),
                num(row, "top1_agreement", "%.4f").c_str(), num(row, "perplexity", "%.2f").c_str(),
                num(row, "prefill_tps", "%.1f").c_str(), num(row, "decode_tps", "%.1f").c_str(),
                row.contains("peak_rss_bytes") ? format_bytes(row["peak_rss_bytes"].get<uint64_t>()).c_str() : "-");
  }
}

int run_eval(const EvalArgs& args) {
  const std::string command = "variants eval";
  const std::string manifest_path = (fs::path(args.dir) / "manifest.json").string();
  auto manifest = read_manifest(manifest_path);
  if (!manifest.is_ok()) return fail(command, manifest.status().message());
  auto conversations = load_query_log(args.queries);
  if (!conversations.is_ok()) return fail(command, "--queries: " + conversations.status().message());
  auto reference_sha = sha256_file(args.reference);
  if (!reference_sha.is_ok()) return fail(command, "--reference: " + reference_sha.status().message());
  if (*reference_sha != manifest->base.sha256) {
    return fail(command, "--reference " + args.reference + " is not the checkpoint these variants were built from "
                             "(its sha256 differs from the manifest's base " + manifest->base.id + ")");
  }
  for (const VariantEntry& v : manifest->variants) {
    if (Status s = verify_variant_file(manifest_path, v); !s.is_ok()) return fail(command, s.message());
  }

  FidelityParams fp;
  fp.context = args.context;
  fp.max_tokens = args.max_tokens;
  fp.threads = args.threads;
  std::unique_ptr<ReferenceDistribution> reference;
  {
    ProgressLine progress("reference", "chunks");
    fp.on_progress = [&](int done, int total) { progress.update(done, total); };
    auto measured = measure_reference(args.reference, *conversations, fp);
    if (!measured.is_ok()) return fail(command, measured.status().message());
    reference = std::move(*measured);
    progress.finish(std::to_string(reference->positions()) + " positions");
  }

  std::optional<double> bench_decode_tps;
  if (args.speed) {
    MicroBenchmarkParams bp = micro_benchmark_default_params();
    bp.threads = args.threads;
    const MicroBenchmark bench = run_micro_benchmark(bp);
    if (bench.outcome == BenchmarkOutcome::kMeasured && bench.decode_tps) {
      bench_decode_tps = bench.decode_tps;
    } else {
      std::cerr << "[micro-benchmark] " << benchmark_outcome_name(bench.outcome) << ": " << bench.reason
                << " (manifest speeds will not be scalable to other devices)\n";
    }
  }

  nlohmann::json rows = nlohmann::json::array();
  std::vector<PlotPoint> points;
  {
    std::optional<Measured> base_speed;
    if (args.speed) {
      auto m = measure_in_child(args.reference, args.threads);
      if (!m.is_ok()) return fail(command, m.status().message());
      base_speed = *m;
    }
    FidelityReport self;
    self.top1_agreement = 1;
    self.perplexity = reference->perplexity();
    self.reference_perplexity = reference->perplexity();
    self.tokens = reference->positions();
    rows.push_back(row_json(manifest->base.id + " (reference)", args.reference, manifest->base.size_bytes, false,
                            self, base_speed));
  }
  for (VariantEntry& v : manifest->variants) {
    const std::string path = manifest_file_path(manifest_path, v.file);
    ProgressLine progress(v.file, "chunks");
    fp.on_progress = [&](int done, int total) { progress.update(done, total); };
    auto f = measure_fidelity(path, *reference, fp);
    if (!f.is_ok()) return fail(command, f.status().message());
    std::optional<Measured> m;
    if (args.speed) {
      auto measured = measure_in_child(path, args.threads);
      if (!measured.is_ok()) return fail(command, measured.status().message());
      m = *measured;
    }
    char note[160];
    std::snprintf(note, sizeof note, "KL %.5f, top-1 %.4f%s", f->kl_mean, f->top1_agreement,
                  m ? (", decode " + std::to_string(static_cast<int>(m->speed.decode_tps)) + " tok/s").c_str() : "");
    progress.finish(note);
    v.fidelity = Fidelity{f->kl_mean, f->top1_agreement, f->perplexity, f->reference_perplexity, f->tokens};
    if (m) {
      v.speed = MeasuredSpeed{m->speed.prefill_tps, m->speed.decode_tps, bench_decode_tps};
      v.peak_rss_bytes = m->peak_rss_bytes;
      v.min_memory_bytes = m->peak_rss_bytes;
    }
    rows.push_back(row_json(v.id, v.file, v.size_bytes, v.recipe.imatrix, *f, m));
    points.push_back({v.id, double(v.size_bytes) / (1024.0 * 1024.0), f->kl_mean,
                      m ? std::optional<double>(m->speed.decode_tps) : std::nullopt, v.recipe.imatrix});
  }
  if (Status s = write_manifest(manifest_path, *manifest); !s.is_ok()) return fail(command, s.message());

  nlohmann::json report = {{"base", manifest->base.id},
                           {"queries", args.queries},
                           {"positions", reference->positions()},
                           {"reference_perplexity", reference->perplexity()},
                           {"variants", rows}};
  if (bench_decode_tps) report["bench_decode_tps"] = *bench_decode_tps;
  const std::string report_path = (fs::path(args.dir) / "eval.json").string();
  const std::string plot_path = (fs::path(args.dir) / "eval.svg").string();
  if (Status s = write_file_atomically(report_path, report.dump(2)); !s.is_ok()) return fail(command, s.message());
  const std::string title = "Variants of " + manifest->base.id + " on " + fs::path(args.queries).filename().string();
  if (Status s = write_file_atomically(plot_path, size_fidelity_svg(title, points)); !s.is_ok()) {
    return fail(command, s.message());
  }
  if (args.json) {
    std::cout << report.dump(2) << "\n";
  } else {
    print_table(report);
    std::cout << "report " << report_path << ", plot " << plot_path << ", manifest updated: " << manifest_path
              << "\n";
  }
  return 0;
}

}  // namespace

void add_variants_eval_commands(CLI::App& variants, Runs& runs) {
  auto args = std::make_shared<EvalArgs>();
  CLI::App* e = variants.add_subcommand(
      "eval",
      "Measure every variant in DIR/manifest.json against the reference checkpoint on a query log: KL divergence "
      "of next-token distributions, top-1 agreement, perplexity, prefill and decode tokens/s and peak resident "
      "memory on this machine. Writes DIR/eval.json, DIR/eval.svg and the figures into the manifest.");
  e->add_option("--dir", args->dir, "directory of `variants build`")->required()->check(CLI::ExistingDirectory);
  e->add_option("--reference", args->reference, "the checkpoint the variants were built from")->required();
  e->add_option("--queries", args->queries, "query log (JSONL of chat requests)")->required();
  e->add_flag("--json", args->json, "print the report as JSON instead of a table");
  e->add_flag("!--no-speed", args->speed, "skip the speed and memory measurements");
  e->add_option("--context", args->context, "tokens per chunk")->capture_default_str()->check(CLI::Range(16, 8192));
  e->add_option("--max-tokens", args->max_tokens,
                "query-log tokens compared (the reference keeps a distribution per token in memory)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{32}, int64_t{1} << 20));
  e->add_option("--threads", args->threads, "threads; 0 = all")->capture_default_str()->check(CLI::NonNegativeNumber);
  runs[e] = [args] { return run_eval(*args); };

  auto margs = std::make_shared<MeasureArgs>();
  CLI::App* m = variants.add_subcommand(
      "measure", "Measure one GGUF model's prefill and decode tokens/s and this process's peak resident memory.");
  m->add_option("--model", margs->model, "GGUF model")->required();
  m->add_option("--prompt-tokens", margs->speed.prompt_tokens, "prefill tokens")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  m->add_option("--decode-tokens", margs->speed.decode_tokens, "generated tokens")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  m->add_option("--repetitions", margs->speed.repetitions, "timed rounds; each figure is the best round")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  m->add_option("--threads", margs->speed.threads, "threads; 0 = all")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  m->add_flag("--json", margs->json, "print JSON");
  runs[m] = [margs] { return run_measure(*margs); };
}

}  // namespace tiergate::cli
