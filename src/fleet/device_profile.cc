#include "tiergate/fleet/device_profile.h"

#include <sys/statvfs.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <system_error>

#include "tiergate/engines/local/backend_info.h"

namespace tiergate {
namespace {

namespace fs = std::filesystem;

// Files under /proc and /sys are small; a cap keeps a hostile or broken file
// from being read into memory whole.
constexpr size_t kMaxOsFileBytes = 1 << 20;

std::optional<std::string> read_small_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text(kMaxOsFileBytes, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) return std::nullopt;
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

// The file's content trimmed; nullopt when missing, unreadable or empty.
std::optional<std::string> read_value(const fs::path& path) {
  std::optional<std::string> text = read_small_file(path);
  if (!text) return std::nullopt;
  std::string value = trim(*text);
  if (value.empty()) return std::nullopt;
  return value;
}

template <typename T>
std::optional<T> parse_number(std::string_view s) {
  T value{};
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return value;
}

// The path under root of an absolute OS path ("/proc/meminfo").
fs::path os_path(const std::string& root, std::string_view absolute) {
  return fs::path(root.empty() ? "/" : root) / fs::path(absolute).relative_path();
}

// "MemTotal:       16318448 kB" lines; values in kB.
void read_meminfo(const std::string& root, DeviceProfile& profile) {
  std::optional<std::string> text = read_small_file(os_path(root, "/proc/meminfo"));
  if (!text) return;
  std::istringstream lines(*text);
  std::string line;
  while (std::getline(lines, line)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = line.substr(0, colon);
    std::istringstream rest(line.substr(colon + 1));
    std::string amount, unit;
    rest >> amount >> unit;
    std::optional<uint64_t> kb = parse_number<uint64_t>(amount);
    if (!kb || unit != "kB" || *kb > UINT64_MAX / 1024) continue;
    if (key == "MemTotal") profile.memory_total_bytes = *kb * 1024;
    if (key == "MemAvailable") profile.memory_available_bytes = *kb * 1024;
  }
}

void read_cpuinfo(const std::string& root, DeviceProfile& profile) {
  std::optional<std::string> text = read_small_file(os_path(root, "/proc/cpuinfo"));
  if (!text) return;
  std::map<std::string, std::string> first;  // the first value of each key
  int processors = 0;
  std::istringstream lines(*text);
  std::string line;
  while (std::getline(lines, line)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = trim(std::string_view(line).substr(0, colon));
    if (key == "processor") ++processors;
    first.emplace(key, trim(std::string_view(line).substr(colon + 1)));
  }
  if (processors > 0) profile.logical_cores = processors;
  for (const char* key : {"model name", "Hardware", "Processor"}) {
    auto it = first.find(key);
    if (it != first.end() && !it->second.empty()) {
      profile.cpu_model = it->second;
      break;
    }
  }
  std::set<std::string> flags;
  for (const char* key : {"flags", "Features"}) {
    auto it = first.find(key);
    if (it == first.end()) continue;
    std::istringstream words(it->second);
    std::string word;
    while (words >> word) flags.insert(word);
  }
  std::set<std::string> features;
  for (const CpuFeatureName& f : cpu_feature_names()) {
    if (flags.count(f.os_flag) != 0) features.insert(f.name);
  }
  profile.cpu_features.assign(features.begin(), features.end());
}

// Directory entries sorted so that "thermal_zone10" follows "thermal_zone9".
std::vector<fs::path> sorted_entries(const fs::path& dir) {
  std::vector<fs::path> entries;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) entries.push_back(it->path());
  auto key = [](const fs::path& p) {
    const std::string name = p.filename().string();
    size_t digits = name.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
    return std::make_pair(name.substr(0, digits), name.size() - digits);
  };
  std::sort(entries.begin(), entries.end(), [&](const fs::path& a, const fs::path& b) {
    auto ka = key(a), kb = key(b);
    if (ka != kb) return ka < kb;  // same prefix: fewer digits first, then text order
    return a.filename().string() < b.filename().string();
  });
  return entries;
}

void read_batteries(const std::string& root, DeviceProfile& profile) {
  for (const fs::path& dir : sorted_entries(os_path(root, "/sys/class/power_supply"))) {
    if (read_value(dir / "type") != "Battery") continue;
    Battery battery;
    battery.name = dir.filename().string();
    if (std::optional<std::string> capacity = read_value(dir / "capacity")) {
      std::optional<int> percent = parse_number<int>(*capacity);
      if (percent && *percent >= 0 && *percent <= 100) battery.capacity_percent = percent;
    }
    battery.status = read_value(dir / "status");
    profile.batteries.push_back(std::move(battery));
  }
}

void read_thermal_zones(const std::string& root, DeviceProfile& profile) {
  for (const fs::path& dir : sorted_entries(os_path(root, "/sys/class/thermal"))) {
    if (dir.filename().string().rfind("thermal_zone", 0) != 0) continue;
    ThermalZone zone;
    zone.name = dir.filename().string();
    zone.type = read_value(dir / "type");
    if (std::optional<std::string> temp = read_value(dir / "temp")) {
      // Millidegrees; some drivers report negative values when the sensor is
      // idle or broken, which are still what the kernel says.
      if (std::optional<int64_t> milli = parse_number<int64_t>(*temp)) {
        zone.temp_celsius = static_cast<double>(*milli) / 1000.0;
      }
    }
    if (!zone.type && !zone.temp_celsius) continue;  // an empty directory says nothing
    profile.thermal_zones.push_back(std::move(zone));
  }
}

void read_disk(const std::string& disk_path, DeviceProfile& profile) {
  profile.disk_path = disk_path;
  struct statvfs fs_stats {};
  if (::statvfs(disk_path.c_str(), &fs_stats) != 0) return;
  profile.disk_free_bytes = static_cast<uint64_t>(fs_stats.f_bavail) * static_cast<uint64_t>(fs_stats.f_frsize);
}

}  // namespace

std::optional<double> DeviceProfile::bench_decode_tps() const {
  if (!benchmark || benchmark->outcome != BenchmarkOutcome::kMeasured) return std::nullopt;
  return benchmark->decode_tps;
}

const std::vector<CpuFeatureName>& cpu_feature_names() {
  static const std::vector<CpuFeatureName> kNames{
      // x86 (/proc/cpuinfo "flags")
      {"pni", "SSE3"},
      {"ssse3", "SSSE3"},
      {"sse4_1", "SSE4_1"},
      {"sse4_2", "SSE4_2"},
      {"avx", "AVX"},
      {"avx2", "AVX2"},
      {"fma", "FMA"},
      {"f16c", "F16C"},
      {"bmi2", "BMI2"},
      {"avx_vnni", "AVX_VNNI"},
      {"avx512f", "AVX512F"},
      {"avx512bw", "AVX512BW"},
      {"avx512vl", "AVX512VL"},
      {"avx512vbmi", "AVX512_VBMI"},
      {"avx512_vnni", "AVX512_VNNI"},
      {"avx512_bf16", "AVX512_BF16"},
      {"amx_tile", "AMX_TILE"},
      {"amx_int8", "AMX_INT8"},
      {"amx_bf16", "AMX_BF16"},
      // ARM (/proc/cpuinfo "Features")
      {"asimd", "NEON"},
      {"asimdhp", "FP16"},
      {"asimddp", "DOTPROD"},
      {"i8mm", "I8MM"},
      {"bf16", "BF16"},
      {"sve", "SVE"},
      {"sve2", "SVE2"},
      {"sme", "SME"},
  };
  return kNames;
}

DeviceProfile read_os_profile(const std::string& root, const std::string& disk_path) {
  DeviceProfile profile;
  read_meminfo(root, profile);
  read_cpuinfo(root, profile);
  read_disk(disk_path, profile);
  read_batteries(root, profile);
  read_thermal_zones(root, profile);
  return profile;
}

void add_ggml_info(DeviceProfile& profile) {
  GgmlBackendInfo info = ggml_backend_info();
  profile.ggml_backends = std::move(info.backends);
  profile.ggml_devices.clear();
  for (const GgmlDevice& device : info.devices) {
    std::string line = device.name;
    if (!device.description.empty() && device.description != device.name) line.append(": ").append(device.description);
    profile.ggml_devices.push_back(std::move(line));
  }
  profile.ggml_cpu_build_features = std::move(info.cpu_build_features);
}

DeviceProfile measure_device_profile(const MeasureOptions& options) {
  DeviceProfile profile = read_os_profile(options.root, options.disk_path);
  add_ggml_info(profile);
  if (options.run_benchmark) profile.benchmark = run_micro_benchmark(options.benchmark);
  return profile;
}

StatusOr<DeviceProfile> read_profile_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return not_found(std::string(path).append(": cannot open the device profile"));
  std::ostringstream text;
  text << in.rdbuf();
  StatusOr<DeviceProfile> profile = profile_from_json(text.str());
  if (!profile.is_ok()) return invalid_argument(std::string(path).append(": ").append(profile.status().message()));
  return profile;
}

}  // namespace tiergate
