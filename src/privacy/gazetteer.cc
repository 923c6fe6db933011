#include "tiergate/privacy/gazetteer.h"

#include <algorithm>
#include <bit>
#include <filesystem>
#include <fstream>
#include <unordered_map>
#include <utility>

#include "little_endian.h"

namespace tiergate {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

StatusOr<std::vector<GazetteerList>> load_gazetteer_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code error;
  std::vector<fs::path> files;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    if (it->path().extension() == ".txt" && it->is_regular_file()) files.push_back(it->path());
  }
  if (error) return not_found(dir + ": cannot read the gazetteer directory (" + error.message() + ")");
  if (files.empty()) return invalid_argument(dir + ": no word lists (*.txt, one entry per line) in it");
  if (files.size() > Gazetteer::kMaxCategories) {
    return invalid_argument(dir + ": " + std::to_string(files.size()) + " word lists; at most " +
                            std::to_string(Gazetteer::kMaxCategories) + " categories are supported");
  }
  std::sort(files.begin(), files.end());
  std::vector<GazetteerList> lists;
  for (const fs::path& file : files) {
    std::ifstream in(file);
    if (!in) return not_found(file.string() + ": cannot read");
    GazetteerList list{file.stem().string(), {}};
    for (std::string line; std::getline(in, line);) {
      const std::string_view entry = trim(line);
      if (!entry.empty()) list.entries.emplace_back(entry);
    }
    lists.push_back(std::move(list));
  }
  return lists;
}

uint32_t Gazetteer::fingerprint_of(uint64_t token_hash) { return static_cast<uint32_t>(token_hash >> 32) | 1u; }

size_t Gazetteer::find(const std::vector<Slot>& slots, uint64_t token_hash) {
  const uint32_t fingerprint = fingerprint_of(token_hash);
  const size_t mask = slots.size() - 1;
  size_t i = token_hash & mask;
  while (slots[i].fingerprint != 0 && slots[i].fingerprint != fingerprint) i = (i + 1) & mask;
  return i;
}

void Gazetteer::add(uint64_t token_hash, size_t category, bool full) {
  packed_.clear();
  if ((hashes_.size() + 1) * 2 > slots_.size()) grow();
  Slot& slot = slots_[find(slots_, token_hash)];
  if (slot.fingerprint == 0) {
    slot.fingerprint = fingerprint_of(token_hash);
    hashes_.push_back(token_hash);
  }
  const auto bit = static_cast<uint16_t>(1u << category);
  (full ? slot.match.full : slot.match.part) |= bit;
}

Gazetteer::Match Gazetteer::lookup_unpacked(uint64_t token_hash) const {
  if (slots_.empty()) return {};
  return slots_[find(slots_, token_hash)].match;  // a free slot's match is empty
}

void Gazetteer::pack() {
  packed_.clear();
  packed_matches_.clear();
  std::unordered_map<uint32_t, uint32_t> index_of;  // (part << 16 | full) -> packed_matches_ index
  std::vector<std::pair<uint64_t, uint32_t>> entries;
  for (uint64_t hash : hashes_) {
    const Match m = slots_[find(slots_, hash)].match;
    if ((m.full | m.part) == 0) continue;  // all hidden
    const auto [it, added] = index_of.try_emplace(uint32_t{m.part} << 16 | m.full, static_cast<uint32_t>(packed_matches_.size()));
    if (added) packed_matches_.push_back(m);
    entries.emplace_back(hash, it->second);
  }
  if (packed_matches_.size() > (size_t{1} << 16)) {
    packed_matches_.clear();
    return;
  }
  match_bits_ = std::max(1, static_cast<int>(std::bit_width(packed_matches_.size())));
  packed_.assign(std::max<size_t>(64, std::bit_ceil(entries.size() + entries.size() / 2)), 0);
  const size_t mask = packed_.size() - 1;
  for (const auto& [hash, match] : entries) {
    const uint32_t fingerprint = packed_fingerprint_of(hash);
    size_t i = hash & mask;
    while (packed_[i] != 0 && packed_[i] >> match_bits_ != fingerprint) i = (i + 1) & mask;
    packed_[i] = fingerprint << match_bits_ | match;
  }
}

Gazetteer::Match Gazetteer::lookup_all(uint64_t token_hash) const {
  const Match m = lookup(token_hash), hidden = lookup_hidden(token_hash);
  return {static_cast<uint16_t>(m.full | (hidden.full & ~apart_)),
          static_cast<uint16_t>(m.part | (hidden.part & ~apart_))};
}

Gazetteer::Match Gazetteer::lookup_hidden(uint64_t token_hash) const {
  if (hidden_slots_.empty()) return {};
  return hidden_slots_[find(hidden_slots_, token_hash)].match;  // a free slot's match is empty
}

void Gazetteer::hide(uint16_t categories) {
  // Every entry's hidden matches, those of an earlier hide() too, then a
  // table of their own, at most half full.
  std::vector<std::pair<uint64_t, Match>> hidden;
  for (uint64_t hash : hashes_) {
    Match& m = slots_[find(slots_, hash)].match;
    Match h = lookup_hidden(hash);
    h.full = static_cast<uint16_t>(h.full | (m.full & categories));
    h.part = static_cast<uint16_t>(h.part | (m.part & categories));
    m.full = static_cast<uint16_t>(m.full & ~categories);
    m.part = static_cast<uint16_t>(m.part & ~categories);
    if ((h.full | h.part) != 0) hidden.emplace_back(hash, h);
  }
  hidden_slots_.assign(std::max<size_t>(64, std::bit_ceil(2 * hidden.size())), Slot{});
  for (const auto& [hash, match] : hidden) hidden_slots_[find(hidden_slots_, hash)] = {fingerprint_of(hash), match};
  pack();
}

void Gazetteer::grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(std::max<size_t>(64, old.size() * 2), Slot{});
  for (uint64_t hash : hashes_) slots_[find(slots_, hash)] = old[find(old, hash)];
}

void Gazetteer::serialize(std::string& out) const {
  little_endian::append<uint32_t>(out, static_cast<uint32_t>(categories_.size()));
  for (const std::string& name : categories_) {
    out += static_cast<char>(std::min<size_t>(name.size(), 255));
    out.append(name, 0, std::min<size_t>(name.size(), 255));
  }
  little_endian::append<uint32_t>(out, static_cast<uint32_t>(hashes_.size()));
  for (uint64_t hash : hashes_) {
    const Match visible = lookup(hash), hidden = lookup_hidden(hash);
    const Match m{static_cast<uint16_t>(visible.full | hidden.full),
                  static_cast<uint16_t>(visible.part | hidden.part)};
    little_endian::append<uint64_t>(out, hash);
    little_endian::append<uint16_t>(out, m.full);
    little_endian::append<uint16_t>(out, m.part);
  }
}

StatusOr<Gazetteer> Gazetteer::parse(std::string_view bytes, size_t& at, std::string_view source) {
  const std::string where(source);
  uint32_t categories = 0, entries = 0;
  if (!little_endian::read(bytes, at, categories) || categories > kMaxCategories) {
    return invalid_argument(where + ": truncated or damaged gazetteer");
  }
  Gazetteer g;
  for (uint32_t c = 0; c < categories; ++c) {
    if (at >= bytes.size()) return invalid_argument(where + ": truncated gazetteer categories");
    const size_t len = static_cast<unsigned char>(bytes[at++]);
    if (bytes.size() - at < len) return invalid_argument(where + ": truncated gazetteer categories");
    g.categories_.emplace_back(bytes.substr(at, len));
    at += len;
  }
  constexpr size_t kEntryBytes = 12;
  if (!little_endian::read(bytes, at, entries) || (bytes.size() - at) / kEntryBytes < entries) {
    return invalid_argument(where + ": truncated gazetteer entries");
  }
  const uint16_t allowed = static_cast<uint16_t>((1u << categories) - 1);
  for (uint32_t e = 0; e < entries; ++e) {
    uint64_t key = 0;
    Match m;
    little_endian::read(bytes, at, key);
    little_endian::read(bytes, at, m.full);
    little_endian::read(bytes, at, m.part);
    if (((m.full | m.part) & ~allowed) != 0) return invalid_argument(where + ": damaged gazetteer entry");
    for (size_t c = 0; c < categories; ++c) {
      if (m.full & (1u << c)) g.add(key, c, true);
      if (m.part & (1u << c)) g.add(key, c, false);
    }
  }
  return g;
}

}  // namespace tiergate
