// Run-time adaptation of the edge tier to the device's condition: when decode
// slows (thermal throttling, a busy device) or memory runs short, the gateway
// steps down, one documented step at a time, and steps back up when the
// condition has passed (docs/fleet.md, "Run-time adaptation").
//
// Steps, in order (each keeps what the ones before it did):
//
//   kNormal ──pressure×N──> kShortened ──pressure×N──> kSmallerVariant ──pressure×N──> kCloudPreferred
//      ^                        │                            │                              │
//      └───────healthy×M────────┴<────────healthy×M──────────┴<──────────healthy×M──────────┘
//
//   kShortened       edge answers get at most `max_tokens` new tokens, and
//                    prompts longer than `context` tokens go to the cloud
//   kSmallerVariant  the edge runs the next smaller variant of the manifest
//                    (skipped when there is none)
//   kCloudPreferred  requests that may leave the device go to the cloud first
//                    (privacy decisions are untouched: local_only data stays)
//
// Pressure: the edge's measured decode tokens/s below slow_ratio times its
// baseline (the best EWMA seen on the current variant), or available memory
// below low_memory_bytes. Healthy: decode at or above recover_ratio times the
// baseline (or no recent measurement) and memory at or above twice
// low_memory_bytes. Anything between holds the step. N = escalate_after and
// M = recover_after consecutive observations, so one slow sample moves
// nothing. Pure and deterministic: observations come in as values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tiergate {

enum class AdaptationStep { kNormal, kShortened, kSmallerVariant, kCloudPreferred };
std::string_view adaptation_step_name(AdaptationStep step);  // "normal", "shortened", "smaller_variant", "cloud_preferred"
int adaptation_step_level(AdaptationStep step);              // 0..3, for the metric

struct AdaptationParams {
  double slow_ratio = 0.6;
  double recover_ratio = 0.85;
  uint64_t low_memory_bytes = 256ull << 20;
  int escalate_after = 3;
  int recover_after = 6;
  int max_tokens = 256;  // kShortened's cap on new tokens
  int context = 1024;    // kShortened's longest prompt, and the smaller variant's context
};

struct DeviceObservation {
  // The edge's decode EWMA when it answered since the last observation;
  // absent otherwise (counts as healthy, so a step that sends traffic away
  // from the edge is left after recover_after quiet observations, and the
  // edge is measured again).
  std::optional<double> decode_tps;
  std::optional<uint64_t> memory_available_bytes;  // absent when the OS does not say
};

// What changed with an observation; the caller acts on it.
struct AdaptationChange {
  AdaptationStep from = AdaptationStep::kNormal;
  AdaptationStep to = AdaptationStep::kNormal;
  std::string reason;  // "decode 12.0 tok/s < 0.60 x baseline 30.0", "recovered: ..."
};

class DeviceAdaptation {
 public:
  // smaller_variant_available: whether kSmallerVariant can do anything; when
  // false that step is passed over in both directions.
  DeviceAdaptation(AdaptationParams params, bool smaller_variant_available);

  // One observation; returns the change when the step moved. Not thread-safe
  // (the gateway's monitor calls it from one thread).
  std::optional<AdaptationChange> observe(const DeviceObservation& observation);

  // A new variant is running (after kSmallerVariant or the way back): the
  // baseline moves by the ratio of the two variants' measured speeds (their
  // manifest figures), so a device still throttled on the faster, smaller
  // variant is still seen as throttled. Ignored when factor is not positive.
  void rescale_baseline(double factor);
  void set_smaller_variant_available(bool available);

  AdaptationStep step() const { return step_; }
  std::optional<double> baseline_decode_tps() const { return baseline_; }
  const std::string& last_reason() const { return reason_; }
  const AdaptationParams& params() const { return params_; }

 private:
  AdaptationStep next_down(AdaptationStep s) const;
  AdaptationStep next_up(AdaptationStep s) const;

  AdaptationParams params_;
  bool smaller_available_;
  AdaptationStep step_ = AdaptationStep::kNormal;
  std::optional<double> baseline_;
  int pressured_ = 0;  // consecutive
  int healthy_ = 0;    // consecutive
  std::string reason_;
};

}  // namespace tiergate
