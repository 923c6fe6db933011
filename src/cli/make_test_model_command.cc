#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>

#include "commands.h"
#include "tiergate/engines/local/test_model.h"

namespace tiergate::cli {

namespace {

int make_test_model(const TestModelParams& params, const std::string& type) {
  TestModelParams p = params;
  p.weight_type = type == "f32" ? TestModelParams::WeightType::kF32 : TestModelParams::WeightType::kF16;
  auto start = std::chrono::steady_clock::now();
  Status s = write_test_model(p);
  if (!s.is_ok()) {
    std::cerr << "tiergate make-test-model: " << s.message() << "\n";
    return 1;
  }
  std::error_code ec;
  auto size = std::filesystem::file_size(p.out_path, ec);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "wrote " << p.out_path << " (" << (ec ? 0 : size) / (1024.0 * 1024.0) << " MiB, " << p.layers
            << " layers, embd " << p.embd << ", " << type << ", seed " << p.seed << ") in " << secs << " s\n";
  return 0;
}

}  // namespace

Run add_make_test_model_command(CLI::App& app) {
  auto params = std::make_shared<TestModelParams>(test_model_default_params());
  auto type = std::make_shared<std::string>("f16");
  CLI::App* sub = app.add_subcommand(
      "make-test-model",
      "Write a llama-architecture GGUF with deterministic random weights and a real tokenizer, for tests and "
      "benchmarks.");
  sub->add_option("-o,--out", params->out_path, "GGUF file to write")->required();
  sub->add_option("--vocab-from", params->vocab_path,
                  "GGUF to take the tokenizer from, e.g. llama.cpp's models/ggml-vocab-llama-spm.gguf")
      ->required()
      ->check(CLI::ExistingFile);
  sub->add_option("--layers", params->layers, "transformer blocks")->capture_default_str()->check(CLI::Range(1, kMaxTestModelLayers));
  sub->add_option("--embd", params->embd, "embedding size (divisible by --heads)")->capture_default_str()->check(CLI::Range(2, kMaxTestModelEmbd));
  sub->add_option("--heads", params->heads, "attention heads")->capture_default_str()->check(CLI::PositiveNumber);
  sub->add_option("--ff", params->ff, "feed-forward size; 0 = derived from --embd")->capture_default_str();
  sub->add_option("--context", params->context, "trained context length written to the GGUF")->capture_default_str();
  sub->add_option("--norm-spread", params->norm_spread,
                  "norm weights 1 + S*g^2 per channel (outlier channels, as trained models have); 0 = all ones")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 100.0));
  sub->add_option("--seed", params->seed, "weights are a pure function of the seed")->capture_default_str();
  sub->add_option("--type", *type, "weight type of the matrices")->capture_default_str()->check(CLI::IsMember({"f16", "f32"}));
  return [params, type] { return make_test_model(*params, *type); };
}

}  // namespace tiergate::cli
