// The edge tier on this device: the variant chosen for it at start, and the
// run-time adaptation that watches decode speed and memory and steps down or
// back up (fleet/device_adaptation.h has the steps; docs/fleet.md the rules).
//
// The gateway reads status() on every request (the scheduler's EdgeState and
// /readyz); the monitor's own thread, or a test, feeds observe().
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "tiergate/config/config.h"
#include "tiergate/core/status.h"
#include "tiergate/engines/local/switchable_local_engine.h"
#include "tiergate/fleet/device_adaptation.h"
#include "tiergate/fleet/device_profile.h"
#include "tiergate/fleet/manifest.h"
#include "tiergate/obs/metrics.h"
#include "tiergate/router/scheduler_state.h"

namespace tiergate {

// The variant of edge.manifest this device runs.
struct EdgeVariantPlan {
  std::string manifest_path;
  Manifest manifest;
  DeviceProfile profile;
  size_t chosen = 0;        // index into manifest.variants
  std::string model_path;   // the chosen variant's file
  std::string explanation;  // fleet/variant_choice.h's text, for the log
};

// Reads edge.manifest, profiles this device (with the micro-benchmark when
// edge.min_decode_tps is set, to scale the manifest's speeds), and chooses.
// `os_root` is "/" except in tests. Errors: the manifest's read errors;
// kFailedPrecondition when no variant fits (the message is the explanation);
// the chosen file's verification errors (missing, or size/sha256 differ).
StatusOr<EdgeVariantPlan> plan_edge_variant(const EdgeConfig& edge, const std::string& os_root = "/");

struct DeviceStatus {
  AdaptationStep step = AdaptationStep::kNormal;
  std::string reason;   // of the last change; "" before any
  std::string variant;  // the running variant's id; "" without a manifest
  std::optional<double> decode_tps;
  std::optional<double> baseline_decode_tps;
  std::optional<uint64_t> memory_available_bytes;
  int64_t changes = 0;
};

// {"step", "reason", "variant", "decode_tps", "baseline_decode_tps",
// "memory_available_bytes", "changes"}; unknown figures are left out.
std::string device_status_json(const DeviceStatus& status);

struct DeviceMonitorOptions {
  EdgeAdaptationConfig config;
  // The edge, to switch variants; null, or no plan, passes over the
  // smaller-variant step.
  SwitchableLocalEngine* edge = nullptr;
  std::optional<EdgeVariantPlan> plan;
  MetricsRegistry* metrics = nullptr;  // not owned; null = no metrics
};

class DeviceMonitor {
 public:
  explicit DeviceMonitor(DeviceMonitorOptions options);
  ~DeviceMonitor();  // stop()
  DeviceMonitor(const DeviceMonitor&) = delete;
  DeviceMonitor& operator=(const DeviceMonitor&) = delete;

  // One observation. Entering or leaving the smaller-variant step switches
  // the edge's variant here, blocking for the load. Not concurrent with
  // itself (one caller: the monitor thread or a test).
  void observe(const DeviceObservation& observation);

  // Calls sample() and observe() every config.interval_ms on a thread of its
  // own until stop().
  void start(std::function<DeviceObservation()> sample);
  void stop();

  DeviceStatus status() const;
  // The EdgeState fields the current step sets (max_new_tokens,
  // max_prompt_tokens, prefer_cloud).
  void apply(EdgeState& edge) const;

 private:
  void switch_variant(std::optional<size_t> to);

  DeviceMonitorOptions options_;
  std::optional<size_t> smaller_;  // the variant the smaller-variant step runs
  mutable std::mutex mu_;          // guards adaptation_ and status_
  DeviceAdaptation adaptation_;
  DeviceStatus status_;
  int start_context_;  // the edge's context as configured; the way back restores it
  Counter* changes_to_[4] = {};

  std::mutex thread_mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace tiergate
