// The text the detectors read, made plain (plain_text.h), and the offsets
// that map it back.
#include "plain_text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tiergate::pii_scan {
namespace {

TEST(PlainTextTest, TextWithoutSuchCharactersIsReturnedAsItIs) {
  PlainText plain;
  const std::string text = "Müller’s “card”: 4111 1111 1111 1111 — ok, Привет";
  const std::string_view out = plain_text(text, plain);
  EXPECT_EQ(out.data(), text.data());
  EXPECT_TRUE(plain.offset.empty());
}

TEST(PlainTextTest, StandInsBecomeTheirAsciiAndInvisibleCharactersGo) {
  PlainText plain;
  // A no-break space, a non-breaking hyphen, an en dash, a zero-width
  // space, a soft hyphen, full-width digits and "@", a word joiner.
  const std::string text =
      "a\xc2\xa0" "b\xe2\x80\x91" "c\xe2\x80\x93" "d\xe2\x80\x8b" "e\xc2\xad" "f\xef\xbc\x91\xef\xbc\x92\xef\xbc\xa0" "g\xe2\x81\xa0";
  EXPECT_EQ(plain_text(text, plain), "a b-c-def12@g");
  // Each plain byte's offset in the text, and the text's size after them.
  EXPECT_EQ(plain.offset, (std::vector<uint32_t>{0, 1, 3, 4, 7, 8, 11, 15, 18, 19, 22, 25, 28, 32}));
}

// An "@" as URLs and HTML encode it is an "@"; a "%" or "&" that encodes
// something else, or nothing, stays.
TEST(PlainTextTest, AnEncodedAtSignIsAnAtSign) {
  PlainText plain;
  EXPECT_EQ(plain_text("mailto:jane%40example.com?subject=50%25&x=1", plain),
            "mailto:jane@example.com?subject=50%25&x=1");
  EXPECT_EQ(plain.offset[11], 11u);
  EXPECT_EQ(plain.offset[12], 14u);
  EXPECT_EQ(plain_text("a&#64;b a&#x40;b a&#X40;b a&commat;b AT&T 100%", plain), "a@b a@b a@b a@b AT&T 100%");
  const std::string plain_only = "AT&T rose 5% & fell; 100%4 &#65; &comma";
  EXPECT_EQ(plain_text(plain_only, plain).data(), plain_only.data());
  // Cut short at the end.
  EXPECT_EQ(plain_text("jane%4", plain), "jane%4");
}

TEST(PlainTextTest, ACharacterCutShortAtTheEndStaysAsItIs) {
  PlainText plain;
  const std::string text = "call 06\xc2\xa0" "12 \xe2\x80";
  EXPECT_EQ(plain_text(text, plain), "call 06 12 \xe2\x80");
  EXPECT_EQ(plain.offset.back(), text.size());
  EXPECT_EQ(plain.offset.size(), plain_text(text, plain).size() + 1);
}

// Wherever a character to make plain lies among the blocks the search reads
// at once (32 and 16 bytes) and the bytes after them, and among lead bytes
// of other characters ("’", "&&"), it is found; one that opens on the last
// byte is cut short and stays.
TEST(PlainTextTest, ACharacterIsFoundAtEveryOffset) {
  PlainText plain;
  for (size_t size = 2; size <= 100; ++size) {
    for (size_t at = 0; at + 2 <= size; ++at) {
      // (Bytes set one by one: GCC 12 warns of replace() with a literal.)
      auto put = [](std::string& s, size_t k, std::string_view bytes) {
        for (size_t b = 0; b < bytes.size(); ++b) s[k + b] = bytes[b];
      };
      std::string text(size, 'x');
      for (size_t k = 5; k + 3 < size; k += 23) put(text, k, "\xe2\x80\x99");  // "’" stays
      for (size_t k = 9; k + 2 < size; k += 31) put(text, k, "&&");
      put(text, at, "\xc2\xa0");  // a no-break space over whatever was there
      const std::string expected = text.substr(0, at) + " " + text.substr(at + 2);
      EXPECT_EQ(plain_text(text, plain), expected) << size << " " << at;
    }
    std::string last(size - 1, 'x');
    last += '\xc2';
    EXPECT_EQ(plain_text(last, plain), last) << size;
  }
}

}  // namespace
}  // namespace tiergate::pii_scan
