#include "tiergate/signals/dataset.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "synthetic.h"

namespace tiergate {
namespace {

using ::testing::HasSubstr;

class DatasetTest : public ::testing::Test {
 protected:
  testing::ScratchDir dir_;
};

constexpr char kRow[] = R"({"id": "a", "prompt": "hi", "edge": {"score": 0.5}, "cloud": {"score": 1}})";

TEST_F(DatasetTest, ReadsRoutingRows) {
  const std::string path = dir_.write(
      "rows.jsonl",
      std::string(R"({"id": "q1", "source": "mmlu/anatomy", "category": "stem", "prompt": "What is a femur?",)"
                  R"( "edge": {"score": 0.25, "cost_usd": 0.0}, "cloud": {"score": 1, "cost_usd": 0.002}})") +
          "\n" +
          R"({"id": 7, "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "2+2?"}],)"
          R"( "edge": {"score": 1}, "cloud": {"score": 1}})" +
          "\n");
  auto rows = load_routing_rows(path);
  ASSERT_TRUE(rows.is_ok()) << rows.status().message();
  ASSERT_EQ(rows->size(), 2u);
  const RoutingRow& first = (*rows)[0];
  EXPECT_EQ(first.id, "q1");
  EXPECT_EQ(first.source, "mmlu/anatomy");
  EXPECT_EQ(first.category, "stem");
  ASSERT_EQ(first.messages.size(), 1u);
  EXPECT_EQ(first.messages[0].role, Role::kUser);
  EXPECT_EQ(first.messages[0].content, "What is a femur?");
  EXPECT_DOUBLE_EQ(first.edge_score, 0.25);
  EXPECT_DOUBLE_EQ(first.cloud_score, 1.0);
  const RoutingRow& second = (*rows)[1];
  EXPECT_EQ(second.id, "7");  // numeric ids become text
  EXPECT_EQ(second.source, "");
  ASSERT_EQ(second.messages.size(), 2u);
  EXPECT_EQ(second.messages[0].role, Role::kSystem);
  EXPECT_EQ(second.messages[1].content, "2+2?");
}

TEST_F(DatasetTest, ContentPartsAreJoinedAndNullContentIsEmpty) {
  const std::string path = dir_.write(
      "parts.jsonl",
      R"({"messages": [{"role": "user", "content": [{"type": "text", "text": "first"},)"
      R"( {"type": "image_url", "image_url": {"url": "http://x"}}, {"type": "text", "text": "second"}]},)"
      R"( {"role": "assistant", "content": null}], "edge": {"score": 0}, "cloud": {"score": 1}})"
      "\n");
  auto rows = load_routing_rows(path);
  ASSERT_TRUE(rows.is_ok()) << rows.status().message();
  ASSERT_EQ((*rows)[0].messages.size(), 2u);
  EXPECT_EQ((*rows)[0].messages[0].content, "first\nsecond");
  EXPECT_EQ((*rows)[0].messages[1].content, "");
}

TEST_F(DatasetTest, ContentPartOfAnOddTypeIsSkippedNotThrown) {
  // Readers promise errors as values: a part whose "type" is not a string is
  // not a text part, and must not escape as a JSON exception.
  const std::string path = dir_.write(
      "odd.jsonl",
      R"({"messages": [{"role": "user", "content": [{"type": 5, "text": "odd"}, {"type": "text", "text": "kept"}]}],)"
      R"( "edge": {"score": 0}, "cloud": {"score": 1}})"
      "\n");
  StatusOr<std::vector<RoutingRow>> rows = invalid_argument("not run");
  EXPECT_NO_THROW(rows = load_routing_rows(path));
  ASSERT_TRUE(rows.is_ok()) << rows.status().message();
  EXPECT_EQ((*rows)[0].messages[0].content, "kept");
  StatusOr<std::vector<PromptRow>> prompts = invalid_argument("not run");
  EXPECT_NO_THROW(prompts = load_prompt_rows(path));
  EXPECT_TRUE(prompts.is_ok());
}

TEST_F(DatasetTest, BlankLinesAreSkippedAndStillCounted) {
  const std::string path =
      dir_.write("blank.jsonl", std::string("\n") + kRow + "\n   \n\t\r\n" + R"({"prompt": "x", "edge": {"score": 0}})" + "\n");
  auto rows = load_routing_rows(path);
  ASSERT_FALSE(rows.is_ok());
  // The bad row is on physical line 5.
  EXPECT_THAT(rows.status().message(), HasSubstr(path + ":5: "));
  const std::string good = dir_.write("good.jsonl", std::string("\n\n") + kRow + "\n\n" + kRow);  // no final newline
  auto ok = load_routing_rows(good);
  ASSERT_TRUE(ok.is_ok()) << ok.status().message();
  EXPECT_EQ(ok->size(), 2u);
}

TEST_F(DatasetTest, RowsWithoutIdAreNamedByLine) {
  const std::string routing = dir_.write(
      "noid.jsonl", std::string("\n") + R"({"prompt": "p", "edge": {"score": 0}, "cloud": {"score": 1}})" + "\n");
  auto rows = load_routing_rows(routing);
  ASSERT_TRUE(rows.is_ok()) << rows.status().message();
  EXPECT_EQ((*rows)[0].id, "line-2");

  const std::string prompts = dir_.write("prompts.jsonl", "{\"prompt\": \"one\"}\n\n{\"id\": \"named\", \"prompt\": \"two\"}\n"
                                                          "{\"messages\": [{\"role\": \"user\", \"content\": \"three\"}],"
                                                          " \"category\": \"math\", \"source\": \"gsm8k/x\"}\n");
  auto prompt_rows = load_prompt_rows(prompts);
  ASSERT_TRUE(prompt_rows.is_ok()) << prompt_rows.status().message();
  ASSERT_EQ(prompt_rows->size(), 3u);
  EXPECT_EQ((*prompt_rows)[0].id, "line-1");
  EXPECT_EQ((*prompt_rows)[1].id, "named");
  EXPECT_EQ((*prompt_rows)[2].id, "line-4");
  EXPECT_EQ((*prompt_rows)[2].category, "math");
  EXPECT_EQ((*prompt_rows)[2].source, "gsm8k/x");
  EXPECT_EQ((*prompt_rows)[2].messages[0].content, "three");
  EXPECT_EQ((*prompt_rows)[0].messages[0].role, Role::kUser);
}

TEST_F(DatasetTest, MissingFileIsNotFound) {
  const std::string path = dir_.file("absent.jsonl");
  auto rows = load_routing_rows(path);
  ASSERT_FALSE(rows.is_ok());
  EXPECT_EQ(rows.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(rows.status().message(), HasSubstr(path));
  auto prompts = load_prompt_rows(path);
  ASSERT_FALSE(prompts.is_ok());
  EXPECT_EQ(prompts.status().code(), StatusCode::kNotFound);
}

// Each bad row, on line 2 after a good one: the error names file:2 and the problem.
struct BadRow {
  const char* name;
  const char* line;
  const char* error;
};

class BadRoutingRowTest : public DatasetTest, public ::testing::WithParamInterface<BadRow> {};

TEST_P(BadRoutingRowTest, NamesFileLineAndProblem) {
  const BadRow& c = GetParam();
  const std::string path = dir_.write("bad.jsonl", std::string(kRow) + "\n" + c.line + "\n" + kRow + "\n");
  auto rows = load_routing_rows(path);
  ASSERT_FALSE(rows.is_ok()) << c.name;
  EXPECT_EQ(rows.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(rows.status().message(), HasSubstr(path + ":2: "));
  EXPECT_THAT(rows.status().message(), HasSubstr(c.error));
}

INSTANTIATE_TEST_SUITE_P(
    Rows, BadRoutingRowTest,
    ::testing::Values(
        BadRow{"MalformedJson", R"({"id": "b", "prompt": "hi", )", "not valid JSON"},
        BadRow{"NotAnObject", R"(["prompt", "hi"])", "each line must be a JSON object"},
        BadRow{"NoPromptNoMessages", R"({"id": "b", "edge": {"score": 0}, "cloud": {"score": 1}})",
               "neither `prompt` nor `messages`"},
        BadRow{"PromptNotString", R"({"prompt": 3, "edge": {"score": 0}, "cloud": {"score": 1}})",
               "`prompt` must be a string"},
        BadRow{"EmptyMessages", R"({"messages": [], "edge": {"score": 0}, "cloud": {"score": 1}})",
               "`messages` must be a non-empty array"},
        BadRow{"UnknownRole", R"({"messages": [{"role": "robot", "content": "x"}], "edge": {"score": 0}, "cloud": {"score": 1}})",
               "unknown role 'robot'"},
        BadRow{"MissingContent", R"({"messages": [{"role": "user"}], "edge": {"score": 0}, "cloud": {"score": 1}})",
               "needs a string `content`"},
        BadRow{"ScoreAboveOne", R"({"prompt": "x", "edge": {"score": 1.5}, "cloud": {"score": 1}})",
               "`edge.score` must be in [0, 1]"},
        BadRow{"ScoreBelowZero", R"({"prompt": "x", "edge": {"score": 0}, "cloud": {"score": -0.1}})",
               "`cloud.score` must be in [0, 1]"},
        BadRow{"ScoreNotNumber", R"({"prompt": "x", "edge": {"score": "high"}, "cloud": {"score": 1}})",
               "`edge.score` must be a number"},
        BadRow{"MissingEdge", R"({"prompt": "x", "cloud": {"score": 1}})", "missing object `edge`"},
        BadRow{"MissingCloud", R"({"prompt": "x", "edge": {"score": 1}})", "missing object `cloud`"},
        BadRow{"EdgeNotObject", R"({"prompt": "x", "edge": 0.5, "cloud": {"score": 1}})", "missing object `edge`"}),
    [](const ::testing::TestParamInfo<BadRow>& row) { return std::string(row.param.name); });

TEST_F(DatasetTest, BadPromptRowNamesFileAndLine) {
  const std::string path = dir_.write("prompts.jsonl", "{\"prompt\": \"ok\"}\n{\"category\": \"math\"}\n");
  auto rows = load_prompt_rows(path);
  ASSERT_FALSE(rows.is_ok());
  EXPECT_EQ(rows.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(rows.status().message(), HasSubstr(path + ":2: the row has neither `prompt` nor `messages`"));
  const std::string malformed = dir_.write("malformed.jsonl", "{\"prompt\": \"ok\"}\n{oops\n");
  auto bad = load_prompt_rows(malformed);
  ASSERT_FALSE(bad.is_ok());
  EXPECT_THAT(bad.status().message(), HasSubstr(malformed + ":2: not valid JSON"));
}

TEST_F(DatasetTest, EmptyFiles) {
  const std::string path = dir_.write("empty.jsonl", "\n\n");
  auto rows = load_routing_rows(path);
  ASSERT_FALSE(rows.is_ok());
  EXPECT_THAT(rows.status().message(), HasSubstr(path + ": no rows"));
  auto prompts = load_prompt_rows(path);  // an empty prompt set is allowed
  ASSERT_TRUE(prompts.is_ok()) << prompts.status().message();
  EXPECT_TRUE(prompts->empty());
}

TEST(BenchmarkOfTest, SourceUpToFirstSlash) {
  EXPECT_EQ(benchmark_of("mmlu/anatomy"), "mmlu");
  EXPECT_EQ(benchmark_of("a/b/c"), "a");
  EXPECT_EQ(benchmark_of("gsm8k"), "gsm8k");
  EXPECT_EQ(benchmark_of(""), "");
}

}  // namespace
}  // namespace tiergate
