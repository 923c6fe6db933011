#include "tiergate/privacy/utf8_offsets.h"

#include <algorithm>

namespace tiergate {
namespace {

bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

std::optional<uint32_t> utf8_byte_offset(std::string_view text, size_t code_point) {
  size_t seen = 0;
  for (size_t b = 0; b < text.size(); ++b) {
    if (continuation(text[b])) continue;
    if (seen == code_point) return static_cast<uint32_t>(b);
    ++seen;
  }
  if (seen == code_point) return static_cast<uint32_t>(text.size());
  return std::nullopt;
}

std::optional<uint32_t> utf8_code_point_offset(std::string_view text, size_t byte) {
  if (byte > text.size()) return std::nullopt;
  if (byte < text.size() && continuation(text[byte])) return std::nullopt;
  size_t count = 0;
  for (size_t b = 0; b < byte; ++b) count += !continuation(text[b]);
  return static_cast<uint32_t>(count);
}

Utf8OffsetMap::Utf8OffsetMap(std::string_view text) : bytes_(static_cast<uint32_t>(text.size())) {
  starts_.reserve(text.size() + 1);
  for (size_t b = 0; b < text.size(); ++b) {
    if (!continuation(text[b])) starts_.push_back(static_cast<uint32_t>(b));
  }
  starts_.push_back(bytes_);
}

std::optional<uint32_t> Utf8OffsetMap::byte_offset(size_t code_point) const {
  if (code_point >= starts_.size()) return std::nullopt;
  return starts_[code_point];
}

std::optional<uint32_t> Utf8OffsetMap::code_point_offset(size_t byte) const {
  if (byte > bytes_) return std::nullopt;
  auto it = std::lower_bound(starts_.begin(), starts_.end(), static_cast<uint32_t>(byte));
  if (it == starts_.end() || *it != byte) return std::nullopt;
  return static_cast<uint32_t>(it - starts_.begin());
}

}  // namespace tiergate
