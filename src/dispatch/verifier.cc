#include "tiergate/dispatch/verifier.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace tiergate {
namespace {

using json = nlohmann::json;

constexpr std::string_view kFormat = "tiergate-verifier";
constexpr int kVersion = 1;
// The dense inputs, in order (weights_ and the file's "weights" object).
constexpr const char* kDenseNames[] = {"bias",       "mean_logprob", "min_logprob", "mean_entropy",
                                       "repetition", "stopped",      "router_prior"};
// The uncalibrated starting point (see the header): in units of the inputs.
constexpr double kDefaultWeights[] = {2.0, 1.5, 0.1, -0.8, -3.0, 0.5, -2.0};

double sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }

double entropy_of(const TokenLogprob& t) {
  if (t.top.empty()) return 0;
  double h = 0;
  for (const TopLogprob& a : t.top) {
    const double p = std::exp(a.logprob);
    if (p > 0) h -= p * a.logprob;
  }
  return h;
}

json features_object(const DraftFeatures& f) {
  return {{"tokens", f.tokens},         {"mean_logprob", f.mean_logprob}, {"min_logprob", f.min_logprob},
          {"mean_entropy", f.mean_entropy}, {"repetition", f.repetition}, {"stopped", f.stopped},
          {"router_prior", f.router_prior}, {"intent", f.intent}};
}

// Reads a "features" object; false with `error` set when a field is missing
// or of the wrong type.
bool read_features(const json& j, DraftFeatures& f, std::string& error) {
  if (!j.is_object()) {
    error = "\"features\" must be an object";
    return false;
  }
  auto number = [&](const char* key, double& out) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number()) {
      error = std::string("features.") + key + " must be a number";
      return false;
    }
    out = it->get<double>();
    return true;
  };
  double tokens = 0;
  if (!number("mean_logprob", f.mean_logprob) || !number("min_logprob", f.min_logprob) ||
      !number("mean_entropy", f.mean_entropy) || !number("repetition", f.repetition) ||
      !number("router_prior", f.router_prior)) {
    return false;
  }
  if (auto it = j.find("tokens"); it != j.end() && number("tokens", tokens)) f.tokens = static_cast<int>(tokens);
  auto stopped = j.find("stopped");
  if (stopped == j.end() || !stopped->is_boolean()) {
    error = "features.stopped must be true or false";
    return false;
  }
  f.stopped = stopped->get<bool>();
  if (auto it = j.find("intent"); it != j.end()) {
    if (!it->is_string()) {
      error = "features.intent must be a string";
      return false;
    }
    f.intent = it->get<std::string>();
  }
  return true;
}

}  // namespace

DraftFeatures draft_features(std::span<const TokenLogprob> tokens, bool finished_by_model, double router_prior,
                             std::string intent) {
  DraftFeatures f;
  f.tokens = static_cast<int>(tokens.size());
  f.stopped = finished_by_model;
  f.router_prior = router_prior;
  f.intent = std::move(intent);
  if (tokens.empty()) return f;
  double sum = 0, entropy = 0;
  f.min_logprob = 0;
  for (const TokenLogprob& t : tokens) {
    sum += t.logprob;
    f.min_logprob = std::min(f.min_logprob, t.logprob);
    entropy += entropy_of(t);
  }
  const auto n = static_cast<double>(tokens.size());
  f.mean_logprob = sum / n;
  f.mean_entropy = entropy / n;
  // Repeated 3-token windows: a draft stuck in a loop repeats most of them.
  if (tokens.size() >= 4) {
    std::set<std::string> seen;
    size_t windows = 0, repeated = 0;
    for (size_t i = 0; i + 3 <= tokens.size(); ++i, ++windows) {
      std::string key = tokens[i].token + '\x1f' + tokens[i + 1].token + '\x1f' + tokens[i + 2].token;
      if (!seen.insert(std::move(key)).second) ++repeated;
    }
    f.repetition = static_cast<double>(repeated) / static_cast<double>(windows);
  }
  return f;
}

Verifier::Verifier() : weights_(std::begin(kDefaultWeights), std::end(kDefaultWeights)) {}

std::vector<double> Verifier::dense_inputs(const DraftFeatures& f) const {
  return {1.0, f.mean_logprob, f.min_logprob, f.mean_entropy, f.repetition, f.stopped ? 1.0 : 0.0, f.router_prior};
}

double Verifier::confidence(const DraftFeatures& f) const {
  const std::vector<double> x = dense_inputs(f);
  double z = 0;
  for (size_t i = 0; i < kDense; ++i) z += weights_[i] * x[i];
  if (auto it = intent_weights_.find(f.intent); it != intent_weights_.end()) z += it->second;
  return sigmoid(z);
}

std::string Verifier::to_json() const {
  json weights = json::object();
  for (size_t i = 0; i < kDense; ++i) weights[kDenseNames[i]] = weights_[i];
  json out = {{"format", kFormat},  {"version", kVersion},     {"weights", weights},
              {"intent_weights", intent_weights_}, {"threshold", threshold_}, {"calibrated", calibrated_}};
  if (calibration_) {
    out["calibration"] = {{"rows", calibration_->rows},
                          {"target_quality", calibration_->target_quality},
                          {"accepted_share", calibration_->accepted_share},
                          {"accepted_quality", calibration_->accepted_quality},
                          {"base_quality", calibration_->base_quality}};
  }
  return out.dump(2) + "\n";
}

StatusOr<Verifier> Verifier::parse(std::string_view text, const std::string& source) {
  json j = json::parse(text, nullptr, false);
  auto bad = [&](const std::string& what) { return invalid_argument(source + ": " + what); };
  if (j.is_discarded() || !j.is_object()) return bad("not a JSON object (a verifier file from tiergate verifier calibrate)");
  if (j.value("format", "") != kFormat) return bad("not a verifier file (\"format\" is not \"tiergate-verifier\")");
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != kVersion) {
    return bad("verifier file version " + (j.contains("version") ? j["version"].dump() : std::string("missing")) +
               "; this build reads version " + std::to_string(kVersion) + " (recalibrate)");
  }
  Verifier v;
  const json& weights = j.value("weights", json::object());
  for (size_t i = 0; i < kDense; ++i) {
    auto it = weights.find(kDenseNames[i]);
    if (it == weights.end() || !it->is_number()) return bad(std::string("weights.") + kDenseNames[i] + " must be a number");
    v.weights_[i] = it->get<double>();
  }
  if (auto iw = j.find("intent_weights"); iw != j.end()) {
    if (!iw->is_object()) return bad("intent_weights must be an object of numbers");
    for (const auto& [name, w] : iw->items()) {
      if (!w.is_number()) return bad("intent_weights." + name + " must be a number");
      v.intent_weights_[name] = w.get<double>();
    }
  }
  if (!j.contains("threshold") || !j["threshold"].is_number()) return bad("threshold must be a number");
  v.threshold_ = j["threshold"].get<double>();
  v.calibrated_ = j.value("calibrated", false);
  if (auto c = j.find("calibration"); c != j.end() && c->is_object()) {
    v.calibration_ = Calibration{c->value("rows", size_t{0}), c->value("target_quality", 0.0),
                                 c->value("accepted_share", 0.0), c->value("accepted_quality", 0.0),
                                 c->value("base_quality", 0.0)};
  }
  return v;
}

StatusOr<Verifier> Verifier::calibrate(std::span<const VerifierRow> rows, double target_quality) {
  if (rows.empty()) return invalid_argument("no labelled rows to calibrate on");
  if (!(target_quality > 0 && target_quality <= 1)) {
    return invalid_argument("--target-quality must be in (0, 1], got " + std::to_string(target_quality));
  }
  size_t good = 0;
  for (const VerifierRow& r : rows) good += r.good ? 1 : 0;
  if (good == 0 || good == rows.size()) {
    return invalid_argument("the rows are all " + std::string(good == 0 ? "bad" : "good") +
                            " drafts: calibration needs both outcomes");
  }

  // Logistic regression by batch gradient descent on standardised inputs
  // (weights turned back into the inputs' units after), with a little L2 so
  // that separable data keeps finite weights.
  Verifier v;
  std::vector<std::string> intents;
  for (const VerifierRow& r : rows) {
    if (!r.features.intent.empty() &&
        std::find(intents.begin(), intents.end(), r.features.intent) == intents.end()) {
      intents.push_back(r.features.intent);
    }
  }
  const size_t dense = kDense, width = kDense + intents.size();
  const auto n = static_cast<double>(rows.size());
  std::vector<std::vector<double>> x(rows.size());
  std::vector<double> mean(width, 0), scale(width, 1);
  for (size_t i = 0; i < rows.size(); ++i) {
    x[i] = v.dense_inputs(rows[i].features);
    x[i].resize(width, 0);
    for (size_t k = 0; k < intents.size(); ++k) x[i][dense + k] = rows[i].features.intent == intents[k] ? 1 : 0;
  }
  for (size_t c = 1; c < width; ++c) {
    double m = 0, s = 0;
    for (const auto& xi : x) m += xi[c];
    m /= n;
    for (const auto& xi : x) s += (xi[c] - m) * (xi[c] - m);
    s = std::sqrt(s / n);
    mean[c] = m;
    scale[c] = s > 1e-9 ? s : 1;
  }
  for (auto& xi : x) {
    for (size_t c = 1; c < width; ++c) xi[c] = (xi[c] - mean[c]) / scale[c];
  }
  std::vector<double> w(width, 0);
  constexpr int kSteps = 2000;
  constexpr double kRate = 0.5, kL2 = 1e-3;
  std::vector<double> grad(width);
  for (int step = 0; step < kSteps; ++step) {
    std::fill(grad.begin(), grad.end(), 0.0);
    for (size_t i = 0; i < rows.size(); ++i) {
      double z = 0;
      for (size_t c = 0; c < width; ++c) z += w[c] * x[i][c];
      const double err = sigmoid(z) - (rows[i].good ? 1.0 : 0.0);
      for (size_t c = 0; c < width; ++c) grad[c] += err * x[i][c];
    }
    for (size_t c = 0; c < width; ++c) w[c] -= kRate * (grad[c] / n + (c == 0 ? 0 : kL2 * w[c]));
  }
  // Back to the inputs' units: w_c x_c' = (w_c / s_c) x_c - w_c m_c / s_c.
  double bias = w[0];
  for (size_t c = 1; c < width; ++c) bias -= w[c] * mean[c] / scale[c];
  v.weights_.assign(kDense, 0);
  v.weights_[0] = bias;
  for (size_t c = 1; c < dense; ++c) v.weights_[c] = w[c] / scale[c];
  v.intent_weights_.clear();
  for (size_t k = 0; k < intents.size(); ++k) v.intent_weights_[intents[k]] = w[dense + k] / scale[dense + k];

  // The threshold: walk the rows from the most confident down; the lowest
  // confidence at which the accepted drafts (all rows at or above it) are
  // still good often enough.
  std::vector<std::pair<double, bool>> scored;
  for (const VerifierRow& r : rows) scored.emplace_back(v.confidence(r.features), r.good);
  std::sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  size_t taken = 0, taken_good = 0, best = 0, best_good = 0;
  double threshold = std::nextafter(1.0, 2.0);  // accepts nothing
  for (size_t i = 0; i < scored.size();) {
    size_t j = i;
    while (j < scored.size() && scored[j].first == scored[i].first) taken_good += scored[j++].second ? 1 : 0;
    taken = j;
    if (static_cast<double>(taken_good) >= target_quality * static_cast<double>(taken)) {
      best = taken;
      best_good = taken_good;
      threshold = scored[i].first;
    }
    i = j;
  }
  v.threshold_ = threshold;
  v.calibrated_ = true;
  v.calibration_ = Calibration{rows.size(), target_quality, static_cast<double>(best) / n,
                               best == 0 ? 0.0 : static_cast<double>(best_good) / static_cast<double>(best),
                               static_cast<double>(good) / n};
  return v;
}

StatusOr<Verifier> load_verifier(const std::string& path) {
  std::ifstream in(path);
  if (!in) return not_found(path + ": cannot read the verifier file");
  std::stringstream text;
  text << in.rdbuf();
  return Verifier::parse(text.str(), path);
}

StatusOr<std::vector<VerifierRow>> load_verifier_rows(const std::string& path) {
  std::ifstream in(path);
  if (!in) return not_found(path + ": cannot read the labelled rows");
  std::vector<VerifierRow> rows;
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string at = path + ":" + std::to_string(number) + ": ";
    json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return invalid_argument(at + "not a JSON object");
    VerifierRow row;
    std::string error;
    if (!j.contains("features")) return invalid_argument(at + "no \"features\" object (a verifier log row)");
    if (!read_features(j["features"], row.features, error)) return invalid_argument(at + error);
    auto good = j.find("good");
    if (good == j.end() || !good->is_boolean()) {
      return invalid_argument(at + "\"good\" must be true or false (label each logged draft before calibrating)");
    }
    row.good = good->get<bool>();
    rows.push_back(std::move(row));
  }
  if (rows.empty()) return invalid_argument(path + ": no rows");
  return rows;
}

std::string draft_features_json(const DraftFeatures& f) { return features_object(f).dump(); }

}  // namespace tiergate
