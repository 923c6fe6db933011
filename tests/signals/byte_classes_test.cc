#include "byte_classes.h"

#include <gtest/gtest.h>

#include <string>

#include "synthetic.h"

namespace tiergate {
namespace {

void expect_same(const ByteClasses& a, const ByteClasses& b, const std::string& what) {
  EXPECT_EQ(a.word, b.word) << what;
  EXPECT_EQ(a.space, b.space) << what;
  EXPECT_EQ(a.digits, b.digits) << what;
  EXPECT_EQ(a.upper, b.upper) << what;
  EXPECT_EQ(a.letters, b.letters) << what;
  EXPECT_EQ(a.non_ascii, b.non_ascii) << what;
  EXPECT_EQ(a.newlines, b.newlines) << what;
  EXPECT_EQ(a.words, b.words) << what;
  EXPECT_EQ(a.numbers, b.numbers) << what;
}

TEST(ByteClassesTest, KnownText) {
  ByteClasses c;
  classify_bytes("Ab 9\n\xc3\xa9-x\t", c);
  ASSERT_EQ(c.word.size(), 1u);
  // bytes: A b ' ' 9 \n \xc3 \xa9 - x \t
  EXPECT_EQ(c.word[0], 0b0101101011u);
  EXPECT_EQ(c.space[0], 0b1000010100u);
  EXPECT_EQ(c.digits, 1u);
  EXPECT_EQ(c.upper, 1u);
  EXPECT_EQ(c.letters, 3u);
  EXPECT_EQ(c.non_ascii, 2u);
  EXPECT_EQ(c.newlines, 1u);
  EXPECT_EQ(c.words, 4u);    // Ab, 9, the two-byte letter, x
  EXPECT_EQ(c.numbers, 1u);  // 9
}

TEST(ByteClassesTest, EmptyText) {
  ByteClasses c;
  c.word = {1, 2};
  c.digits = 7;
  classify_bytes("", c);
  EXPECT_TRUE(c.word.empty());
  EXPECT_TRUE(c.space.empty());
  EXPECT_EQ(c.digits, 0u);
}

// The vectorised path and the per-byte reference agree on every byte value,
// at every length around the 16- and 64-byte block edges, buffers reused.
TEST(ByteClassesTest, FastPathMatchesThePortableOne) {
  testing::Lcg rng(7);
  ByteClasses fast, portable;
  for (size_t length = 0; length <= 300; ++length) {
    for (int round = 0; round < 4; ++round) {
      std::string text(length, '\0');
      for (char& ch : text) ch = static_cast<char>(rng.below(256));
      classify_bytes(text, fast);
      classify_bytes_portable(text, portable);
      expect_same(fast, portable, "length " + std::to_string(length));
    }
  }
  std::string every_byte;
  for (int b = 0; b < 256; ++b) every_byte.push_back(static_cast<char>(b));
  classify_bytes(every_byte, fast);
  classify_bytes_portable(every_byte, portable);
  expect_same(fast, portable, "every byte value");
  EXPECT_EQ(fast.letters, 52u);
  EXPECT_EQ(fast.digits, 10u);
  EXPECT_EQ(fast.non_ascii, 128u);
}

}  // namespace
}  // namespace tiergate
