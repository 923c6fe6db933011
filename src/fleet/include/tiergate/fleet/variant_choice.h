// Which variant of a manifest a device should run: the best-fidelity variant
// that fits the memory and disk budgets, runs on the device's CPU and
// backends, and meets the decode-speed target. Pure: no I/O, no clock; every
// rule's outcome is in the result, so the choice explains itself.
//
// Rules, for each variant in manifest order:
//   memory    min_memory_bytes <= memory budget
//   disk      size_bytes <= disk budget
//   cpu       every requires.cpu_features is in profile.cpu_features
//   backends  every requires.backends is in profile.ggml_backends
//   speed     estimated decode tok/s >= min_decode_tps (when a target is set)
// A variant passing all rules fits. Among those that fit, the chosen one is
// ranked first by: measured fidelity before none, lower kl_mean, higher
// top1_agreement, smaller file, manifest order. Without fidelity figures no
// quality claim can be made, so the cheaper file wins.
//
// Estimated decode speed on this device: speed.decode_tps *
// profile bench decode / speed.bench_decode_tps when both micro-benchmarks
// exist (same yardstick on both machines, micro_benchmark.h); else the
// manifest's speed.decode_tps as measured elsewhere; else unknown (fails a set
// target: an unmeasured variant cannot be promised to meet it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tiergate/fleet/device_profile.h"
#include "tiergate/fleet/manifest.h"

namespace tiergate {

// Memory kept free for the OS, the gateway and the KV cache when the memory
// budget is derived from the profile.
inline constexpr uint64_t kDefaultMemoryReserveBytes = 256ull << 20;

struct ChoiceConstraints {
  // Default: profile MemAvailable minus memory_reserve_bytes (MemTotal minus
  // the reserve when MemAvailable is not exposed; not checked when neither is).
  std::optional<uint64_t> memory_budget_bytes;
  uint64_t memory_reserve_bytes = kDefaultMemoryReserveBytes;
  // Default: profile disk_free_bytes (not checked when unknown).
  std::optional<uint64_t> disk_budget_bytes;
  // No target when absent: speed is estimated and shown but not a rule.
  std::optional<double> min_decode_tps;
};

enum class ChoiceRule { kMemory, kDisk, kCpuFeatures, kBackends, kDecodeSpeed };
std::string_view choice_rule_name(ChoiceRule rule);  // "memory", "disk", "cpu_features", "backends", "decode_speed"

enum class Verdict { kChosen, kFits, kRejected };
std::string_view verdict_name(Verdict verdict);  // "chosen", "fits", "rejected"

enum class SpeedBasis { kScaledByBenchmark, kManifestFigure, kUnknown };
std::string_view speed_basis_name(SpeedBasis basis);  // "scaled_by_benchmark", "manifest_figure", "unknown"

struct Rejection {
  ChoiceRule rule;
  std::string reason;  // e.g. "doesn't fit memory: needs 4.0 GiB, has 3.2 GiB"
};

struct VariantVerdict {
  size_t index = 0;  // into Manifest::variants
  Verdict verdict = Verdict::kRejected;
  std::vector<Rejection> rejections;  // every failed rule; empty unless kRejected
  std::optional<int> rank;            // 1 = chosen; only for variants that fit
  std::optional<double> estimated_decode_tps;
  SpeedBasis speed_basis = SpeedBasis::kUnknown;
  std::string speed_note;  // how the estimate was made, e.g. "40.0 tok/s where measured, scaled by
                           // the micro-benchmark: 310.2 here / 300.0 there"
};

// A budget and where it came from ("--memory-budget", "MemAvailable 6.4 GiB
// minus 256 MiB reserve", "not checked: ...").
struct Budget {
  std::optional<uint64_t> bytes;  // nullopt = the rule is not checked
  std::string source;
};

struct VariantChoice {
  std::optional<size_t> chosen;  // index into Manifest::variants; nullopt = none fits
  std::vector<VariantVerdict> verdicts;  // one per variant, manifest order
  Budget memory_budget;
  Budget disk_budget;
  std::optional<double> min_decode_tps;
  std::optional<double> device_bench_decode_tps;
  // One line: why this one ("best fidelity among 3 that fit: kl_mean 0.004,
  // top-1 agreement 98.0%"), or why none ("none of 4 variants fits").
  std::string summary;
};

VariantChoice choose_variant(const Manifest& manifest, const DeviceProfile& profile,
                             const ChoiceConstraints& constraints);

// The explanation `tiergate device choose` prints: the summary, the budgets,
// the speed basis, then one line per variant with its verdict and reasons.
std::string format_choice(const Manifest& manifest, const VariantChoice& choice);

// {"chosen": id|null, "summary", "memory_budget": {"bytes"?, "source"},
//  "disk_budget": {...}, "min_decode_tps"?, "device_bench_decode_tps"?,
//  "variants": [{"id", "file", "verdict", "rank"?, "estimated_decode_tps"?,
//                "speed_basis", "speed_note"?, "rejections": [{"rule", "reason"}]}]}
std::string choice_to_json(const Manifest& manifest, const VariantChoice& choice);

}  // namespace tiergate
