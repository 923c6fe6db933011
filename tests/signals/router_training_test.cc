#include "tiergate/signals/router_training.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "synthetic.h"
#include "tiergate/signals/routing_metrics.h"
#include "tiergate/signals/signals.h"

namespace tiergate {
namespace {

RouterTrainOptions small_options() {
  RouterTrainOptions options;
  options.space.buckets = 1u << 12;
  options.label_buckets = 1u << 10;
  options.expert_min_rows = 20;  // the synthetic benchmarks are small
  return options;
}

// A router trained on `rows` with small_options() as `change` leaves them.
template <class Change>
RouterArtifact train_small(const std::vector<RoutingRow>& rows, Change change) {
  RouterTrainOptions options = small_options();
  change(options);
  return train_router(rows, {}, options);
}

double apgr(const std::vector<RoutingRow>& rows, const std::vector<double>& scores) {
  std::vector<RoutingOutcome> outcomes;
  for (const RoutingRow& row : rows) outcomes.push_back({row.edge_score, row.cloud_score});
  const RoutingSummary summary = summarize_routing(outcomes, scores);
  EXPECT_TRUE(summary.gap_defined);
  return summary.apgr;
}

TEST(FoldOfTest, DeterministicInRangeAndSpread) {
  constexpr int kFolds = 5;
  std::vector<int> count(kFolds, 0);
  int moved = 0;
  for (int i = 0; i < 1000; ++i) {
    const std::string id = "row-" + std::to_string(i);
    const int fold = fold_of(id, kFolds, 1);
    ASSERT_GE(fold, 0);
    ASSERT_LT(fold, kFolds);
    EXPECT_EQ(fold_of(id, kFolds, 1), fold);
    ++count[static_cast<size_t>(fold)];
    moved += fold_of(id, kFolds, 2) != fold ? 1 : 0;
  }
  for (int c : count) EXPECT_GT(c, 120) << "every fold gets a share of the rows";
  EXPECT_GT(moved, 100) << "another seed assigns other folds";
  EXPECT_EQ(fold_of("anything", 1, 3), 0);
  EXPECT_EQ(fold_of("", 3, 0), fold_of("", 3, 0));
}

TEST(IntentLabelTest, CategoryThenBenchmark) {
  EXPECT_EQ(intent_label("math", ""), Intent::kMath);
  EXPECT_EQ(intent_label("creative_writing", "gsm8k/train"), Intent::kWriting);  // the category wins
  EXPECT_EQ(intent_label("unmapped", "gsm8k/train"), Intent::kMath);             // else the benchmark
  EXPECT_EQ(intent_label("", "mmlu/anatomy"), Intent::kKnowledgeQa);
  EXPECT_EQ(intent_label("", "mbpp"), Intent::kCoding);
  EXPECT_EQ(intent_label("unmapped", "unknown/x"), std::nullopt);
  EXPECT_EQ(intent_label("", ""), std::nullopt);
}

TEST(RouterTrainingTest, LearnsWhichRowsNeedTheCloud) {
  const std::vector<RoutingRow> rows = testing::synthetic_routing_rows(240);
  std::vector<std::string> progress;
  const RouterArtifact artifact =
      train_router(rows, {}, small_options(), [&](const std::string& m) { progress.push_back(m); });
  EXPECT_FALSE(progress.empty());
  ASSERT_FALSE(artifact.complexity.empty());
  // Two benchmarks with enough rows: an expert each behind the gate; four topics.
  ASSERT_EQ(artifact.complexity.experts().size(), 2u);
  EXPECT_EQ(artifact.complexity.gate().labels, (std::vector<std::string>{"alpha", "beta"}));
  EXPECT_EQ(artifact.complexity.topics().labels.size(), 4u);
  ASSERT_EQ(artifact.score_quantiles.size(), 101u);
  EXPECT_TRUE(std::is_sorted(artifact.score_quantiles.begin(), artifact.score_quantiles.end()));

  const std::vector<double> scores = score_rows(artifact, rows);
  ASSERT_EQ(scores.size(), rows.size());
  double hard = 0, easy = 0;
  size_t n_hard = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    (testing::is_hard(rows[i]) ? hard : easy) += scores[i];
    n_hard += testing::is_hard(rows[i]) ? 1 : 0;
  }
  EXPECT_GT(hard / static_cast<double>(n_hard), easy / static_cast<double>(rows.size() - n_hard));
  // Oracle APGR on this set is 5/6 (a third of the rows gain 1); random is 0.5.
  EXPECT_GT(apgr(rows, scores), 0.75);
  // Unseen prompts from the same distribution are ranked as well.
  const std::vector<RoutingRow> fresh = testing::synthetic_routing_rows(120, 77);
  EXPECT_GT(apgr(fresh, score_rows(artifact, fresh)), 0.75);
}

TEST(RouterTrainingTest, CrossValidatedScoresBeatRandom) {
  const std::vector<RoutingRow> rows = testing::synthetic_routing_rows(240, 2);
  const std::vector<double> scores = cross_validated_scores(rows, {}, small_options(), 3, 1);
  ASSERT_EQ(scores.size(), rows.size());
  EXPECT_GT(apgr(rows, scores), 0.7);
}

TEST(RouterTrainingTest, CloudWinsTargetAndPartsSwitchedOff) {
  RouterTrainOptions options = small_options();
  options.target = ComplexityTarget::kCloudWins;
  options.expert_weight = 0;
  options.topic_weight = 0;
  options.length_weight = 0;
  options.intent_features = false;
  const std::vector<RoutingRow> rows = testing::synthetic_routing_rows(180, 3);
  const RouterArtifact artifact = train_router(rows, {}, options);
  EXPECT_TRUE(artifact.complexity.experts().empty());
  EXPECT_EQ(artifact.complexity.expert_weight(), 0.0f);
  EXPECT_TRUE(artifact.complexity.topics().empty());
  EXPECT_EQ(artifact.complexity.global().target, ComplexityTarget::kCloudWins);
  EXPECT_EQ(artifact.complexity.global().first.dimension(), options.space.dimension());
  const std::vector<double> scores = score_rows(artifact, rows);
  for (double s : scores) {
    EXPECT_GE(s, 0.0);  // a probability
    EXPECT_LE(s, 1.0);
  }
  EXPECT_GT(apgr(rows, scores), 0.75);
}

// The gate's logits are scaled by gate_sharpness after training: the same
// gate, flatter, and nothing else changes.
TEST(RouterTrainingTest, GateSharpnessScalesTheGateLogits) {
  const std::vector<RoutingRow> rows = testing::synthetic_routing_rows(160, 6);
  const RouterArtifact a = train_small(rows, [](RouterTrainOptions& o) { o.gate_sharpness = 1.0f; });
  const RouterArtifact b = train_small(rows, [](RouterTrainOptions& o) { o.gate_sharpness = 0.5f; });
  const std::vector<float>& wa = a.complexity.gate().model.weights();
  const std::vector<float>& wb = b.complexity.gate().model.weights();
  ASSERT_FALSE(wa.empty());
  ASSERT_EQ(wa.size(), wb.size());
  for (size_t i = 0; i < wa.size(); ++i) ASSERT_EQ(wb[i], 0.5f * wa[i]) << i;
  EXPECT_EQ(a.complexity.global().first.weights(), b.complexity.global().first.weights());
  ASSERT_EQ(a.complexity.experts().size(), b.complexity.experts().size());
  for (size_t e = 0; e < a.complexity.experts().size(); ++e) {
    EXPECT_EQ(a.complexity.experts()[e].first.weights(), b.complexity.experts()[e].first.weights());
  }
  // Flatter: the most likely benchmark of each row is no more likely.
  SparseFeatures x;
  std::vector<float> pa(a.complexity.gate().labels.size()), pb(pa.size());
  size_t flatter = 0;
  for (const RoutingRow& row : rows) {
    extract_features(a.space, row.messages, x);
    a.complexity.gate().probabilities(x, pa);
    b.complexity.gate().probabilities(x, pb);
    const float top_a = *std::max_element(pa.begin(), pa.end());
    const float top_b = *std::max_element(pb.begin(), pb.end());
    EXPECT_LE(top_b, top_a + 1e-6f);
    flatter += top_b < top_a ? 1 : 0;
  }
  EXPECT_GT(flatter, 0u);
}

// Each expert's offset is expert_centering x (its mean gain over its own
// benchmark's rows - the global model's mean over all rows), and the
// experts' part of the score is the gate's blend of gain - offset.
TEST(RouterTrainingTest, ExpertOffsetsTakeOutEachExpertsOwnLevel) {
  const std::vector<RoutingRow> rows = testing::synthetic_routing_rows(160, 6);
  const RouterArtifact a = train_small(rows, [](RouterTrainOptions& o) { o.expert_centering = 0.0f; });
  const RouterArtifact b = train_small(rows, [](RouterTrainOptions& o) { o.expert_centering = 0.5f; });
  const ComplexityEstimator& c = b.complexity;
  ASSERT_EQ(c.experts().size(), 2u);
  ASSERT_EQ(c.expert_offsets().size(), 2u);
  EXPECT_EQ(a.complexity.expert_offsets(), std::vector<float>(2, 0.0f));

  std::map<std::string, std::pair<double, double>> own;  // per benchmark: sum of its expert's gain, rows
  double global_sum = 0;
  SparseFeatures x;
  for (const RoutingRow& row : rows) {
    extract_features(b.space, row.messages, x);
    const IntentResult intent = b.intent.classify(row.messages, x);
    global_sum += c.global().gain(x, intent);
    const std::string bench = row.source.substr(0, row.source.find('/'));
    const auto at = std::find(c.gate().labels.begin(), c.gate().labels.end(), bench);
    ASSERT_NE(at, c.gate().labels.end()) << bench;
    const size_t e = static_cast<size_t>(at - c.gate().labels.begin());
    own[bench].first += c.experts()[e].gain(x, intent);
    own[bench].second += 1;
  }
  const double global_mean = global_sum / static_cast<double>(rows.size());
  for (size_t e = 0; e < 2; ++e) {
    const auto& [sum, n] = own[c.gate().labels[e]];
    EXPECT_NEAR(c.expert_offsets()[e], 0.5 * (sum / n - global_mean), 1e-5) << c.gate().labels[e];
  }
  EXPECT_GT(std::abs(c.expert_offsets()[0] - c.expert_offsets()[1]), 1e-3f);

  // The blend: the gate and experts trained without offsets are the same;
  // the experts' part is theirs less the gate's blend of the offsets.
  ASSERT_EQ(a.complexity.experts()[0].first.weights(), c.experts()[0].first.weights());
  std::vector<float> p(2);
  for (size_t i = 0; i < rows.size(); i += 17) {
    extract_features(b.space, rows[i].messages, x);
    const IntentResult intent = b.intent.classify(rows[i].messages, x);
    c.gate().probabilities(x, p);
    const float offset = p[0] * c.expert_offsets()[0] + p[1] * c.expert_offsets()[1];
    EXPECT_NEAR(c.parts(x, intent).experts, a.complexity.parts(x, intent).experts - offset, 1e-5) << i;
  }
}

// A topic's value is its mean gain's distance from its benchmark's, net of
// the share topic_net_of_length of what the length term says about the
// topic: length weight x (its shrunk mean kLogChars - the benchmark's).
TEST(RouterTrainingTest, TopicValuesAreNetOfTheLengthTerm) {
  std::vector<RoutingRow> rows = testing::synthetic_routing_rows(160, 7);
  for (RoutingRow& row : rows) {
    if (row.source.ends_with("topic1")) row.messages.front().content += " and a long tail of further words to read";
  }
  RouterTrainOptions gross = small_options();
  gross.topic_net_of_length = 0.0f;
  gross.length_weight = 2.0f;
  RouterTrainOptions net = gross;
  net.topic_net_of_length = 1.0f;
  const TopicModel a = train_router(rows, {}, gross).complexity.topics();
  const TopicModel b = train_router(rows, {}, net).complexity.topics();
  ASSERT_EQ(a.labels, b.labels);
  ASSERT_EQ(a.labels.size(), 4u);

  std::map<std::string, std::pair<double, double>> topic, bench;  // sum of kLogChars, rows
  SparseFeatures x;
  for (const RoutingRow& row : rows) {
    extract_features(gross.space, row.messages, x);
    auto add = [&](std::pair<double, double>& s) { s.first += x.value[kLogChars], s.second += 1; };
    add(topic[row.source]);
    add(bench[row.source.substr(0, row.source.find('/'))]);
  }
  for (size_t t = 0; t < a.labels.size(); ++t) {
    const auto& [bench_sum, bench_n] = bench[a.labels[t].substr(0, a.labels[t].find('/'))];
    const auto& [topic_sum, topic_n] = topic[a.labels[t]];
    const double bench_mean = bench_sum / bench_n;
    const double shrunk = (topic_sum + gross.topic_shrinkage * bench_mean) / (topic_n + gross.topic_shrinkage);
    const double said = gross.length_weight / gross.topic_weight * (shrunk - bench_mean);
    EXPECT_NEAR(a.values[t] - b.values[t], said, 1e-5) << a.labels[t];
    if (a.labels[t].ends_with("topic1")) {
      EXPECT_GT(said, 0.01) << a.labels[t];
    }
  }
}

// Rows with an edge-model embedding get an embedding part that learns from
// it, stored with the edge model's fingerprint, and it survives the file.
TEST(RouterTrainingTest, EmbeddingPartLearnsFromTheEdgeModelsEmbedding) {
  std::vector<RoutingRow> rows = testing::synthetic_routing_rows(200, 8);
  // Four dimensions; the first says whether the row is hard, the rest vary.
  for (size_t i = 0; i < rows.size(); ++i) {
    const float wobble = static_cast<float>(i % 7) / 7.0f;
    rows[i].embedding = {testing::is_hard(rows[i]) ? 0.8f : -0.8f, 0.3f * wobble, 0.2f - 0.2f * wobble, 0.1f};
  }
  RouterTrainOptions options = small_options();
  options.edge_model = "synthetic-edge, n_embd 4";
  const RouterArtifact artifact = train_router(rows, {}, options);
  const EmbeddingPart& part = artifact.complexity.embedding();
  ASSERT_FALSE(part.empty());
  EXPECT_EQ(part.dimension, 4u);
  EXPECT_EQ(part.edge_model, options.edge_model);
  EXPECT_EQ(artifact.complexity.embedding_weight(), options.embedding_weight);
  const std::vector<float> hard = {0.8f, 0.1f, 0.1f, 0.1f}, easy = {-0.8f, 0.1f, 0.1f, 0.1f};
  EXPECT_GT(part.score(hard), part.score(easy) + 0.1f);
  EXPECT_EQ(part.score(std::vector<float>{0.8f, 0.1f}), 0.0f);  // another size: an average request

  // Scored with their embeddings, rows differ from scored without.
  std::vector<RoutingRow> bare = rows;
  for (RoutingRow& row : bare) row.embedding.clear();
  EXPECT_NE(score_rows(artifact, rows), score_rows(artifact, bare));

  const testing::ScratchDir dir;
  const std::string path = dir.file("router.json");
  ASSERT_TRUE(save_router_artifact(artifact, path).is_ok());
  auto loaded = load_router_artifact(path);
  ASSERT_TRUE(loaded.is_ok()) << loaded.status().message();
  EXPECT_EQ(loaded->complexity.embedding().edge_model, options.edge_model);
  EXPECT_EQ(score_rows(*loaded, rows), score_rows(artifact, rows));

  // The gateway's path: SignalExtractor asks the embedder when the artifact
  // has an embedding part, and counts a request it cannot embed as average.
  const auto shared = std::make_shared<const RouterArtifact>(artifact);
  int calls = 0;
  const SignalExtractor with(shared, [&](const std::vector<ChatMessage>&, std::vector<float>& out) {
    ++calls;
    out = hard;
    return true;
  });
  const RequestSignals embedded = with.assess(rows[0].messages);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(embedded.complexity.embedding, part.score(hard));
  EXPECT_NE(embedded.complexity.gain, SignalExtractor(shared).assess(rows[0].messages).complexity.gain);
  const SignalExtractor failing(shared, [](const std::vector<ChatMessage>&, std::vector<float>&) { return false; });
  EXPECT_EQ(failing.assess(rows[0].messages).complexity.embedding, 0.0f);

  // Off: no part, even with embeddings, and the embedder is never asked.
  options.embedding_weight = 0;
  const auto without = std::make_shared<const RouterArtifact>(train_router(rows, {}, options));
  EXPECT_TRUE(without->complexity.embedding().empty());
  const SignalExtractor unused(without, [&](const std::vector<ChatMessage>&, std::vector<float>&) {
    ++calls;
    return true;
  });
  unused.assess(rows[0].messages);
  EXPECT_EQ(calls, 1);
}

TEST(RouterTrainingTest, TrainsIntentFromLabelledRowsAndPrompts) {
  // Routing rows labelled through their category, plus labelled prompts.
  std::vector<RoutingRow> rows = testing::synthetic_routing_rows(120, 4, "creative_writing");
  std::vector<PromptRow> prompts;
  for (int i = 0; i < 60; ++i) {
    PromptRow p;
    p.id = "p";
    p.id += std::to_string(i);
    p.category = "gsm8k";
    std::string text = "equation number ";
    text.append(std::to_string(i)).append(" multiply and add fractions");
    p.messages = {{Role::kUser, text}};
    prompts.push_back(std::move(p));
  }
  const RouterArtifact artifact = train_router(rows, prompts, small_options());
  ASSERT_TRUE(artifact.intent.has_model());
  SparseFeatures features;
  const std::vector<ChatMessage> math = {{Role::kUser, "equation number 1000 multiply and add fractions"}};
  extract_features(artifact.space, math, features);
  EXPECT_EQ(artifact.intent.classify(math, features).intent, Intent::kMath);
  extract_features(artifact.space, rows[0].messages, features);
  EXPECT_EQ(artifact.intent.classify(rows[0].messages, features).intent, Intent::kWriting);
}

TEST(RouterTrainingTest, DeterministicForGivenInputs) {
  const std::vector<RoutingRow> rows = testing::synthetic_routing_rows(120, 5);
  const RouterArtifact a = train_router(rows, {}, small_options());
  const RouterArtifact b = train_router(rows, {}, small_options());
  EXPECT_EQ(score_rows(a, rows), score_rows(b, rows));
  EXPECT_EQ(a.score_quantiles, b.score_quantiles);
  EXPECT_EQ(cross_validated_scores(rows, {}, small_options(), 2, 9), cross_validated_scores(rows, {}, small_options(), 2, 9));
}

TEST(SignalExtractorTest, WithoutArtifactOnlyCues) {
  const SignalExtractor extractor;
  EXPECT_FALSE(extractor.learned());
  const RequestSignals s = extractor.assess({{Role::kUser, "Summarize the following text about rivers."}});
  EXPECT_FALSE(s.learned);
  EXPECT_EQ(s.intent.intent, Intent::kSummarization);
  EXPECT_EQ(s.complexity.gain, 0.0f);
  EXPECT_GT(s.prompt_tokens, 0);
}

TEST(SignalExtractorTest, WithArtifactMatchesScoreRows) {
  const std::vector<RoutingRow> rows = testing::synthetic_routing_rows(120, 6);
  auto artifact = std::make_shared<const RouterArtifact>(train_router(rows, {}, small_options()));
  const SignalExtractor extractor(artifact);
  EXPECT_TRUE(extractor.learned());
  ASSERT_FALSE(artifact->complexity.gate().empty()) << "the extractor scores intent and gate in one pass";
  // The one-pass scoring gives exactly what scoring them apart gives.
  const std::vector<double> scores = score_rows(*artifact, rows);
  for (size_t i = 0; i < 20; ++i) {
    const RequestSignals s = extractor.assess(rows[i].messages);
    EXPECT_TRUE(s.learned);
    EXPECT_EQ(s.complexity.gain, static_cast<float>(scores[i]));
    SparseFeatures x;
    extract_features(artifact->space, rows[i].messages, x);
    EXPECT_EQ(s.intent.probabilities, artifact->intent.classify(rows[i].messages, x).probabilities);
    EXPECT_GT(s.prompt_tokens, 0);
  }
}

// The familiarity guard: requests like the training rows keep the learned
// score; requests like none of them get the length fallback, so that among
// them the longer one is preferred for the cloud exactly as far as the
// training rows' scores grew with length.
TEST(RouterTrainingTest, UnfamiliarRequestsAreScoredByLength) {
  const std::vector<RoutingRow> rows = testing::synthetic_routing_rows(240, 4);
  const RouterArtifact artifact = train_router(rows, {}, small_options());
  const FamiliarityModel& f = artifact.complexity.familiarity();
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f.labels.size(), 2u);  // alpha and beta, 120 rows each
  const SignalExtractor extractor(std::make_shared<const RouterArtifact>(artifact));

  // Fresh rows of the training distribution: familiar, scored as learned.
  const std::vector<RoutingRow> fresh = testing::synthetic_routing_rows(100, 99);
  size_t familiar = 0;
  for (const RoutingRow& row : fresh) familiar += extractor.assess(row.messages).complexity.familiarity == 1.0f ? 1 : 0;
  EXPECT_GE(familiar, 90u);

  // Code with its own words, symbols and layout: nothing like the training rows.
  auto unfamiliar = [](int lines) {
    std::string code;
    for (int i = 0; i < lines; ++i) code += "def f" + std::to_string(i) + "(x):\n    return {x: [x * 2]}  # " + std::to_string(i) + "\n";
    return std::vector<ChatMessage>{{Role::kUser, code}};
  };
  for (int lines : {2, 8, 30}) {
    const std::vector<ChatMessage> request = unfamiliar(lines);
    const RequestSignals s = extractor.assess(request);
    EXPECT_EQ(s.complexity.familiarity, 0.0f) << lines << " lines";
    SparseFeatures x;
    extract_features(artifact.space, request, x);
    const float fallback = f.intercept + f.slope * x.value[kLogChars] * 10.0f;
    EXPECT_NEAR(s.complexity.gain, fallback, 1e-5) << lines << " lines";
  }
  const float short_gain = extractor.assess(unfamiliar(2)).complexity.gain;
  const float long_gain = extractor.assess(unfamiliar(30)).complexity.gain;
  if (f.slope > 0) {
    EXPECT_GT(long_gain, short_gain);
  } else if (f.slope < 0) {
    EXPECT_LT(long_gain, short_gain);
  }

  // At inference the cosines are accumulated while the terms are counted;
  // they equal the cosines of the unit term vectors training compares
  // (familiar_terms), so the thresholds learned there apply here. Wide
  // thresholds keep w = (cosine + 1) / 2 unclamped, so w shows the cosine.
  FamiliarityModel wide = f;
  wide.low.assign(f.labels.size(), -1.0f);
  wide.high.assign(f.labels.size(), 1.0f);
  for (int lines : {1, 4, 12}) {
    for (const std::vector<ChatMessage>& request : {unfamiliar(lines), fresh[static_cast<size_t>(lines)].messages}) {
      SparseFeatures x;
      extract_features(artifact.space, request, x);
      std::vector<std::pair<uint32_t, float>> terms;
      familiar_terms(x, f.buckets, terms);
      float best = -1;
      for (size_t l = 0; l < f.labels.size(); ++l) {
        float cosine = 0;
        for (const auto& [slot, weight] : terms) cosine += weight * f.centroids[size_t{slot} * f.labels.size() + l];
        best = std::max(best, cosine);
      }
      size_t nearest = 0;
      EXPECT_NEAR(wide.familiarity(x, nearest), (best + 1.0f) / 2.0f, 1e-5) << lines << " lines";
    }
  }

  // Switched off, nothing is stored and every request keeps the learned score.
  RouterTrainOptions off = small_options();
  off.familiarity = false;
  EXPECT_TRUE(train_router(rows, {}, off).complexity.familiarity().empty());
}

}  // namespace
}  // namespace tiergate
