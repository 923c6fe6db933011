#include "tiergate/server/live_tier_state.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace tiergate {

namespace {

constexpr int64_t kSecondsPerDay = 86400;
constexpr int64_t kMinTokensForSpeed = 8;

int64_t utc_day(int64_t unix_seconds) { return unix_seconds / kSecondsPerDay; }

}  // namespace

void LiveTierState::record_answer(const std::string& tier, bool edge, double latency_s, int64_t completion_tokens) {
  if (!std::isfinite(latency_s) || latency_s < 0) return;
  std::lock_guard lock(mutex_);
  TierSamples& t = tiers_[tier];
  t.ewma = t.window.empty() ? latency_s : kEwmaAlpha * latency_s + (1 - kEwmaAlpha) * t.ewma;
  t.window.push_back(latency_s);
  if (t.window.size() > kWindow) t.window.pop_front();
  if (edge && completion_tokens >= kMinTokensForSpeed && latency_s > 0) {
    const double speed = static_cast<double>(completion_tokens) / latency_s;
    edge_tokens_per_s_ = edge_tokens_per_s_ ? kEwmaAlpha * speed + (1 - kEwmaAlpha) * *edge_tokens_per_s_ : speed;
    ++edge_samples_;
  }
}

void LiveTierState::record_spend(const std::string& key_fingerprint, int64_t unix_seconds, double usd) {
  if (!std::isfinite(usd) || usd <= 0) return;
  const int64_t day = utc_day(unix_seconds);
  std::lock_guard lock(mutex_);
  // When the day turns, earlier days' entries are dropped (once per day), so
  // the map holds the keys seen since the day turned.
  if (day > swept_day_) {
    for (auto it = spend_.begin(); it != spend_.end();) {
      it = it->second.day < day ? spend_.erase(it) : std::next(it);
    }
    swept_day_ = day;
  }
  DaySpend& s = spend_[key_fingerprint];
  if (s.day != day) s = DaySpend{day, 0};
  s.usd += usd;
}

LiveTierState::Latency LiveTierState::latency(const std::string& tier) const {
  std::lock_guard lock(mutex_);
  auto it = tiers_.find(tier);
  if (it == tiers_.end() || it->second.window.empty()) return {};
  std::vector<double> sorted(it->second.window.begin(), it->second.window.end());
  std::sort(sorted.begin(), sorted.end());
  // Nearest rank: the smallest sample with at least 95% of samples at or below it.
  const size_t rank = static_cast<size_t>(std::ceil(0.95 * static_cast<double>(sorted.size())));
  return {it->second.ewma, sorted[std::max<size_t>(rank, 1) - 1]};
}

std::optional<double> LiveTierState::edge_decode_tokens_per_s() const {
  std::lock_guard lock(mutex_);
  return edge_tokens_per_s_;
}

int64_t LiveTierState::edge_decode_samples() const {
  std::lock_guard lock(mutex_);
  return edge_samples_;
}

double LiveTierState::spent_today(const std::string& key_fingerprint, int64_t unix_seconds) const {
  std::lock_guard lock(mutex_);
  auto it = spend_.find(key_fingerprint);
  if (it == spend_.end() || it->second.day != utc_day(unix_seconds)) return 0;
  return it->second.usd;
}

}  // namespace tiergate
