// Speed of the structured PII scan (issue 4: the whole privacy scan >= 200
// MB/s of prompt text on one core; the structured part must leave room for
// the learned tagger). Google Benchmark, bytes/s via SetBytesProcessed:
//   dev_texts        the labelled dev texts, read in place from
//                    ../shared/data/pii/ (skipped when absent), joined by
//                    newlines into one text;
//   dev_rows         the same texts scanned one call per row (short prompts:
//                    the per-call overhead shows);
//   english_1mb      ~1 MB of synthetic English-like prose with numbers that
//                    are not PII (years, prices, percentages, versions);
//   english_1mb_pii  the same with a structured identifier every ~50 words;
//   prompts          real prompts without labels (MMLU, GSM8K, RouterBench,
//                    Vicuna and Arena-Hard prompts: questions, code, data),
//                    read in place from ../shared/data/{routing,prompts}/ and
//                    scanned one call per prompt (skipped when absent);
//   full_scan_with_tagger/prompts  the same prompts through the whole scan the
//                    gateway runs: structured detectors, a tagger trained on
//                    the dev rows at start, and the merge;
//   full_scan_with_tagger/short_prompts, long_prompts  those of them under
//                    256 bytes, and of 1 KiB or more: a scan's cost per call
//                    against its cost per byte;
//   full_scan_with_tagger/prompts_in_small_letters  the same prompts with
//                    their ASCII capitals in small letters: text without
//                    capitals, where the tagger cannot step over the words
//                    that open no span by their case;
//   full_scan_with_tagger/prompts_in_capitals  the same prompts in
//                    capitals throughout (capital_letters()), which the
//                    tagger reads as text in small letters;
//   full_scan_with_tagger/conversations/every_message, scan_cache  the same
//                    prompts as conversations of 8 turns, each turn a request
//                    carrying the conversation so far: every message scanned
//                    in every request, or through the gateway's scan cache.
// Run pinned to one core: taskset -c 0 build/bin/pii_scan_bench
#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tiergate/privacy/egress.h"
#include "tiergate/privacy/pii_dataset.h"
#include "tiergate/privacy/pii_tagger.h"
#include "tiergate/privacy/structured_pii.h"

namespace {

using namespace tiergate;

const char* kDevFile = TIERGATE_SOURCE_DIR "/../shared/data/pii/presidio_generated_dev.jsonl";
const char* kGazetteerDir = TIERGATE_SOURCE_DIR "/third_party/gazetteers";

const std::vector<std::string>& dev_rows() {
  static const std::vector<std::string> rows = [] {
    std::vector<std::string> out;
    if (!std::filesystem::exists(kDevFile)) return out;
    StatusOr<std::vector<PiiExample>> loaded = load_pii_jsonl(kDevFile);
    if (!loaded.is_ok()) return out;
    for (PiiExample& e : *loaded) out.push_back(std::move(e.text));
    return out;
  }();
  return rows;
}

// Every string under "messages" or "prompt" in the routing and prompt
// datasets (the texts a gateway would scan).
const std::vector<std::string>& real_prompts() {
  static const std::vector<std::string> prompts = [] {
    std::vector<std::string> out;
    const std::string dir = TIERGATE_SOURCE_DIR "/../shared/data/";
    for (const char* file : {"routing/mmlu_dev.jsonl", "routing/gsm8k_dev.jsonl", "routing/routerbench_dev.jsonl",
                             "prompts/prompt_categories_dev.jsonl"}) {
      std::ifstream in(dir + file);
      std::string line;
      while (std::getline(in, line)) {
        const nlohmann::json row = nlohmann::json::parse(line, nullptr, false);
        if (!row.is_object()) continue;
        if (row.contains("prompt") && row["prompt"].is_string()) out.push_back(row["prompt"].get<std::string>());
        if (row.contains("messages") && row["messages"].is_array()) {
          for (const nlohmann::json& m : row["messages"]) {
            if (m.is_object() && m.contains("content") && m["content"].is_string()) {
              out.push_back(m["content"].get<std::string>());
            }
          }
        }
      }
    }
    return out;
  }();
  return prompts;
}

// Prose from a fixed vocabulary (no weekday names: those are DATE_TIME), with
// numbers that must not be flagged, and optionally one identifier every ~50
// words. Deterministic.
std::string synthetic_english(size_t bytes, bool with_pii) {
  static const char* kWords[] = {
      "the",     "of",      "and",      "to",        "in",       "a",        "is",        "that",     "for",
      "it",      "as",      "was",      "with",      "be",       "by",       "on",        "not",      "he",
      "this",    "are",     "or",       "his",       "from",     "at",       "which",     "but",      "have",
      "an",      "had",     "they",     "you",       "were",     "their",    "one",       "all",      "we",
      "can",     "her",     "has",      "there",     "been",     "if",       "more",      "when",     "will",
      "would",   "who",     "so",       "no",        "model",    "request",  "answer",    "question", "system",
      "network", "latency", "budget",   "quality",   "router",   "device",   "cloud",     "edge",     "prompt",
      "token",   "people",  "company",  "market",    "history",  "science",  "research",  "problem",  "number",
      "result",  "example", "process",  "important", "different", "following", "government", "development",
      "information", "because", "between", "through", "without", "another", "however", "provide", "several"};
  static const char* kPii[] = {
      "jane.doe@example.com",   "+44 20 7946 0958",           "(555) 123-4567",
      "4111 1111 1111 1111",    "GB82 WEST 1234 5698 7654 32", "192.168.10.24",
      "2019-01-04",             "March 3rd, 1990",            "https://www.example.org/account",
      "123-45-6789",            "00:1a:2b:3c:4d:5e",          "ghp_0123456789abcdefghijABCDEFGHIJ012345",
      "password=Tr0ub4dor&3",   "2001:db8::8a2e:370:7334",    "555-867-5309"};
  std::mt19937 rng(7);
  std::uniform_int_distribution<size_t> word(0, std::size(kWords) - 1);
  std::uniform_int_distribution<int> roll(0, 99);
  std::string out;
  out.reserve(bytes + 256);
  size_t words_in_sentence = 0, since_pii = 0, pii_index = 0;
  while (out.size() < bytes) {
    const int r = roll(rng);
    // Appended piece by piece (GCC 12 warns, wrongly, on chained string +).
    if (r < 3) {
      out += std::to_string(1900 + roll(rng));  // a year
    } else if (r < 5) {
      out += '$';  // a price
      out += std::to_string(roll(rng));
      out += '.';
      out += std::to_string(10 + roll(rng) % 90);
    } else if (r < 6) {
      out += std::to_string(roll(rng));  // a percentage
      out += '%';
    } else if (r < 7) {
      out += 'v';  // a version
      out += std::to_string(roll(rng) % 10);
      out += '.';
      out += std::to_string(roll(rng) % 20);
      out += ".3";
    } else if (r < 8) {
      out += std::to_string(roll(rng) + 1);  // a count with thousands separators
      out += ',';
      out += std::to_string(100 + roll(rng));
      out += ",000";
    } else {
      out += kWords[word(rng)];
    }
    if (with_pii && ++since_pii >= 50) {
      out += ' ';
      out += kPii[pii_index++ % std::size(kPii)];
      since_pii = 0;
    }
    if (++words_in_sentence >= 8 + static_cast<size_t>(r % 12)) {
      out += r % 5 == 0 ? ".\n" : ". ";
      words_in_sentence = 0;
    } else {
      out += r % 11 == 0 ? ", " : " ";
    }
  }
  return out;
}

void scan_one(benchmark::State& state, const std::string& text) {
  std::vector<PiiSpan> spans;
  for (auto _ : state) {
    spans.clear();
    find_structured_pii(text, spans);
    benchmark::DoNotOptimize(spans.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(text.size()));
  state.counters["spans"] = static_cast<double>(spans.size());
  state.counters["bytes"] = static_cast<double>(text.size());
}

void BM_DevTexts(benchmark::State& state) {
  if (dev_rows().empty()) {
    state.SkipWithError("../shared/data/pii/presidio_generated_dev.jsonl is absent");
    return;
  }
  static const std::string joined = [] {
    std::string s;
    for (const std::string& row : dev_rows()) s += row + "\n";
    return s;
  }();
  scan_one(state, joined);
}

void BM_DevRows(benchmark::State& state) {
  if (dev_rows().empty()) {
    state.SkipWithError("../shared/data/pii/presidio_generated_dev.jsonl is absent");
    return;
  }
  size_t bytes = 0;
  for (const std::string& row : dev_rows()) bytes += row.size();
  std::vector<PiiSpan> spans;
  for (auto _ : state) {
    for (const std::string& row : dev_rows()) {
      spans.clear();
      find_structured_pii(row, spans);
      benchmark::DoNotOptimize(spans.data());
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
}

// The real prompts of `min` bytes or more and under `max`, in order.
std::vector<std::string> prompts_sized(size_t min, size_t max) {
  std::vector<std::string> out;
  for (const std::string& p : real_prompts()) {
    if (p.size() >= min && p.size() < max) out.push_back(p);
  }
  return out;
}

// The real prompts with their ASCII capitals in small letters, in order.
std::vector<std::string> prompts_in_small_letters() {
  std::vector<std::string> out = real_prompts();
  for (std::string& p : out) {
    for (char& c : p) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

// The real prompts in capitals throughout, in order.
std::vector<std::string> prompts_in_capitals() {
  std::vector<std::string> out;
  for (const std::string& p : real_prompts()) out.push_back(capital_letters(p));
  return out;
}

// Every prompt of `prompts` through `scan`, one call each.
template <typename Scan>
void scan_prompts(benchmark::State& state, const std::vector<std::string>& prompts, Scan scan) {
  size_t bytes = 0;
  for (const std::string& p : prompts) bytes += p.size();
  std::vector<PiiSpan> spans;
  size_t found = 0;
  for (auto _ : state) {
    found = 0;
    for (const std::string& p : prompts) {
      spans.clear();
      scan(p, spans);
      found += spans.size();
      benchmark::DoNotOptimize(spans.data());
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
  state.counters["prompts"] = static_cast<double>(prompts.size());
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["spans"] = static_cast<double>(found);
}

void BM_Prompts(benchmark::State& state) {
  if (real_prompts().empty()) {
    state.SkipWithError("../shared/data/routing and prompts are absent");
    return;
  }
  scan_prompts(state, real_prompts(),
               [](const std::string& p, std::vector<PiiSpan>& spans) { find_structured_pii(p, spans); });
}

// A tagger trained once on the dev rows (seconds), for the whole scan, with
// the word lists of scripts/setup.sh when they are there.
const PiiTagger* dev_tagger() {
  static const std::unique_ptr<PiiTagger> tagger = []() -> std::unique_ptr<PiiTagger> {
    if (!std::filesystem::exists(kDevFile)) return nullptr;
    StatusOr<std::vector<PiiExample>> loaded = load_pii_jsonl(kDevFile);
    if (!loaded.is_ok()) return nullptr;
    TaggerOptions options;
    if (auto lists = load_gazetteer_dir(kGazetteerDir); lists.is_ok()) options.gazetteers = std::move(*lists);
    return std::make_unique<PiiTagger>(PiiTagger::train(*loaded, options));
  }();
  return tagger.get();
}

// The whole scan the gateway runs on each message: structured detectors, the
// tagger, the merge (egress.h scan_messages).
void BM_FullScanPrompts(benchmark::State& state, const std::vector<std::string>& prompts) {
  const PiiTagger* tagger = dev_tagger();
  if (prompts.empty() || tagger == nullptr) {
    state.SkipWithError("../shared/data (routing, prompts and pii) is absent");
    return;
  }
  scan_prompts(state, prompts,
               [tagger](const std::string& p, std::vector<PiiSpan>& spans) { find_pii(p, tagger, spans); });
}

// Chat requests as a gateway receives them: conversations of kTurns
// messages (the prompts in order, kTurns at a time), each turn a request
// that carries the conversation so far. Scanned as the gateway scans a
// request (egress.h scan_messages), every message afresh or through a scan
// cache that starts empty in each iteration, so that every message is
// scanned once. Bytes: those of the requests.
constexpr size_t kTurns = 8;

void BM_Conversations(benchmark::State& state, bool cached) {
  const PiiTagger* tagger = dev_tagger();
  if (real_prompts().empty() || tagger == nullptr) {
    state.SkipWithError("../shared/data (routing, prompts and pii) is absent");
    return;
  }
  // The tagger is the benchmark's own (a static): shared, not owned.
  const std::shared_ptr<const PiiTagger> shared(std::shared_ptr<const PiiTagger>{}, tagger);
  std::vector<std::vector<ChatMessage>> conversations;
  for (size_t i = 0; i + kTurns <= real_prompts().size(); i += kTurns) {
    std::vector<ChatMessage> c;
    for (size_t t = 0; t < kTurns; ++t) {
      c.push_back({t % 2 == 0 ? Role::kUser : Role::kAssistant, real_prompts()[i + t]});
    }
    conversations.push_back(std::move(c));
  }
  size_t bytes = 0, requests = 0, findings = 0;
  for (const auto& c : conversations) {
    for (size_t turn = 1; turn <= c.size(); ++turn, ++requests) {
      for (size_t m = 0; m < turn; ++m) bytes += c[m].content.size();
    }
  }
  std::vector<ChatMessage> request;
  for (auto _ : state) {
    ScanCache cache(shared, cached ? size_t{64} << 20 : 0, {0x9e3779b97f4a7c15ULL, 0xbf58476d1ce4e5b9ULL});
    findings = 0;
    for (const auto& c : conversations) {
      request.clear();
      for (const ChatMessage& m : c) {
        request.push_back(m);
        findings += scan_messages(request, cache).findings.size();
      }
    }
    benchmark::DoNotOptimize(findings);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
  state.counters["requests"] = static_cast<double>(requests);
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["findings"] = static_cast<double>(findings);
}

void BM_English(benchmark::State& state) {
  static const std::string text = synthetic_english(1 << 20, false);
  scan_one(state, text);
}

void BM_EnglishWithPii(benchmark::State& state) {
  static const std::string text = synthetic_english(1 << 20, true);
  scan_one(state, text);
}

// 1 MB of one piece repeated: the inputs that would make a matcher that
// re-reads its neighbours quadratic (tests/privacy/structured_pii_test.cc
// checks their output).
void BM_WorstCase(benchmark::State& state, const std::string& piece) {
  std::string text;
  while (text.size() < (1 << 20)) text += piece;
  scan_one(state, text);
}

}  // namespace

BENCHMARK(BM_DevTexts)->Name("structured_scan/dev_texts")->MinTime(1.0);
BENCHMARK(BM_DevRows)->Name("structured_scan/dev_rows")->MinTime(1.0);
BENCHMARK(BM_Prompts)->Name("structured_scan/prompts")->MinTime(1.0);
BENCHMARK(BM_English)->Name("structured_scan/english_1mb")->MinTime(1.0);
BENCHMARK(BM_EnglishWithPii)->Name("structured_scan/english_1mb_pii")->MinTime(1.0);
// structured_scan/worst_case_1mb/<name>, one per piece.
[[maybe_unused]] const bool kWorstCasesRegistered = [] {
  const std::pair<const char*, const char*> pieces[] = {
      {"digits", "1"}, {"spaced_digits", "1 "}, {"dashed_digits", "12-"},
      {"dots", "a."},  {"alnum", "ab1"},       {"ats", "x@"},
      {"key_headers", "-----BEGIN RSA PRIVATE KEY-----\n"},   {"colons", ":"}};
  for (const auto& [name, piece] : pieces) {
    benchmark::RegisterBenchmark((std::string("structured_scan/worst_case_1mb/") + name).c_str(), BM_WorstCase,
                                 std::string(piece))
        ->MinTime(0.5);
  }
  return true;
}();
// (The prompts by reference: the very strings structured_scan/prompts reads.)
BENCHMARK_CAPTURE(BM_FullScanPrompts, all, std::cref(real_prompts()))
    ->Name("full_scan_with_tagger/prompts")
    ->MinTime(1.0);
BENCHMARK_CAPTURE(BM_FullScanPrompts, short, prompts_sized(0, 256))
    ->Name("full_scan_with_tagger/short_prompts")
    ->MinTime(0.5);
BENCHMARK_CAPTURE(BM_FullScanPrompts, long, prompts_sized(1024, SIZE_MAX))
    ->Name("full_scan_with_tagger/long_prompts")
    ->MinTime(0.5);
BENCHMARK_CAPTURE(BM_FullScanPrompts, small_letters, prompts_in_small_letters())
    ->Name("full_scan_with_tagger/prompts_in_small_letters")
    ->MinTime(1.0);
BENCHMARK_CAPTURE(BM_FullScanPrompts, capitals, prompts_in_capitals())
    ->Name("full_scan_with_tagger/prompts_in_capitals")
    ->MinTime(1.0);

BENCHMARK_CAPTURE(BM_Conversations, every_message, false)
    ->Name("full_scan_with_tagger/conversations/every_message")
    ->MinTime(1.0);
BENCHMARK_CAPTURE(BM_Conversations, scan_cache, true)
    ->Name("full_scan_with_tagger/conversations/scan_cache")
    ->MinTime(1.0);

BENCHMARK_MAIN();
