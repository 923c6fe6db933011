// Speed of the routing decision (issue 3): signals (features, intent,
// complexity) and the route decision with its trace, for a 2 KB single-turn
// request and a 32 KB multi-turn conversation. Google Benchmark; each
// iteration is timed on its own so the p50/p99 counters are per decision.
//
// The router artifact: $TIERGATE_ROUTER_ARTIFACT when set (bench/router_speed.sh
// trains one on the dev data), else a synthetic artifact of the same shape
// (feature space, intent classes, experts, topics) with random weights —
// the work per decision depends on the shape, not on the weights' values.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tiergate/signals/router_artifact.h"
#include "tiergate/signals/signals.h"

namespace {

using namespace tiergate;

std::vector<float> random_weights(size_t n, std::mt19937& rng) {
  std::normal_distribution<float> normal(0.0f, 0.05f);
  std::vector<float> w(n);
  for (float& x : w) x = normal(rng);
  return w;
}

GainModel random_gain_model(uint32_t dimension, std::mt19937& rng) {
  GainModel m;
  m.target = ComplexityTarget::kTierGap;
  m.intent_features = true;
  m.first = LogisticModel(random_weights(dimension + kIntentFeatures, rng));
  m.second = LogisticModel(random_weights(dimension + kIntentFeatures, rng));
  return m;
}

LabelMixture random_mixture(size_t labels, uint32_t buckets, std::mt19937& rng) {
  LabelMixture m;
  for (size_t l = 0; l < labels; ++l) m.labels.push_back("label" + std::to_string(l));
  m.values = random_weights(labels, rng);
  m.model = SoftmaxModel(static_cast<uint32_t>(labels), random_weights((kDenseFeatures + buckets) * labels, rng),
                         FeatureRange::kTaskUnigrams);
  return m;
}

// The shape `tiergate router train` produces on the dev data: 2^17 buckets,
// 3 benchmark experts, 61 topics over 2^15 buckets.
std::shared_ptr<const RouterArtifact> synthetic_artifact() {
  std::mt19937 rng(42);
  auto artifact = std::make_shared<RouterArtifact>();
  const uint32_t dimension = artifact->space.dimension();
  artifact->intent = IntentClassifier(
      SoftmaxModel(kIntentCount, random_weights(size_t{dimension} * kIntentCount, rng), FeatureRange::kTask));
  artifact->complexity = ComplexityEstimator(random_gain_model(dimension, rng));
  std::vector<GainModel> experts;
  for (int e = 0; e < 3; ++e) experts.push_back(random_gain_model(dimension, rng));
  artifact->complexity.set_experts(random_mixture(3, 1u << 15, rng), std::move(experts), 0.7f);
  artifact->complexity.set_topic_prior(random_mixture(61, 1u << 15, rng), 1.0f);
  return artifact;
}

std::shared_ptr<const RouterArtifact> load_artifact() {
  static std::shared_ptr<const RouterArtifact> artifact = [] {
    if (const char* path = std::getenv("TIERGATE_ROUTER_ARTIFACT"); path != nullptr && *path != '\0') {
      auto loaded = load_router_artifact(path);
      if (!loaded.is_ok()) {
        std::cerr << "router_decision_bench: " << loaded.status().message() << "\n";
        std::exit(1);
      }
      std::cerr << "router_decision_bench: artifact " << path << "\n";
      return std::shared_ptr<const RouterArtifact>(std::make_shared<RouterArtifact>(std::move(*loaded)));
    }
    std::cerr << "router_decision_bench: synthetic artifact (set TIERGATE_ROUTER_ARTIFACT for a trained one)\n";
    return synthetic_artifact();
  }();
  return artifact;
}

// Deterministic English-like text of `bytes` bytes: words, numbers, punctuation.
std::string text_of(size_t bytes, unsigned seed) {
  static const char* kWords[] = {"the", "patient", "should", "compute", "integral", "function", "returns", "value",
                                 "explain", "why", "contract", "clause", "between", "parties", "shall", "summarize",
                                 "following", "report", "quarterly", "revenue", "increased", "percent", "while",
                                 "costs", "algorithm", "complexity", "of", "and", "in", "to", "a", "is"};
  std::mt19937 rng(seed);
  std::uniform_int_distribution<size_t> word(0, std::size(kWords) - 1);
  std::uniform_int_distribution<int> kind(0, 19);
  std::string text;
  while (text.size() < bytes) {
    const int k = kind(rng);
    if (k == 0) {
      text += std::to_string(rng() % 10000);
    } else {
      text += kWords[word(rng)];
    }
    text += k == 1 ? ". " : (k == 2 ? ", " : " ");
  }
  text.resize(bytes);
  return text;
}

std::vector<ChatMessage> single_turn_2kb() { return {{Role::kUser, text_of(2048, 1)}}; }

std::vector<ChatMessage> conversation_32kb() {
  std::vector<ChatMessage> messages{{Role::kSystem, text_of(1024, 2)}};
  for (unsigned turn = 0; turn < 15; ++turn) {
    messages.push_back({turn % 2 == 0 ? Role::kUser : Role::kAssistant, text_of(2048, 3 + turn)});
  }
  messages.push_back({Role::kUser, text_of(32 * 1024 - 1024 - 15 * 2048, 99)});
  return messages;
}

// Times each iteration and reports p50/p99 in microseconds.
template <typename Decide>
void run_timed(benchmark::State& state, Decide decide) {
  std::vector<double> us;
  us.reserve(1 << 16);
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    decide();
    const auto end = std::chrono::steady_clock::now();
    us.push_back(std::chrono::duration<double, std::micro>(end - start).count());
  }
  std::sort(us.begin(), us.end());
  auto pct = [&](double p) { return us[std::min(us.size() - 1, static_cast<size_t>(p / 100.0 * static_cast<double>(us.size())))]; };
  state.counters["p50_us"] = pct(50);
  state.counters["p99_us"] = pct(99);
  state.counters["max_us"] = us.back();
}

void BM_Signals(benchmark::State& state, std::vector<ChatMessage> (*request)()) {
  const SignalExtractor extractor(load_artifact());
  const std::vector<ChatMessage> messages = request();
  run_timed(state, [&] {
    RequestSignals signals = extractor.assess(messages);
    benchmark::DoNotOptimize(signals);
  });
}

BENCHMARK_CAPTURE(BM_Signals, single_turn_2kb, single_turn_2kb)->MinTime(1.0);
BENCHMARK_CAPTURE(BM_Signals, conversation_32kb, conversation_32kb)->MinTime(1.0);

}  // namespace

BENCHMARK_MAIN();
