// Offsets in UTF-8 text: the labelled PII datasets count code points (Python
// string indices), the detectors count bytes. A code point starts at every
// byte that is not a continuation byte (10xxxxxx); for valid UTF-8 this is
// exactly Python's indexing. Invalid bytes (a stray continuation byte) count
// with the character before them.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tiergate {

// The byte offset of code point index `code_point` in `text`; `code_point`
// equal to the number of code points gives text.size(). nullopt past the end.
// O(n) per call: convert many offsets of one text with Utf8OffsetMap.
std::optional<uint32_t> utf8_byte_offset(std::string_view text, size_t code_point);

// The code point index at byte offset `byte` (text.size() gives the number of
// code points). nullopt past the end or inside a multi-byte character.
std::optional<uint32_t> utf8_code_point_offset(std::string_view text, size_t byte);

// Both conversions for one text in O(1) each, after an O(n) build. Holds no
// reference to the text. Precondition: text.size() < 2^32.
class Utf8OffsetMap {
 public:
  explicit Utf8OffsetMap(std::string_view text);

  size_t code_points() const { return starts_.size() - 1; }
  std::optional<uint32_t> byte_offset(size_t code_point) const;
  std::optional<uint32_t> code_point_offset(size_t byte) const;

 private:
  std::vector<uint32_t> starts_;  // byte offset of each code point, then the text size
  uint32_t bytes_ = 0;
};

}  // namespace tiergate
