// Word lists for the PII tagger (issue 4): first names, surnames, cities,
// countries, street suffixes, ... A token found in a list is evidence the
// tagger can use on text whose templates it never saw, where the words
// around a name say little. Each list is a category. A token is a *full*
// match of a category when an entry of it is that token alone, a *part*
// match when it is one word of a longer entry ("york" of "New York").
//
// The table holds hashes of tokens, not text: the tagger decides how a token
// is cut and hashed (pii_tagger.cc) and fills the table with add().
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tiergate/core/status.h"

namespace tiergate {

struct GazetteerList {
  std::string category;              // e.g. "first_name"; the file's stem
  std::vector<std::string> entries;  // one per line, trimmed, empty lines dropped
};

// Reads every `*.txt` file in `dir`, in file-name order. kNotFound when `dir`
// cannot be read; kInvalidArgument for a directory without lists or more
// than Gazetteer::kMaxCategories of them.
StatusOr<std::vector<GazetteerList>> load_gazetteer_dir(const std::string& dir);

class Gazetteer {
 public:
  static constexpr size_t kMaxCategories = 16;

  // Match masks: bit c of full() / part() for category c.
  struct Match {
    uint16_t full = 0;
    uint16_t part = 0;
  };

  Gazetteer() = default;
  explicit Gazetteer(std::vector<std::string> categories) : categories_(std::move(categories)) {}

  bool empty() const { return hashes_.empty(); }
  const std::vector<std::string>& categories() const { return categories_; }

  // Records that the token hashing to `token_hash` matches category
  // `category` (< categories().size()) fully or in part.
  void add(uint64_t token_hash, size_t category, bool full);
  // The token's matches but those of the hidden categories (hide()).
  // Inline, as the tagger asks it of every token it views.
  Match lookup(uint64_t token_hash) const {
    if (packed_.empty()) [[unlikely]] return lookup_unpacked(token_hash);
    const uint32_t fingerprint = packed_fingerprint_of(token_hash);
    const size_t mask = packed_.size() - 1;
    for (size_t i = token_hash & mask;; i = (i + 1) & mask) {
      const uint32_t slot = packed_[i];
      if (slot == 0) return {};
      if (slot >> match_bits_ == fingerprint) return packed_matches_[slot & ((1u << match_bits_) - 1)];
    }
  }
  // All the token's matches but those of the categories set apart
  // (set_apart()); those of the hidden categories alone, set apart or not.
  Match lookup_all(uint64_t token_hash) const;
  Match lookup_hidden(uint64_t token_hash) const;
  // Whether any list holds the token, in full or in part, those set apart
  // too: where a rule asks for a word no list knows at all.
  bool knows(uint64_t token_hash) const {
    const Match all = lookup_all(token_hash), hidden = lookup_hidden(token_hash);
    return (all.full | all.part | hidden.full | hidden.part) != 0;
  }
  // Moves `categories` out of what lookup() reads, after the last add():
  // lists a rule asks with lookup_all(), which must not change what else a
  // token matches (a word both everyday and in such a list stays everyday
  // alone). lookup() pays nothing for them. Packs the table lookup() reads
  // (any categories, 0 too): an add() after it unpacks it, which costs
  // lookup() the speed but not its answers.
  void hide(uint16_t categories);
  // Leaves `categories`, hidden ones, out of lookup_all() too: lists that
  // only the rules naming them read, with lookup_hidden(), so that a rule
  // asking whether any list knows a word gets the answer it got before
  // such a list came.
  void set_apart(uint16_t categories) { apart_ = categories; }
  // Whether lookup() reads the packed table (hide()).
  bool packed() const { return !packed_.empty(); }

  // Appended to / read from the tagger file; parse() advances `at` and names
  // `source` in its errors.
  void serialize(std::string& out) const;
  static StatusOr<Gazetteer> parse(std::string_view bytes, size_t& at, std::string_view source);

 private:
  // 8 bytes, so that the table tag() reads for every token it scores stays
  // small enough for the caches. `fingerprint` is the hash's upper half with
  // its lowest bit set (0 marks a free slot); the lower bits choose the slot.
  // Two hashes with one fingerprint in one run of slots share an entry (odds
  // of about one in 2^32 per lookup), as colliding hashed features do.
  struct Slot {
    uint32_t fingerprint = 0;
    Match match;
  };
  static uint32_t fingerprint_of(uint64_t token_hash);
  // The slot of `token_hash` in `slots`: its entry, or the free slot where it
  // would go. Precondition: slots has a free slot.
  static size_t find(const std::vector<Slot>& slots, uint64_t token_hash);
  void grow();
  // Fills packed_ from slots_ (hide() does, as after the last add()).
  void pack();
  uint32_t packed_fingerprint_of(uint64_t token_hash) const {
    const auto upper = static_cast<uint32_t>(token_hash >> (32 + match_bits_));
    return upper != 0 ? upper : 1u;
  }
  Match lookup_unpacked(uint64_t token_hash) const;

  std::vector<std::string> categories_;
  std::vector<Slot> slots_;       // open addressing, a power of two, at most half full
  // The hidden categories' matches (hide()), a table as slots_: one probe
  // reads a word's (the rules ask it of words that no list may know).
  std::vector<Slot> hidden_slots_;
  uint16_t apart_ = 0;  // set_apart()
  std::vector<uint64_t> hashes_;  // of the entries, in the order added: to grow and to save
  // What lookup() reads once packed (pack()): slots_' entries in 4 bytes
  // each, so that the table of the default lists (146,751 words: 1 MB, 56%
  // full, where slots_ takes 4 MB) stays in a core's 2 MB L2 cache beside
  // the tagger's weight rows: the reads of slots_ that waited on memory
  // took a tenth of the scan's time. A packed slot is the index of its
  // Match in packed_matches_ (the lists' categories combine in few ways:
  // 714 in the default's, 10 bits) under a fingerprint of the hash's upper
  // bits that is never 0 (0 marks a free slot): 22 bits with the default
  // lists, so a word no list holds takes an entry's matches at odds of
  // about one in a million per lookup (three probes). Empty while
  // unpacked: after an add(), or with more than 2^16 combinations.
  std::vector<uint32_t> packed_;
  std::vector<Match> packed_matches_;
  int match_bits_ = 0;
};

}  // namespace tiergate
