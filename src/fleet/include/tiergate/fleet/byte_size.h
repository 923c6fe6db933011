// Sizes as people write them ("512M", "2G", "1.5GiB", "1000000") and as
// Tiergate prints them ("1.5 GiB").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tiergate/core/status.h"

namespace tiergate {

// A non-negative number, optionally with a fraction, then an optional unit
// (case-insensitive, a space between allowed):
//   none, B            bytes
//   K, KiB / M, MiB / G, GiB / T, TiB   powers of 1024
//   KB / MB / GB / TB                   powers of 1000 (as disks are sold)
// The result is rounded down to whole bytes. kInvalidArgument (the message
// quotes the text and says what is accepted) for anything else, a negative
// number, or a size above 2^63 bytes.
StatusOr<uint64_t> parse_byte_size(std::string_view text);

// Binary units with one decimal at most: "512 B", "1.5 KiB", "6.1 GiB".
std::string format_bytes(uint64_t bytes);

}  // namespace tiergate
