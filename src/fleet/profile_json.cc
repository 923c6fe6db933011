// The device profile's JSON form and its readable table (device_profile.h).
#include <cstdio>
#include <nlohmann/json.hpp>

#include "json_fields.h"
#include "tiergate/fleet/byte_size.h"
#include "tiergate/fleet/device_profile.h"

namespace tiergate {
namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;  // output keeps the documented key order
using fleet_json::JsonFields;
using fleet_json::Need;

constexpr const char* kProfileFormat = "tiergate-device-profile";
constexpr int64_t kProfileVersion = 1;
constexpr int64_t kMaxCount = 1 << 30;  // cores, tokens, dimensions: generous upper bound

template <typename T>
void put(ojson& object, const char* key, const std::optional<T>& value) {
  if (value) object[key] = *value;
}

ojson benchmark_to_json(const MicroBenchmark& b) {
  ojson out = {{"outcome", benchmark_outcome_name(b.outcome)}};
  if (!b.reason.empty()) out["reason"] = b.reason;
  put(out, "prefill_tps", b.prefill_tps);
  put(out, "decode_tps", b.decode_tps);
  out["prompt_tokens"] = b.prompt_tokens;
  out["generated_tokens"] = b.generated_tokens;
  out["model"] = {{"layers", b.layers}, {"embd", b.embd}, {"heads", b.heads}, {"ff", b.ff},
                  {"weight_type", b.weight_type}};
  out["threads"] = b.threads;
  return out;
}

MicroBenchmark benchmark_from_json(JsonFields f) {
  MicroBenchmark b;
  if (std::optional<std::string> outcome = f.string("outcome", Need::kRequired)) {
    if (!parse_benchmark_outcome(*outcome, b.outcome)) f.fail("outcome", "must be measured, skipped or failed");
  }
  b.reason = f.string("reason", Need::kOptional).value_or("");
  const Need figures = b.outcome == BenchmarkOutcome::kMeasured ? Need::kRequired : Need::kOptional;
  b.prefill_tps = f.number("prefill_tps", figures, 0, 1e12);
  b.decode_tps = f.number("decode_tps", figures, 0, 1e12);
  b.prompt_tokens = f.integer("prompt_tokens", Need::kOptional, 0, kMaxCount).value_or(0);
  b.generated_tokens = f.integer("generated_tokens", Need::kOptional, 0, kMaxCount).value_or(0);
  JsonFields model = f.object("model", Need::kOptional);
  b.layers = static_cast<int>(model.integer("layers", Need::kOptional, 0, kMaxCount).value_or(0));
  b.embd = static_cast<int>(model.integer("embd", Need::kOptional, 0, kMaxCount).value_or(0));
  b.heads = static_cast<int>(model.integer("heads", Need::kOptional, 0, kMaxCount).value_or(0));
  b.ff = static_cast<int>(model.integer("ff", Need::kOptional, 0, kMaxCount).value_or(0));
  b.weight_type = model.string("weight_type", Need::kOptional).value_or("");
  b.threads = static_cast<int>(f.integer("threads", Need::kOptional, 0, kMaxCount).value_or(0));
  return b;
}

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out.append(" ");
    out.append(item);
  }
  return out;
}

}  // namespace

std::string profile_to_json(const DeviceProfile& p) {
  ojson out = {{"format", kProfileFormat}, {"version", kProfileVersion}};
  ojson memory = ojson::object();
  put(memory, "total_bytes", p.memory_total_bytes);
  put(memory, "available_bytes", p.memory_available_bytes);
  out["memory"] = memory;
  ojson disk = {{"path", p.disk_path}};
  put(disk, "free_bytes", p.disk_free_bytes);
  out["disk"] = disk;
  ojson cpu = ojson::object();
  put(cpu, "model", p.cpu_model);
  put(cpu, "logical_cores", p.logical_cores);
  cpu["features"] = p.cpu_features;
  out["cpu"] = cpu;
  out["ggml"] = {{"backends", p.ggml_backends},
                 {"devices", p.ggml_devices},
                 {"cpu_build_features", p.ggml_cpu_build_features}};
  if (!p.batteries.empty()) {
    ojson batteries = ojson::array();
    for (const Battery& b : p.batteries) {
      ojson battery = {{"name", b.name}};
      put(battery, "capacity_percent", b.capacity_percent);
      put(battery, "status", b.status);
      batteries.push_back(battery);
    }
    out["batteries"] = batteries;
  }
  if (!p.thermal_zones.empty()) {
    ojson zones = ojson::array();
    for (const ThermalZone& z : p.thermal_zones) {
      ojson zone = {{"name", z.name}};
      put(zone, "type", z.type);
      put(zone, "temp_celsius", z.temp_celsius);
      zones.push_back(zone);
    }
    out["thermal_zones"] = zones;
  }
  if (p.benchmark) out["benchmark"] = benchmark_to_json(*p.benchmark);
  return out.dump(2);
}

StatusOr<DeviceProfile> profile_from_json(std::string_view text) {
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return invalid_argument("not valid JSON");
  Status error;
  JsonFields top(&doc, "", &error);
  if (std::optional<std::string> format = top.string("format", Need::kRequired); format && *format != kProfileFormat) {
    top.fail("format", std::string("is \"").append(*format).append("\", not \"").append(kProfileFormat).append("\""));
  }
  if (std::optional<int64_t> version = top.integer("version", Need::kRequired, 0, INT32_MAX);
      version && *version != kProfileVersion) {
    top.fail("version", std::string("is ").append(std::to_string(*version)).append("; this build reads version 1"));
  }
  if (!error.is_ok()) return error;

  DeviceProfile p;
  JsonFields memory = top.object("memory", Need::kOptional);
  p.memory_total_bytes = memory.unsigned_integer("total_bytes", Need::kOptional);
  p.memory_available_bytes = memory.unsigned_integer("available_bytes", Need::kOptional);
  JsonFields disk = top.object("disk", Need::kOptional);
  p.disk_path = disk.string("path", Need::kOptional).value_or("");
  p.disk_free_bytes = disk.unsigned_integer("free_bytes", Need::kOptional);
  JsonFields cpu = top.object("cpu", Need::kOptional);
  p.cpu_model = cpu.string("model", Need::kOptional);
  if (std::optional<int64_t> cores = cpu.integer("logical_cores", Need::kOptional, 1, kMaxCount)) {
    p.logical_cores = static_cast<int>(*cores);
  }
  p.cpu_features = cpu.strings("features", Need::kOptional);
  JsonFields ggml = top.object("ggml", Need::kOptional);
  p.ggml_backends = ggml.strings("backends", Need::kOptional);
  p.ggml_devices = ggml.strings("devices", Need::kOptional);
  p.ggml_cpu_build_features = ggml.strings("cpu_build_features", Need::kOptional);
  const std::vector<const json*> batteries = top.array("batteries", Need::kOptional);
  for (size_t i = 0; i < batteries.size(); ++i) {
    JsonFields f(batteries[i], fleet_json::index_path("batteries", i), &error);
    Battery b;
    b.name = f.string("name", Need::kRequired).value_or("");
    if (std::optional<int64_t> percent = f.integer("capacity_percent", Need::kOptional, 0, 100)) {
      b.capacity_percent = static_cast<int>(*percent);
    }
    b.status = f.string("status", Need::kOptional);
    p.batteries.push_back(std::move(b));
  }
  const std::vector<const json*> zones = top.array("thermal_zones", Need::kOptional);
  for (size_t i = 0; i < zones.size(); ++i) {
    JsonFields f(zones[i], fleet_json::index_path("thermal_zones", i), &error);
    ThermalZone z;
    z.name = f.string("name", Need::kRequired).value_or("");
    z.type = f.string("type", Need::kOptional);
    z.temp_celsius = f.number("temp_celsius", Need::kOptional, -273.15, 1000);
    p.thermal_zones.push_back(std::move(z));
  }
  if (top.has("benchmark")) {
    JsonFields bench = top.object("benchmark", Need::kOptional);
    if (bench.present()) p.benchmark = benchmark_from_json(bench);
  }
  if (!error.is_ok()) return error;
  return p;
}

std::string format_profile(const DeviceProfile& p) {
  std::string out;
  auto row = [&](const char* name, const std::string& value) {
    char label[24];
    std::snprintf(label, sizeof label, "%-18s", name);
    out.append(label).append(value).append("\n");
  };
  const std::string absent = "(not exposed)";
  row("memory total", p.memory_total_bytes ? format_bytes(*p.memory_total_bytes) : absent);
  row("memory available", p.memory_available_bytes ? format_bytes(*p.memory_available_bytes) : absent);
  row("disk free", (p.disk_free_bytes ? format_bytes(*p.disk_free_bytes) : std::string("(unknown)"))
                       .append(" on ")
                       .append(p.disk_path));
  row("cpu", p.cpu_model.value_or(absent));
  row("logical cores", p.logical_cores ? std::to_string(*p.logical_cores) : absent);
  row("cpu features", p.cpu_features.empty() ? absent : joined(p.cpu_features));
  row("ggml backends", p.ggml_backends.empty() ? std::string("(not queried)") : joined(p.ggml_backends));
  for (const std::string& device : p.ggml_devices) row("ggml device", device);
  row("ggml built for", p.ggml_cpu_build_features.empty() ? std::string("(not queried)")
                                                          : joined(p.ggml_cpu_build_features));
  if (p.batteries.empty()) row("battery", "(none exposed)");
  for (const Battery& b : p.batteries) {
    std::string value = b.name;
    if (b.capacity_percent) value.append(" ").append(std::to_string(*b.capacity_percent)).append("%");
    if (b.status) value.append(" ").append(*b.status);
    row("battery", value);
  }
  if (p.thermal_zones.empty()) row("thermal", "(none exposed)");
  for (const ThermalZone& z : p.thermal_zones) {
    std::string value = z.name;
    if (z.type) value.append(" ").append(*z.type);
    value.append(" ").append(z.temp_celsius ? fixed(*z.temp_celsius, 1).append(" C") : std::string("(no reading)"));
    row("thermal", value);
  }
  if (!p.benchmark) {
    row("micro-benchmark", "(not run)");
  } else {
    const MicroBenchmark& b = *p.benchmark;
    std::string shape = std::string("synthetic L").append(std::to_string(b.layers)).append(" E").append(
        std::to_string(b.embd));
    shape.append(" ").append(b.weight_type).append(", ").append(std::to_string(b.threads)).append(" threads");
    switch (b.outcome) {
      case BenchmarkOutcome::kMeasured:
        row("micro-benchmark", shape);
        row("  prefill", fixed(b.prefill_tps.value_or(0), 1)
                             .append(" tok/s (")
                             .append(std::to_string(b.prompt_tokens))
                             .append(" prompt tokens)"));
        row("  decode", fixed(b.decode_tps.value_or(0), 1)
                            .append(" tok/s (")
                            .append(std::to_string(b.generated_tokens))
                            .append(" tokens)"));
        break;
      case BenchmarkOutcome::kSkipped: row("micro-benchmark", std::string("skipped: ").append(b.reason)); break;
      case BenchmarkOutcome::kFailed: row("micro-benchmark", std::string("failed: ").append(b.reason)); break;
    }
  }
  return out;
}

}  // namespace tiergate
