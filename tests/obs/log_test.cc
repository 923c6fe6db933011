#include "tiergate/obs/log.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <string>

namespace tiergate {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(LogTest, KnownLevels) {
  for (std::string_view level : kLogLevels) EXPECT_TRUE(is_log_level(level)) << level;
  EXPECT_FALSE(is_log_level("verbose"));
  EXPECT_FALSE(is_log_level("INFO"));
}

TEST(LogTest, WritesTimestampedLinesToStderrAtTheGivenLevel) {
  ::testing::internal::CaptureStderr();
  init_logging("warn");
  spdlog::info("hidden");
  spdlog::warn("shown {}", 1);
  spdlog::default_logger()->flush();
  std::string out = ::testing::internal::GetCapturedStderr();
  EXPECT_THAT(out, Not(HasSubstr("hidden")));
  EXPECT_THAT(out, ContainsRegex("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}"
                                 "[-+][0-9:]+ warning \\[[0-9]+\\] shown 1\n$"));
}

TEST(LogTest, UnknownLevelFallsBackToInfoWithAWarning) {
  ::testing::internal::CaptureStderr();
  init_logging("loud");
  spdlog::debug("hidden");
  spdlog::info("shown");
  spdlog::default_logger()->flush();
  std::string out = ::testing::internal::GetCapturedStderr();
  EXPECT_THAT(out, HasSubstr("unknown log level 'loud', using info"));
  EXPECT_THAT(out, HasSubstr("shown"));
  EXPECT_THAT(out, Not(HasSubstr("hidden")));
  init_logging("info");
}

}  // namespace
}  // namespace tiergate
