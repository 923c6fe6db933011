#include "tiergate/engines/cloud/sse_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tiergate {
namespace {

std::vector<std::string> feed_all(SseParser& parser, std::string_view bytes) {
  return parser.feed(bytes);
}

TEST(SseParserTest, SplitsEventsOnBlankLines) {
  SseParser parser;
  auto out = feed_all(parser, "data: {\"a\":1}\n\ndata: {\"b\":2}\n\ndata: [DONE]\n\n");
  EXPECT_EQ(out, (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "[DONE]"}));
  EXPECT_EQ(parser.buffered_bytes(), 0u);
}

TEST(SseParserTest, HandlesCrLfAndBareCr) {
  SseParser parser;
  auto out = feed_all(parser, "data: one\r\n\r\ndata: two\r\rdata: three\n\n");
  EXPECT_EQ(out, (std::vector<std::string>{"one", "two", "three"}));
}

TEST(SseParserTest, IgnoresCommentsAndOtherFields) {
  SseParser parser;
  auto out = feed_all(parser, ": keep-alive\n\nevent: message\nid: 7\nretry: 100\ndata: x\n\n");
  EXPECT_EQ(out, (std::vector<std::string>{"x"}));
}

TEST(SseParserTest, JoinsMultiLineData) {
  SseParser parser;
  auto out = feed_all(parser, "data: first\ndata:second\ndata:  third\n\n");
  // Only one space after the colon is stripped.
  EXPECT_EQ(out, (std::vector<std::string>{"first\nsecond\n third"}));
}

TEST(SseParserTest, EmptyDataFieldYieldsEmptyPayload) {
  SseParser parser;
  EXPECT_EQ(feed_all(parser, "data:\n\n"), (std::vector<std::string>{""}));
  EXPECT_TRUE(feed_all(parser, "\n\n\n").empty());  // blank lines without data: no events
}

TEST(SseParserTest, EverySplitPointGivesTheSameEvents) {
  const std::string stream =
      ": ping\r\n\r\ndata: {\"x\":\"h\\u00e9llo\"}\r\n\r\ndata: a\r\ndata: b\r\n\r\n"
      "data: caf\xC3\xA9\n\ndata: [DONE]\r\n\r\n";
  const std::vector<std::string> expected = {"{\"x\":\"h\\u00e9llo\"}", "a\nb", "caf\xC3\xA9",
                                             "[DONE]"};
  for (size_t split = 0; split <= stream.size(); ++split) {
    SseParser parser;
    auto out = parser.feed(std::string_view(stream).substr(0, split));
    auto rest = parser.feed(std::string_view(stream).substr(split));
    out.insert(out.end(), rest.begin(), rest.end());
    EXPECT_EQ(out, expected) << "split at " << split;
  }
  // And one byte at a time.
  SseParser parser;
  std::vector<std::string> out;
  for (char c : stream) {
    auto events = parser.feed(std::string_view(&c, 1));
    out.insert(out.end(), events.begin(), events.end());
  }
  EXPECT_EQ(out, expected);
}

TEST(SseParserTest, FinishReturnsAnUnterminatedEvent) {
  SseParser parser;
  EXPECT_TRUE(parser.feed("data: {\"a\":1}\n\ndata: tail").size() == 1);
  EXPECT_EQ(parser.finish(), std::optional<std::string>("tail"));
  EXPECT_EQ(parser.finish(), std::nullopt);
}

TEST(SseParserTest, SkipsByteOrderMark) {
  SseParser parser;
  EXPECT_EQ(parser.feed("\xEF\xBB\xBF" "data: x\n\n"), (std::vector<std::string>{"x"}));
}

}  // namespace
}  // namespace tiergate
