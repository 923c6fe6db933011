#include "tiergate/privacy/scan_cache.h"

#include <utility>

#include "siphash.h"

namespace tiergate {

ScanCache::ScanCache(std::shared_ptr<const PiiTagger> tagger, size_t capacity_bytes, Key key)
    : tagger_(std::move(tagger)), capacity_bytes_(capacity_bytes), key_(key) {}

size_t ScanCache::entry_bytes(size_t spans) {
  // The list node (two links and the entry), the index's node and bucket,
  // and the spans themselves.
  return sizeof(Entry) + 2 * sizeof(void*) + sizeof(Name) + sizeof(Order::iterator) + 4 * sizeof(void*) +
         spans * sizeof(PiiSpan);
}

ScanCache::Scope ScanCache::scope(std::string_view name) const { return {siphash128(key_, name)}; }

bool ScanCache::find_pii(std::string_view text, std::vector<PiiSpan>& out, std::string_view scope) {
  return find_pii(text, out, this->scope(scope));
}

bool ScanCache::find_pii(std::string_view text, std::vector<PiiSpan>& out, const Scope& scope) {
  return scan(text, out, scope, ScanStop{}) == ScanOutcome::kCached;
}

ScanOutcome ScanCache::scan(std::string_view text, std::vector<PiiSpan>& out, const Scope& scope,
                            const ScanStop& stop) {
  auto scan_now = [&] {
    return tiergate::find_pii(text, tagger_.get(), out, stop) ? ScanOutcome::kScanned : ScanOutcome::kStopped;
  };
  if (capacity_bytes_ == 0) return scan_now();
  const Name name = siphash128(scope.key, text);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = index_.find(name);
    if (found != index_.end() && found->second->length == text.size()) {
      order_.splice(order_.begin(), order_, found->second);
      out.insert(out.end(), found->second->spans.begin(), found->second->spans.end());
      ++hits_;
      return ScanOutcome::kCached;
    }
    ++misses_;
  }
  // Scanned outside the lock: other threads' lookups do not wait on it.
  const size_t first = out.size();
  const ScanOutcome outcome = scan_now();
  if (outcome == ScanOutcome::kScanned) {
    remember(name, text.size(), std::vector<PiiSpan>(out.begin() + static_cast<std::ptrdiff_t>(first), out.end()));
  }
  return outcome;
}

void ScanCache::remember(const Name& name, size_t length, std::vector<PiiSpan> spans) {
  const size_t bytes = entry_bytes(spans.size());
  // An entry of more than a quarter of the capacity would push out most of
  // the others for one message (a pasted log of many spans): not kept.
  if (bytes > capacity_bytes_ / 4) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (index_.count(name) != 0) return;  // another thread scanned it meanwhile
  while (bytes_ + bytes > capacity_bytes_ && !order_.empty()) {
    bytes_ -= entry_bytes(order_.back().spans.size());
    index_.erase(order_.back().name);
    order_.pop_back();
  }
  order_.push_front(Entry{name, length, std::move(spans)});
  index_.emplace(name, order_.begin());
  bytes_ += bytes;
}

ScanCache::Stats ScanCache::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return {hits_, misses_, order_.size(), bytes_};
}

}  // namespace tiergate
