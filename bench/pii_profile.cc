// Where the privacy scan's time goes on this CPU (issue 4: >= 200 MB/s on
// one core). Instruction counts (bench/pii_instructions.sh) miss what a
// cache miss or a mispredicted branch costs, and valgrind cannot run the
// AVX-512 paths; perf's counters are not available on every VM. So this
// samples: a POSIX timer on CLOCK_MONOTONIC sends SIGPROF to the scanning
// thread every --interval-us, and the handler records the address it
// interrupted. The scan is find_pii() over every text of --data, in order,
// --rounds times after one round to warm up, as pii_scan_bench's
// full_scan_with_tagger/prompts runs it.
//
// Writes one address per line to --out, as an offset from the binary's
// load address (what `nm` prints for a position-independent executable);
// bench/pii_profile.sh names the functions. Prints {"mb_per_s", "samples"}.
#include <dlfcn.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "pii_bench_inputs.h"
#include "tiergate/privacy/structured_pii.h"

namespace {

using namespace tiergate;

// Filled by the signal handler only: a fixed array and a counter, which a
// handler may write (no allocation).
constexpr size_t kMaxSamples = 1 << 22;
uintptr_t g_samples[kMaxSamples];
std::atomic<size_t> g_sample_count{0};
std::atomic<bool> g_sampling{false};

void on_sample(int, siginfo_t*, void* context) {
  if (!g_sampling.load(std::memory_order_relaxed)) return;
  const size_t at = g_sample_count.load(std::memory_order_relaxed);
  if (at == kMaxSamples) return;
  g_samples[at] = static_cast<uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
  g_sample_count.store(at + 1, std::memory_order_relaxed);
}

[[gnu::noinline]] size_t scan_all(const std::vector<std::string>& texts, const PiiTagger* tagger) {
  std::vector<PiiSpan> spans;
  size_t found = 0;
  for (const std::string& text : texts) {
    spans.clear();
    find_pii(text, tagger, spans);
    found += spans.size();
  }
  return found;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Sample where find_pii() spends its time on this CPU (bench/pii_profile.sh names the functions)."};
  std::string data, tagger_path, out;
  int rounds = 40;
  long interval_us = 250;
  app.add_option("--data", data, "JSONL of {\"text\": ...}, scanned one call per line")->required()->check(CLI::ExistingFile);
  app.add_option("--tagger", tagger_path, "tagger file from `tiergate pii train`")->required()->check(CLI::ExistingFile);
  app.add_option("--out", out, "where the sampled addresses go, one per line")->required();
  app.add_option("--rounds", rounds, "scans of the whole file while sampling")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  app.add_option("--interval-us", interval_us, "microseconds between samples")
      ->check(CLI::Range(20L, 100000L))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  std::optional<bench::PiiBenchInputs> inputs = bench::load_pii_bench_inputs(data, tagger_path, "pii_profile");
  if (!inputs) return 1;
  const std::vector<std::string>& texts = inputs->texts;
  const size_t bytes = inputs->bytes;
  const PiiTagger* tagger = &inputs->tagger;
  size_t found = scan_all(texts, tagger);  // warm-up, not sampled

  struct sigaction action {};
  action.sa_sigaction = on_sample;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigevent event{};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = SIGPROF;
  event._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
  timer_t timer{};
  const long ns = interval_us * 1000;
  const itimerspec every{{ns / 1000000000, ns % 1000000000}, {ns / 1000000000, ns % 1000000000}};
  if (sigaction(SIGPROF, &action, nullptr) != 0 || timer_create(CLOCK_MONOTONIC, &event, &timer) != 0 ||
      timer_settime(timer, 0, &every, nullptr) != 0) {
    std::cerr << "pii_profile: cannot start the sampling timer (timer_create with SIGEV_THREAD_ID)\n";
    return 1;
  }
  const auto start = std::chrono::steady_clock::now();
  g_sampling = true;
  for (int r = 0; r < rounds; ++r) found += scan_all(texts, tagger);
  g_sampling = false;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  timer_delete(timer);

  Dl_info self{};
  if (dladdr(reinterpret_cast<void*>(&scan_all), &self) == 0) {
    std::cerr << "pii_profile: dladdr cannot find this binary's load address\n";
    return 1;
  }
  const auto base = reinterpret_cast<uintptr_t>(self.dli_fbase);
  std::ofstream file(out, std::ios::trunc);
  const size_t samples = g_sample_count.load();
  for (size_t i = 0; i < samples; ++i) file << std::hex << g_samples[i] - base << "\n";
  if (!file.flush()) {
    std::cerr << "pii_profile: " << out << ": write failed\n";
    return 1;
  }
  std::cout << nlohmann::json{{"mb_per_s", static_cast<double>(bytes) * rounds / seconds / 1e6},
                              {"samples", samples},
                              {"seconds", seconds},
                              {"spans", found}}
                   .dump()
            << "\n";
  return 0;
}
