#include "tiergate/server/device_monitor.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "tiergate/fleet/micro_benchmark.h"
#include "tiergate/fleet/variant_choice.h"

namespace tiergate {

namespace {

constexpr AdaptationStep kSteps[] = {AdaptationStep::kNormal, AdaptationStep::kShortened,
                                     AdaptationStep::kSmallerVariant, AdaptationStep::kCloudPreferred};

AdaptationParams params_of(const EdgeAdaptationConfig& c) {
  AdaptationParams p;
  p.slow_ratio = c.slow_ratio;
  p.recover_ratio = c.recover_ratio;
  p.low_memory_bytes = static_cast<uint64_t>(c.low_memory_mb) << 20;
  p.escalate_after = c.escalate_after;
  p.recover_after = c.recover_after;
  p.max_tokens = c.max_tokens;
  p.context = c.context;
  return p;
}

// The best variant that needs less memory than the running one, by the same
// rules as the choice at start but without a speed target.
std::optional<size_t> smaller_variant(const EdgeVariantPlan& plan) {
  const VariantEntry& running = plan.manifest.variants[plan.chosen];
  if (running.min_memory_bytes == 0) return std::nullopt;
  ChoiceConstraints constraints;
  constraints.memory_budget_bytes = running.min_memory_bytes - 1;
  const VariantChoice choice = choose_variant(plan.manifest, plan.profile, constraints);
  return choice.chosen;
}

std::optional<double> decode_of(const VariantEntry& v) {
  if (v.speed && v.speed->decode_tps > 0) return v.speed->decode_tps;
  return std::nullopt;
}

}  // namespace

std::string device_status_json(const DeviceStatus& status) {
  nlohmann::json j = {{"step", adaptation_step_name(status.step)}, {"changes", status.changes}};
  if (!status.reason.empty()) j["reason"] = status.reason;
  if (!status.variant.empty()) j["variant"] = status.variant;
  if (status.decode_tps) j["decode_tps"] = *status.decode_tps;
  if (status.baseline_decode_tps) j["baseline_decode_tps"] = *status.baseline_decode_tps;
  if (status.memory_available_bytes) j["memory_available_bytes"] = *status.memory_available_bytes;
  return j.dump();
}

StatusOr<EdgeVariantPlan> plan_edge_variant(const EdgeConfig& edge, const std::string& os_root) {
  EdgeVariantPlan plan;
  plan.manifest_path = edge.manifest;
  auto manifest = read_manifest(edge.manifest);
  if (!manifest.is_ok()) return Status(manifest.status().code(), "edge.manifest: " + manifest.status().message());
  plan.manifest = std::move(*manifest);
  MeasureOptions measure;
  measure.root = os_root;
  measure.disk_path = std::filesystem::path(edge.manifest).parent_path().string();
  measure.run_benchmark = edge.min_decode_tps.has_value();
  plan.profile = measure_device_profile(measure);
  ChoiceConstraints constraints;
  constraints.min_decode_tps = edge.min_decode_tps;
  const VariantChoice choice = choose_variant(plan.manifest, plan.profile, constraints);
  plan.explanation = format_choice(plan.manifest, choice);
  if (!choice.chosen) {
    return failed_precondition("edge.manifest " + edge.manifest + ": no variant fits this device: " + choice.summary +
                               " (tiergate device choose --manifest " + edge.manifest + " explains each)");
  }
  plan.chosen = *choice.chosen;
  const VariantEntry& v = plan.manifest.variants[plan.chosen];
  if (Status s = verify_variant_file(edge.manifest, v); !s.is_ok()) return s;
  plan.model_path = manifest_file_path(edge.manifest, v.file);
  return plan;
}

DeviceMonitor::DeviceMonitor(DeviceMonitorOptions options)
    : options_(std::move(options)),
      smaller_(options_.plan && options_.edge != nullptr ? smaller_variant(*options_.plan) : std::nullopt),
      adaptation_(params_of(options_.config), smaller_.has_value()),
      start_context_(options_.edge != nullptr ? options_.edge->current_params().context : 0) {
  if (options_.plan) status_.variant = options_.plan->manifest.variants[options_.plan->chosen].id;
  if (options_.metrics != nullptr) {
    options_.metrics->gauge_callback(
        "tiergate_device_adaptation_step",
        "Run-time adaptation step of the edge: 0 normal, 1 shortened, 2 smaller_variant, 3 cloud_preferred.",
        [this] { return static_cast<double>(adaptation_step_level(status().step)); });
    CounterFamily& changes = options_.metrics->counter_family(
        "tiergate_device_adaptation_changes_total", "Run-time adaptation steps taken, by the step entered.", {"to"});
    for (AdaptationStep s : kSteps) {
      changes_to_[adaptation_step_level(s)] = &changes.with({std::string(adaptation_step_name(s))});
    }
  }
}

DeviceMonitor::~DeviceMonitor() { stop(); }

void DeviceMonitor::observe(const DeviceObservation& observation) {
  std::optional<AdaptationChange> change;
  {
    std::lock_guard lock(mu_);
    change = adaptation_.observe(observation);
    status_.decode_tps = observation.decode_tps;
    status_.memory_available_bytes = observation.memory_available_bytes;
    status_.baseline_decode_tps = adaptation_.baseline_decode_tps();
    if (change) {
      status_.step = change->to;
      status_.reason = change->reason;
      ++status_.changes;
    }
  }
  if (!change) return;
  spdlog::warn("device adaptation: {} -> {} ({})", adaptation_step_name(change->from), adaptation_step_name(change->to),
               change->reason);
  if (Counter* c = changes_to_[adaptation_step_level(change->to)]) c->inc();
  if (change->to == AdaptationStep::kSmallerVariant) switch_variant(smaller_);
  if (change->from == AdaptationStep::kSmallerVariant && change->to != AdaptationStep::kCloudPreferred) {
    switch_variant(std::nullopt);  // back to the variant chosen at start
  }
}

// to: the smaller variant, or nullopt for the one chosen at start.
void DeviceMonitor::switch_variant(std::optional<size_t> to) {
  if (options_.edge == nullptr || !options_.plan) return;
  const EdgeVariantPlan& plan = *options_.plan;
  const size_t index = to.value_or(plan.chosen);
  const VariantEntry& next = plan.manifest.variants[index];
  LocalEngineParams params = options_.edge->current_params();
  params.model_path = manifest_file_path(plan.manifest_path, next.file);
  // The smaller variant also runs with the shortened context, which frees
  // KV-cache memory; the way back restores the configured one.
  params.context = to ? std::min(start_context_, options_.config.context) : start_context_;
  const std::string from_id = status().variant;
  if (from_id == next.id) return;  // already running (a failed switch, or back from cloud_preferred)
  const VariantEntry* from = nullptr;
  for (const VariantEntry& v : plan.manifest.variants) {
    if (v.id == from_id) from = &v;
  }
  if (Status s = options_.edge->switch_to(params); !s.is_ok()) {
    spdlog::error("device adaptation: could not switch the edge to {}: {}", next.id, s.message());
    std::lock_guard lock(mu_);
    adaptation_.set_smaller_variant_available(false);
    return;
  }
  spdlog::warn("device adaptation: the edge now runs {}", next.id);
  std::lock_guard lock(mu_);
  status_.variant = next.id;
  if (from != nullptr && decode_of(*from) && decode_of(next)) {
    adaptation_.rescale_baseline(*decode_of(next) / *decode_of(*from));
    status_.baseline_decode_tps = adaptation_.baseline_decode_tps();
  }
}

void DeviceMonitor::start(std::function<DeviceObservation()> sample) {
  stop();
  {
    std::lock_guard lock(thread_mu_);
    stopping_ = false;
  }
  thread_ = std::thread([this, sample = std::move(sample)] {
    std::unique_lock lock(thread_mu_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(options_.config.interval_ms), [this] { return stopping_; })) {
      lock.unlock();
      observe(sample());
      lock.lock();
    }
  });
}

void DeviceMonitor::stop() {
  {
    std::lock_guard lock(thread_mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

DeviceStatus DeviceMonitor::status() const {
  std::lock_guard lock(mu_);
  return status_;
}

void DeviceMonitor::apply(EdgeState& edge) const {
  const AdaptationStep step = status().step;
  if (adaptation_step_level(step) >= adaptation_step_level(AdaptationStep::kShortened)) {
    edge.max_new_tokens = options_.config.max_tokens;
    edge.max_prompt_tokens = options_.config.context;
  }
  if (step == AdaptationStep::kCloudPreferred) edge.prefer_cloud = true;
}

}  // namespace tiergate
