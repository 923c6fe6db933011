// What the gateway remembers of each conversation for cross-tier context
// handoff (docs/dispatch.md): which kind of tier answered it last, and the
// summaries the edge wrote of its earlier turns (so a conversation that
// stays on the cloud is not summarised again each turn). In memory only,
// metadata and edge-written summaries; bounded by a TTL and a count (the
// least recently seen conversation goes first). Time comes in as an
// argument. Thread-safe.
#pragma once

#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "tiergate/core/clock.h"
#include "tiergate/router/route_plan.h"

namespace tiergate {

class ConversationStore {
 public:
  ConversationStore(Duration ttl, size_t max_conversations);

  // The kind of tier that answered the conversation last; nullopt when it is
  // unknown or forgotten.
  std::optional<TierKind> last_tier(const std::string& id, SteadyTime now);
  void record(const std::string& id, TierKind tier, SteadyTime now);

  // The summary kept for this exact history (its hash), if any.
  std::optional<std::string> summary(const std::string& id, uint64_t history_hash, SteadyTime now);
  void set_summary(const std::string& id, uint64_t history_hash, std::string summary, SteadyTime now);

  size_t size() const;

 private:
  struct Entry {
    std::optional<TierKind> last_tier;
    uint64_t summary_of = 0;
    std::optional<std::string> summary;
    SteadyTime seen{};
    std::list<std::string>::iterator recency;  // position in recency_ (front = most recent)
  };
  // The live entry for id (refreshed as seen now), or nullptr; forgets
  // expired entries on the way.
  Entry* find(const std::string& id, SteadyTime now);
  Entry& upsert(const std::string& id, SteadyTime now);
  void forget_expired(SteadyTime now);

  const Duration ttl_;
  const size_t max_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
  std::list<std::string> recency_;
};

}  // namespace tiergate
