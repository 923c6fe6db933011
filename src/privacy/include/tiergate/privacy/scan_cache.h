// What the whole scan (find_pii) found in the messages seen before. A chat
// request carries its whole conversation, so a gateway sees the system prompt
// and every earlier turn again with each new turn: a conversation of n turns
// would scan its first message n times. The cache keeps, per message seen,
// the spans found and no content, under a name for the message's bytes: a
// keyed 128-bit hash (SipHash-2-4, a key drawn per process), which no one
// without the key can make two messages share. The scan reads one message
// at a time and the tagger does not change, so the spans found again are
// those a fresh scan would find. Names are taken within a scope (the
// caller's API key): one caller never finds what another's requests held.
//
// Bounded in memory (least recently used entries go first); thread-safe.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tiergate/privacy/pii_tagger.h"
#include "tiergate/privacy/pii_types.h"
#include "tiergate/privacy/scan_stop.h"

namespace tiergate {

class ScanCache {
 public:
  using Key = std::array<uint64_t, 2>;

  // Scans with `tagger` (null: the structured detectors alone) and keeps at
  // most `capacity_bytes` of entries (their spans and bookkeeping); 0 keeps
  // none. `key` should be random and secret: a fresh one per process.
  ScanCache(std::shared_ptr<const PiiTagger> tagger, size_t capacity_bytes, Key key);

  // Appends the spans of find_pii(text, tagger, ...) with the tagger given
  // above to `out`; true when they came from the cache (no scan ran).
  // Messages are named within `scope` (the gateway passes the caller's API
  // key): a caller finds only what the same scope scanned before, so that
  // the time a request takes tells no caller whether another sent the same
  // bytes.
  bool find_pii(std::string_view text, std::vector<PiiSpan>& out, std::string_view scope = {});

  // A scope's own key, derived once for the messages of one request.
  struct Scope {
    Key key;
  };
  Scope scope(std::string_view name) const;
  bool find_pii(std::string_view text, std::vector<PiiSpan>& out, const Scope& scope);
  // The same, with find_pii(..., stop): a scan `stop` cut short is kStopped,
  // its spans incomplete, and is not kept.
  ScanOutcome scan(std::string_view text, std::vector<PiiSpan>& out, const Scope& scope, const ScanStop& stop);

  struct Stats {
    uint64_t hits = 0;
    uint64_t misses = 0;
    size_t entries = 0;
    size_t bytes = 0;  // what the entries take, as counted against the capacity
  };
  Stats stats() const;

  // What one entry of `spans` spans takes against the capacity.
  static size_t entry_bytes(size_t spans);

 private:
  using Name = std::array<uint64_t, 2>;
  struct NameHash {
    size_t operator()(const Name& n) const { return static_cast<size_t>(n[0]); }
  };
  struct Entry {
    Name name;
    size_t length;  // of the message: a second check, at no cost
    std::vector<PiiSpan> spans;
  };
  using Order = std::list<Entry>;  // most recently used first

  void remember(const Name& name, size_t length, std::vector<PiiSpan> spans);

  std::shared_ptr<const PiiTagger> tagger_;
  size_t capacity_bytes_;
  Key key_;
  mutable std::mutex mutex_;
  Order order_;
  std::unordered_map<Name, Order::iterator, NameHash> index_;
  size_t bytes_ = 0;
  uint64_t hits_ = 0;
  uint64_t misses_ = 0;
};

}  // namespace tiergate
