// Little-endian integers in the privacy module's binary files (the tagger
// and its gazetteer), the same bytes on any host.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tiergate::little_endian {

template <typename T>
void append(std::string& out, T v) {
  for (size_t b = 0; b < sizeof(T); ++b) out += static_cast<char>((v >> (8 * b)) & 0xff);
}

// Reads a T at `at` and advances past it; false when fewer bytes remain.
template <typename T>
bool read(std::string_view bytes, size_t& at, T& v) {
  if (at > bytes.size() || bytes.size() - at < sizeof(T)) return false;
  v = 0;
  for (size_t b = 0; b < sizeof(T); ++b) v |= static_cast<T>(static_cast<unsigned char>(bytes[at + b])) << (8 * b);
  at += sizeof(T);
  return true;
}

}  // namespace tiergate::little_endian
