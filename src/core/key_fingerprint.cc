#include "tiergate/core/key_fingerprint.h"

#include <cstdint>

namespace tiergate {

std::string key_fingerprint(std::string_view key) {
  if (key.empty()) return {};
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : key) {
    h ^= c;
    h *= 1099511628211ull;
  }
  static const char* hex = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) out[static_cast<size_t>(i)] = hex[h & 0xf];
  return out;
}

}  // namespace tiergate
