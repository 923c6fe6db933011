// Variant choice as a data-driven table (choice_cases.json): a reader adds a
// case there without writing C++. Plus the JSON form of a choice.
#include "tiergate/fleet/variant_choice.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "case_table.h"
#include "tiergate/fleet/byte_size.h"

namespace tiergate {
namespace {

using nlohmann::json;

uint64_t size_of(const json& text) {
  StatusOr<uint64_t> bytes = parse_byte_size(text.get<std::string>());
  if (!bytes.is_ok()) throw std::runtime_error(bytes.status().message());
  return *bytes;
}

std::optional<uint64_t> optional_size(const json& device, const char* key) {
  if (!device.contains(key) || device[key].is_null()) return std::nullopt;
  return size_of(device[key]);
}

DeviceProfile device_from(const json& defaults, const json& overrides) {
  json d = defaults;
  if (overrides.is_object()) d.update(overrides);
  DeviceProfile p;
  p.memory_total_bytes = optional_size(d, "mem_total");
  p.memory_available_bytes = optional_size(d, "mem_available");
  p.disk_path = "/models";
  p.disk_free_bytes = optional_size(d, "disk_free");
  p.cpu_features = d.value("cpu_features", std::vector<std::string>{});
  p.ggml_backends = d.value("backends", std::vector<std::string>{});
  if (d.contains("bench_decode_tps")) {
    MicroBenchmark b;
    b.outcome = BenchmarkOutcome::kMeasured;
    b.prefill_tps = 1000;
    b.decode_tps = d["bench_decode_tps"].get<double>();
    p.benchmark = b;
  }
  return p;
}

Manifest manifest_from(const json& variants) {
  Manifest m;
  m.base = {"base", "base.gguf", std::string(64, '0'), 1};
  for (const json& v : variants) {
    VariantEntry e;
    e.id = v["id"].get<std::string>();
    e.base_id = "base";
    e.recipe = {e.id, e.id, false, {}};
    e.file = e.id + ".gguf";
    e.sha256 = std::string(64, '0');
    e.size_bytes = size_of(v.value("size", json("1G")));
    e.min_memory_bytes = size_of(v.value("memory", json("2G")));
    e.requirements.cpu_features = v.value("cpu_features", std::vector<std::string>{});
    e.requirements.backends = v.value("backends", std::vector<std::string>{});
    if (v.contains("kl")) e.fidelity = Fidelity{v["kl"].get<double>(), v["top1"].get<double>(), {}, {}, {}};
    if (v.contains("decode_tps")) {
      MeasuredSpeed s;
      s.prefill_tps = 500;
      s.decode_tps = v["decode_tps"].get<double>();
      if (v.contains("bench_decode_tps")) s.bench_decode_tps = v["bench_decode_tps"].get<double>();
      e.speed = s;
    }
    m.variants.push_back(std::move(e));
  }
  return m;
}

ChoiceConstraints constraints_from(const json& c) {
  ChoiceConstraints out;
  if (!c.is_object()) return out;
  if (c.contains("memory_budget")) out.memory_budget_bytes = size_of(c["memory_budget"]);
  if (c.contains("memory_reserve")) out.memory_reserve_bytes = size_of(c["memory_reserve"]);
  if (c.contains("disk_budget")) out.disk_budget_bytes = size_of(c["disk_budget"]);
  if (c.contains("min_decode_tps")) out.min_decode_tps = c["min_decode_tps"].get<double>();
  return out;
}

// What the table's "expect" substrings are matched against: the verdict, the
// rank, and the variant's lines of the explanation.
std::string verdict_text(const Manifest& m, const VariantChoice& choice, const VariantVerdict& v) {
  std::string text(verdict_name(v.verdict));
  if (v.rank) text.append(" rank ").append(std::to_string(*v.rank));
  std::istringstream lines(format_choice(m, choice));
  std::string line;
  bool inside = false;
  const std::string marker = " " + m.variants[v.index].id + " (";
  while (std::getline(lines, line)) {
    if (line.rfind("      ", 0) == 0) {
      if (inside) text.append("\n").append(line);
      continue;
    }
    inside = line.rfind("  ", 0) == 0 && line.find(marker) != std::string::npos;
    if (inside) text.append("\n").append(line);
  }
  return text;
}

TEST(VariantChoiceTest, CaseTable) {
  const json table = testing::load_case_table("tests/fleet/choice_cases.json");
  for (const json& c : table["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    const Manifest m = manifest_from(c["variants"]);
    const DeviceProfile profile = device_from(table["defaults"]["device"], c.value("device", json()));
    const VariantChoice choice = choose_variant(m, profile, constraints_from(c.value("constraints", json())));
    ASSERT_EQ(choice.verdicts.size(), m.variants.size());
    if (c["chosen"].is_null()) {
      EXPECT_FALSE(choice.chosen.has_value()) << format_choice(m, choice);
    } else {
      ASSERT_TRUE(choice.chosen.has_value()) << format_choice(m, choice);
      EXPECT_EQ(m.variants[*choice.chosen].id, c["chosen"].get<std::string>()) << format_choice(m, choice);
    }
    for (const VariantVerdict& v : choice.verdicts) {
      const std::string& id = m.variants[v.index].id;
      // A variant is rejected exactly when it lists reasons.
      EXPECT_EQ(v.verdict == Verdict::kRejected, !v.rejections.empty()) << id;
      EXPECT_EQ(v.rank.has_value(), v.verdict != Verdict::kRejected) << id;
      const std::string text = verdict_text(m, choice, v);
      if (c.contains("expect") && c["expect"].contains(id)) {
        for (const json& want : c["expect"][id]) {
          EXPECT_NE(text.find(want.get<std::string>()), std::string::npos) << id << " lacks \"" << want << "\":\n"
                                                                           << text;
        }
      }
      if (c.contains("speed_basis") && c["speed_basis"].contains(id)) {
        EXPECT_EQ(speed_basis_name(v.speed_basis), c["speed_basis"][id].get<std::string>()) << id;
      }
    }
    if (c.contains("summary")) {
      EXPECT_EQ(choice.summary, c["summary"].get<std::string>());
    }
    if (c.contains("memory_budget_source")) {
      EXPECT_NE(choice.memory_budget.source.find(c["memory_budget_source"].get<std::string>()), std::string::npos)
          << choice.memory_budget.source;
    }
  }
}

TEST(VariantChoiceTest, JsonNamesTheChoiceAndEveryVerdict) {
  const Manifest m = manifest_from(json::parse(R"([
      {"id": "big", "memory": "64G", "kl": 0.001, "top1": 0.99},
      {"id": "fits", "kl": 0.01, "top1": 0.9, "decode_tps": 40, "bench_decode_tps": 200}])"));
  DeviceProfile p = device_from(json::parse(R"({"mem_available": "8G", "disk_free": "100G", "backends": ["CPU"],
                                               "bench_decode_tps": 100})"),
                                json());
  ChoiceConstraints constraints;
  constraints.min_decode_tps = 10;
  const VariantChoice choice = choose_variant(m, p, constraints);
  const json doc = json::parse(choice_to_json(m, choice));
  EXPECT_EQ(doc["chosen"], "fits");
  EXPECT_EQ(doc["min_decode_tps"], 10.0);
  EXPECT_EQ(doc["device_bench_decode_tps"], 100.0);
  EXPECT_EQ(doc["memory_budget"]["bytes"], (8ull << 30) - kDefaultMemoryReserveBytes);
  EXPECT_EQ(doc["variants"][0]["verdict"], "rejected");
  EXPECT_EQ(doc["variants"][0]["rejections"][0]["rule"], "memory");
  EXPECT_FALSE(doc["variants"][0].contains("rank"));
  EXPECT_EQ(doc["variants"][1]["verdict"], "chosen");
  EXPECT_EQ(doc["variants"][1]["rank"], 1);
  EXPECT_DOUBLE_EQ(doc["variants"][1]["estimated_decode_tps"].get<double>(), 20.0);
  EXPECT_EQ(doc["variants"][1]["speed_basis"], "scaled_by_benchmark");

  const VariantChoice none = choose_variant(manifest_from(json::array()), p, {});
  EXPECT_TRUE(json::parse(choice_to_json(Manifest{}, none))["chosen"].is_null());
}

}  // namespace
}  // namespace tiergate
