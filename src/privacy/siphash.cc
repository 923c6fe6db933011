#include "siphash.h"

#include <bit>
#include <cstring>

namespace tiergate {
namespace {

struct SipState {
  uint64_t v0, v1, v2, v3;

  void round() {
    v0 += v1;
    v1 = std::rotl(v1, 13);
    v1 ^= v0;
    v0 = std::rotl(v0, 32);
    v2 += v3;
    v3 = std::rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = std::rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = std::rotl(v1, 17);
    v1 ^= v2;
    v2 = std::rotl(v2, 32);
  }
  // One 8-byte word of the message, through the two compression rounds.
  void absorb(uint64_t m) {
    v3 ^= m;
    round();
    round();
    v0 ^= m;
  }
  uint64_t finish(uint64_t mark) {
    v2 ^= mark;
    for (int r = 0; r < 4; ++r) round();
    return v0 ^ v1 ^ v2 ^ v3;
  }
};

uint64_t read_word(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return std::endian::native == std::endian::little ? v : __builtin_bswap64(v);
}

uint64_t read_little_endian(const unsigned char* p, size_t n) {
  uint64_t v = 0;
  for (size_t b = 0; b < n; ++b) v |= uint64_t{p[b]} << (8 * b);
  return v;
}

}  // namespace

SipDigest siphash128(const SipKey& key, std::string_view message) {
  SipState s{key[0] ^ 0x736f6d6570736575ULL, key[1] ^ 0x646f72616e646f6dULL ^ 0xee, key[0] ^ 0x6c7967656e657261ULL,
             key[1] ^ 0x7465646279746573ULL};
  const auto* p = reinterpret_cast<const unsigned char*>(message.data());
  const size_t n = message.size();
  const size_t whole = n - n % 8;
  for (size_t at = 0; at < whole; at += 8) s.absorb(read_word(p + at));
  // The last block: the bytes left, and the message's length (mod 256) in its top byte.
  s.absorb(read_little_endian(p + whole, n - whole) | (uint64_t{n} << 56));
  const uint64_t low = s.finish(0xee);
  s.v1 ^= 0xdd;
  const uint64_t high = s.finish(0);
  return {low, high};
}

}  // namespace tiergate
