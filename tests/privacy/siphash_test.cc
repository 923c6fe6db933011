// SipHash-2-4, 128-bit output (src/privacy/siphash.h), against OpenSSL's
// implementation (EVP_MAC "SIPHASH") and the reference's first test vector.
#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <cstring>
#include <random>
#include <string>

#include "siphash.h"

namespace tiergate {
namespace {

SipKey key_of(const unsigned char (&bytes)[16]) {
  SipKey key;
  std::memcpy(key.data(), bytes, 16);  // little-endian, as the key's bytes are read
  return key;
}

std::string openssl_siphash128(const unsigned char (&key)[16], const std::string& message) {
  EVP_MAC* mac = EVP_MAC_fetch(nullptr, "SIPHASH", nullptr);
  EVP_MAC_CTX* ctx = mac != nullptr ? EVP_MAC_CTX_new(mac) : nullptr;
  size_t size = 16;
  OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size), OSSL_PARAM_construct_end()};
  std::string out(16, '\0');
  size_t written = 0;
  const bool ok = ctx != nullptr && EVP_MAC_init(ctx, key, 16, params) == 1 &&
                  EVP_MAC_update(ctx, reinterpret_cast<const unsigned char*>(message.data()), message.size()) == 1 &&
                  EVP_MAC_final(ctx, reinterpret_cast<unsigned char*>(out.data()), &written, out.size()) == 1;
  EVP_MAC_CTX_free(ctx);
  EVP_MAC_free(mac);
  return ok && written == 16 ? out : "";
}

std::string bytes_of(const SipDigest& d) {
  std::string out(16, '\0');
  std::memcpy(out.data(), d.data(), 16);
  return out;
}

TEST(SipHash, MatchesTheReferenceVectorOfTheEmptyMessage) {
  const unsigned char key[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  const unsigned char expected[16] = {0xa3, 0x81, 0x7f, 0x04, 0xba, 0x25, 0xa8, 0xe6,
                                      0x6d, 0xf6, 0x72, 0x14, 0xc7, 0x55, 0x02, 0x93};
  EXPECT_EQ(bytes_of(siphash128(key_of(key), "")), std::string(reinterpret_cast<const char*>(expected), 16));
}

TEST(SipHash, MatchesOpenSslOnEveryLengthAroundItsBlocks) {
  std::mt19937 rng(11);
  for (size_t n = 0; n <= 300; ++n) {
    unsigned char key[16];
    for (unsigned char& b : key) b = static_cast<unsigned char>(rng());
    std::string message(n, '\0');
    for (char& c : message) c = static_cast<char>(rng());
    const std::string expected = openssl_siphash128(key, message);
    ASSERT_EQ(expected.size(), 16u) << "OpenSSL's SIPHASH MAC is not available";
    EXPECT_EQ(bytes_of(siphash128(key_of(key), message)), expected) << n << " bytes";
  }
}

TEST(SipHash, TheKeyChangesTheName) {
  EXPECT_NE(siphash128({1, 2}, "Anna Takeda"), siphash128({1, 3}, "Anna Takeda"));
  EXPECT_NE(siphash128({1, 2}, "Anna Takeda"), siphash128({1, 2}, "Anna Takedo"));
}

}  // namespace
}  // namespace tiergate
