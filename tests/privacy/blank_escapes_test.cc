// Escapes for blanks in prompt text ("\n", "\t", "\r" written out) read as
// blanks by the whole scan, at the same offsets.
#include "blank_escapes.h"

#include <gtest/gtest.h>

#include <string>

namespace tiergate::pii_scan {
namespace {

TEST(BlankEscapesTest, TextWithoutABackslashIsReturnedAsItIs) {
  std::string buffer;
  const std::string text = "Dennis said hi.\nKyle left.";
  const std::string_view out = without_blank_escapes(text, buffer);
  EXPECT_EQ(out.data(), text.data());
  EXPECT_TRUE(buffer.empty());
}

TEST(BlankEscapesTest, EscapesBecomeBlanksOfTheirLength) {
  std::string buffer;
  EXPECT_EQ(without_blank_escapes(R"(hi.\nKyle\tMaria\r\nEnd)", buffer), "hi. \nKyle  Maria   \nEnd");
  EXPECT_EQ(without_blank_escapes(R"(x\n)", buffer), "x \n");
  // Not an escape for a blank: another letter, a backslash at the end.
  EXPECT_EQ(without_blank_escapes(R"(\Users\Nick \u00e9 a\)", buffer), R"(\Users\Nick \u00e9 a\)");
}

TEST(BlankEscapesTest, AnEscapedBackslashKeepsTheLetterAfterIt) {
  std::string buffer;
  // "C:\\new" is the folder "new"; "\\\n" is a backslash, then a line break.
  EXPECT_EQ(without_blank_escapes(R"(C:\\new)", buffer), R"(C:\\new)");
  EXPECT_EQ(without_blank_escapes(R"(a\\\nb)", buffer), "a\\\\ \nb");
}

}  // namespace
}  // namespace tiergate::pii_scan
