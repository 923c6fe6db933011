// `tiergate router train|eval|cv|calibrate` and `tiergate intent classify`:
// the learned routing stages from data files. Wiring: the work is in signals/.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <chrono>
#include <filesystem>
#include <numeric>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <map>
#include <random>
#include <tuple>

#include "commands.h"
#include "edge_embeddings.h"
#include "router_config_edit.h"
#include "tiergate/signals/dataset.h"
#include "tiergate/signals/router_artifact.h"
#include "tiergate/signals/router_training.h"
#include "tiergate/signals/routing_metrics.h"

namespace tiergate::cli {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

StatusOr<std::vector<RoutingRow>> load_all_routing(const std::vector<std::string>& files) {
  std::vector<RoutingRow> all;
  for (const std::string& file : files) {
    auto rows = load_routing_rows(file);
    if (!rows.is_ok()) return rows.status();
    for (RoutingRow& row : *rows) {
      if (row.source.empty()) row.source = std::filesystem::path(file).stem().string();
      all.push_back(std::move(row));
    }
  }
  return all;
}

StatusOr<std::vector<PromptRow>> load_all_prompts(const std::vector<std::string>& files) {
  std::vector<PromptRow> all;
  for (const std::string& file : files) {
    auto rows = load_prompt_rows(file);
    if (!rows.is_ok()) return rows.status();
    all.insert(all.end(), std::make_move_iterator(rows->begin()), std::make_move_iterator(rows->end()));
  }
  return all;
}

std::vector<RoutingOutcome> outcomes_of(const std::vector<RoutingRow>& rows) {
  std::vector<RoutingOutcome> outcomes;
  outcomes.reserve(rows.size());
  for (const RoutingRow& row : rows) outcomes.push_back({row.edge_score, row.cloud_score});
  return outcomes;
}

json summary_json(const RoutingSummary& s) {
  return {{"rows", s.rows},
          {"edge_quality", s.edge_quality},
          {"cloud_quality", s.cloud_quality},
          {"apgr", s.apgr},
          {"cpt50", s.cpt50},
          {"cpt80", s.cpt80},
          {"cpt95", s.cpt95},
          {"cloud_share_for_95pct_quality", s.cloud_share_for_95_quality},
          {"gap_defined", s.gap_defined}};
}

// Draws of the paired bootstrap that compares the router with length alone.
// Measured on left-out MMLU (8,411 rows): 200 / 1,000 / 2,000 draws gave
// 95% intervals [-0.0134, 0.0091] / [-0.0140, 0.0084] / [-0.0135, 0.0091],
// and `router eval` took 0.5 / 1.5 / 2.7 s in all.
constexpr size_t kBootstrapResamples = 1000;

// Baselines a learned router must beat: prompt length alone (with the
// bootstrap interval of the router's APGR less length's), and random
// routing (the mean over seeds).
json baselines_json(const std::vector<RoutingRow>& rows, const std::vector<RoutingOutcome>& outcomes,
                    const std::vector<double>& scores) {
  std::vector<double> length(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    size_t chars = 0;
    for (const ChatMessage& m : rows[i].messages) chars += m.content.size();
    length[i] = static_cast<double>(chars);
  }
  json random_runs = json::array();
  double apgr = 0, cpt50 = 0;
  constexpr int kRandomSeeds = 10;
  for (int seed = 1; seed <= kRandomSeeds; ++seed) {
    std::mt19937_64 rng(static_cast<uint64_t>(seed));
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::vector<double> random_scores(rows.size());
    for (double& s : random_scores) s = uniform(rng);
    RoutingSummary summary = summarize_routing(outcomes, random_scores);
    apgr += summary.apgr;
    cpt50 += summary.cpt50;
  }
  json length_json = summary_json(summarize_routing(outcomes, length));
  const ApgrDifference d = bootstrap_apgr_difference(outcomes, scores, length, kBootstrapResamples, 1);
  length_json["router_apgr_minus_length"] = {{"observed", d.observed},
                                             {"ci95_low", d.low},
                                             {"ci95_high", d.high},
                                             {"share_of_draws_below_zero", d.share_below_zero},
                                             {"resamples", d.resamples}};
  return {{"length", length_json},
          {"random_mean_of_10", {{"apgr", apgr / kRandomSeeds}, {"cpt50", cpt50 / kRandomSeeds}}}};
}

// Rows grouped by benchmark (source before '/'), in first-seen order.
std::vector<std::pair<std::string, std::vector<size_t>>> by_benchmark(const std::vector<RoutingRow>& rows) {
  std::vector<std::pair<std::string, std::vector<size_t>>> groups;
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string name = benchmark_of(rows[i].source);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == name; });
    if (it == groups.end()) {
      groups.push_back({name, {}});
      it = groups.end() - 1;
    }
    it->second.push_back(i);
  }
  return groups;
}

// Metrics of `scores` overall and per benchmark, with the baselines.
json report_json(const std::vector<RoutingRow>& rows, const std::vector<double>& scores) {
  json report;
  const auto outcomes = outcomes_of(rows);
  report["overall"] = summary_json(summarize_routing(outcomes, scores));
  report["overall"]["baselines"] = baselines_json(rows, outcomes, scores);
  const auto groups = by_benchmark(rows);
  if (groups.size() > 1) {
    for (const auto& [name, index] : groups) {
      std::vector<RoutingRow> subset;
      std::vector<double> subset_scores;
      for (size_t i : index) {
        subset.push_back(rows[i]);
        subset_scores.push_back(scores[i]);
      }
      const auto subset_outcomes = outcomes_of(subset);
      report["benchmarks"][name] = summary_json(summarize_routing(subset_outcomes, subset_scores));
      report["benchmarks"][name]["baselines"] = baselines_json(subset, subset_outcomes, subset_scores);
    }
  }
  return report;
}

// Held-out intent accuracy, overall and per dataset category, next to the
// cue rules alone and to always answering the most frequent class.
json intent_report_json(const IntentCrossValidation& cv) {
  json out;
  const size_t n = cv.rows.size();
  if (n == 0) return out;
  std::map<std::string, std::array<size_t, 3>> by_category;  // rows, correct, cue correct
  std::array<size_t, kIntentCount> label_count{};
  size_t correct = 0, cue_correct = 0;
  for (const auto& r : cv.rows) {
    auto& c = by_category[r.category];
    c[0] += 1;
    c[1] += r.predicted == r.label ? 1 : 0;
    c[2] += r.cue_only == r.label ? 1 : 0;
    correct += r.predicted == r.label ? 1 : 0;
    cue_correct += r.cue_only == r.label ? 1 : 0;
    label_count[static_cast<size_t>(r.label)] += 1;
  }
  const auto majority = std::max_element(label_count.begin(), label_count.end());
  out["rows"] = n;
  out["accuracy"] = static_cast<double>(correct) / static_cast<double>(n);
  out["baselines"] = {{"cue_rules_only", static_cast<double>(cue_correct) / static_cast<double>(n)},
                      {"majority_class", static_cast<double>(*majority) / static_cast<double>(n)},
                      {"majority_class_name", intent_name(static_cast<Intent>(majority - label_count.begin()))}};
  for (const auto& [category, c] : by_category) {
    Intent mapped = Intent::kChat;
    for (const auto& r : cv.rows) {
      if (r.category == category) {
        mapped = r.label;
        break;
      }
    }
    out["categories"][category] = {{"rows", c[0]},
                                    {"mapped_to", intent_name(mapped)},
                                    {"accuracy", static_cast<double>(c[1]) / static_cast<double>(c[0])},
                                    {"cue_rules_only", static_cast<double>(c[2]) / static_cast<double>(c[0])}};
  }
  return out;
}

struct TrainArgs {
  std::vector<std::string> data, intent_data;
  std::string out, target = "tier_gap";
  std::string edge_model;  // optional: train the embedding part on its embeddings
  uint32_t buckets = FeatureSpace{}.buckets;
  int folds = 5;
  bool no_intent_features = false;
  bool no_balance = false;
  bool no_bigrams = false;
  bool no_familiarity = false;
  uint64_t seed = 1;
  TrainOptions complexity = RouterTrainOptions{}.complexity_training;
  float topic_weight = RouterTrainOptions{}.topic_weight;
  float expert_weight = RouterTrainOptions{}.expert_weight;
  float length_weight = RouterTrainOptions{}.length_weight;
  uint32_t label_buckets = RouterTrainOptions{}.label_buckets;
  float gate_sharpness = RouterTrainOptions{}.gate_sharpness;
  float expert_centering = RouterTrainOptions{}.expert_centering;
  float topic_net_of_length = RouterTrainOptions{}.topic_net_of_length;
  float embedding_weight = RouterTrainOptions{}.embedding_weight;
};

StatusOr<RouterTrainOptions> train_options(const TrainArgs& args) {
  RouterTrainOptions options;
  if (!std::has_single_bit(args.buckets) || args.buckets < 16) {
    return invalid_argument("--buckets must be a power of two >= 16, got " + std::to_string(args.buckets));
  }
  options.space.buckets = args.buckets;
  options.space.bigrams = !args.no_bigrams;
  options.familiarity = !args.no_familiarity;
  auto target = parse_complexity_target(args.target);
  if (!target) return invalid_argument("--target must be tier_gap or cloud_wins, got '" + args.target + "'");
  options.target = *target;
  options.intent_features = !args.no_intent_features;
  options.balance_benchmarks = !args.no_balance;
  options.complexity_training = args.complexity;
  auto shown = [](float v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", static_cast<double>(v));
    return std::string(text);
  };
  for (const auto& [flag, value, most] : {std::tuple{"--topic-weight", args.topic_weight, 4.0f},
                                          std::tuple{"--expert-weight", args.expert_weight, 1.0f},
                                          std::tuple{"--embedding-weight", args.embedding_weight, 4.0f},
                                          std::tuple{"--topic-net-of-length", args.topic_net_of_length, 1.0f},
                                          std::tuple{"--expert-centering", args.expert_centering, 1.0f}}) {
    if (!(value >= 0.0f && value <= most)) {
      return invalid_argument(std::string(flag) + " must be in [0, " + shown(most) + "], got " + shown(value));
    }
  }
  if (!(args.gate_sharpness > 0.0f && args.gate_sharpness <= 1.0f)) {
    return invalid_argument("--gate-sharpness must be in (0, 1], got " + shown(args.gate_sharpness));
  }
  if (!std::has_single_bit(args.label_buckets) || args.label_buckets > args.buckets) {
    return invalid_argument("--label-buckets must be a power of two no larger than --buckets");
  }
  options.topic_weight = args.topic_weight;
  options.length_weight = args.length_weight;
  options.expert_weight = args.expert_weight;
  options.label_buckets = args.label_buckets;
  options.gate_sharpness = args.gate_sharpness;
  options.expert_centering = args.expert_centering;
  options.topic_net_of_length = args.topic_net_of_length;
  options.embedding_weight = args.embedding_weight;
  return options;
}

// What train and cv both read: the options and the data, checked.
struct TrainingInputs {
  RouterTrainOptions options;
  std::vector<RoutingRow> rows;
  std::vector<PromptRow> prompts;
  double embedding_seconds_per_request = 0;  // with --edge-model
};

StatusOr<TrainingInputs> load_training_inputs(const TrainArgs& args) {
  auto options = train_options(args);
  if (!options.is_ok()) return options.status();
  auto rows = load_all_routing(args.data);
  if (!rows.is_ok()) return rows.status();
  auto prompts = load_all_prompts(args.intent_data);
  if (!prompts.is_ok()) return prompts.status();
  TrainingInputs inputs{std::move(*options), std::move(*rows), std::move(*prompts)};
  if (!args.edge_model.empty()) {
    auto embeddings = embed_rows(args.edge_model, inputs.rows, "router");
    if (!embeddings.is_ok()) return embeddings.status();
    inputs.options.edge_model = embeddings->fingerprint;
    inputs.embedding_seconds_per_request = embeddings->seconds_per_request;
  }
  return inputs;
}

// The settings a report or an artifact's metadata records.
void add_training_settings(json& j, const TrainArgs& args, const RouterTrainOptions& options) {
  j["target"] = args.target;
  j["intent_features"] = options.intent_features;
  j["buckets"] = args.buckets;
  j["familiarity"] = options.familiarity;
  j["gate_sharpness"] = options.gate_sharpness;
  j["expert_centering"] = options.expert_centering;
  j["topic_net_of_length"] = options.topic_net_of_length;
  if (!options.edge_model.empty()) {
    j["edge_model"] = options.edge_model;
    j["embedding_weight"] = options.embedding_weight;
  }
}

int run_train(const TrainArgs& args) {
  const auto start = Clock::now();
  auto inputs = load_training_inputs(args);
  if (!inputs.is_ok()) return fail("router train", inputs.status().message());
  const RouterTrainOptions& options = inputs->options;
  const std::vector<RoutingRow>& rows = inputs->rows;
  const std::vector<PromptRow>& prompts = inputs->prompts;
  auto progress = [](const std::string& message) { std::cerr << "[router train] " << message << "\n"; };
  std::cerr << "[router train] " << rows.size() << " routing rows, " << prompts.size() << " intent prompts\n";

  json training;
  training["files"] = args.data;
  training["intent_files"] = args.intent_data;
  training["rows"] = rows.size();
  training["intent_rows"] = prompts.size();
  add_training_settings(training, args, options);
  if (!args.edge_model.empty()) training["embedding_ms_per_request"] = 1000 * inputs->embedding_seconds_per_request;
  training["trained_at"] = std::chrono::duration_cast<std::chrono::seconds>(
                               std::chrono::system_clock::now().time_since_epoch()).count();
  std::vector<double> held_out;
  if (args.folds >= 2) {
    held_out = cross_validated_scores(rows, prompts, options, args.folds, args.seed, progress);
    training["cross_validation"] = report_json(rows, held_out);
    training["cross_validation"]["folds"] = args.folds;
  }
  RouterArtifact artifact = train_router(rows, prompts, options, progress);
  // Calibrate on held-out scores when there are some: in-sample scores are
  // more extreme than what unseen requests will get.
  if (!held_out.empty()) artifact.score_quantiles = score_quantiles(held_out);
  training["calibration"] = held_out.empty() ? "in-sample scores" : "cross-validated scores";
  artifact.training_json = training.dump();
  if (Status s = save_router_artifact(artifact, args.out); !s.is_ok()) return fail("router train", s.message());
  json out = {{"router", args.out}, {"rows", rows.size()}, {"seconds", seconds_since(start)}};
  if (training.contains("cross_validation")) out["cross_validation"] = training["cross_validation"];
  std::cout << out.dump(2) << "\n";
  return 0;
}

int run_cv(const TrainArgs& args) {
  if (args.folds < 2) return fail("router cv", "--folds must be at least 2");
  auto inputs = load_training_inputs(args);
  if (!inputs.is_ok()) return fail("router cv", inputs.status().message());
  const RouterTrainOptions& options = inputs->options;
  const std::vector<RoutingRow>& rows = inputs->rows;
  const std::vector<PromptRow>& prompts = inputs->prompts;
  auto progress = [](const std::string& message) { std::cerr << "[router cv] " << message << "\n"; };
  std::vector<double> scores = cross_validated_scores(rows, prompts, options, args.folds, args.seed, progress);
  json report = report_json(rows, scores);
  if (!prompts.empty()) {
    report["intent"] = intent_report_json(cross_validate_intent(rows, prompts, options, args.folds, args.seed, progress));
  }
  report["folds"] = args.folds;
  add_training_settings(report, args, options);
  if (!args.edge_model.empty()) report["embedding_ms_per_request"] = 1000 * inputs->embedding_seconds_per_request;
  std::cout << report.dump(2) << "\n";
  return 0;
}

struct EvalArgs {
  std::string router, data, scores_out, edge_model;
};

int run_eval(const EvalArgs& args) {
  auto artifact = load_router_artifact(args.router);
  if (!artifact.is_ok()) return fail("router eval", artifact.status().message());
  auto rows = load_all_routing({args.data});
  if (!rows.is_ok()) return fail("router eval", rows.status().message());
  const EmbeddingPart& part = artifact->complexity.embedding();
  if (!args.edge_model.empty()) {
    if (part.empty()) return fail("router eval", args.router + " has no embedding part: drop --edge-model");
    auto embeddings = embed_rows(args.edge_model, *rows, "router eval", part.edge_model);
    if (!embeddings.is_ok()) return fail("router eval", args.router + ": " + embeddings.status().message());
  } else if (!part.empty()) {
    std::cerr << "[router eval] " << args.router << " has an embedding part (" << part.edge_model
              << "); without --edge-model every row counts as average there\n";
  }
  std::vector<double> scores = score_rows(*artifact, *rows);
  if (!args.scores_out.empty()) {
    std::ofstream out(args.scores_out, std::ios::trunc);
    if (!out) return fail("router eval", args.scores_out + ": cannot write");
    for (size_t i = 0; i < rows->size(); ++i) {
      out << json{{"id", (*rows)[i].id}, {"cloud_score", scores[i]}}.dump() << "\n";
    }
    if (!out.flush()) return fail("router eval", args.scores_out + ": write failed");
  }
  RoutingSummary s = summarize_routing(outcomes_of(*rows), scores);
  json out = {{"rows", s.rows},
              {"APGR", s.apgr},
              {"CPT(50%)", s.cpt50},
              {"CPT(80%)", s.cpt80},
              {"CPT(95%)", s.cpt95},
              {"cloud_share_for_95pct_quality", s.cloud_share_for_95_quality},
              {"edge_quality", s.edge_quality},
              {"cloud_quality", s.cloud_quality}};
  out["details"] = report_json(*rows, scores);
  std::cout << out.dump(2) << "\n";
  return 0;
}

struct CalibrateArgs {
  std::string router, data, config;
  std::optional<double> cloud_share, quality;
};

int run_calibrate(const CalibrateArgs& args) {
  auto artifact = load_router_artifact(args.router);
  if (!artifact.is_ok()) return fail("router calibrate", artifact.status().message());
  auto rows = load_all_routing({args.data});
  if (!rows.is_ok()) return fail("router calibrate", rows.status().message());
  std::vector<double> scores = score_rows(*artifact, *rows);
  const auto outcomes = outcomes_of(*rows);
  const RoutingSummary all = summarize_routing(outcomes, scores);

  // Sorted scores, highest first: routing the top k rows = threshold between
  // the k-th and (k+1)-th score.
  std::vector<double> sorted = scores;
  std::sort(sorted.begin(), sorted.end(), std::greater<>());
  const size_t n = sorted.size();
  size_t k = 0;
  if (args.cloud_share) {
    k = static_cast<size_t>(std::llround(*args.cloud_share * static_cast<double>(n)));
  } else {
    // Smallest k whose quality reaches the target share of the cloud's.
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a] > scores[b]; });
    double total = all.edge_quality * static_cast<double>(n);
    const double goal = *args.quality * all.cloud_quality * static_cast<double>(n);
    while (k < n && total < goal - 1e-9) {
      total += outcomes[order[k]].cloud_score - outcomes[order[k]].edge_score;
      ++k;
    }
  }
  k = std::min(k, n);
  double threshold;
  if (k == 0) {
    threshold = sorted.front() + 1e-6;
  } else if (k >= n) {
    threshold = sorted.back() - 1e-6;
  } else {
    threshold = (sorted[k - 1] + sorted[k]) / 2.0;
  }
  // What the threshold does on this data.
  std::vector<double> routed(n);
  double quality = 0;
  size_t to_cloud = 0;
  for (size_t i = 0; i < n; ++i) {
    const bool cloud = scores[i] > threshold;
    to_cloud += cloud ? 1 : 0;
    quality += cloud ? outcomes[i].cloud_score : outcomes[i].edge_score;
  }
  quality /= static_cast<double>(n);
  json out = {{"threshold", threshold},
              {"cloud_share", static_cast<double>(to_cloud) / static_cast<double>(n)},
              {"quality", quality},
              {"quality_vs_cloud", all.cloud_quality > 0 ? quality / all.cloud_quality : 0.0},
              {"edge_quality", all.edge_quality},
              {"cloud_quality", all.cloud_quality},
              {"rows", n}};
  if (!args.config.empty()) {
    if (Status s = write_router_threshold(args.config, threshold); !s.is_ok()) return fail("router calibrate", s.message());
    out["written_to"] = args.config;
  }
  std::cout << out.dump(2) << "\n";
  return 0;
}

struct ClassifyArgs {
  std::string router, data, out;
};

int run_classify(const ClassifyArgs& args) {
  RouterArtifact artifact;
  if (!args.router.empty()) {
    auto loaded = load_router_artifact(args.router);
    if (!loaded.is_ok()) return fail("intent classify", loaded.status().message());
    artifact = std::move(*loaded);
  }
  auto rows = load_prompt_rows(args.data);
  if (!rows.is_ok()) return fail("intent classify", rows.status().message());
  std::ofstream out(args.out, std::ios::trunc);
  if (!out) return fail("intent classify", args.out + ": cannot write");
  SparseFeatures features;
  size_t labelled = 0, correct = 0;
  for (const PromptRow& row : *rows) {
    extract_features(artifact.space, row.messages, features);
    IntentResult intent = artifact.intent.classify(row.messages, features);
    out << json{{"id", row.id}, {"intent", intent_name(intent.intent)}, {"confidence", intent.confidence}}.dump()
        << "\n";
    if (auto label = intent_label(row.category, row.source)) {
      ++labelled;
      correct += *label == intent.intent ? 1 : 0;
    }
  }
  if (!out.flush()) return fail("intent classify", args.out + ": write failed");
  json summary = {{"rows", rows->size()}, {"out", args.out}, {"model", artifact.intent.has_model() ? "learned+cues" : "cues only"}};
  if (labelled > 0) {
    summary["labelled_rows"] = labelled;
    summary["accuracy"] = static_cast<double>(correct) / static_cast<double>(labelled);
  }
  std::cerr << summary.dump() << "\n";
  return 0;
}

// The options `router train` and `router cv` share: data and hyperparameters.
void add_training_options(CLI::App& sub, TrainArgs& args) {
  sub.add_option("--data", args.data, "routing JSONL files (docs/routing.md)")->required()->check(CLI::ExistingFile);
  sub.add_option("--intent-data", args.intent_data, "labelled prompt JSONL files for the intent model")
      ->check(CLI::ExistingFile);
  sub.add_option("--target", args.target, "complexity target: tier_gap or cloud_wins")->capture_default_str();
  sub.add_option("--buckets", args.buckets, "hashed feature slots (a power of two)")->capture_default_str();
  sub.add_option("--seed", args.seed, "fold assignment seed")->capture_default_str();
  sub.add_flag("--no-intent-features", args.no_intent_features, "complexity without the intent distribution");
  sub.add_flag("--no-balance", args.no_balance, "weigh rows alike instead of each benchmark alike");
  sub.add_flag("--no-bigrams", args.no_bigrams, "hash word unigrams only (faster, usually a little weaker)");
  sub.add_flag("--no-familiarity", args.no_familiarity,
               "no familiarity guard: score requests unlike every training benchmark by the learned parts too");
  sub.add_option("--epochs", args.complexity.epochs, "complexity training epochs")->capture_default_str();
  sub.add_option("--learning-rate", args.complexity.learning_rate, "complexity AdaGrad rate")->capture_default_str();
  sub.add_option("--l2", args.complexity.l2, "complexity L2 shrinkage")->capture_default_str();
  sub.add_option("--topic-weight", args.topic_weight, "weight of the topic model added to the cloud score, 0..4")
      ->capture_default_str();
  sub.add_option("--expert-weight", args.expert_weight, "weight of the benchmark experts against the global model, 0..1")
      ->capture_default_str();
  sub.add_option("--length-weight", args.length_weight, "weight of the log length added to the cloud score")
      ->capture_default_str();
  sub.add_option("--label-buckets", args.label_buckets, "hashed slots of the benchmark gate")->capture_default_str();
  sub.add_option("--edge-model", args.edge_model,
                 "edge model GGUF: also train a part on its embedding of each request (optional, off by default)")
      ->check(CLI::ExistingFile);
  sub.add_option("--embedding-weight", args.embedding_weight, "weight of the embedding part, 0..4")
      ->capture_default_str();
  sub.add_option("--topic-net-of-length", args.topic_net_of_length,
                 "share of the length term's say about a topic taken out of the topic's value, 0..1")
      ->capture_default_str();
  sub.add_option("--gate-sharpness", args.gate_sharpness,
                 "scale of the benchmark gate's logits, (0, 1]: lower trusts it less on unfamiliar requests")
      ->capture_default_str();
  sub.add_option("--expert-centering", args.expert_centering,
                 "share of each expert's own-benchmark mean taken out of its gain, 0..1")
      ->capture_default_str();
}

}  // namespace

void add_router_commands(CLI::App& app, Runs& runs) {
  CLI::App* router = app.add_subcommand("router", "Train, evaluate and calibrate the learned router.");
  router->require_subcommand(1);

  auto train = std::make_shared<TrainArgs>();
  CLI::App* t = router->add_subcommand("train", "Train the intent and complexity models from routing outcome rows.");
  add_training_options(*t, *train);
  t->add_option("-o,--out", train->out, "router artifact to write")->required();
  t->add_option("--cv", train->folds, "cross-validation folds reported in the artifact (0 = none)")->capture_default_str();
  runs[t] = [train] { return run_train(*train); };

  auto cv = std::make_shared<TrainArgs>();
  CLI::App* c = router->add_subcommand("cv", "K-fold cross-validated routing metrics per benchmark, with baselines.");
  add_training_options(*c, *cv);
  c->add_option("--folds", cv->folds, "folds")->capture_default_str();
  runs[c] = [cv] { return run_cv(*cv); };

  auto eval = std::make_shared<EvalArgs>();
  CLI::App* e = router->add_subcommand("eval", "APGR, CPT(50/80/95%) and the cloud share for 95% quality, as JSON.");
  e->add_option("--router", eval->router, "router artifact")->required();
  e->add_option("--data", eval->data, "routing JSONL file")->required()->check(CLI::ExistingFile);
  e->add_option("--scores-out", eval->scores_out, "write {\"id\", \"cloud_score\"} per row (JSONL)");
  e->add_option("--edge-model", eval->edge_model, "the edge model GGUF whose embeddings the router was trained on")
      ->check(CLI::ExistingFile);
  runs[e] = [eval] { return run_eval(*eval); };

  auto calibrate = std::make_shared<CalibrateArgs>();
  CLI::App* k = router->add_subcommand("calibrate", "The score threshold for a target cloud share or quality.");
  k->add_option("--router", calibrate->router, "router artifact")->required();
  k->add_option("--data", calibrate->data, "routing JSONL file to calibrate on")->required()->check(CLI::ExistingFile);
  auto* share = k->add_option("--target-cloud-share", calibrate->cloud_share, "share of requests for the cloud, 0..1")
                    ->check(CLI::Range(0.0, 1.0));
  auto* quality = k->add_option("--target-quality", calibrate->quality,
                                "share of the cloud tier's quality to reach, 0..1 (e.g. 0.95)")
                      ->check(CLI::Range(0.0, 1.0));
  share->excludes(quality);
  k->add_option("--config", calibrate->config, "tiergate.yaml to write router.threshold into");
  runs[k] = [calibrate, share, quality] {
    if (share->count() == 0 && quality->count() == 0) {
      return fail("router calibrate", "give --target-cloud-share X or --target-quality Q");
    }
    return run_calibrate(*calibrate);
  };

  CLI::App* intent = app.add_subcommand("intent", "The intent classifier.");
  intent->require_subcommand(1);
  auto classify = std::make_shared<ClassifyArgs>();
  CLI::App* ic = intent->add_subcommand("classify", "Label each prompt with an intent and a confidence (JSONL).");
  ic->add_option("--data", classify->data, "JSONL rows with `prompt` or `messages`")->required()->check(CLI::ExistingFile);
  ic->add_option("-o,--out", classify->out, "JSONL to write: {\"id\", \"intent\", \"confidence\"}")->required();
  ic->add_option("--router", classify->router, "router artifact with a trained intent model (default: cue rules only)");
  runs[ic] = [classify] { return run_classify(*classify); };
}

}  // namespace tiergate::cli
