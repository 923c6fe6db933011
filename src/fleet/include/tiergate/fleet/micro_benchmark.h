// A short measured benchmark of this device: prefill and decode tokens/s of
// a small synthetic model (engines/local/test_model.h) run by LocalEngine.
//
// Its figures are not the speed of any real model; they are a yardstick. The
// model's shape is fixed (the defaults below), so a figure from one machine
// compares with one from another: a variant measured at D tok/s decode on a
// machine whose benchmark decoded at B tok/s is estimated at D * b / B on a
// device whose benchmark decodes at b (variant_choice.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tiergate {

struct MicroBenchmarkParams {
  // A GGUF with tokenizer.* keys for the synthetic model. Default: llama.cpp's
  // models/ggml-vocab-llama-spm.gguf in the llama.cpp source tree this build
  // used ("" when built against an installed llama package).
  std::string vocab_path;
  // Where the temporary model directory is made; "" = the system temp dir.
  std::string work_dir;
  // The model's shape and the run. Changing them makes the figures
  // incomparable with those measured with the defaults.
  int layers = 2;
  int embd = 256;
  int heads = 4;
  int generated_tokens = 64;
  int threads = 0;  // 0 = std::thread::hardware_concurrency(), as the edge engine
};

// The defaults above with vocab_path set to the build's default vocab.
MicroBenchmarkParams micro_benchmark_default_params();

// kMeasured: the figures are set. kSkipped: a prerequisite is missing (no
// vocab file); nothing ran. kFailed: writing or running the model failed.
enum class BenchmarkOutcome { kMeasured, kSkipped, kFailed };

std::string_view benchmark_outcome_name(BenchmarkOutcome outcome);  // "measured", "skipped", "failed"
bool parse_benchmark_outcome(std::string_view name, BenchmarkOutcome& out);

struct MicroBenchmark {
  BenchmarkOutcome outcome = BenchmarkOutcome::kSkipped;
  std::string reason;  // why it was skipped or failed; "" when measured

  // From one greedy run of a fixed ~85-token prompt generating
  // `generated_tokens`: prompt tokens / seconds until the first text arrived
  // (prefill plus the first token), and (generated - 1) / seconds from then
  // to the end. Two runs after a warm-up; each figure is the better one.
  std::optional<double> prefill_tps;
  std::optional<double> decode_tps;
  int64_t prompt_tokens = 0;
  int64_t generated_tokens = 0;  // may be fewer than asked when the model stops

  // The model's shape, so a reader can tell figures of another shape apart.
  int layers = 0;
  int embd = 0;
  int heads = 0;
  int ff = 0;
  std::string weight_type;  // "f16"
  int threads = 0;          // compute threads used
};

// Writes the synthetic model to a fresh temp dir under params.work_dir, runs
// it (context 512, one sequence, greedy), and removes the dir in every case.
// Never fails as a call; failures are in the outcome and reason.
MicroBenchmark run_micro_benchmark(const MicroBenchmarkParams& params);

}  // namespace tiergate
