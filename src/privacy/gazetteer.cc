#include "tiergate/privacy/gazetteer.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "little_endian.h"

namespace tiergate {
namespace {

uint64_t stored_key(uint64_t token_hash) { return token_hash == 0 ? 1 : token_hash; }

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

void Gazetteer::add(uint64_t token_hash, size_t category, bool full) {
  if ((size_ + 1) * 2 > slots_.size()) grow();
  const uint64_t key = stored_key(token_hash);
  const size_t mask = slots_.size() - 1;
  size_t i = key & mask;
  while (slots_[i].key != 0 && slots_[i].key != key) i = (i + 1) & mask;
  if (slots_[i].key == 0) {
    slots_[i].key = key;
    ++size_;
  }
  const auto bit = static_cast<uint16_t>(1u << category);
  (full ? slots_[i].match.full : slots_[i].match.part) |= bit;
}

Gazetteer::Match Gazetteer::lookup(uint64_t token_hash) const {
  if (size_ == 0) return {};
  const uint64_t key = stored_key(token_hash);
  const size_t mask = slots_.size() - 1;
  for (size_t i = key & mask;; i = (i + 1) & mask) {
    if (slots_[i].key == key) return slots_[i].match;
    if (slots_[i].key == 0) return {};
  }
}

void Gazetteer::grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(std::max<size_t>(64, old.size() * 2), Slot{});
  const size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.key == 0) continue;
    size_t i = s.key & mask;
    while (slots_[i].key != 0) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

void Gazetteer::serialize(std::string& out) const {
  little_endian::append<uint32_t>(out, static_cast<uint32_t>(categories_.size()));
  for (const std::string& name : categories_) {
    out += static_cast<char>(std::min<size_t>(name.size(), 255));
    out.append(name, 0, std::min<size_t>(name.size(), 255));
  }
  little_endian::append<uint32_t>(out, static_cast<uint32_t>(size_));
  for (const Slot& s : slots_) {
    if (s.key == 0) continue;
    little_endian::append<uint64_t>(out, s.key);
    little_endian::append<uint16_t>(out, s.match.full);
    little_endian::append<uint16_t>(out, s.match.part);
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
    if (key == 0 || ((m.full | m.part) & ~allowed) != 0) return invalid_argument(where + ": damaged gazetteer entry");
    for (size_t c = 0; c < categories; ++c) {
      if (m.full & (1u << c)) g.add(key, c, true);
      if (m.part & (1u << c)) g.add(key, c, false);
    }
  }
  return g;
}

}  // namespace tiergate
