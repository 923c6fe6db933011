#include "tiergate/signals/router_artifact.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tiergate/core/file_output.h"

namespace tiergate {
namespace {

using nlohmann::json;

constexpr char kFormat[] = "tiergate-router";
constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static_assert(std::endian::native == std::endian::little, "weights are stored little-endian");

std::string encode_floats(const std::vector<float>& values) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
  const size_t n = values.size() * sizeof(float);
  std::string out;
  out.reserve((n + 2) / 3 * 4);
  for (size_t i = 0; i < n; i += 3) {
    uint32_t chunk = uint32_t{bytes[i]} << 16;
    if (i + 1 < n) chunk |= uint32_t{bytes[i + 1]} << 8;
    if (i + 2 < n) chunk |= bytes[i + 2];
    out.push_back(kBase64[(chunk >> 18) & 63]);
    out.push_back(kBase64[(chunk >> 12) & 63]);
    out.push_back(i + 1 < n ? kBase64[(chunk >> 6) & 63] : '=');
    out.push_back(i + 2 < n ? kBase64[chunk & 63] : '=');
  }
  return out;
}

StatusOr<std::vector<float>> decode_floats(const std::string& text, size_t expected, const std::string& what) {
  int8_t value_of[256];
  std::fill(std::begin(value_of), std::end(value_of), int8_t{-1});
  for (int i = 0; i < 64; ++i) value_of[static_cast<unsigned char>(kBase64[i])] = static_cast<int8_t>(i);
  std::vector<unsigned char> bytes;
  bytes.reserve(text.size() / 4 * 3);
  uint32_t chunk = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=') break;
    const int8_t v = value_of[static_cast<unsigned char>(c)];
    if (v < 0) return invalid_argument(what + ": not base64");
    chunk = (chunk << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push_back(static_cast<unsigned char>((chunk >> bits) & 0xff));
    }
  }
  if (bytes.size() != expected * sizeof(float)) {
    return invalid_argument(what + ": " + std::to_string(bytes.size() / sizeof(float)) + " weights, expected " +
                            std::to_string(expected));
  }
  std::vector<float> values(expected);
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

Status check(bool ok, const std::string& message) { return ok ? Status::ok() : invalid_argument(message); }

json gain_model_json(const GainModel& m) {
  json out = {{"target", complexity_target_name(m.target)},
              {"intent_features", m.intent_features},
              {"dimension", m.first.dimension()},
              {"first", encode_floats(m.first.weights())}};
  if (m.target == ComplexityTarget::kTierGap) out["second"] = encode_floats(m.second.weights());
  return out;
}

// Throws json::exception on missing keys (caught by the caller).
StatusOr<GainModel> read_gain_model(const json& j, uint32_t feature_dimension, const std::string& what) {
  GainModel m;
  auto target = parse_complexity_target(j.at("target").get<std::string>());
  if (!target) return invalid_argument(what + ": unknown target " + j["target"].dump());
  m.target = *target;
  m.intent_features = j.at("intent_features").get<bool>();
  const uint32_t dimension = feature_dimension + (m.intent_features ? static_cast<uint32_t>(kIntentFeatures) : 0);
  if (j.at("dimension").get<uint32_t>() != dimension) return invalid_argument(what + ": dimension differs");
  auto first = decode_floats(j.at("first").get<std::string>(), dimension, what + ".first");
  if (!first.is_ok()) return first.status();
  m.first = LogisticModel(std::move(*first));
  if (m.target == ComplexityTarget::kTierGap) {
    auto second = decode_floats(j.at("second").get<std::string>(), dimension, what + ".second");
    if (!second.is_ok()) return second.status();
    m.second = LogisticModel(std::move(*second));
  }
  return m;
}

json mixture_json(const LabelMixture& m) {
  return {{"labels", m.labels},
          {"values", m.values},
          {"buckets", m.model.dimension() - kDenseFeatures},
          {"weights", encode_floats(m.model.weights())}};
}

StatusOr<LabelMixture> read_mixture(const json& j, const std::string& what) {
  LabelMixture m;
  m.labels = j.at("labels").get<std::vector<std::string>>();
  m.values = j.at("values").get<std::vector<float>>();
  const uint32_t buckets = j.at("buckets").get<uint32_t>();
  if (m.labels.empty() || m.labels.size() > LabelMixture::kMaxLabels || m.values.size() != m.labels.size()) {
    return invalid_argument(what + ": labels and values must match, 1.." + std::to_string(LabelMixture::kMaxLabels));
  }
  if (!std::has_single_bit(buckets)) return invalid_argument(what + ": buckets must be a power of two");
  const uint32_t classes = static_cast<uint32_t>(m.labels.size());
  auto weights = decode_floats(j.at("weights").get<std::string>(), size_t{kDenseFeatures + buckets} * classes,
                               what + ".weights");
  if (!weights.is_ok()) return weights.status();
  m.model = SoftmaxModel(classes, std::move(*weights), FeatureRange::kTaskUnigrams);
  return m;
}

StatusOr<FamiliarityModel> read_familiarity(const json& j, const std::string& what) {
  FamiliarityModel f;
  f.labels = j.at("labels").get<std::vector<std::string>>();
  f.low = j.at("low").get<std::vector<float>>();
  f.high = j.at("high").get<std::vector<float>>();
  f.intercepts = j.at("intercepts").get<std::vector<float>>();
  f.intercept = j.at("intercept").get<float>();
  f.slope = j.at("slope").get<float>();
  const size_t n = f.labels.size();
  if (n == 0 || n > FamiliarityModel::kMaxLabels || f.low.size() != n || f.high.size() != n ||
      f.intercepts.size() != n) {
    return invalid_argument(what + ": labels, low, high and intercepts must match, 1.." +
                            std::to_string(FamiliarityModel::kMaxLabels));
  }
  for (size_t l = 0; l < n; ++l) {
    if (!(f.high[l] > f.low[l])) return invalid_argument(what + ": high must exceed low for " + f.labels[l]);
  }
  f.buckets = j.at("buckets").get<uint32_t>();
  if (!std::has_single_bit(f.buckets)) return invalid_argument(what + ": buckets must be a power of two");
  auto centroids = decode_floats(j.at("centroids").get<std::string>(), size_t{f.buckets} * n, what + ".centroids");
  if (!centroids.is_ok()) return centroids.status();
  f.centroids = std::move(*centroids);
  return f;
}

}  // namespace

Status save_router_artifact(const RouterArtifact& artifact, const std::string& path) {
  json doc;
  doc["format"] = kFormat;
  doc["version"] = kRouterArtifactVersion;
  doc["feature_set"] = kFeatureSetVersion;
  doc["buckets"] = artifact.space.buckets;
  doc["bigrams"] = artifact.space.bigrams;
  if (artifact.intent.has_model()) {
    json classes = json::array();
    for (size_t k = 0; k < kIntentCount; ++k) classes.push_back(intent_name(static_cast<Intent>(k)));
    doc["intent"] = {{"classes", classes},
                     {"buckets", artifact.intent.model().dimension() - kDenseFeatures},
                     {"weights", encode_floats(artifact.intent.model().weights())}};
  } else {
    doc["intent"] = nullptr;
  }
  const ComplexityEstimator& c = artifact.complexity;
  json complexity = {{"global", gain_model_json(c.global())}, {"length_weight", c.length_weight()}};
  if (c.expert_weight() > 0.0f) {
    json models = json::array();
    for (const GainModel& m : c.experts()) models.push_back(gain_model_json(m));
    complexity["experts"] = {{"weight", c.expert_weight()}, {"gate", mixture_json(c.gate())}, {"models", models},
                             {"offsets", c.expert_offsets()}};
  }
  if (c.topic_weight() > 0.0f) {
    complexity["topics"] = {{"weight", c.topic_weight()},
                            {"labels", c.topics().labels},
                            {"values", c.topics().values},
                            {"dimension", c.topics().model.dimension()},
                            {"model", encode_floats(c.topics().model.weights())}};
  }
  if (const EmbeddingPart& e = c.embedding(); !e.empty() && c.embedding_weight() > 0.0f) {
    complexity["embedding"] = {{"weight", c.embedding_weight()},
                               {"edge_model", e.edge_model},
                               {"dimension", e.dimension},
                               {"mean_gain", e.mean_gain},
                               {"model", gain_model_json(e.gain)}};
  }
  if (const FamiliarityModel& f = c.familiarity(); !f.empty()) {
    complexity["familiarity"] = {{"labels", f.labels},
                                 {"buckets", f.buckets},
                                 {"centroids", encode_floats(f.centroids)},
                                 {"low", f.low},
                                 {"high", f.high},
                                 {"intercepts", f.intercepts},
                                 {"intercept", f.intercept},
                                 {"slope", f.slope}};
  }
  doc["complexity"] = complexity;
  doc["calibration"] = {{"score_quantiles", artifact.score_quantiles}};
  json training = json::parse(artifact.training_json, nullptr, false);
  doc["training"] = training.is_discarded() ? json::object() : training;

  return write_file_atomically(path, doc.dump() + "\n");
}

StatusOr<RouterArtifact> load_router_artifact(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return not_found(path + ": cannot open the router artifact (train one with `tiergate router train`)");
  std::stringstream text;
  text << in.rdbuf();
  json doc = json::parse(text.str(), nullptr, false);
  const std::string prefix = path + ": ";
  // Compared as JSON, not read with value(), which throws on a non-string.
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("format") || doc["format"] != kFormat) {
    return invalid_argument(prefix + "not a tiergate router artifact");
  }
  if (!doc["version"].is_number_integer() || doc["version"].get<int>() != kRouterArtifactVersion) {
    return failed_precondition(prefix + "artifact version " + doc["version"].dump() + ", this tiergate reads version " +
                               std::to_string(kRouterArtifactVersion) + " (retrain with `tiergate router train`)");
  }
  if (!doc["feature_set"].is_number_integer() || doc["feature_set"].get<int>() != kFeatureSetVersion) {
    return failed_precondition(prefix + "trained on feature set " + doc["feature_set"].dump() +
                               ", this tiergate computes feature set " + std::to_string(kFeatureSetVersion) +
                               " (retrain with `tiergate router train`)");
  }
  try {
    RouterArtifact artifact;
    const uint32_t buckets = doc.at("buckets").get<uint32_t>();
    if (Status s = check(buckets >= 16 && std::has_single_bit(buckets), prefix + "`buckets` must be a power of two >= 16");
        !s.is_ok()) {
      return s;
    }
    artifact.space.buckets = buckets;
    artifact.space.bigrams = doc.value("bigrams", true);
    const uint32_t dimension = artifact.space.dimension();
    if (!doc.at("intent").is_null()) {
      const json& intent = doc["intent"];
      const json& classes = intent.at("classes");
      if (Status s = check(classes.is_array() && classes.size() == kIntentCount, prefix + "intent classes differ");
          !s.is_ok()) {
        return s;
      }
      for (size_t k = 0; k < kIntentCount; ++k) {
        if (classes[k].get<std::string>() != intent_name(static_cast<Intent>(k))) {
          return failed_precondition(prefix + "intent class " + std::to_string(k) + " is '" +
                                     classes[k].get<std::string>() + "', expected '" +
                                     std::string(intent_name(static_cast<Intent>(k))) + "'");
        }
      }
      const uint32_t intent_buckets = intent.at("buckets").get<uint32_t>();
      if (Status s = check(std::has_single_bit(intent_buckets) && intent_buckets <= buckets,
                           prefix + "intent.buckets must be a power of two no larger than `buckets`");
          !s.is_ok()) {
        return s;
      }
      auto weights = decode_floats(intent.at("weights").get<std::string>(),
                                   size_t{kDenseFeatures + intent_buckets} * kIntentCount,
                                   prefix + "intent.weights");
      if (!weights.is_ok()) return weights.status();
      artifact.intent = IntentClassifier(SoftmaxModel(kIntentCount, std::move(*weights), FeatureRange::kTaskUnigrams));
    }
    const json& c = doc.at("complexity");
    auto global = read_gain_model(c.at("global"), dimension, prefix + "complexity.global");
    if (!global.is_ok()) return global.status();
    artifact.complexity = ComplexityEstimator(std::move(*global));
    artifact.complexity.set_length_weight(c.value("length_weight", 0.0f));
    if (c.contains("experts")) {
      const json& e = c["experts"];
      auto gate = read_mixture(e.at("gate"), prefix + "complexity.experts.gate");
      if (!gate.is_ok()) return gate.status();
      std::vector<GainModel> models;
      for (const json& m : e.at("models")) {
        auto model = read_gain_model(m, dimension, prefix + "complexity.experts.models");
        if (!model.is_ok()) return model.status();
        models.push_back(std::move(*model));
      }
      if (models.size() != gate->labels.size()) return invalid_argument(prefix + "one expert per gate label expected");
      if (models.size() + 1 > kMaxGainModels) {
        return invalid_argument(prefix + "more than " + std::to_string(kMaxGainModels - 1) + " experts");
      }
      std::vector<float> offsets = e.value("offsets", std::vector<float>(models.size(), 0.0f));
      if (offsets.size() != models.size()) return invalid_argument(prefix + "one offset per expert expected");
      artifact.complexity.set_experts(std::move(*gate), std::move(models), e.at("weight").get<float>(),
                                      std::move(offsets));
    }
    if (c.contains("topics")) {
      const json& t = c["topics"];
      TopicModel topics;
      topics.labels = t.at("labels").get<std::vector<std::string>>();
      topics.values = t.at("values").get<std::vector<float>>();
      if (topics.labels.size() != topics.values.size()) {
        return invalid_argument(prefix + "complexity.topics: labels and values must match");
      }
      const uint32_t expected = artifact.complexity.global().first.dimension();
      if (t.at("dimension").get<uint32_t>() != expected) {
        return invalid_argument(prefix + "complexity.topics: dimension differs from the gain models'");
      }
      auto weights = decode_floats(t.at("model").get<std::string>(), expected, prefix + "complexity.topics.model");
      if (!weights.is_ok()) return weights.status();
      topics.model = LogisticModel(std::move(*weights));
      artifact.complexity.set_topic_model(std::move(topics), t.at("weight").get<float>());
    }
    if (c.contains("embedding")) {
      const json& e = c["embedding"];
      EmbeddingPart part;
      part.edge_model = e.at("edge_model").get<std::string>();
      part.dimension = e.at("dimension").get<uint32_t>();
      part.mean_gain = e.at("mean_gain").get<float>();
      if (part.dimension == 0 || part.dimension > (1u << 16)) {
        return invalid_argument(prefix + "complexity.embedding.dimension must be in 1..65536");
      }
      auto gain = read_gain_model(e.at("model"), part.dimension + 1, prefix + "complexity.embedding.model");
      if (!gain.is_ok()) return gain.status();
      if (gain->intent_features) return invalid_argument(prefix + "complexity.embedding.model must not read intents");
      part.gain = std::move(*gain);
      artifact.complexity.set_embedding(std::move(part), e.at("weight").get<float>());
    }
    if (c.contains("familiarity")) {
      auto familiarity = read_familiarity(c["familiarity"], prefix + "complexity.familiarity");
      if (!familiarity.is_ok()) return familiarity.status();
      artifact.complexity.set_familiarity(std::move(*familiarity));
    }
    artifact.score_quantiles = doc.at("calibration").at("score_quantiles").get<std::vector<float>>();
    if (Status s = check(artifact.score_quantiles.empty() || artifact.score_quantiles.size() == 101,
                         prefix + "calibration.score_quantiles must have 101 values");
        !s.is_ok()) {
      return s;
    }
    artifact.training_json = doc.contains("training") ? doc["training"].dump() : "{}";
    return artifact;
  } catch (const json::exception& e) {
    return invalid_argument(prefix + "malformed artifact: " + e.what());
  }
}

std::vector<float> score_quantiles(std::vector<double> scores) {
  std::vector<float> quantiles;
  if (scores.empty()) return quantiles;
  std::sort(scores.begin(), scores.end());
  for (int i = 0; i <= 100; ++i) {
    const double position = static_cast<double>(i) / 100.0 * static_cast<double>(scores.size() - 1);
    const size_t low = static_cast<size_t>(position);
    const size_t high = std::min(low + 1, scores.size() - 1);
    const double fraction = position - static_cast<double>(low);
    quantiles.push_back(static_cast<float>(scores[low] + (scores[high] - scores[low]) * fraction));
  }
  return quantiles;
}

double threshold_for_cloud_share(std::span<const float> quantiles, double cloud_share) {
  const double share = std::clamp(cloud_share, 0.0, 1.0);
  if (share <= 0.0) return quantiles.back() + 1.0;  // above every score: nothing goes to the cloud
  if (share >= 1.0) return quantiles.front() - 1.0;
  const double position = (1.0 - share) * 100.0;
  const size_t low = static_cast<size_t>(position);
  const size_t high = std::min<size_t>(low + 1, 100);
  const double fraction = position - static_cast<double>(low);
  return quantiles[low] + (quantiles[high] - quantiles[low]) * fraction;
}

}  // namespace tiergate
