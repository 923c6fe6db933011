// Small synthetic data sets for the signals tests: routing rows whose outcome
// is decided by words in the prompt (a prompt with "hard" words is one the
// edge tier fails and the cloud answers), so that learning is checkable, and
// a scratch directory per test. Deterministic: a fixed LCG, no std::random
// distributions (their output differs between standard libraries).
#pragma once

#include <unistd.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tiergate/signals/dataset.h"

namespace tiergate::testing {

class Lcg {
 public:
  explicit Lcg(uint64_t seed) : state_(seed * 2862933555777941757ull + 3037000493ull) {}
  uint64_t next() {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return state_ >> 33;
  }
  size_t below(size_t n) { return static_cast<size_t>(next() % n); }

 private:
  uint64_t state_;
};

// The smallest valid gateway config (one upstream, no edge), for commands
// that edit or read a config.
inline constexpr char kMinimalConfig[] =
    "listen: 127.0.0.1:0\n"
    "cloud:\n"
    "  - name: upstream\n"
    "    base_url: http://127.0.0.1:9/v1\n"
    "    models: [big-model]\n";

inline constexpr std::array<std::string_view, 24> kFillerWords = {
    "the",   "a",      "about", "please", "tell",   "me",     "some",  "thing", "people", "water", "city",  "house",
    "river", "garden", "story", "music",  "coffee", "friend", "table", "light", "window", "paper", "green", "summer"};
inline constexpr std::array<std::string_view, 8> kHardWords = {
    "theorem", "eigenvalue", "integral", "topology", "lemma", "asymptotic", "homomorphism", "derivation"};

// A prompt of `words` filler words, with three hard words among them when `hard`.
inline std::string synthetic_prompt(Lcg& rng, bool hard, size_t words = 10) {
  std::vector<std::string_view> picked;
  for (size_t i = 0; i < words; ++i) picked.push_back(kFillerWords[rng.below(kFillerWords.size())]);
  if (hard) {
    for (int i = 0; i < 3; ++i) picked[rng.below(picked.size())] = kHardWords[rng.below(kHardWords.size())];
  }
  std::string text;
  for (std::string_view w : picked) {
    if (!text.empty()) text += ' ';
    text += w;
  }
  return text;
}

// `n` rows; one in three is hard (edge 0, cloud 1), the rest easy (both tiers
// 1). Sources alternate between two benchmarks, "alpha" and "beta", with two
// topics each; `category`, when given, is set on every row.
inline std::vector<RoutingRow> synthetic_routing_rows(size_t n, uint64_t seed = 1, const std::string& category = "") {
  Lcg rng(seed);
  std::vector<RoutingRow> rows;
  for (size_t i = 0; i < n; ++i) {
    const bool hard = i % 3 == 0;
    RoutingRow row;
    row.id = "row-" + std::to_string(i);
    row.source = std::string(i % 2 == 0 ? "alpha" : "beta") + "/topic" + std::to_string((i / 2) % 2);
    row.category = category;
    row.messages.push_back({Role::kUser, synthetic_prompt(rng, hard)});
    row.edge_score = hard ? 0.0 : 1.0;
    row.cloud_score = 1.0;
    rows.push_back(std::move(row));
  }
  return rows;
}

inline bool is_hard(const RoutingRow& row) { return row.cloud_score > row.edge_score; }

// One JSONL line per row, as docs/routing.md describes (prompts are plain
// lower-case words, so no escaping is needed).
inline std::string routing_jsonl(const std::vector<RoutingRow>& rows) {
  std::string out;
  for (const RoutingRow& row : rows) {
    out += "{\"id\": \"" + row.id + "\", \"source\": \"" + row.source + "\", \"prompt\": \"" +
           row.messages.front().content + "\", \"edge\": {\"score\": " + std::to_string(row.edge_score) +
           "}, \"cloud\": {\"score\": " + std::to_string(row.cloud_score) + "}}\n";
  }
  return out;
}

// A fresh directory under the system's temporary directory, removed with the object.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "tiergate-signals-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = file(name);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    return path;
  }

 private:
  std::filesystem::path path_;
};

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace tiergate::testing
