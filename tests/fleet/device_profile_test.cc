// The device profile read from fake /proc and /sys trees written here (x86
// and ARM, with and without battery and thermal zones, missing and broken
// files), and its JSON form.
#include "tiergate/fleet/device_profile.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "test_models.h"

namespace tiergate {
namespace {

namespace fs = std::filesystem;

constexpr const char* kX86Cpuinfo =
    "processor\t: 0\n"
    "vendor_id\t: GenuineIntel\n"
    "model name\t: Intel(R) Core(TM) i7-1185G7 @ 3.00GHz\n"
    "flags\t\t: fpu vme sse sse2 pni ssse3 fma sse4_1 sse4_2 avx f16c avx2 bmi2 avx512f avx512vl avx512_vnni\n"
    "\n"
    "processor\t: 1\n"
    "vendor_id\t: GenuineIntel\n"
    "model name\t: Intel(R) Core(TM) i7-1185G7 @ 3.00GHz\n"
    "flags\t\t: fpu vme sse sse2 pni ssse3 fma sse4_1 sse4_2 avx f16c avx2 bmi2 avx512f avx512vl avx512_vnni\n"
    "\n";

// An arm64 kernel: no "model name", features under "Features".
constexpr const char* kArmCpuinfo =
    "processor\t: 0\n"
    "BogoMIPS\t: 108.00\n"
    "Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop "
    "asimddp i8mm bf16 sve sve2\n"
    "CPU implementer\t: 0x41\n"
    "\n"
    "processor\t: 1\n"
    "Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop "
    "asimddp i8mm bf16 sve sve2\n"
    "\n"
    "processor\t: 2\n"
    "\n"
    "processor\t: 3\n"
    "\n"
    "Hardware\t: Raspberry Pi 5 Model B\n";

constexpr const char* kMeminfo =
    "MemTotal:       16318448 kB\n"
    "MemFree:         1034100 kB\n"
    "MemAvailable:    9876544 kB\n"
    "Buffers:          123456 kB\n";

class FakeOsTree {
 public:
  FakeOsTree() : root_(testing::make_temp_dir("tiergate-fake-os-")) {}
  void write(const std::string& path, const std::string& text) const {
    const fs::path full = fs::path(root_) / fs::path(path).relative_path();
    fs::create_directories(full.parent_path());
    std::ofstream(full) << text;
  }
  void mkdir(const std::string& path) const {
    fs::create_directories(fs::path(root_) / fs::path(path).relative_path());
  }
  const std::string& root() const { return root_; }

 private:
  std::string root_;
};

TEST(DeviceProfileTest, ReadsAnX86LaptopWithBatteryAndThermalZones) {
  FakeOsTree os;
  os.write("/proc/meminfo", kMeminfo);
  os.write("/proc/cpuinfo", kX86Cpuinfo);
  os.write("/sys/class/power_supply/AC/type", "Mains\n");
  os.write("/sys/class/power_supply/AC/online", "0\n");
  os.write("/sys/class/power_supply/BAT0/type", "Battery\n");
  os.write("/sys/class/power_supply/BAT0/capacity", "76\n");
  os.write("/sys/class/power_supply/BAT0/status", "Discharging\n");
  os.write("/sys/class/thermal/thermal_zone0/type", "acpitz\n");
  os.write("/sys/class/thermal/thermal_zone0/temp", "45000\n");
  os.write("/sys/class/thermal/thermal_zone10/type", "x86_pkg_temp\n");
  os.write("/sys/class/thermal/thermal_zone10/temp", "71500\n");
  os.write("/sys/class/thermal/thermal_zone2/type", "iwlwifi_1\n");  // no temp file: a sensor that is off
  os.write("/sys/class/thermal/cooling_device0/type", "Processor\n");  // not a zone

  const DeviceProfile p = read_os_profile(os.root(), os.root());
  EXPECT_EQ(p.memory_total_bytes, 16318448ull * 1024);
  EXPECT_EQ(p.memory_available_bytes, 9876544ull * 1024);
  EXPECT_EQ(p.cpu_model, "Intel(R) Core(TM) i7-1185G7 @ 3.00GHz");
  EXPECT_EQ(p.logical_cores, 2);
  EXPECT_EQ(p.cpu_features, (std::vector<std::string>{"AVX", "AVX2", "AVX512F", "AVX512VL", "AVX512_VNNI", "BMI2",
                                                      "F16C", "FMA", "SSE3", "SSE4_1", "SSE4_2", "SSSE3"}));
  ASSERT_EQ(p.batteries.size(), 1u);
  EXPECT_EQ(p.batteries[0].name, "BAT0");
  EXPECT_EQ(p.batteries[0].capacity_percent, 76);
  EXPECT_EQ(p.batteries[0].status, "Discharging");
  ASSERT_EQ(p.thermal_zones.size(), 3u);
  EXPECT_EQ(p.thermal_zones[0].name, "thermal_zone0");
  EXPECT_EQ(p.thermal_zones[0].type, "acpitz");
  EXPECT_DOUBLE_EQ(p.thermal_zones[0].temp_celsius.value(), 45.0);
  EXPECT_EQ(p.thermal_zones[1].name, "thermal_zone2");  // natural order: 2 before 10
  EXPECT_FALSE(p.thermal_zones[1].temp_celsius.has_value());
  EXPECT_EQ(p.thermal_zones[2].name, "thermal_zone10");
  EXPECT_DOUBLE_EQ(p.thermal_zones[2].temp_celsius.value(), 71.5);
  EXPECT_EQ(p.disk_path, os.root());
  EXPECT_TRUE(p.disk_free_bytes.has_value());
  EXPECT_GT(*p.disk_free_bytes, 0u);
  EXPECT_TRUE(p.ggml_backends.empty());  // OS reading does not query ggml
  EXPECT_FALSE(p.benchmark.has_value());
}

TEST(DeviceProfileTest, ReadsAnArmBoardWithoutBatteryOrThermal) {
  FakeOsTree os;
  os.write("/proc/meminfo", kMeminfo);
  os.write("/proc/cpuinfo", kArmCpuinfo);
  const DeviceProfile p = read_os_profile(os.root(), os.root());
  EXPECT_EQ(p.cpu_model, "Raspberry Pi 5 Model B");  // from "Hardware"
  EXPECT_EQ(p.logical_cores, 4);
  EXPECT_EQ(p.cpu_features,
            (std::vector<std::string>{"BF16", "DOTPROD", "FP16", "I8MM", "NEON", "SVE", "SVE2"}));
  EXPECT_TRUE(p.batteries.empty());
  EXPECT_TRUE(p.thermal_zones.empty());
}

TEST(DeviceProfileTest, MissingFilesLeaveFieldsAbsent) {
  FakeOsTree os;  // an empty root: no /proc, no /sys
  const DeviceProfile p = read_os_profile(os.root(), os.root() + "/no/such/dir");
  EXPECT_FALSE(p.memory_total_bytes.has_value());
  EXPECT_FALSE(p.memory_available_bytes.has_value());
  EXPECT_FALSE(p.disk_free_bytes.has_value());
  EXPECT_FALSE(p.cpu_model.has_value());
  EXPECT_FALSE(p.logical_cores.has_value());
  EXPECT_TRUE(p.cpu_features.empty());
  EXPECT_TRUE(p.batteries.empty());
  EXPECT_TRUE(p.thermal_zones.empty());
  // The JSON of an empty profile reads back the same.
  StatusOr<DeviceProfile> back = profile_from_json(profile_to_json(p));
  ASSERT_TRUE(back.is_ok()) << back.status().message();
  EXPECT_FALSE(back->memory_total_bytes.has_value());
}

TEST(DeviceProfileTest, MalformedFilesLeaveFieldsAbsent) {
  FakeOsTree os;
  // An old kernel without MemAvailable, a line in another unit, garbage.
  os.write("/proc/meminfo", "MemTotal: lots kB\nMemAvailable: 12 MB\nnonsense\n");
  os.write("/proc/cpuinfo", "no colons here\n");
  os.write("/sys/class/power_supply/BAT1/type", "Battery\n");
  os.write("/sys/class/power_supply/BAT1/capacity", "full\n");  // not a number
  os.write("/sys/class/power_supply/weird/type", "");         // empty type: not a battery
  os.write("/sys/class/thermal/thermal_zone0/temp", "hot\n");
  os.mkdir("/sys/class/thermal/thermal_zone1");  // empty directory
  const DeviceProfile p = read_os_profile(os.root(), os.root());
  EXPECT_FALSE(p.memory_total_bytes.has_value());
  EXPECT_FALSE(p.memory_available_bytes.has_value());
  EXPECT_FALSE(p.cpu_model.has_value());
  EXPECT_FALSE(p.logical_cores.has_value());
  ASSERT_EQ(p.batteries.size(), 1u);
  EXPECT_FALSE(p.batteries[0].capacity_percent.has_value());
  EXPECT_FALSE(p.batteries[0].status.has_value());
  EXPECT_TRUE(p.thermal_zones.empty());  // neither zone says anything
}

TEST(DeviceProfileTest, UnreadableFileIsAbsentNotACrash) {
  FakeOsTree os;
  os.mkdir("/proc/meminfo");  // a directory where a file should be
  os.write("/proc/cpuinfo", kX86Cpuinfo);
  const DeviceProfile p = read_os_profile(os.root(), os.root());
  EXPECT_FALSE(p.memory_total_bytes.has_value());
  EXPECT_EQ(p.logical_cores, 2);
}

TEST(DeviceProfileTest, GgmlInfoListsTheCpuBackend) {
  DeviceProfile p;
  add_ggml_info(p);
  EXPECT_NE(std::find(p.ggml_backends.begin(), p.ggml_backends.end(), "CPU"), p.ggml_backends.end());
  EXPECT_FALSE(p.ggml_devices.empty());
}

DeviceProfile full_profile() {
  DeviceProfile p;
  p.memory_total_bytes = 8ull << 30;
  p.memory_available_bytes = 5ull << 30;
  p.disk_path = "/models";
  p.disk_free_bytes = 100ull << 30;
  p.cpu_model = "Test CPU";
  p.logical_cores = 8;
  p.cpu_features = {"AVX2", "FMA"};
  p.ggml_backends = {"CPU"};
  p.ggml_devices = {"CPU: Test CPU"};
  p.ggml_cpu_build_features = {"AVX2", "SVE_CNT=32"};
  p.batteries = {Battery{"BAT0", 50, "Charging"}};
  p.thermal_zones = {ThermalZone{"thermal_zone0", "cpu-thermal", 55.5}};
  MicroBenchmark b;
  b.outcome = BenchmarkOutcome::kMeasured;
  b.prefill_tps = 5000;
  b.decode_tps = 300;
  b.prompt_tokens = 85;
  b.generated_tokens = 64;
  b.layers = 2;
  b.embd = 256;
  b.heads = 4;
  b.ff = 768;
  b.weight_type = "f16";
  b.threads = 8;
  p.benchmark = b;
  return p;
}

TEST(DeviceProfileTest, JsonRoundTrip) {
  const DeviceProfile p = full_profile();
  StatusOr<DeviceProfile> back = profile_from_json(profile_to_json(p));
  ASSERT_TRUE(back.is_ok()) << back.status().message();
  EXPECT_EQ(back->memory_total_bytes, p.memory_total_bytes);
  EXPECT_EQ(back->memory_available_bytes, p.memory_available_bytes);
  EXPECT_EQ(back->disk_path, "/models");
  EXPECT_EQ(back->disk_free_bytes, p.disk_free_bytes);
  EXPECT_EQ(back->cpu_model, "Test CPU");
  EXPECT_EQ(back->logical_cores, 8);
  EXPECT_EQ(back->cpu_features, p.cpu_features);
  EXPECT_EQ(back->ggml_backends, p.ggml_backends);
  EXPECT_EQ(back->ggml_devices, p.ggml_devices);
  EXPECT_EQ(back->ggml_cpu_build_features, p.ggml_cpu_build_features);
  ASSERT_EQ(back->batteries.size(), 1u);
  EXPECT_EQ(back->batteries[0].capacity_percent, 50);
  EXPECT_EQ(back->batteries[0].status, "Charging");
  ASSERT_EQ(back->thermal_zones.size(), 1u);
  EXPECT_DOUBLE_EQ(back->thermal_zones[0].temp_celsius.value(), 55.5);
  ASSERT_TRUE(back->benchmark.has_value());
  EXPECT_EQ(back->benchmark->outcome, BenchmarkOutcome::kMeasured);
  EXPECT_EQ(back->bench_decode_tps(), 300.0);
  EXPECT_EQ(back->benchmark->ff, 768);
  EXPECT_EQ(back->benchmark->threads, 8);
}

TEST(DeviceProfileTest, SkippedBenchmarkHasNoDecodeFigure) {
  DeviceProfile p = full_profile();
  p.benchmark = MicroBenchmark{};
  p.benchmark->reason = "no vocab";
  StatusOr<DeviceProfile> back = profile_from_json(profile_to_json(p));
  ASSERT_TRUE(back.is_ok()) << back.status().message();
  EXPECT_EQ(back->benchmark->outcome, BenchmarkOutcome::kSkipped);
  EXPECT_EQ(back->benchmark->reason, "no vocab");
  EXPECT_FALSE(back->bench_decode_tps().has_value());
}

// Each malformed profile and the error that names its field.
TEST(DeviceProfileTest, MalformedJsonNamesTheField) {
  const nlohmann::json good = nlohmann::json::parse(profile_to_json(full_profile()));
  struct Case {
    const char* pointer;
    nlohmann::json value;
    const char* error;
  };
  const std::vector<Case> cases = {
      {"/format", "something-else", "format: is \"something-else\", not \"tiergate-device-profile\""},
      {"/version", 2, "version: is 2; this build reads version 1"},
      {"/memory/total_bytes", -5, "memory.total_bytes: must be a non-negative integer"},
      {"/memory/available_bytes", "lots", "memory.available_bytes: must be a non-negative integer"},
      {"/memory", 7, "memory: must be an object"},
      {"/cpu/logical_cores", 0, "cpu.logical_cores: must be an integer from 1"},
      {"/cpu/features", nlohmann::json::array({"AVX2", 3}), "cpu.features[1]: must be a string"},
      {"/ggml/backends", "CPU", "ggml.backends: must be an array of strings"},
      {"/batteries/0/capacity_percent", 150, "batteries[0].capacity_percent: must be an integer from 0 to 100"},
      {"/thermal_zones/0/name", nullptr, "thermal_zones[0].name: missing (a string)"},
      {"/benchmark/outcome", "great", "benchmark.outcome: must be measured, skipped or failed"},
      {"/benchmark/decode_tps", nullptr, "benchmark.decode_tps: missing (a number)"},
  };
  for (const Case& c : cases) {
    nlohmann::json doc = good;
    if (c.value.is_null()) {
      const nlohmann::json::json_pointer ptr(c.pointer);
      doc[ptr.parent_pointer()].erase(ptr.back());
    } else {
      doc[nlohmann::json::json_pointer(c.pointer)] = c.value;
    }
    StatusOr<DeviceProfile> p = profile_from_json(doc.dump());
    ASSERT_FALSE(p.is_ok()) << c.pointer;
    EXPECT_EQ(p.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(p.status().message().find(c.error), std::string::npos) << p.status().message();
  }
  EXPECT_EQ(profile_from_json("{not json").status().message(), "not valid JSON");
  EXPECT_EQ(profile_from_json("[1]").status().message(), "the document: must be an object");
}

TEST(DeviceProfileTest, ProfileFileErrorsNameThePath) {
  const std::string dir = testing::make_temp_dir("tiergate-profile-");
  StatusOr<DeviceProfile> missing = read_profile_file(dir + "/absent.json");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("absent.json"), std::string::npos);
  std::ofstream(dir + "/bad.json")
      << R"({"format": "tiergate-device-profile", "version": 1, "disk": {"free_bytes": 1.5}})";
  StatusOr<DeviceProfile> bad = read_profile_file(dir + "/bad.json");
  EXPECT_EQ(bad.status().message(), dir + "/bad.json: disk.free_bytes: must be a non-negative integer");
}

TEST(DeviceProfileTest, TableShowsAbsentFactsPlainly) {
  const std::string table = format_profile(DeviceProfile{});
  EXPECT_NE(table.find("memory total      (not exposed)"), std::string::npos) << table;
  EXPECT_NE(table.find("battery           (none exposed)"), std::string::npos) << table;
  EXPECT_NE(table.find("micro-benchmark   (not run)"), std::string::npos) << table;
  const std::string full = format_profile(full_profile());
  EXPECT_NE(full.find("memory available  5 GiB"), std::string::npos) << full;
  EXPECT_NE(full.find("battery           BAT0 50% Charging"), std::string::npos) << full;
  EXPECT_NE(full.find("thermal           thermal_zone0 cpu-thermal 55.5 C"), std::string::npos) << full;
  EXPECT_NE(full.find("  decode          300.0 tok/s (64 tokens)"), std::string::npos) << full;
}

}  // namespace
}  // namespace tiergate
