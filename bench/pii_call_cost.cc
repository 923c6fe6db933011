// What one call of the privacy scan costs, by the size of the text and by
// whether the tagger found anything in it (issue 4: >= 200 MB/s on one
// core). pii_scan_bench gives one rate for all the prompts; this says where
// that rate comes from: the dev prompts are short, and a short one pays a
// larger share of each call's decisions and of fetching the code and tables
// again.
//
// Every text of --data is scanned one call each, in order, --rounds times;
// each call is timed with steady_clock and the fastest of its rounds kept
// (the rounds vary with this VM's neighbours, the fastest least). Both
// find_pii() and find_structured_pii() (the reference: the structured
// detectors alone) are timed, in alternate rounds. The whole scan also
// scans each text a second time right after the first, timed apart: a call
// on a text whose code paths, table entries and branches the first call
// has just warmed, as a benchmark loop over one text measures; the gap to
// the first call is what a new prompt costs in misses and mispredicted
// branches. Prints one JSON object of classes, each with its texts, bytes,
// nanoseconds for each scan, and the rates; bench/pii_call_cost.sh writes
// the tables.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "pii_bench_inputs.h"
#include "tiergate/privacy/structured_pii.h"

namespace {

using namespace tiergate;
using Clock = std::chrono::steady_clock;

// The size classes: under 256 bytes, under 1 KiB, under 4 KiB, the rest.
constexpr std::array<size_t, 3> kSizeLimits{256, 1024, 4096};
constexpr std::array<const char*, 4> kSizeNames{"under 256 B", "256 B to 1 KiB", "1 to 4 KiB", "4 KiB or more"};

size_t size_class(size_t bytes) {
  size_t k = 0;
  while (k < kSizeLimits.size() && bytes >= kSizeLimits[k]) ++k;
  return k;
}

// The time of each call of scan(text), one call per text, in order; with
// `again`, also of a second call on each text right after its first.
struct CallTimes {
  std::vector<int64_t> first, again;
};
template <typename Scan>
CallTimes time_each_call(const std::vector<std::string>& texts, Scan scan, bool again) {
  CallTimes ns{std::vector<int64_t>(texts.size()), std::vector<int64_t>(again ? texts.size() : 0)};
  std::vector<PiiSpan> spans;
  auto timed = [&](const std::string& text) {
    spans.clear();
    const auto start = Clock::now();
    scan(text, spans);
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
  };
  for (size_t i = 0; i < texts.size(); ++i) {
    ns.first[i] = timed(texts[i]);
    if (again) ns.again[i] = timed(texts[i]);
  }
  return ns;
}

struct Class {
  size_t texts = 0, bytes = 0;
  int64_t whole_ns = 0, structured_ns = 0, again_ns = 0;
};

nlohmann::json to_json(const std::string& name, const Class& c) {
  auto mb_per_s = [&](int64_t ns) { return ns > 0 ? static_cast<double>(c.bytes) * 1e3 / static_cast<double>(ns) : 0.0; };
  return {{"class", name},
          {"texts", c.texts},
          {"bytes", c.bytes},
          {"whole_ns", c.whole_ns},
          {"structured_ns", c.structured_ns},
          {"again_ns", c.again_ns},
          {"whole_mb_per_s", mb_per_s(c.whole_ns)},
          {"structured_mb_per_s", mb_per_s(c.structured_ns)},
          {"again_mb_per_s", mb_per_s(c.again_ns)},
          {"whole_ns_per_call", c.texts > 0 ? static_cast<double>(c.whole_ns) / static_cast<double>(c.texts) : 0.0},
          {"whole_over_structured",
           c.structured_ns > 0 ? static_cast<double>(c.whole_ns) / static_cast<double>(c.structured_ns) : 0.0}};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Time each call of the privacy scan, by text size and by whether the tagger found anything "
               "(bench/pii_call_cost.sh writes the tables)."};
  std::string data, tagger_path;
  int rounds = 5;
  app.add_option("--data", data, "JSONL of {\"text\": ...}, scanned one call per line")->required()->check(CLI::ExistingFile);
  app.add_option("--tagger", tagger_path, "tagger file from `tiergate pii train`")->required()->check(CLI::ExistingFile);
  app.add_option("--rounds", rounds, "timed scans of the whole file per scan kind; each call keeps its fastest")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  std::optional<bench::PiiBenchInputs> inputs = bench::load_pii_bench_inputs(data, tagger_path, "pii_call_cost");
  if (!inputs) return 1;
  const std::vector<std::string>& texts = inputs->texts;
  const PiiTagger* t = &inputs->tagger;
  auto whole = [t](const std::string& text, std::vector<PiiSpan>& spans) { find_pii(text, t, spans); };
  auto structured = [](const std::string& text, std::vector<PiiSpan>& spans) { find_structured_pii(text, spans); };

  // Whether the tagger found a span in each text (not timed).
  std::vector<bool> tagged(texts.size());
  std::vector<PiiSpan> spans;
  for (size_t i = 0; i < texts.size(); ++i) {
    spans.clear();
    t->tag(texts[i], spans);
    tagged[i] = !spans.empty();
  }
  time_each_call(texts, whole, false);  // warm-up
  // Each call's fastest round, the two scans in alternate rounds.
  std::vector<int64_t> whole_ns(texts.size(), std::numeric_limits<int64_t>::max());
  std::vector<int64_t> structured_ns = whole_ns, again_ns = whole_ns;
  for (int r = 0; r < rounds; ++r) {
    const CallTimes w = time_each_call(texts, whole, true);
    const CallTimes s = time_each_call(texts, structured, false);
    for (size_t i = 0; i < texts.size(); ++i) {
      whole_ns[i] = std::min(whole_ns[i], w.first[i]);
      again_ns[i] = std::min(again_ns[i], w.again[i]);
      structured_ns[i] = std::min(structured_ns[i], s.first[i]);
    }
  }

  Class all;
  std::array<Class, kSizeNames.size()> by_size{};
  std::array<std::array<Class, kSizeNames.size()>, 2> by_finding{};  // [tagged][size]
  for (size_t i = 0; i < texts.size(); ++i) {
    const size_t k = size_class(texts[i].size());
    for (Class* c : {&all, &by_size[k], &by_finding[tagged[i] ? 1 : 0][k]}) {
      ++c->texts;
      c->bytes += texts[i].size();
      c->whole_ns += whole_ns[i];
      c->structured_ns += structured_ns[i];
      c->again_ns += again_ns[i];
    }
  }
  nlohmann::json out{{"rounds", rounds}, {"all", to_json("all", all)}};
  out["by_size"] = nlohmann::json::array();
  out["by_finding"] = nlohmann::json::array();
  for (size_t k = 0; k < kSizeNames.size(); ++k) {
    out["by_size"].push_back(to_json(kSizeNames[k], by_size[k]));
    for (int f = 0; f < 2; ++f) {
      out["by_finding"].push_back(to_json(std::string(kSizeNames[k]) + (f ? ", tagger found a span" : ", tagger found none"),
                                          by_finding[f][k]));
    }
  }
  std::cout << out.dump() << "\n";
  return 0;
}
