#include <gtest/gtest.h>

#include "tiergate/core/chat.h"

namespace tiergate {
namespace {

struct Utf8Case {
  std::string bytes;
  bool valid;
};

TEST(Utf8Test, Validity) {
  const Utf8Case cases[] = {
      {"", true},
      {"hello", true},
      {"h\xC3\xA9llo", true},           // é
      {"\xE2\x82\xAC", true},           // €
      {"\xF0\x9F\x98\x80", true},       // 😀
      {"\xC3", false},                  // truncated
      {"\xC0\xAF", false},              // overlong
      {"\xE0\x80\xAF", false},          // overlong 3-byte
      {"\xED\xA0\x80", false},          // surrogate
      {"\xF4\x90\x80\x80", false},      // > U+10FFFF
      {"\xFF", false},
      {"a\x80", false},                 // stray continuation
  };
  for (const auto& c : cases) EXPECT_EQ(is_valid_utf8(c.bytes), c.valid) << testing::PrintToString(c.bytes);
}

TEST(Utf8Test, CompletePrefixHoldsBackPartialCharacters) {
  EXPECT_EQ(utf8_complete_prefix("abc"), 3u);
  EXPECT_EQ(utf8_complete_prefix("ab\xE2\x82"), 2u);
  EXPECT_EQ(utf8_complete_prefix("ab\xE2\x82\xAC"), 5u);
  EXPECT_EQ(utf8_complete_prefix("\xF0\x9F\x98"), 0u);
  EXPECT_EQ(utf8_complete_prefix(""), 0u);
}

TEST(TokenEstimateTest, RoughlyFourBytesPerToken) {
  EXPECT_EQ(estimate_tokens(""), 0);
  EXPECT_EQ(estimate_tokens("a"), 1);
  EXPECT_EQ(estimate_tokens("abcdefgh"), 2);
  std::vector<ChatMessage> msgs = {{Role::kUser, "abcdefgh"}, {Role::kAssistant, "abcd"}};
  EXPECT_EQ(estimate_prompt_tokens(msgs), 2 + 4 + 1 + 4);
}

}  // namespace
}  // namespace tiergate
