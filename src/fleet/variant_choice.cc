#include "tiergate/fleet/variant_choice.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "tiergate/fleet/byte_size.h"

namespace tiergate {
namespace {

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string percent(double share) { return fixed(share * 100.0, 1).append("%"); }

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

Budget memory_budget(const DeviceProfile& profile, const ChoiceConstraints& c) {
  if (c.memory_budget_bytes) return {c.memory_budget_bytes, "--memory-budget"};
  auto after_reserve = [&](uint64_t bytes, const char* what) {
    std::string source = std::string(what).append(" ").append(format_bytes(bytes));
    source.append(" minus ").append(format_bytes(c.memory_reserve_bytes)).append(" reserve");
    return Budget{bytes > c.memory_reserve_bytes ? bytes - c.memory_reserve_bytes : 0, std::move(source)};
  };
  if (profile.memory_available_bytes) return after_reserve(*profile.memory_available_bytes, "MemAvailable");
  if (profile.memory_total_bytes) {
    return after_reserve(*profile.memory_total_bytes, "MemTotal (MemAvailable not exposed)");
  }
  return {std::nullopt, "not checked: no budget given and the profile has no memory figures"};
}

Budget disk_budget(const DeviceProfile& profile, const ChoiceConstraints& c) {
  if (c.disk_budget_bytes) return {c.disk_budget_bytes, "--disk-budget"};
  if (profile.disk_free_bytes) return {profile.disk_free_bytes, std::string("free on ").append(profile.disk_path)};
  return {std::nullopt, "not checked: no budget given and the profile has no free-disk figure"};
}

void estimate_speed(const VariantEntry& v, std::optional<double> device_bench, VariantVerdict& out) {
  if (!v.speed) {
    out.speed_basis = SpeedBasis::kUnknown;
    out.speed_note = "no measured speed in the manifest";
    return;
  }
  const std::optional<double>& manifest_bench = v.speed->bench_decode_tps;
  if (device_bench && manifest_bench && *manifest_bench > 0) {
    out.estimated_decode_tps = v.speed->decode_tps * *device_bench / *manifest_bench;
    out.speed_basis = SpeedBasis::kScaledByBenchmark;
    out.speed_note = fixed(v.speed->decode_tps, 1)
                         .append(" tok/s where measured, scaled by the micro-benchmark: ")
                         .append(fixed(*device_bench, 1))
                         .append(" here / ")
                         .append(fixed(*manifest_bench, 1))
                         .append(" there");
    return;
  }
  out.estimated_decode_tps = v.speed->decode_tps;
  out.speed_basis = SpeedBasis::kManifestFigure;
  out.speed_note = std::string("as measured where the manifest was made (")
                       .append(device_bench ? "the manifest has no micro-benchmark figure"
                                            : "this profile has no micro-benchmark")
                       .append(")");
}

VariantVerdict judge(const VariantEntry& v, size_t index, const DeviceProfile& profile, const VariantChoice& c) {
  VariantVerdict out;
  out.index = index;
  auto reject = [&](ChoiceRule rule, std::string reason) { out.rejections.push_back({rule, std::move(reason)}); };
  if (c.memory_budget.bytes && v.min_memory_bytes > *c.memory_budget.bytes) {
    reject(ChoiceRule::kMemory, std::string("doesn't fit memory: needs ")
                                    .append(format_bytes(v.min_memory_bytes))
                                    .append(", has ")
                                    .append(format_bytes(*c.memory_budget.bytes)));
  }
  if (c.disk_budget.bytes && v.size_bytes > *c.disk_budget.bytes) {
    reject(ChoiceRule::kDisk, std::string("doesn't fit disk: needs ")
                                  .append(format_bytes(v.size_bytes))
                                  .append(", has ")
                                  .append(format_bytes(*c.disk_budget.bytes)));
  }
  for (const std::string& feature : v.requirements.cpu_features) {
    if (contains(profile.cpu_features, feature)) continue;
    reject(ChoiceRule::kCpuFeatures,
           std::string("missing CPU feature ")
               .append(feature)
               .append(profile.cpu_features.empty() ? " (the profile lists no CPU features)" : ""));
  }
  for (const std::string& backend : v.requirements.backends) {
    if (contains(profile.ggml_backends, backend)) continue;
    reject(ChoiceRule::kBackends,
           std::string("missing ggml backend ")
               .append(backend)
               .append(profile.ggml_backends.empty() ? " (the profile lists no backends)" : ""));
  }
  estimate_speed(v, c.device_bench_decode_tps, out);
  if (c.min_decode_tps) {
    if (!out.estimated_decode_tps) {
      reject(ChoiceRule::kDecodeSpeed, std::string("no measured decode speed to compare with the target ")
                                           .append(fixed(*c.min_decode_tps, 1))
                                           .append(" tok/s"));
    } else if (*out.estimated_decode_tps < *c.min_decode_tps) {
      reject(ChoiceRule::kDecodeSpeed, std::string("estimated decode ")
                                           .append(fixed(*out.estimated_decode_tps, 1))
                                           .append(" tok/s below ")
                                           .append(fixed(*c.min_decode_tps, 1)));
    }
  }
  out.verdict = out.rejections.empty() ? Verdict::kFits : Verdict::kRejected;
  return out;
}

// True when a ranks before b among variants that fit (see the header).
bool ranks_before(const VariantEntry& a, size_t ia, const VariantEntry& b, size_t ib) {
  if (a.fidelity.has_value() != b.fidelity.has_value()) return a.fidelity.has_value();
  if (a.fidelity && b.fidelity) {
    if (a.fidelity->kl_mean != b.fidelity->kl_mean) return a.fidelity->kl_mean < b.fidelity->kl_mean;
    if (a.fidelity->top1_agreement != b.fidelity->top1_agreement) {
      return a.fidelity->top1_agreement > b.fidelity->top1_agreement;
    }
  }
  if (a.size_bytes != b.size_bytes) return a.size_bytes < b.size_bytes;
  return ia < ib;
}

std::string summarize(const Manifest& m, const VariantChoice& c, size_t fitting) {
  const std::string of_total = std::to_string(m.variants.size());
  if (!c.chosen) {
    if (m.variants.empty()) return "none fits: the manifest lists no variants";
    if (m.variants.size() == 1) return "none fits: the manifest's only variant does not fit";
    return std::string("none fits: none of the ").append(of_total).append(" variants fits");
  }
  const VariantEntry& v = m.variants[*c.chosen];
  std::string among = std::string(" among ").append(std::to_string(fitting)).append(" of ").append(of_total).append(
      " that fit");
  std::string out = std::string("chosen ").append(v.id).append(": ");
  if (v.fidelity) {
    out.append("best fidelity").append(among);
    out.append(" (kl_mean ").append(fixed(v.fidelity->kl_mean, 4));
    out.append(", top-1 agreement ").append(percent(v.fidelity->top1_agreement)).append(")");
  } else {
    out.append("no variant that fits has measured fidelity; the smallest file").append(among);
  }
  return out;
}

}  // namespace

std::string_view choice_rule_name(ChoiceRule rule) {
  switch (rule) {
    case ChoiceRule::kMemory: return "memory";
    case ChoiceRule::kDisk: return "disk";
    case ChoiceRule::kCpuFeatures: return "cpu_features";
    case ChoiceRule::kBackends: return "backends";
    case ChoiceRule::kDecodeSpeed: return "decode_speed";
  }
  return "memory";
}

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::kChosen: return "chosen";
    case Verdict::kFits: return "fits";
    case Verdict::kRejected: return "rejected";
  }
  return "rejected";
}

std::string_view speed_basis_name(SpeedBasis basis) {
  switch (basis) {
    case SpeedBasis::kScaledByBenchmark: return "scaled_by_benchmark";
    case SpeedBasis::kManifestFigure: return "manifest_figure";
    case SpeedBasis::kUnknown: return "unknown";
  }
  return "unknown";
}

VariantChoice choose_variant(const Manifest& manifest, const DeviceProfile& profile,
                             const ChoiceConstraints& constraints) {
  VariantChoice c;
  c.memory_budget = memory_budget(profile, constraints);
  c.disk_budget = disk_budget(profile, constraints);
  c.min_decode_tps = constraints.min_decode_tps;
  c.device_bench_decode_tps = profile.bench_decode_tps();
  std::vector<size_t> fitting;
  for (size_t i = 0; i < manifest.variants.size(); ++i) {
    c.verdicts.push_back(judge(manifest.variants[i], i, profile, c));
    if (c.verdicts.back().verdict == Verdict::kFits) fitting.push_back(i);
  }
  std::sort(fitting.begin(), fitting.end(), [&](size_t a, size_t b) {
    return ranks_before(manifest.variants[a], a, manifest.variants[b], b);
  });
  for (size_t r = 0; r < fitting.size(); ++r) c.verdicts[fitting[r]].rank = static_cast<int>(r + 1);
  if (!fitting.empty()) {
    c.chosen = fitting.front();
    c.verdicts[fitting.front()].verdict = Verdict::kChosen;
  }
  c.summary = summarize(manifest, c, fitting.size());
  return c;
}

std::string format_choice(const Manifest& manifest, const VariantChoice& c) {
  std::string out = c.summary;
  out.append("\n");
  auto budget_line = [&](const char* name, const Budget& b) {
    out.append(name);
    if (b.bytes) out.append(format_bytes(*b.bytes)).append(" (").append(b.source).append(")\n");
    else out.append(b.source).append("\n");
  };
  budget_line("memory budget: ", c.memory_budget);
  budget_line("disk budget:   ", c.disk_budget);
  out.append("decode target: ")
      .append(c.min_decode_tps ? fixed(*c.min_decode_tps, 1).append(" tok/s") : std::string("none"))
      .append("\n");
  out.append("speed basis:   ")
      .append(c.device_bench_decode_tps
                  ? std::string("this device's micro-benchmark decodes at ")
                        .append(fixed(*c.device_bench_decode_tps, 1))
                        .append(" tok/s; manifest speeds are scaled by it where the manifest has its own")
                  : std::string("no micro-benchmark on this device; manifest speeds are used as measured"))
      .append("\n");
  for (const VariantVerdict& v : c.verdicts) {
    const VariantEntry& e = manifest.variants[v.index];
    std::string line = "  ";
    line.append(v.rank ? std::string("#").append(std::to_string(*v.rank)) : std::string("-"));
    line.append(" ").append(verdict_name(v.verdict)).append(" ").append(e.id);
    line.append(" (").append(format_bytes(e.size_bytes));
    if (e.fidelity) {
      line.append(", kl_mean ").append(fixed(e.fidelity->kl_mean, 4));
      line.append(", top-1 ").append(percent(e.fidelity->top1_agreement));
    } else {
      line.append(", fidelity not measured");
    }
    if (v.estimated_decode_tps)
      line.append(", est. decode ").append(fixed(*v.estimated_decode_tps, 1)).append(" tok/s");
    line.append(")");
    for (const Rejection& r : v.rejections) line.append("\n      ").append(r.reason);
    if (v.estimated_decode_tps) line.append("\n      speed: ").append(v.speed_note);
    out.append(line).append("\n");
  }
  return out;
}

std::string choice_to_json(const Manifest& manifest, const VariantChoice& c) {
  using json = nlohmann::ordered_json;
  auto budget = [](const Budget& b) {
    json out = {{"source", b.source}};
    if (b.bytes) out["bytes"] = *b.bytes;
    return out;
  };
  json out = {{"chosen", c.chosen ? json(manifest.variants[*c.chosen].id) : json(nullptr)},
              {"summary", c.summary},
              {"memory_budget", budget(c.memory_budget)},
              {"disk_budget", budget(c.disk_budget)}};
  if (c.min_decode_tps) out["min_decode_tps"] = *c.min_decode_tps;
  if (c.device_bench_decode_tps) out["device_bench_decode_tps"] = *c.device_bench_decode_tps;
  json variants = json::array();
  for (const VariantVerdict& v : c.verdicts) {
    const VariantEntry& e = manifest.variants[v.index];
    json item = {{"id", e.id}, {"file", e.file}, {"verdict", verdict_name(v.verdict)},
                 {"speed_basis", speed_basis_name(v.speed_basis)}};
    if (v.rank) item["rank"] = *v.rank;
    if (v.estimated_decode_tps) item["estimated_decode_tps"] = *v.estimated_decode_tps;
    if (!v.speed_note.empty()) item["speed_note"] = v.speed_note;
    json rejections = json::array();
    for (const Rejection& r : v.rejections)
      rejections.push_back({{"rule", choice_rule_name(r.rule)}, {"reason", r.reason}});
    item["rejections"] = rejections;
    variants.push_back(item);
  }
  out["variants"] = variants;
  return out.dump(2);
}

}  // namespace tiergate
