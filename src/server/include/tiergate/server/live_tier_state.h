// What the gateway learns about the tiers from the answers it serves, for the
// scheduler's state snapshot (router/scheduler_state.h): each tier's latency
// (an EWMA and the 95th percentile of a recent window), the edge's decode
// speed, and the spend of each API key (by fingerprint) in the current UTC day.
// Thread-safe: every method may be called from any connection's thread.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace tiergate {

class LiveTierState {
 public:
  // Latency samples kept per tier for the percentile.
  static constexpr size_t kWindow = 64;
  // Weight of a new sample in the EWMA.
  static constexpr double kEwmaAlpha = 0.2;

  // An answered request: its tier, whole latency, and output tokens (the
  // edge's decode speed is estimated from them; answers under 8 tokens say
  // too little about it and are left out).
  void record_answer(const std::string& tier, bool edge, double latency_s, int64_t completion_tokens);
  // Adds `usd` to the key's spend for the UTC day of `unix_seconds`; a new day
  // starts from zero.
  void record_spend(const std::string& key_fingerprint, int64_t unix_seconds, double usd);

  struct Latency {
    std::optional<double> ewma_s;
    std::optional<double> p95_s;
  };
  Latency latency(const std::string& tier) const;
  std::optional<double> edge_decode_tokens_per_s() const;
  // Edge answers that fed edge_decode_tokens_per_s so far, so an observer
  // can tell a fresh figure from an old one.
  int64_t edge_decode_samples() const;
  double spent_today(const std::string& key_fingerprint, int64_t unix_seconds) const;

 private:
  struct TierSamples {
    double ewma = 0;
    std::deque<double> window;
  };
  struct DaySpend {
    int64_t day = 0;  // unix_seconds / 86400
    double usd = 0;
  };

  mutable std::mutex mutex_;  // guards everything below
  std::map<std::string, TierSamples> tiers_;
  std::optional<double> edge_tokens_per_s_;  // EWMA
  int64_t edge_samples_ = 0;
  std::map<std::string, DaySpend> spend_;
  int64_t swept_day_ = 0;  // the last day record_spend dropped older entries
};

}  // namespace tiergate
