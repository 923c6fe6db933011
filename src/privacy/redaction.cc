#include "tiergate/privacy/redaction.h"

#include <algorithm>

namespace tiergate {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The form two spellings of one value share: ASCII lower case, white space
// runs as one space, none at the ends.
std::string folded(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  bool gap = false;
  for (char c : value) {
    if (is_space(c)) {
      gap = !out.empty();
      continue;
    }
    if (gap) out += ' ';
    gap = false;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

}  // namespace

const std::string& RedactionMap::placeholder(std::string_view type, std::string_view value) {
  std::string key(type);
  key += '\0';
  key += folded(value);
  if (auto found = by_value_.find(key); found != by_value_.end()) return found->second;
  size_t& n = counts_[std::string(type)];
  std::string name;
  do {
    name.clear();
    name.append(1, '[').append(type).append(1, '_').append(std::to_string(++n)).append(1, ']');
  } while (reserved_.contains(name));
  longest_ = std::max(longest_, name.size());
  originals_.emplace(name, std::string(value));
  return by_value_.emplace(std::move(key), std::move(name)).first->second;
}

std::string RedactionMap::redact(std::string_view text, std::vector<RedactionSpan> spans) {
  std::sort(spans.begin(), spans.end(), [](const RedactionSpan& a, const RedactionSpan& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
  });
  std::string out;
  out.reserve(text.size());
  size_t at = 0;
  for (size_t i = 0; i < spans.size();) {
    RedactionSpan merged = spans[i];
    for (++i; i < spans.size() && spans[i].begin < merged.end; ++i) merged.end = std::max(merged.end, spans[i].end);
    if (merged.begin >= merged.end) continue;  // empty: nothing to hide
    out.append(text.substr(at, merged.begin - at));
    out += placeholder(merged.type, text.substr(merged.begin, merged.end - merged.begin));
    at = merged.end;
  }
  out.append(text.substr(at));
  return out;
}

void RedactionMap::reserve(std::string_view text) {
  for (size_t open = text.find('['); open != std::string_view::npos; open = text.find('[', open + 1)) {
    // [NAME_<digits>] with NAME of upper-case letters, digits and '_'.
    size_t i = open + 1;
    while (i < text.size() && ((text[i] >= 'A' && text[i] <= 'Z') || (text[i] >= '0' && text[i] <= '9') || text[i] == '_')) ++i;
    if (i >= text.size() || text[i] != ']' || i - open > 64) continue;
    const std::string_view inner = text.substr(open + 1, i - open - 1);
    const size_t underscore = inner.rfind('_');
    if (underscore == std::string_view::npos || underscore == 0 || underscore + 1 == inner.size()) continue;
    if (inner.find_first_not_of("0123456789", underscore + 1) != std::string_view::npos) continue;
    reserved_.emplace(text.substr(open, i - open + 1));
  }
}

const std::string* RedactionMap::original(std::string_view placeholder) const {
  const auto found = originals_.find(std::string(placeholder));
  return found == originals_.end() ? nullptr : &found->second;
}

std::vector<std::string> RedactionMap::types() const {
  std::vector<std::string> out;
  for (const auto& [type, n] : counts_) {
    if (n > 0) out.push_back(type);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string RedactionMap::restore(std::string_view text) const {
  if (originals_.empty()) return std::string(text);
  std::string out;
  out.reserve(text.size());
  size_t at = 0;
  for (size_t open = text.find('['); open != std::string_view::npos; open = text.find('[', open + 1)) {
    const size_t close = text.find(']', open);
    if (close == std::string_view::npos) break;
    if (close - open + 1 > longest_) continue;
    if (const std::string* value = original(text.substr(open, close - open + 1))) {
      out.append(text.substr(at, open - at));
      out += *value;
      at = close + 1;
      open = close;
    }
  }
  out.append(text.substr(at));
  return out;
}

std::string StreamRestorer::push(std::string_view chunk) {
  pending_.append(chunk);
  // Only the last '[' can open a placeholder that is not complete yet: any
  // earlier one has that '[' inside it, which no placeholder holds.
  size_t hold = pending_.size();
  if (const size_t open = pending_.rfind('['); open != std::string::npos && pending_.find(']', open) == std::string::npos) {
    const std::string_view tail = std::string_view(pending_).substr(open);
    if (tail.size() < map_.longest_placeholder() && map_.might_open(tail)) hold = open;
  }
  std::string out = map_.restore(std::string_view(pending_).substr(0, hold));
  pending_.erase(0, hold);
  return out;
}

std::string StreamRestorer::finish() {
  std::string out = map_.restore(pending_);
  pending_.clear();
  return out;
}

bool RedactionMap::might_open(std::string_view prefix) const {
  return std::any_of(originals_.begin(), originals_.end(),
                     [&](const auto& entry) { return std::string_view(entry.first).starts_with(prefix); });
}

}  // namespace tiergate
