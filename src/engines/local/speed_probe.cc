#include "tiergate/engines/local/speed_probe.h"

#include <algorithm>
#include <chrono>

#include "eval_model.h"
#include "tiergate/engines/local/vocab_text.h"

namespace tiergate {

namespace {

constexpr int kMaxTokens = 4096;

// Ordinary English, so the prompt tokenizes like real traffic does.
constexpr const char* kProbeText =
    "The committee met on Tuesday to review the quarterly figures. Revenue grew in every region except the "
    "north, where two large customers delayed their orders until the spring. The team agreed to revisit the "
    "forecast next month and to publish a short summary for the rest of the company. ";

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

StatusOr<SpeedReport> measure_speed(const std::string& model_path, const SpeedParams& params) {
  if (params.prompt_tokens < 1 || params.prompt_tokens > kMaxTokens || params.decode_tokens < 1 ||
      params.decode_tokens > kMaxTokens || params.repetitions < 1 || params.repetitions > 100) {
    return invalid_argument("prompt and decode token counts must be in 1.." + std::to_string(kMaxTokens) +
                            " and repetitions in 1..100");
  }
  EvalModelParams mp;
  mp.context = params.prompt_tokens + params.decode_tokens + 1;
  mp.threads = params.threads;
  const auto load_start = std::chrono::steady_clock::now();
  auto model = EvalModel::open(model_path, "model", mp);
  if (!model.is_ok()) return model.status();
  SpeedReport report;
  report.load_seconds = seconds_since(load_start);

  const std::vector<llama_token> text = tokenize((*model)->vocab(), kProbeText, /*parse_special=*/false);
  if (text.size() < 2) return internal_error("the probe text does not tokenize with this model's vocabulary");
  std::vector<llama_token> prompt(text.begin(), text.begin() + 1);  // BOS when the model adds one
  while (static_cast<int>(prompt.size()) < params.prompt_tokens) {
    prompt.insert(prompt.end(), text.begin() + 1, text.end());
  }
  prompt.resize(static_cast<size_t>(params.prompt_tokens));

  // Warm-up: pages in the weights and sizes ggml's buffers.
  if (Status s = (*model)->decode_fresh(prompt, false); !s.is_ok()) return s;

  const int n_vocab = (*model)->n_vocab();
  double prefill_s = 0;
  double decode_s = 0;
  for (int round = 0; round < params.repetitions; ++round) {
    const auto prefill_start = std::chrono::steady_clock::now();
    if (Status s = (*model)->decode_fresh(prompt, false); !s.is_ok()) return s;
    const double this_prefill = seconds_since(prefill_start);
    const auto decode_start = std::chrono::steady_clock::now();
    for (int i = 0; i < params.decode_tokens; ++i) {
      const float* logits = (*model)->last_logits();
      const auto next = static_cast<llama_token>(std::max_element(logits, logits + n_vocab) - logits);
      if (Status s = (*model)->decode_next(next); !s.is_ok()) return s;
    }
    const double this_decode = seconds_since(decode_start);
    prefill_s = round == 0 ? this_prefill : std::min(prefill_s, this_prefill);
    decode_s = round == 0 ? this_decode : std::min(decode_s, this_decode);
  }

  report.prompt_tokens = params.prompt_tokens;
  report.decode_tokens = params.decode_tokens;
  report.prefill_tps = prefill_s > 0 ? params.prompt_tokens / prefill_s : 0;
  report.decode_tps = decode_s > 0 ? params.decode_tokens / decode_s : 0;
  return report;
}

}  // namespace tiergate
