#include "tiergate/fleet/micro_benchmark.h"

#include <algorithm>
#include <optional>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <thread>
#include <vector>

#include "tiergate/engines/local/local_engine.h"
#include "tiergate/engines/local/test_model.h"

#ifndef TIERGATE_DEFAULT_VOCAB
#define TIERGATE_DEFAULT_VOCAB ""
#endif

namespace tiergate {
namespace {

namespace fs = std::filesystem;

// A fixed English prompt of about a hundred tokens: long enough that prefill
// dominates the one-token run, short enough to take milliseconds.
constexpr const char* kPrompt =
    "The weather station on the hill records the temperature, the wind and the rain every ten minutes. "
    "Each morning the keeper copies the figures into a ledger, checks the instruments for frost or dust, "
    "and sends a short report to the town below, where farmers read it before they decide what to plant, "
    "when to harvest, and whether the road over the pass will be open for the market on Saturday.";

// A temp directory removed with its contents when it goes out of scope.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& parent) {
    std::error_code ec;
    fs::path base = parent.empty() ? fs::temp_directory_path(ec) : fs::path(parent);
    if (ec) return;
    std::string pattern = (base / "tiergate-bench-XXXXXX").string();
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data()) != nullptr) path_ = buf.data();
  }
  ~ScratchDir() {
    if (path_.empty()) return;
    std::error_code ec;
    fs::remove_all(path_, ec);  // best effort; nothing to report to at exit
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Records when the first piece of text arrived: the end of prefill plus the
// first token's sampling.
class TimingSink : public TokenSink {
 public:
  bool on_delta(const Delta& /*delta*/) override {
    if (!first_delta) first_delta = std::chrono::steady_clock::now();
    return true;
  }
  bool cancelled() override { return false; }
  std::optional<std::chrono::steady_clock::time_point> first_delta;
};

// One run's figures; nullopt where the run gives none.
struct RunFigures {
  std::optional<double> prefill_tps;
  std::optional<double> decode_tps;
  Usage usage;
};

StatusOr<RunFigures> timed_generate(LocalEngine& engine, int max_tokens) {
  ChatRequest request;
  request.model = "edge";
  request.messages.push_back({Role::kUser, kPrompt});
  request.sampling.temperature = 0;
  request.sampling.max_tokens = max_tokens;
  TimingSink sink;
  const auto start = std::chrono::steady_clock::now();
  StatusOr<Completion> done = engine.generate(request, engine.model_id(), sink);
  const auto end = std::chrono::steady_clock::now();
  if (!done.is_ok()) return done.status();
  RunFigures figures;
  figures.usage = done->usage;
  if (!sink.first_delta) return figures;
  // Text may be held back (an incomplete UTF-8 character), so the first delta
  // can come a token or two late; the tokens after it are then slightly
  // fewer than counted, a small bias against the device, never for it.
  const double prefill_seconds = std::chrono::duration<double>(*sink.first_delta - start).count();
  const double decode_seconds = std::chrono::duration<double>(end - *sink.first_delta).count();
  if (prefill_seconds > 0) figures.prefill_tps = static_cast<double>(done->usage.prompt_tokens) / prefill_seconds;
  if (decode_seconds > 0 && done->usage.completion_tokens > 1) {
    figures.decode_tps = static_cast<double>(done->usage.completion_tokens - 1) / decode_seconds;
  }
  return figures;
}

std::optional<double> faster(std::optional<double> a, std::optional<double> b) {
  if (!a) return b;
  if (!b) return a;
  return std::max(*a, *b);
}

MicroBenchmark failed(MicroBenchmark result, std::string reason) {
  result.outcome = BenchmarkOutcome::kFailed;
  result.reason = std::move(reason);
  return result;
}

}  // namespace

MicroBenchmarkParams micro_benchmark_default_params() {
  MicroBenchmarkParams params;
  params.vocab_path = TIERGATE_DEFAULT_VOCAB;
  return params;
}

std::string_view benchmark_outcome_name(BenchmarkOutcome outcome) {
  switch (outcome) {
    case BenchmarkOutcome::kMeasured: return "measured";
    case BenchmarkOutcome::kSkipped: return "skipped";
    case BenchmarkOutcome::kFailed: return "failed";
  }
  return "failed";
}

bool parse_benchmark_outcome(std::string_view name, BenchmarkOutcome& out) {
  for (BenchmarkOutcome o : {BenchmarkOutcome::kMeasured, BenchmarkOutcome::kSkipped, BenchmarkOutcome::kFailed}) {
    if (benchmark_outcome_name(o) == name) {
      out = o;
      return true;
    }
  }
  return false;
}

MicroBenchmark run_micro_benchmark(const MicroBenchmarkParams& params) {
  MicroBenchmark result;
  result.layers = params.layers;
  result.embd = params.embd;
  result.heads = params.heads;
  result.ff = default_test_model_ff(params.embd);
  result.weight_type = "f16";
  result.threads = params.threads > 0 ? params.threads
                                      : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  if (params.vocab_path.empty()) {
    result.reason = "no vocab GGUF for the synthetic model (this build knows no default; pass --vocab-from)";
    return result;
  }
  std::error_code ec;
  if (!fs::is_regular_file(params.vocab_path, ec)) {
    result.reason =
        std::string("the vocab GGUF ").append(params.vocab_path).append(" does not exist (pass --vocab-from)");
    return result;
  }
  if (params.generated_tokens < 2) return failed(result, "generated_tokens must be at least 2");

  ScratchDir dir(params.work_dir);
  if (dir.path().empty()) {
    return failed(result, std::string("cannot create a temporary directory under ")
                              .append(params.work_dir.empty() ? "the system temp dir" : params.work_dir));
  }
  TestModelParams model = test_model_default_params();
  model.out_path = dir.path() + "/bench.gguf";
  model.vocab_path = params.vocab_path;
  model.layers = params.layers;
  model.embd = params.embd;
  model.heads = params.heads;
  model.context = 512;
  if (Status written = write_test_model(model); !written.is_ok()) {
    return failed(result, "writing the synthetic model: " + written.message());
  }

  LocalEngineParams engine_params = local_engine_default_params();
  engine_params.model_path = model.out_path;
  engine_params.context = 512;
  engine_params.parallel = 1;
  engine_params.queue = 1;
  engine_params.threads = result.threads;
  LocalEngine engine(engine_params);
  engine.start();
  if (Status loaded = engine.wait_until_loaded(); !loaded.is_ok()) {
    return failed(result, "loading the synthetic model: " + loaded.message());
  }
  // Warm-up: pages the mapped weights in and starts the compute threads.
  if (StatusOr<RunFigures> warm = timed_generate(engine, 4); !warm.is_ok()) {
    return failed(result, "running the synthetic model: " + warm.status().message());
  }
  // Two timed runs; each figure is the better of the two, so one hiccup of a
  // busy machine does not set it.
  for (int run = 0; run < 2; ++run) {
    StatusOr<RunFigures> figures = timed_generate(engine, params.generated_tokens);
    if (!figures.is_ok()) return failed(result, "running the synthetic model: " + figures.status().message());
    result.prompt_tokens = figures->usage.prompt_tokens;
    result.generated_tokens = figures->usage.completion_tokens;
    result.prefill_tps = faster(result.prefill_tps, figures->prefill_tps);
    result.decode_tps = faster(result.decode_tps, figures->decode_tps);
  }
  if (!result.prefill_tps || !result.decode_tps) {
    result.prefill_tps.reset();
    result.decode_tps.reset();
    return failed(result, std::string("the synthetic model produced ")
                              .append(std::to_string(result.generated_tokens))
                              .append(" token(s) of text; no speed to measure"));
  }
  result.outcome = BenchmarkOutcome::kMeasured;
  return result;
}

}  // namespace tiergate
