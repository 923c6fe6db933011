// The trained router: feature space, intent model, complexity estimator and
// the calibration of its score, as one versioned file written by
// `tiergate router train` and read by the gateway and the router commands.
//
// File format (JSON, see docs/routing.md): {"format": "tiergate-router",
// "version": kRouterArtifactVersion, "feature_set": kFeatureSetVersion,
// "buckets": N, "intent": {...} | null, "complexity": {...},
// "calibration": {"score_quantiles": [101 numbers]}, "training": {...}}.
// Weights are base64 of little-endian float32. A file of another format,
// version or feature set is refused with an error that says so.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "tiergate/core/status.h"
#include "tiergate/signals/complexity.h"
#include "tiergate/signals/features.h"
#include "tiergate/signals/intent.h"

namespace tiergate {

inline constexpr int kRouterArtifactVersion = 1;

struct RouterArtifact {
  FeatureSpace space;
  IntentClassifier intent;         // cue rules only when no intent model was trained
  ComplexityEstimator complexity;
  // score_quantiles[i]: the cloud score below which i% of the calibration rows
  // fall, so routing the rows above score_quantiles[100 - s] sends s% of them
  // to the cloud. Non-decreasing, 101 values (empty: uncalibrated).
  std::vector<float> score_quantiles;
  std::string training_json = "{}";  // training metadata (a JSON object)
};

StatusOr<RouterArtifact> load_router_artifact(const std::string& path);
// Writes atomically (a temporary file renamed over `path`).
Status save_router_artifact(const RouterArtifact& artifact, const std::string& path);

// 101 quantiles of `scores` (see RouterArtifact::score_quantiles).
std::vector<float> score_quantiles(std::vector<double> scores);
// The score threshold that sends `cloud_share` (in [0, 1]) of calibrated rows
// to the cloud: route to the cloud when score > threshold. Interpolates
// between quantiles. Precondition: quantiles has 101 values.
double threshold_for_cloud_share(std::span<const float> quantiles, double cloud_share);

}  // namespace tiergate
