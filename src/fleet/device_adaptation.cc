#include "tiergate/fleet/device_adaptation.h"

#include <algorithm>
#include <cstdio>

namespace tiergate {

std::string_view adaptation_step_name(AdaptationStep step) {
  switch (step) {
    case AdaptationStep::kNormal: return "normal";
    case AdaptationStep::kShortened: return "shortened";
    case AdaptationStep::kSmallerVariant: return "smaller_variant";
    case AdaptationStep::kCloudPreferred: return "cloud_preferred";
  }
  return "normal";
}

int adaptation_step_level(AdaptationStep step) {
  switch (step) {
    case AdaptationStep::kNormal: return 0;
    case AdaptationStep::kShortened: return 1;
    case AdaptationStep::kSmallerVariant: return 2;
    case AdaptationStep::kCloudPreferred: return 3;
  }
  return 0;
}

DeviceAdaptation::DeviceAdaptation(AdaptationParams params, bool smaller_variant_available)
    : params_(params), smaller_available_(smaller_variant_available) {}

void DeviceAdaptation::rescale_baseline(double factor) {
  if (baseline_ && factor > 0) *baseline_ *= factor;
}
void DeviceAdaptation::set_smaller_variant_available(bool available) { smaller_available_ = available; }

AdaptationStep DeviceAdaptation::next_down(AdaptationStep s) const {
  switch (s) {
    case AdaptationStep::kNormal: return AdaptationStep::kShortened;
    case AdaptationStep::kShortened:
      return smaller_available_ ? AdaptationStep::kSmallerVariant : AdaptationStep::kCloudPreferred;
    case AdaptationStep::kSmallerVariant: return AdaptationStep::kCloudPreferred;
    case AdaptationStep::kCloudPreferred: return AdaptationStep::kCloudPreferred;
  }
  return s;
}

AdaptationStep DeviceAdaptation::next_up(AdaptationStep s) const {
  switch (s) {
    case AdaptationStep::kNormal: return AdaptationStep::kNormal;
    case AdaptationStep::kShortened: return AdaptationStep::kNormal;
    case AdaptationStep::kSmallerVariant: return AdaptationStep::kShortened;
    // Back through the smaller variant only if one is running: a step the
    // way down passed over is passed over again.
    case AdaptationStep::kCloudPreferred:
      return smaller_available_ ? AdaptationStep::kSmallerVariant : AdaptationStep::kShortened;
  }
  return s;
}

std::optional<AdaptationChange> DeviceAdaptation::observe(const DeviceObservation& o) {
  // The baseline is the best speed seen on this variant; a slow start only
  // delays it, a throttled device cannot pull it down.
  if (o.decode_tps && *o.decode_tps > 0) baseline_ = std::max(baseline_.value_or(0.0), *o.decode_tps);

  char text[160];
  std::string pressure;
  bool healthy = true;
  if (o.decode_tps && baseline_) {
    if (*o.decode_tps < params_.slow_ratio * *baseline_) {
      std::snprintf(text, sizeof text, "decode %.1f tok/s < %.2f x baseline %.1f", *o.decode_tps, params_.slow_ratio,
                    *baseline_);
      pressure = text;
    }
    if (*o.decode_tps < params_.recover_ratio * *baseline_) healthy = false;
  }
  if (o.memory_available_bytes) {
    if (*o.memory_available_bytes < params_.low_memory_bytes) {
      std::snprintf(text, sizeof text, "memory available %.0f MiB < %.0f MiB",
                    double(*o.memory_available_bytes) / 1048576.0, double(params_.low_memory_bytes) / 1048576.0);
      if (!pressure.empty()) pressure += "; ";
      pressure += text;
    }
    if (*o.memory_available_bytes < 2 * params_.low_memory_bytes) healthy = false;
  }

  if (!pressure.empty()) {
    healthy_ = 0;
    if (++pressured_ < params_.escalate_after) return std::nullopt;
    pressured_ = 0;
    const AdaptationStep to = next_down(step_);
    if (to == step_) return std::nullopt;
    AdaptationChange change{step_, to, pressure};
    step_ = to;
    reason_ = pressure;
    return change;
  }
  pressured_ = 0;
  if (!healthy) {
    healthy_ = 0;
    return std::nullopt;
  }
  if (step_ == AdaptationStep::kNormal || ++healthy_ < params_.recover_after) return std::nullopt;
  healthy_ = 0;
  const AdaptationStep to = next_up(step_);
  AdaptationChange change{step_, to, "recovered: decode and memory back above their thresholds"};
  step_ = to;
  reason_ = change.reason;
  return change;
}

}  // namespace tiergate
