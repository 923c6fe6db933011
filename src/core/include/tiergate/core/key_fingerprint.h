// A short fingerprint of an API key, so that budgets and rules can tell keys
// apart without the gateway holding the keys themselves in memory or logs.
#pragma once

#include <string>
#include <string_view>

namespace tiergate {

// 16 lower-case hex digits (64-bit FNV-1a of the key); "" for an empty key.
// Deterministic across processes and builds. Not a cryptographic hash: it
// keeps the raw key out of memory, logs and traces; it is not meant to resist
// a brute-force search for short keys.
std::string key_fingerprint(std::string_view key);

}  // namespace tiergate
