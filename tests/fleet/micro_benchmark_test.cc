// The micro-benchmark on this machine: real positive figures from a real
// synthetic model run, never a timing threshold (machines differ and are noisy).
#include "tiergate/fleet/micro_benchmark.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_models.h"
#include "tiergate/fleet/device_profile.h"

namespace tiergate {
namespace {

constexpr const char* kVocab = TIERGATE_LLAMA_SOURCE_DIR "/models/ggml-vocab-llama-spm.gguf";

TEST(MicroBenchmarkTest, MeasuresPositiveFiguresAndCleansUp) {
  const std::string work = testing::make_temp_dir("tiergate-bench-test-");
  MicroBenchmarkParams params = micro_benchmark_default_params();
  params.vocab_path = kVocab;
  params.work_dir = work;
  params.threads = 2;
  const MicroBenchmark b = run_micro_benchmark(params);
  ASSERT_EQ(b.outcome, BenchmarkOutcome::kMeasured) << b.reason;
  EXPECT_TRUE(b.reason.empty());
  ASSERT_TRUE(b.prefill_tps.has_value());
  ASSERT_TRUE(b.decode_tps.has_value());
  EXPECT_GT(*b.prefill_tps, 0);
  EXPECT_GT(*b.decode_tps, 0);
  EXPECT_GT(b.prompt_tokens, 10);
  EXPECT_GE(b.generated_tokens, 2);
  EXPECT_LE(b.generated_tokens, 64);
  EXPECT_EQ(b.layers, 2);
  EXPECT_EQ(b.embd, 256);
  EXPECT_EQ(b.ff, 768);
  EXPECT_EQ(b.weight_type, "f16");
  EXPECT_EQ(b.threads, 2);
  EXPECT_TRUE(std::filesystem::is_empty(work)) << "the temporary model directory was left behind";
}

TEST(MicroBenchmarkTest, TheBuildKnowsADefaultVocab) {
  EXPECT_FALSE(micro_benchmark_default_params().vocab_path.empty());
}

TEST(MicroBenchmarkTest, MissingVocabIsSkippedWithTheReason) {
  MicroBenchmarkParams params = micro_benchmark_default_params();
  params.vocab_path = "/no/such/vocab.gguf";
  const MicroBenchmark b = run_micro_benchmark(params);
  EXPECT_EQ(b.outcome, BenchmarkOutcome::kSkipped);
  EXPECT_NE(b.reason.find("/no/such/vocab.gguf does not exist"), std::string::npos) << b.reason;
  EXPECT_FALSE(b.decode_tps.has_value());
}

TEST(MicroBenchmarkTest, ANonGgufVocabFailsWithTheReason) {
  const std::string work = testing::make_temp_dir("tiergate-bench-test-");
  const std::string not_gguf = work + "/vocab.txt";
  { std::ofstream(not_gguf) << "hello"; }
  MicroBenchmarkParams params = micro_benchmark_default_params();
  params.vocab_path = not_gguf;
  params.work_dir = work;
  const MicroBenchmark b = run_micro_benchmark(params);
  EXPECT_EQ(b.outcome, BenchmarkOutcome::kFailed);
  EXPECT_NE(b.reason.find("writing the synthetic model"), std::string::npos) << b.reason;
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(work), std::filesystem::directory_iterator()), 1)
      << "only the vocab file may remain";
}

TEST(MicroBenchmarkTest, MeasuredProfileCarriesTheBenchmark) {
  MeasureOptions options;
  options.disk_path = testing::make_temp_dir("tiergate-bench-test-");
  options.benchmark.vocab_path = kVocab;
  options.benchmark.threads = 2;
  const DeviceProfile p = measure_device_profile(options);
  ASSERT_TRUE(p.bench_decode_tps().has_value()) << (p.benchmark ? p.benchmark->reason : "no benchmark");
  EXPECT_GT(*p.bench_decode_tps(), 0);
  EXPECT_FALSE(p.ggml_backends.empty());
}

}  // namespace
}  // namespace tiergate
