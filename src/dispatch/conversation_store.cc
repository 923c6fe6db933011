#include "tiergate/dispatch/conversation_store.h"

#include <algorithm>

namespace tiergate {

ConversationStore::ConversationStore(Duration ttl, size_t max_conversations)
    : ttl_(ttl), max_(std::max<size_t>(1, max_conversations)) {}

void ConversationStore::forget_expired(SteadyTime now) {
  // The least recently seen are at the back: stop at the first live one.
  while (!recency_.empty()) {
    auto it = entries_.find(recency_.back());
    if (it != entries_.end() && now - it->second.seen < ttl_) break;
    if (it != entries_.end()) entries_.erase(it);
    recency_.pop_back();
  }
}

ConversationStore::Entry* ConversationStore::find(const std::string& id, SteadyTime now) {
  forget_expired(now);
  auto it = entries_.find(id);
  if (it == entries_.end()) return nullptr;
  it->second.seen = now;
  recency_.splice(recency_.begin(), recency_, it->second.recency);
  return &it->second;
}

ConversationStore::Entry& ConversationStore::upsert(const std::string& id, SteadyTime now) {
  if (Entry* e = find(id, now)) return *e;
  while (entries_.size() >= max_ && !recency_.empty()) {
    entries_.erase(recency_.back());
    recency_.pop_back();
  }
  recency_.push_front(id);
  Entry& e = entries_[id];
  e.seen = now;
  e.recency = recency_.begin();
  return e;
}

std::optional<TierKind> ConversationStore::last_tier(const std::string& id, SteadyTime now) {
  std::lock_guard lock(mutex_);
  Entry* e = find(id, now);
  return e != nullptr ? e->last_tier : std::nullopt;
}

void ConversationStore::record(const std::string& id, TierKind tier, SteadyTime now) {
  std::lock_guard lock(mutex_);
  upsert(id, now).last_tier = tier;
}

std::optional<std::string> ConversationStore::summary(const std::string& id, uint64_t history_hash, SteadyTime now) {
  std::lock_guard lock(mutex_);
  Entry* e = find(id, now);
  if (e == nullptr || !e->summary || e->summary_of != history_hash) return std::nullopt;
  return e->summary;
}

void ConversationStore::set_summary(const std::string& id, uint64_t history_hash, std::string summary,
                                    SteadyTime now) {
  std::lock_guard lock(mutex_);
  Entry& e = upsert(id, now);
  e.summary_of = history_hash;
  e.summary = std::move(summary);
}

size_t ConversationStore::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

}  // namespace tiergate
