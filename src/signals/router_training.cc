#include "tiergate/signals/router_training.h"

#include <algorithm>

namespace tiergate {
namespace {

std::vector<SparseFeatures> features_of(const FeatureSpace& space, const std::vector<RoutingRow>& rows) {
  std::vector<SparseFeatures> out(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) extract_features(space, rows[i].messages, out[i]);
  return out;
}

void report(const TrainProgress& progress, const std::string& message) {
  if (progress) progress(message);
}

double row_gain(const RoutingRow& row) { return row.cloud_score - row.edge_score; }

// Distinct values of key(row), most frequent first; beyond `limit`, the rarest
// share one label "other". label_of[i] is row i's label index.
template <typename Key>
std::vector<std::string> group_rows(const std::vector<RoutingRow>& rows, Key key, size_t limit,
                                    std::vector<int>& label_of) {
  std::vector<std::pair<std::string, size_t>> counts;
  for (const RoutingRow& row : rows) {
    const std::string name = key(row);
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == name; });
    if (it == counts.end()) {
      counts.push_back({name, 1});
    } else {
      ++it->second;
    }
  }
  std::stable_sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  const bool overflow = counts.size() > limit;
  if (overflow) counts.resize(limit - 1);
  std::vector<std::string> labels;
  for (const auto& c : counts) labels.push_back(c.first);
  if (overflow) labels.push_back("other");
  label_of.resize(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    auto it = std::find(labels.begin(), labels.end(), key(rows[i]));
    label_of[i] = it == labels.end() ? static_cast<int>(labels.size()) - 1 : static_cast<int>(it - labels.begin());
  }
  return labels;
}

// Per-row weights giving each label the same total weight (mean 1).
std::vector<float> balanced_weights(const std::vector<int>& label_of, size_t labels) {
  std::vector<double> count(labels, 0.0);
  for (int l : label_of) count[static_cast<size_t>(l)] += 1;
  const size_t present = static_cast<size_t>(std::count_if(count.begin(), count.end(), [](double c) { return c > 0; }));
  const double per_label = static_cast<double>(label_of.size()) / static_cast<double>(std::max<size_t>(1, present));
  std::vector<float> weights(label_of.size());
  for (size_t i = 0; i < label_of.size(); ++i) {
    weights[i] = static_cast<float>(per_label / count[static_cast<size_t>(label_of[i])]);
  }
  return weights;
}

LabelMixture train_mixture(std::vector<std::string> labels, const std::vector<int>& label_of,
                           const std::vector<SparseFeatures>& plain, const RouterTrainOptions& options) {
  LabelMixture mixture;
  mixture.labels = std::move(labels);
  mixture.values.assign(mixture.labels.size(), 0.0f);
  mixture.model = train_softmax(plain, label_of, {}, kDenseFeatures + options.label_buckets,
                                static_cast<uint32_t>(mixture.labels.size()), FeatureRange::kTaskUnigrams,
                                options.label_training);
  for (float& w : mixture.model.mutable_weights()) w *= options.gate_sharpness;
  return mixture;
}

// A gain model on the rows in `subset` (all when empty).
GainModel train_gain_model(const std::vector<RoutingRow>& rows, const std::vector<SparseFeatures>& features,
                           const std::vector<size_t>& subset, std::span<const float> weights, uint32_t dimension,
                           const RouterTrainOptions& options) {
  std::vector<SparseFeatures> x;
  std::vector<float> first_labels, second_labels, w;
  auto take = [&](size_t i) {
    x.push_back(features[i]);
    if (options.target == ComplexityTarget::kTierGap) {
      first_labels.push_back(static_cast<float>(rows[i].edge_score));
      second_labels.push_back(static_cast<float>(rows[i].cloud_score));
    } else {
      first_labels.push_back(rows[i].cloud_score > rows[i].edge_score ? 1.0f : 0.0f);
    }
    if (!weights.empty()) w.push_back(weights[i]);
  };
  if (subset.empty()) {
    for (size_t i = 0; i < rows.size(); ++i) take(i);
  } else {
    for (size_t i : subset) take(i);
  }
  GainModel model;
  model.target = options.target;
  model.intent_features = options.intent_features;
  model.first = train_logistic(x, first_labels, w, dimension, options.complexity_training);
  if (options.target == ComplexityTarget::kTierGap) {
    TrainOptions second_options = options.complexity_training;
    second_options.seed += 1;
    model.second = train_logistic(x, second_labels, w, dimension, second_options);
  }
  return model;
}

}  // namespace

IntentClassifier train_intent(const std::vector<RoutingRow>& rows, const std::vector<SparseFeatures>& row_features,
                              const std::vector<PromptRow>& intent_rows, const RouterTrainOptions& options,
                              const TrainProgress& progress) {
  // Labelled routing rows and labelled prompts together, each class weighing
  // the same in total.
  std::vector<SparseFeatures> features;
  std::vector<int> labels;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (auto label = intent_label(rows[i].category, rows[i].source)) {
      features.push_back(row_features[i]);
      labels.push_back(static_cast<int>(*label));
    }
  }
  for (const PromptRow& row : intent_rows) {
    if (auto label = intent_label(row.category, row.source)) {
      features.emplace_back();
      extract_features(options.space, row.messages, features.back());
      labels.push_back(static_cast<int>(*label));
    }
  }
  if (labels.empty()) return IntentClassifier();
  report(progress, "training intent on " + std::to_string(labels.size()) + " labelled rows");
  return IntentClassifier(train_softmax(features, labels, balanced_weights(labels, kIntentCount),
                                        kDenseFeatures + std::min(options.intent_buckets, options.space.buckets),
                                        kIntentCount, FeatureRange::kTaskUnigrams, options.intent_training));
}

IntentCrossValidation cross_validate_intent(const std::vector<RoutingRow>& rows,
                                            const std::vector<PromptRow>& intent_rows,
                                            const RouterTrainOptions& options, int folds, uint64_t seed,
                                            const TrainProgress& progress) {
  IntentCrossValidation result;
  const std::vector<SparseFeatures> row_features = features_of(options.space, rows);
  std::vector<int> fold(intent_rows.size());
  for (size_t i = 0; i < intent_rows.size(); ++i) fold[i] = fold_of(intent_rows[i].id, folds, seed);
  SparseFeatures features;
  const IntentClassifier cues_only;
  for (int f = 0; f < folds; ++f) {
    std::vector<PromptRow> train;
    for (size_t i = 0; i < intent_rows.size(); ++i) {
      if (fold[i] != f) train.push_back(intent_rows[i]);
    }
    report(progress, "intent fold " + std::to_string(f + 1) + "/" + std::to_string(folds));
    const IntentClassifier classifier = train_intent(rows, row_features, train, options, {});
    for (size_t i = 0; i < intent_rows.size(); ++i) {
      if (fold[i] != f) continue;
      const PromptRow& row = intent_rows[i];
      auto label = intent_label(row.category, row.source);
      if (!label) continue;
      extract_features(options.space, row.messages, features);
      IntentCrossValidation::Row r;
      r.category = row.category.empty() ? benchmark_of(row.source) : row.category;
      r.label = *label;
      r.predicted = classifier.classify(row.messages, features).intent;
      r.cue_only = cues_only.classify(row.messages, features).intent;
      result.rows.push_back(std::move(r));
    }
  }
  return result;
}

std::optional<Intent> intent_label(const std::string& category, const std::string& source) {
  if (!category.empty()) {
    if (auto intent = intent_for_category(category)) return intent;
  }
  if (!source.empty()) return intent_for_category(benchmark_of(source));
  return std::nullopt;
}

RouterArtifact train_router(const std::vector<RoutingRow>& rows, const std::vector<PromptRow>& intent_rows,
                            const RouterTrainOptions& options, const TrainProgress& progress) {
  RouterArtifact artifact;
  artifact.space = options.space;
  const uint32_t dimension = options.space.dimension();
  const std::vector<SparseFeatures> plain = features_of(options.space, rows);

  artifact.intent = train_intent(rows, plain, intent_rows, options, progress);

  // Each row's intent, once: the gain models' intent block and the experts'
  // offsets read it.
  std::vector<IntentResult> intents(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) intents[i] = artifact.intent.classify(rows[i].messages, plain[i]);

  // Gain models read the intent block after the plain features.
  std::vector<SparseFeatures> features = plain;
  uint32_t model_dimension = dimension;
  if (options.intent_features) {
    model_dimension += static_cast<uint32_t>(kIntentFeatures);
    for (size_t i = 0; i < rows.size(); ++i) append_intent_features(dimension, intents[i], features[i]);
  }

  std::vector<int> benchmark_of_row;
  std::vector<std::string> benchmarks = group_rows(
      rows, [](const RoutingRow& r) { return benchmark_of(r.source); }, LabelMixture::kMaxLabels, benchmark_of_row);
  std::vector<float> weights;
  if (options.balance_benchmarks) weights = balanced_weights(benchmark_of_row, benchmarks.size());
  report(progress, "training the global gain model (" + std::string(complexity_target_name(options.target)) +
                       ") on " + std::to_string(rows.size()) + " rows");
  artifact.complexity = ComplexityEstimator(train_gain_model(rows, features, {}, weights, model_dimension, options));

  // Experts: one per benchmark with enough rows, behind a benchmark gate.
  if (options.expert_weight > 0.0f && benchmarks.size() >= 2) {
    std::vector<std::string> expert_names;
    std::vector<std::vector<size_t>> members;
    for (size_t b = 0; b < benchmarks.size(); ++b) {
      std::vector<size_t> subset;
      for (size_t i = 0; i < rows.size(); ++i) {
        if (benchmark_of_row[i] == static_cast<int>(b)) subset.push_back(i);
      }
      if (subset.size() >= options.expert_min_rows && expert_names.size() + 1 < kMaxGainModels) {
        expert_names.push_back(benchmarks[b]);
        members.push_back(std::move(subset));
      }
    }
    if (expert_names.size() >= 2) {
      // The gate learns only the benchmarks that have an expert.
      std::vector<SparseFeatures> gate_x;
      std::vector<int> gate_y;
      std::vector<GainModel> experts;
      for (size_t e = 0; e < expert_names.size(); ++e) {
        for (size_t i : members[e]) {
          gate_x.push_back(plain[i]);
          gate_y.push_back(static_cast<int>(e));
        }
        report(progress, "training the expert for " + expert_names[e] + " on " + std::to_string(members[e].size()) +
                             " rows");
        experts.push_back(train_gain_model(rows, features, members[e], {}, model_dimension, options));
      }
      LabelMixture gate = train_mixture(expert_names, gate_y, gate_x, options);
      std::vector<float> offsets(experts.size(), 0.0f);
      if (options.expert_centering > 0.0f) {
        double global_sum = 0;
        for (size_t i = 0; i < rows.size(); ++i) global_sum += artifact.complexity.global().gain(plain[i], intents[i]);
        const double global_mean = global_sum / static_cast<double>(rows.size());
        for (size_t e = 0; e < experts.size(); ++e) {
          double sum = 0;
          for (size_t i : members[e]) sum += experts[e].gain(plain[i], intents[i]);
          offsets[e] = static_cast<float>(options.expert_centering *
                                          (sum / static_cast<double>(members[e].size()) - global_mean));
        }
      }
      artifact.complexity.set_experts(std::move(gate), std::move(experts), options.expert_weight, std::move(offsets));
    }
  }

  // Topic model over sources.
  std::vector<int> topic_of_row;
  std::vector<std::string> topics =
      group_rows(rows, [](const RoutingRow& r) { return r.source; }, LabelMixture::kMaxLabels, topic_of_row);
  if (options.topic_weight > 0.0f && topics.size() >= 2) {
    report(progress, "training the topic model over " + std::to_string(topics.size()) + " topics");
    // A topic's value is how far its mean gain (shrunk toward its benchmark's)
    // lies from its benchmark's mean: the benchmark level is the gain models'
    // job, the topic adds what sets it apart within its benchmark. Its mean
    // length is shrunk alike (kLogChars, the length term's feature).
    std::vector<double> topic_sum(topics.size(), 0.0), topic_n(topics.size(), 0.0);
    std::vector<double> bench_sum(benchmarks.size(), 0.0), bench_n(benchmarks.size(), 0.0);
    std::vector<double> topic_length(topics.size(), 0.0), bench_length(benchmarks.size(), 0.0);
    std::vector<int> bench_of_topic(topics.size(), 0);
    for (size_t i = 0; i < rows.size(); ++i) {
      const size_t t = static_cast<size_t>(topic_of_row[i]), b = static_cast<size_t>(benchmark_of_row[i]);
      topic_sum[t] += row_gain(rows[i]);
      topic_n[t] += 1;
      bench_sum[b] += row_gain(rows[i]);
      bench_n[b] += 1;
      topic_length[t] += plain[i].value[kLogChars];
      bench_length[b] += plain[i].value[kLogChars];
      bench_of_topic[t] = static_cast<int>(b);
    }
    TopicModel model;
    model.labels = topics;
    for (size_t t = 0; t < topics.size(); ++t) {
      const size_t b = static_cast<size_t>(bench_of_topic[t]);
      const double bench_mean = bench_sum[b] / bench_n[b];
      const double shrunk = (topic_sum[t] + options.topic_shrinkage * bench_mean) / (topic_n[t] + options.topic_shrinkage);
      // Net of (a share of) what the length term already says about the
      // topic: its mean length's distance from the benchmark's, weighted.
      const double bench_length_mean = bench_length[b] / bench_n[b];
      const double shrunk_length = (topic_length[t] + options.topic_shrinkage * bench_length_mean) /
                                   (topic_n[t] + options.topic_shrinkage);
      const double said_by_length =
          options.length_weight / options.topic_weight * (shrunk_length - bench_length_mean);
      const double value = shrunk - bench_mean - options.topic_net_of_length * said_by_length;
      model.values.push_back(static_cast<float>(std::clamp(value, -0.49, 0.49)));
    }
    std::vector<float> targets(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) targets[i] = 0.5f + model.values[static_cast<size_t>(topic_of_row[i])];
    model.model = train_logistic(features, targets, weights, model_dimension, options.complexity_training);
    artifact.complexity.set_topic_model(std::move(model), options.topic_weight);
  }

  // The embedding part, when every row carries an embedding of one size.
  const size_t embedding_size = rows.empty() ? 0 : rows.front().embedding.size();
  const bool embedded = embedding_size > 0 && std::all_of(rows.begin(), rows.end(), [&](const RoutingRow& r) {
    return r.embedding.size() == embedding_size;
  });
  if (options.embedding_weight > 0.0f && embedded) {
    report(progress, "training the embedding part (" + std::to_string(embedding_size) + " dimensions)");
    std::vector<SparseFeatures> inputs(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) embedding_features(rows[i].embedding, inputs[i]);
    RouterTrainOptions plain_options = options;
    plain_options.intent_features = false;
    EmbeddingPart part;
    part.edge_model = options.edge_model;
    part.dimension = static_cast<uint32_t>(embedding_size);
    part.gain = train_gain_model(rows, inputs, {}, weights, part.dimension + 1, plain_options);
    double sum = 0;
    for (const SparseFeatures& x : inputs) sum += part.gain.gain(x, IntentResult{});
    part.mean_gain = static_cast<float>(sum / static_cast<double>(rows.size()));
    artifact.complexity.set_embedding(std::move(part), options.embedding_weight);
  }

  artifact.complexity.set_length_weight(options.length_weight);
  if (options.familiarity) {
    report(progress, "fitting the familiarity guard over " + std::to_string(benchmarks.size()) + " benchmarks");
    artifact.complexity.set_familiarity(
        train_familiarity(plain, benchmark_of_row, benchmarks, score_rows(artifact, rows),
                          std::min(options.familiarity_buckets, options.space.buckets)));
  }
  artifact.score_quantiles = score_quantiles(score_rows(artifact, rows));
  return artifact;
}

std::vector<double> score_rows(const RouterArtifact& artifact, const std::vector<RoutingRow>& rows) {
  std::vector<double> scores(rows.size());
  SparseFeatures features;
  for (size_t i = 0; i < rows.size(); ++i) {
    extract_features(artifact.space, rows[i].messages, features);
    IntentResult intent = artifact.intent.classify(rows[i].messages, features);
    scores[i] = artifact.complexity.cloud_gain(features, intent, rows[i].embedding);
  }
  return scores;
}

int fold_of(const std::string& id, int folds, uint64_t seed) {
  uint64_t h = 1469598103934665603ull ^ seed;
  for (unsigned char c : id) h = (h ^ c) * 1099511628211ull;
  h ^= h >> 29;
  return static_cast<int>(h % static_cast<uint64_t>(folds));
}

std::vector<double> cross_validated_scores(const std::vector<RoutingRow>& rows,
                                           const std::vector<PromptRow>& intent_rows,
                                           const RouterTrainOptions& options, int folds, uint64_t seed,
                                           const TrainProgress& progress) {
  std::vector<double> scores(rows.size(), 0.0);
  std::vector<int> fold(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) fold[i] = fold_of(rows[i].id, folds, seed);
  for (int f = 0; f < folds; ++f) {
    std::vector<RoutingRow> train, test;
    std::vector<size_t> test_index;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (fold[i] == f) {
        test.push_back(rows[i]);
        test_index.push_back(i);
      } else {
        train.push_back(rows[i]);
      }
    }
    report(progress, "fold " + std::to_string(f + 1) + "/" + std::to_string(folds) + ": training on " +
                         std::to_string(train.size()) + " rows, scoring " + std::to_string(test.size()));
    RouterArtifact artifact = train_router(train, intent_rows, options);
    std::vector<double> fold_scores = score_rows(artifact, test);
    for (size_t j = 0; j < test.size(); ++j) scores[test_index[j]] = fold_scores[j];
  }
  return scores;
}

}  // namespace tiergate
