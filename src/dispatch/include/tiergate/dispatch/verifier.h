// The verifier of speculative edge execution (issue 5): scores an edge
// draft, from what the edge model said about its own tokens and what the
// router knew, as the probability that the draft is good enough to be the
// answer. Above the threshold the draft is the answer; below it the request
// escalates to the cloud and the draft is discarded.
//
// The score is a logistic model over the draft's features. The built-in
// weights are an uncalibrated starting point (confident, non-repetitive,
// naturally ended drafts of requests the router saw as easy score high);
// `tiergate verifier calibrate` fits weights and threshold from labelled
// outcomes and writes them to a file the config names
// (speculative.verifier). Pure code; thread-safe once built (const).
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tiergate/core/chat.h"
#include "tiergate/core/status.h"

namespace tiergate {

// What the verifier sees of a draft. Log-probabilities are natural logs.
struct DraftFeatures {
  int tokens = 0;              // tokens generated so far
  double mean_logprob = 0;     // mean log-probability of the chosen tokens
  double min_logprob = 0;      // the least likely chosen token
  double mean_entropy = 0;     // mean entropy (nats) over each position's top alternatives
  double repetition = 0;       // share of repeated 3-token windows (0 = none)
  bool stopped = false;        // the model ended the answer itself (not cut at max_tokens or early)
  double router_prior = 0;     // the router's cloud score for the request (higher: harder)
  std::string intent;          // the router's intent label ("" = unknown)
};

// Features of `tokens` (the draft so far; finished tells whether the model
// stopped by itself). Positions without alternatives count zero entropy.
DraftFeatures draft_features(std::span<const TokenLogprob> tokens, bool finished_by_model, double router_prior,
                             std::string intent);

// One labelled outcome for calibration: the draft's features and whether the
// draft was good (e.g. judged as good as the cloud's answer).
struct VerifierRow {
  DraftFeatures features;
  bool good = false;
};

class Verifier {
 public:
  // The built-in, uncalibrated weights with threshold 0.5.
  Verifier();

  // Probability that the draft is good, in [0, 1].
  double confidence(const DraftFeatures& f) const;
  bool accepts(const DraftFeatures& f) const { return confidence(f) >= threshold_; }

  double threshold() const { return threshold_; }
  void set_threshold(double t) { threshold_ = t; }
  bool calibrated() const { return calibrated_; }

  // JSON: {"format": "tiergate-verifier", "version": 1, "weights": {...},
  // "intent_weights": {...}, "threshold": x, "calibration": {...}}.
  std::string to_json() const;
  // Errors (kInvalidArgument) name `source` and what is wrong.
  static StatusOr<Verifier> parse(std::string_view json, const std::string& source);

  // The calibration report kept in the file: rows, target, share accepted
  // and precision on the calibration rows.
  struct Calibration {
    size_t rows = 0;
    double target_quality = 0;
    double accepted_share = 0;   // share of rows the threshold accepts
    double accepted_quality = 0; // share of good drafts among those
    double base_quality = 0;     // share of good drafts among all rows
  };
  const std::optional<Calibration>& calibration() const { return calibration_; }

  // Fits the weights (logistic regression) on rows and sets the lowest
  // threshold whose accepted drafts are good at least `target_quality` of
  // the time (in-sample), so that as many drafts as possible are kept. When
  // no threshold reaches the target, the threshold accepts nothing (every
  // verified request escalates) and the report says so. Errors: no rows, a
  // target outside (0, 1], rows of one outcome only.
  static StatusOr<Verifier> calibrate(std::span<const VerifierRow> rows, double target_quality);

 private:
  static constexpr size_t kDense = 7;  // bias, mean_lp, min_lp, entropy, repetition, stopped, prior
  std::vector<double> dense_inputs(const DraftFeatures& f) const;

  std::vector<double> weights_;                  // kDense
  std::map<std::string, double> intent_weights_; // added when the intent matches
  double threshold_ = 0.5;
  bool calibrated_ = false;
  std::optional<Calibration> calibration_;
};

StatusOr<Verifier> load_verifier(const std::string& path);

// Labelled rows from JSONL: {"features": {...as DraftFeatures, names as in
// the verifier log...}, "good": true|false}. Errors name the file and line.
StatusOr<std::vector<VerifierRow>> load_verifier_rows(const std::string& path);

// A verifier-log / calibration row's "features" object.
std::string draft_features_json(const DraftFeatures& f);

}  // namespace tiergate
