// What a device offers a model: memory, disk, CPU, ggml backends, power and
// heat, and a measured micro-benchmark. Input to variant choice
// (variant_choice.h) and printed by `tiergate device profile`.
//
// Every OS fact is read from files under a root directory ("/" on a real
// device; a temp dir holding a fake /proc and /sys in tests), so reading is
// hermetic to test. A file that is missing, unreadable or malformed leaves
// its field absent (std::nullopt or empty); reading never fails as a whole.
// On a non-Linux OS every OS field is simply absent.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tiergate/core/status.h"
#include "tiergate/fleet/micro_benchmark.h"

namespace tiergate {

// A battery: /sys/class/power_supply/<name>/ whose `type` file says "Battery".
struct Battery {
  std::string name;                        // the power_supply directory, e.g. "BAT0"
  std::optional<int> capacity_percent;     // `capacity`, 0..100
  std::optional<std::string> status;       // `status`: "Charging", "Discharging", "Full", "Not charging", "Unknown"
};

// A thermal zone: /sys/class/thermal/thermal_zone<N>/.
struct ThermalZone {
  std::string name;                        // the directory, e.g. "thermal_zone0"
  std::optional<std::string> type;         // `type`, e.g. "x86_pkg_temp", "cpu-thermal"
  std::optional<double> temp_celsius;      // `temp` (millidegrees Celsius) / 1000
};

struct DeviceProfile {
  // /proc/meminfo `MemTotal` and `MemAvailable` (kB there, bytes here).
  // MemAvailable is the kernel's estimate of memory a new process can use
  // without swapping (page cache it can drop counts as available).
  std::optional<uint64_t> memory_total_bytes;
  std::optional<uint64_t> memory_available_bytes;

  // statvfs(disk_path): f_bavail * f_frsize, the space an unprivileged
  // process may still write. disk_path is used as given (not under root).
  std::string disk_path;
  std::optional<uint64_t> disk_free_bytes;

  // /proc/cpuinfo: `model name` (x86; some ARM kernels), else `Hardware`,
  // else `Processor` (older ARM kernels).
  std::optional<std::string> cpu_model;
  // /proc/cpuinfo: the number of `processor` entries.
  std::optional<int> logical_cores;
  // The first `flags` (x86) or `Features` (ARM) line of /proc/cpuinfo mapped
  // to Tiergate's names, sorted (see cpu_feature_names() for the mapping):
  // what the CPU can execute. Empty when cpuinfo is unreadable.
  std::vector<std::string> cpu_features;

  // From ggml (engines/local/backend_info.h), not from files: the registered
  // backends (e.g. "CPU", "CUDA"), the devices as "name: description", and
  // the CPU features ggml was compiled to use. Empty when not queried
  // (tests of OS reading) or loaded from a profile that lacks them.
  std::vector<std::string> ggml_backends;
  std::vector<std::string> ggml_devices;
  std::vector<std::string> ggml_cpu_build_features;

  // Empty when the OS exposes none (desktops, servers, containers without
  // /sys/class/power_supply or /sys/class/thermal).
  std::vector<Battery> batteries;
  std::vector<ThermalZone> thermal_zones;

  // Absent when the profile was taken without it (--no-bench).
  std::optional<MicroBenchmark> benchmark;

  // The benchmark's decode tokens/s when it was measured, else nullopt.
  std::optional<double> bench_decode_tps() const;
};

// One mapping from an OS CPU flag to Tiergate's feature name, the names that
// manifests use in requires.cpu_features.
struct CpuFeatureName {
  const char* os_flag;  // as in /proc/cpuinfo, e.g. "avx512_vnni", "asimddp"
  const char* name;     // e.g. "AVX512_VNNI", "DOTPROD"
};
// x86: SSE3 (pni), SSSE3, SSE4_1, SSE4_2, AVX, AVX2, FMA, F16C, BMI2,
// AVX_VNNI, AVX512F, AVX512BW, AVX512VL, AVX512_VBMI, AVX512_VNNI,
// AVX512_BF16, AMX_TILE, AMX_INT8, AMX_BF16. ARM: NEON (asimd), FP16
// (asimdhp), DOTPROD (asimddp), I8MM, BF16, SVE, SVE2, SME. Flags outside
// this list are not reported.
const std::vector<CpuFeatureName>& cpu_feature_names();

// Reads the OS facts above from files under root (memory, CPU, batteries,
// thermal zones) and statvfs(disk_path). Leaves the ggml fields and the
// benchmark empty. Never fails; see the file comment.
DeviceProfile read_os_profile(const std::string& root, const std::string& disk_path);

// Fills the ggml fields from the linked ggml build.
void add_ggml_info(DeviceProfile& profile);

struct MeasureOptions {
  std::string root = "/";
  std::string disk_path = ".";
  bool run_benchmark = true;
  MicroBenchmarkParams benchmark = micro_benchmark_default_params();
};

// read_os_profile + add_ggml_info + (when asked) run_micro_benchmark. Takes
// as long as the benchmark (about a second on a laptop); never fails: a
// benchmark that cannot run is recorded as skipped or failed with the reason.
DeviceProfile measure_device_profile(const MeasureOptions& options);

// JSON: {"format": "tiergate-device-profile", "version": 1, "memory": {...},
// "disk": {...}, "cpu": {...}, "ggml": {...}, "batteries": [...],
// "thermal_zones": [...], "benchmark": {...}}. Absent fields are omitted.
// Indented with 2 spaces.
std::string profile_to_json(const DeviceProfile& profile);

// Parses profile_to_json's output. Unknown keys are ignored (a newer
// profile still reads). kInvalidArgument naming the field path, e.g.
// "memory.total_bytes: must be a non-negative integer", for malformed JSON,
// another format or version, or a field of the wrong type or range.
StatusOr<DeviceProfile> profile_from_json(std::string_view text);

// Reads a profile file: kNotFound when it cannot be opened; otherwise
// profile_from_json's errors with "<path>: " in front.
StatusOr<DeviceProfile> read_profile_file(const std::string& path);

// The readable table `tiergate device profile` prints (one fact a line).
std::string format_profile(const DeviceProfile& profile);

}  // namespace tiergate
