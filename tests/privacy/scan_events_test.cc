// The structured scan's event masks: the SSE2 and AVX2 versions must give
// the portable version's bits, on random text and at the text's ends (scan.h is private
// to the module; this test reads it from src/privacy).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "scan.h"

namespace tiergate::pii_scan {
namespace {

// Random text over an alphabet rich in events and their neighbours.
std::string random_text(std::mt19937& rng, size_t n) {
  static const std::string kAlphabet = "0123456789aAdDoOyYtTx .,@+(-:=_/[\n\xc3\xa9";
  std::uniform_int_distribution<size_t> pick(0, kAlphabet.size() - 1);
  std::string s(n, ' ');
  for (char& c : s) c = kAlphabet[pick(rng)];
  return s;
}

TEST(ScanEventsTest, PortableMarksTheDocumentedBytes) {
  const std::string text = "a1 22 b.c x. Monday DAY y @+(-:=_ ,/ dot [DOT] dots";
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const uint64_t m = event_mask_portable(p, 0, text.size());
  std::string marked;
  for (size_t k = 0; k < text.size(); ++k) marked += (m >> k) & 1 ? '^' : ' ';
  // digits start runs ('1', the first '2'), '.' before a letter, the y of
  // "day" and the t of "dot" in either case (the handlers read the words
  // around them), and the marks; not ',' or '/' or a lone 'y'.
  EXPECT_EQ(marked, " ^ ^   ^          ^   ^   ^^^^^^^      ^    ^    ^ ");
}

#if defined(__SSE2__)
TEST(ScanEventsTest, SimdMatchesPortable) {
  std::mt19937 rng(11);
  for (size_t n : {0u, 1u, 2u, 3u, 63u, 64u, 65u, 66u, 67u, 127u, 128u, 129u, 200u, 1000u, 4099u}) {
    for (int round = 0; round < 20; ++round) {
      const std::string text = random_text(rng, n);
      const auto* p = reinterpret_cast<const unsigned char*>(text.data());
      for (size_t base = 0; base < n; base += 64) {
        ASSERT_EQ(event_mask_sse2(p, base, n), event_mask_portable(p, base, n)) << "n=" << n << " base=" << base;
#if defined(__x86_64__)
        if (cpu_has_avx2()) {
          ASSERT_EQ(event_mask_avx2(p, base, n), event_mask_portable(p, base, n)) << "n=" << n << " base=" << base;
        }
        if (cpu_has_avx512bw()) {
          ASSERT_EQ(event_mask_avx512(p, base, n), event_mask_portable(p, base, n)) << "n=" << n << " base=" << base;
        }
#endif
      }
    }
  }
}
#endif

}  // namespace
}  // namespace tiergate::pii_scan
