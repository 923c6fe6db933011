// Speed of the routing decision (issue 3): the whole decision — signals
// (features, intent, complexity), the scheduler with its trace, and the trace
// rendered as the JSON the gateway returns — for a 2 KB single-turn request
// and a 32 KB multi-turn conversation. Google Benchmark; each iteration is
// timed on its own so the p50/p99 counters are per decision. Iterations
// rotate over 64 different requests of the same size, so the model weights
// they touch are not all warm in cache. With $TIERGATE_BENCH_PROMPTS (a
// routing JSONL; bench/router_speed.sh passes the MMLU dev rows, read in
// place) the requests are made of real prompts, whose vocabulary touches as
// many distinct weights as real traffic does.
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

#include "tiergate/config/config.h"
#include "tiergate/engines/local/prompt_embedder.h"
#include "tiergate/router/route_trace_format.h"
#include "tiergate/router/scheduler.h"
#include "tiergate/signals/dataset.h"
#include "tiergate/signals/intent.h"
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

// The shape `tiergate router train` produces on the dev data: 2^16 buckets,
// 3 benchmark experts, a topic model of 61 topics.
std::shared_ptr<const RouterArtifact> synthetic_artifact() {
  std::mt19937 rng(42);
  auto artifact = std::make_shared<RouterArtifact>();
  const uint32_t dimension = artifact->space.dimension();
  artifact->intent = IntentClassifier(
      SoftmaxModel(kIntentCount, random_weights(size_t{kDenseFeatures + (1u << 15)} * kIntentCount, rng),
                   FeatureRange::kTaskUnigrams));
  artifact->complexity = ComplexityEstimator(random_gain_model(dimension, rng));
  std::vector<GainModel> experts;
  for (int e = 0; e < 3; ++e) experts.push_back(random_gain_model(dimension, rng));
  artifact->complexity.set_experts(random_mixture(3, 1u << 12, rng), std::move(experts), 0.7f);
  TopicModel topics;
  for (int t = 0; t < 61; ++t) {
    topics.labels.push_back("topic" + std::to_string(t));
    topics.values.push_back(0.0f);
  }
  topics.model = LogisticModel(random_weights(dimension + kIntentFeatures, rng));
  artifact->complexity.set_topic_model(std::move(topics), 1.0f);
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

// Real prompts to build requests from: the task turns of the routing rows in
// $TIERGATE_BENCH_PROMPTS (bench/router_speed.sh passes a dev file), so that
// requests touch as many distinct weights as real text does. Empty when unset.
const std::vector<std::string>& real_prompts() {
  static const std::vector<std::string> prompts = [] {
    std::vector<std::string> out;
    const char* path = std::getenv("TIERGATE_BENCH_PROMPTS");
    if (path == nullptr || *path == '\0') return out;
    auto rows = load_routing_rows(path);
    if (!rows.is_ok()) {
      std::cerr << "router_decision_bench: " << rows.status().message() << "\n";
      std::exit(1);
    }
    for (const RoutingRow& row : *rows) out.emplace_back(task_text(row.messages));
    std::cerr << "router_decision_bench: requests from " << out.size() << " prompts of " << path << "\n";
    return out;
  }();
  return prompts;
}

// Deterministic text of `bytes` bytes: consecutive real prompts from a place
// chosen by `seed` when there are any, else English-like words, numbers and
// punctuation from a small vocabulary.
std::string text_of(size_t bytes, unsigned seed) {
  std::mt19937 rng(seed);
  std::string text;
  if (const std::vector<std::string>& prompts = real_prompts(); !prompts.empty()) {
    for (size_t p = rng() % prompts.size(); text.size() < bytes; p = (p + 1) % prompts.size()) {
      text += prompts[p];
      text += "\n\n";
    }
    text.resize(bytes);
    return text;
  }
  static const char* kWords[] = {"the", "patient", "should", "compute", "integral", "function", "returns", "value",
                                 "explain", "why", "contract", "clause", "between", "parties", "shall", "summarize",
                                 "following", "report", "quarterly", "revenue", "increased", "percent", "while",
                                 "costs", "algorithm", "complexity", "of", "and", "in", "to", "a", "is"};
  std::uniform_int_distribution<size_t> word(0, std::size(kWords) - 1);
  std::uniform_int_distribution<int> kind(0, 19);
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

constexpr unsigned kVariants = 64;

std::vector<ChatMessage> single_turn_2kb(unsigned variant) { return {{Role::kUser, text_of(2048, 1 + 1000 * variant)}}; }

std::vector<ChatMessage> conversation_32kb(unsigned variant) {
  std::vector<ChatMessage> messages{{Role::kSystem, text_of(1024, 2 + 1000 * variant)}};
  for (unsigned turn = 0; turn < 15; ++turn) {
    messages.push_back({turn % 2 == 0 ? Role::kUser : Role::kAssistant, text_of(2048, 3 + turn + 1000 * variant)});
  }
  messages.push_back({Role::kUser, text_of(32 * 1024 - 1024 - 15 * 2048, 99 + 1000 * variant)});
  return messages;
}

// A gateway config with an edge tier, two priced upstreams, a rule and a budget.
ConfigPtr bench_config() {
  auto config = parse_config(R"(listen: 127.0.0.1:0
edge:
  model: edge.gguf
cloud:
  - name: openai
    base_url: https://api.openai.com/v1
    models: [gpt-4o-mini]
    price_per_mtok: {input: 0.15, output: 0.60}
  - name: backup
    base_url: http://127.0.0.1:9/v1
    models: [big-model]
    price_per_mtok: {input: 1.0, output: 3.0}
routing:
  quality: 0.5
  price_sensitivity: 0.02
  rules:
    - name: pin-fast
      priority: 10
      match: {model: fast}
      route: edge
  budgets:
    - api_key: "*"
      usd_per_day: 5.0
)",
                             "bench.yaml");
  if (!config.is_ok()) {
    std::cerr << "router_decision_bench: " << config.status().message() << "\n";
    std::exit(1);
  }
  return *config;
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

RouteInputs bench_inputs(const RouterArtifact& artifact);

// The whole decision: signals, then the scheduler with its trace.
void BM_Decision(benchmark::State& state, std::vector<ChatMessage> (*messages_of)(unsigned)) {
  const std::shared_ptr<const RouterArtifact> artifact = load_artifact();
  const SignalExtractor extractor(artifact);
  const ConfigPtr config = bench_config();
  std::vector<ChatRequest> requests(kVariants);
  for (unsigned v = 0; v < kVariants; ++v) {
    requests[v].model = "auto";
    requests[v].messages = messages_of(v);
  }
  RouteInputs inputs = bench_inputs(*artifact);
  unsigned next = 0;
  run_timed(state, [&] {
    const ChatRequest& request = requests[next++ % kVariants];
    const RequestSignals signals = extractor.assess(request.messages);
    inputs.signals = &signals;
    StatusOr<RoutePlan> plan = schedule_route(*config, request, inputs);
    benchmark::DoNotOptimize(plan);
  });
}

// The route trace rendered as the JSON object the gateway returns (server
// work after the decision), for the same requests.
void BM_TraceJson(benchmark::State& state, std::vector<ChatMessage> (*messages_of)(unsigned)) {
  const std::shared_ptr<const RouterArtifact> artifact = load_artifact();
  const SignalExtractor extractor(artifact);
  const ConfigPtr config = bench_config();
  RouteInputs inputs = bench_inputs(*artifact);
  std::vector<RoutePlan> plans;
  for (unsigned v = 0; v < kVariants; ++v) {
    ChatRequest request;
    request.model = "auto";
    request.messages = messages_of(v);
    const RequestSignals signals = extractor.assess(request.messages);
    inputs.signals = &signals;
    plans.push_back(*schedule_route(*config, request, inputs));
  }
  unsigned next = 0;
  run_timed(state, [&] {
    std::string trace = route_trace_json(plans[next++ % kVariants]);
    benchmark::DoNotOptimize(trace);
  });
}

RouteInputs bench_inputs(const RouterArtifact& artifact) {
  RouteInputs inputs;
  inputs.score_quantiles = artifact.score_quantiles;
  inputs.context.api_key_fingerprint = "0123456789abcdef";
  inputs.state.edge = {.configured = true, .ready = true, .model_id = "edge.gguf", .queue_depth = 1,
                       .queue_capacity = 64, .slots_busy = 2, .parallel = 4, .decode_tokens_per_s = 40.0};
  inputs.state.upstreams["openai"] = {.healthy = true, .ewma_latency_s = 0.8, .p95_latency_s = 1.5,
                                      .remaining_requests = 900, .remaining_tokens = 90000, .rate_limited_until = {}};
  inputs.state.budget = {.spent_today_usd = 1.0, .limit_usd = 5.0};
  return inputs;
}

// The parts, to see where the time goes.
void BM_SignalsOnly(benchmark::State& state, std::vector<ChatMessage> (*messages_of)(unsigned)) {
  const SignalExtractor extractor(load_artifact());
  std::vector<std::vector<ChatMessage>> requests;
  for (unsigned v = 0; v < kVariants; ++v) requests.push_back(messages_of(v));
  unsigned next = 0;
  run_timed(state, [&] {
    RequestSignals signals = extractor.assess(requests[next++ % kVariants]);
    benchmark::DoNotOptimize(signals);
  });
}
BENCHMARK_CAPTURE(BM_SignalsOnly, single_turn_2kb, single_turn_2kb)->MinTime(1.0);

// The optional embedding part's cost (complexity.h): the edge model's
// embedding of the task turn, which the gateway adds to the decision when the
// router was trained with `--edge-model`. The model is TIERGATE_EDGE_MODEL
// (router_speed.sh passes stories260K when ../shared has it); skipped without.
void BM_EdgeEmbedding(benchmark::State& state, std::vector<ChatMessage> (*messages_of)(unsigned)) {
  const char* path = std::getenv("TIERGATE_EDGE_MODEL");
  if (path == nullptr || *path == '\0') {
    state.SkipWithError("TIERGATE_EDGE_MODEL is not set: no edge model to embed with");
    return;
  }
  auto embedder = PromptEmbedder::open(path, PromptEmbedderParams{});
  if (!embedder.is_ok()) {
    state.SkipWithError(embedder.status().message().c_str());
    return;
  }
  std::vector<std::vector<ChatMessage>> requests;
  for (unsigned v = 0; v < kVariants; ++v) requests.push_back(messages_of(v));
  std::vector<float> embedding;
  unsigned next = 0;
  run_timed(state, [&] {
    Status s = (*embedder)->embed(task_text(requests[next++ % kVariants]), embedding);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(embedding.data());
  });
}
BENCHMARK_CAPTURE(BM_EdgeEmbedding, single_turn_2kb, single_turn_2kb)->MinTime(2.0);

void BM_FeaturesOnly(benchmark::State& state, std::vector<ChatMessage> (*messages_of)(unsigned)) {
  const FeatureSpace space = load_artifact()->space;
  std::vector<std::vector<ChatMessage>> requests;
  for (unsigned v = 0; v < kVariants; ++v) requests.push_back(messages_of(v));
  SparseFeatures features;
  unsigned next = 0;
  run_timed(state, [&] {
    extract_features(space, requests[next++ % kVariants], features);
    benchmark::DoNotOptimize(features);
  });
  state.counters["features"] = static_cast<double>(features.size());
}
BENCHMARK_CAPTURE(BM_FeaturesOnly, single_turn_2kb, single_turn_2kb)->MinTime(1.0);

// The scheduler with its trace alone, on signals computed beforehand.
void BM_SchedulerOnly(benchmark::State& state, std::vector<ChatMessage> (*messages_of)(unsigned)) {
  const std::shared_ptr<const RouterArtifact> artifact = load_artifact();
  const SignalExtractor extractor(artifact);
  const ConfigPtr config = bench_config();
  std::vector<ChatRequest> requests(kVariants);
  std::vector<RequestSignals> signals(kVariants);
  for (unsigned v = 0; v < kVariants; ++v) {
    requests[v].model = "auto";
    requests[v].messages = messages_of(v);
    signals[v] = extractor.assess(requests[v].messages);
  }
  RouteInputs inputs = bench_inputs(*artifact);
  unsigned next = 0;
  run_timed(state, [&] {
    const unsigned v = next++ % kVariants;
    inputs.signals = &signals[v];
    StatusOr<RoutePlan> plan = schedule_route(*config, requests[v], inputs);
    benchmark::DoNotOptimize(plan);
  });
}
BENCHMARK_CAPTURE(BM_SchedulerOnly, single_turn_2kb, single_turn_2kb)->MinTime(1.0);

BENCHMARK_CAPTURE(BM_Decision, single_turn_2kb, single_turn_2kb)->MinTime(2.0);
BENCHMARK_CAPTURE(BM_Decision, conversation_32kb, conversation_32kb)->MinTime(2.0);
BENCHMARK_CAPTURE(BM_TraceJson, single_turn_2kb, single_turn_2kb)->MinTime(1.0);

}  // namespace

BENCHMARK_MAIN();
