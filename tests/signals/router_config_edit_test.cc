// cli::with_router_threshold and write_router_threshold (src/cli, compiled
// into this test): `tiergate router calibrate --config` edits a YAML config in
// place.
#include "router_config_edit.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "synthetic.h"
#include "tiergate/config/config.h"

namespace tiergate::cli {
namespace {

using ::testing::HasSubstr;

constexpr char kMark[] = "  # tiergate router calibrate";

TEST(WithRouterThresholdTest, AddsTheRoutingBlockWhenAbsent) {
  const std::string yaml = "listen: 127.0.0.1:0\n# a comment\nedge:\n  model: m.gguf\n";
  EXPECT_EQ(with_router_threshold(yaml, 0.25), yaml + "routing:\n  threshold: 0.25" + kMark + "\n");
  // A file without a final newline gets one.
  EXPECT_EQ(with_router_threshold("listen: 127.0.0.1:0", 0.5),
            std::string("listen: 127.0.0.1:0\nrouting:\n  threshold: 0.5") + kMark + "\n");
}

TEST(WithRouterThresholdTest, InsertsIntoAnExistingBlockAtItsIndent) {
  const std::string yaml =
      "listen: 127.0.0.1:0\n"
      "routing:\n"
      "    # keep me\n"
      "    auto:\n"
      "        max_edge_prompt_tokens: 100\n"
      "cloud: []\n";
  EXPECT_EQ(with_router_threshold(yaml, -0.05),
            std::string("listen: 127.0.0.1:0\n"
                        "routing:\n"
                        "    threshold: -0.05") +
                kMark +
                "\n"
                "    # keep me\n"
                "    auto:\n"
                "        max_edge_prompt_tokens: 100\n"
                "cloud: []\n");
}

TEST(WithRouterThresholdTest, ReplacesAnExistingThresholdOnce) {
  const std::string yaml =
      "routing:\n"
      "  auto:\n"
      "    threshold: 9\n"  // deeper: not routing.threshold
      "  threshold: 0.1\n"
      "listen: 127.0.0.1:0\n";
  const std::string once = with_router_threshold(yaml, 0.123456789012);
  EXPECT_EQ(once, std::string("routing:\n"
                              "  auto:\n"
                              "    threshold: 9\n"
                              "  threshold: 0.123456789") +
                      kMark + "\nlisten: 127.0.0.1:0\n");
  // Editing again replaces the line rather than adding another.
  EXPECT_EQ(with_router_threshold(once, 0.123456789012), once);
  const std::string twice = with_router_threshold(once, 2);
  EXPECT_THAT(twice, HasSubstr(std::string("  threshold: 2") + kMark + "\n"));
  EXPECT_EQ(twice.find("0.123456789"), std::string::npos);
}

TEST(WithRouterThresholdTest, EmptyRoutingBlock) {
  EXPECT_EQ(with_router_threshold("routing:\nlisten: 127.0.0.1:0\n", 1),
            std::string("routing:\n  threshold: 1") + kMark + "\nlisten: 127.0.0.1:0\n");
}

TEST(WriteRouterThresholdTest, MissingFile) {
  testing::ScratchDir dir;
  const Status s = write_router_threshold(dir.file("absent.yaml"), 0.5);
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_THAT(s.message(), HasSubstr("absent.yaml"));
}

TEST(WriteRouterThresholdTest, ConfigThatWouldNotLoadIsLeftUnchanged) {
  testing::ScratchDir dir;
  const std::string text = "edge:\n  model: m.gguf\n";  // no listen: invalid before and after
  const std::string path = dir.write("tiergate.yaml", text);
  const Status s = write_router_threshold(path, 0.5);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("left unchanged"));
  EXPECT_EQ(testing::read_text(path), text);
}


TEST(WriteRouterThresholdTest, WritesAConfigThatLoads) {
  testing::ScratchDir dir;
  const std::string path = dir.write("tiergate.yaml", testing::kMinimalConfig);
  const Status s = write_router_threshold(path, 0.375);
  ASSERT_TRUE(s.is_ok()) << s.message();
  const std::string text = testing::read_text(path);
  EXPECT_THAT(text, HasSubstr("routing:\n  threshold: 0.375"));
  EXPECT_THAT(text, HasSubstr(testing::kMinimalConfig));
  EXPECT_TRUE(parse_config(text, path).is_ok());
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

}  // namespace
}  // namespace tiergate::cli
