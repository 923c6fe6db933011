// SipHash-2-4 with its 128-bit output (Aumasson and Bernstein, 2012): a keyed
// pseudo-random function of a message. The scan cache (scan_cache.h) names a
// message by it: with a key drawn at random per process, no one who does not
// know the key can make two messages of the same name, which a public hash
// (FNV, xxHash) would not promise.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace tiergate {

using SipKey = std::array<uint64_t, 2>;     // k0, k1: the key's 16 bytes read little-endian
using SipDigest = std::array<uint64_t, 2>;  // the output's 16 bytes, read little-endian

SipDigest siphash128(const SipKey& key, std::string_view message);

}  // namespace tiergate
