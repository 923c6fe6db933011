#include "tiergate/engines/local/stop_scanner.h"

#include <gtest/gtest.h>

namespace tiergate {
namespace {

std::string feed(StopScanner& s, const std::vector<std::string>& pieces) {
  std::string out;
  for (const auto& p : pieces) out += s.push(p);
  return out + s.flush();
}

TEST(StopScannerTest, PassesTextThroughWithoutStops) {
  StopScanner s({});
  EXPECT_EQ(feed(s, {"Hel", "lo"}), "Hello");
  EXPECT_FALSE(s.stopped());
}

TEST(StopScannerTest, StopSequenceSplitAcrossPieces) {
  StopScanner s({"END"});
  EXPECT_EQ(s.push("abc E"), "abc ");  // "E" may start the stop
  EXPECT_EQ(s.push("N"), "");
  EXPECT_EQ(s.push("Dxyz"), "");
  EXPECT_TRUE(s.stopped());
  EXPECT_EQ(s.push("more"), "");
}

TEST(StopScannerTest, FalseStartIsReleased) {
  StopScanner s({"END"});
  EXPECT_EQ(s.push("E"), "");
  EXPECT_EQ(s.push("X"), "EX");
  EXPECT_FALSE(s.stopped());
}

TEST(StopScannerTest, EarliestOfSeveralStops) {
  StopScanner s({"\n\n", "B"});
  EXPECT_EQ(feed(s, {"aaB\n\nc"}), "aa");
}

TEST(StopScannerTest, HoldsBackIncompleteUtf8) {
  StopScanner s({});
  EXPECT_EQ(s.push("caf\xC3"), "caf");
  EXPECT_EQ(s.push("\xA9!"), "\xC3\xA9!");
}

TEST(StopScannerTest, FlushDropsIncompleteUtf8Tail) {
  StopScanner s({});
  EXPECT_EQ(s.push("ok\xE2\x82"), "ok");
  EXPECT_EQ(s.flush(), "");
}

TEST(StopScannerTest, FlushReleasesPartialStopThatNeverCompleted) {
  StopScanner s({"STOP"});
  EXPECT_EQ(s.push("go ST"), "go ");
  EXPECT_EQ(s.flush(), "ST");
}

}  // namespace
}  // namespace tiergate
