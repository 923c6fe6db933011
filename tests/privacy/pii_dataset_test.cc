// Code point <-> byte offsets, the PII JSONL reader and its errors.
#include "tiergate/privacy/pii_dataset.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "tiergate/privacy/utf8_offsets.h"

namespace tiergate {
namespace {

// "aé€😀b": 1 + 2 + 3 + 4 + 1 bytes, 5 code points.
const std::string kMixed = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80" "b";

TEST(Utf8OffsetsTest, CodePointsToBytes) {
  const uint32_t bytes[] = {0, 1, 3, 6, 10, 11};
  for (size_t cp = 0; cp < std::size(bytes); ++cp) {
    EXPECT_EQ(utf8_byte_offset(kMixed, cp), bytes[cp]) << cp;
    EXPECT_EQ(Utf8OffsetMap(kMixed).byte_offset(cp), bytes[cp]) << cp;
  }
  EXPECT_FALSE(utf8_byte_offset(kMixed, 6));
  EXPECT_FALSE(Utf8OffsetMap(kMixed).byte_offset(6));
  EXPECT_EQ(utf8_byte_offset("", 0), 0u);
  EXPECT_FALSE(utf8_byte_offset("", 1));
}

TEST(Utf8OffsetsTest, BytesToCodePoints) {
  const Utf8OffsetMap map(kMixed);
  EXPECT_EQ(map.code_points(), 5u);
  const std::optional<uint32_t> want[] = {0, 1, std::nullopt, 2, std::nullopt, std::nullopt, 3,
                                          std::nullopt, std::nullopt, std::nullopt, 4, 5};
  for (size_t b = 0; b < std::size(want); ++b) {
    EXPECT_EQ(utf8_code_point_offset(kMixed, b), want[b]) << b;
    EXPECT_EQ(map.code_point_offset(b), want[b]) << b;
  }
  EXPECT_FALSE(utf8_code_point_offset(kMixed, 12));
  EXPECT_FALSE(map.code_point_offset(12));
}

TEST(Utf8OffsetsTest, RoundTripOnGreekAndCjk) {
  const std::string text = "\xCE\xA0\xCE\xA5\xCE\xA1\xCE\x93\xCE\x91 \xE6\x9D\xB1\xE4\xBA\xAC x";  // "ΠΥΡΓΑ 東京 x"
  const Utf8OffsetMap map(text);
  EXPECT_EQ(map.code_points(), 10u);
  for (size_t cp = 0; cp <= map.code_points(); ++cp) {
    const std::optional<uint32_t> b = map.byte_offset(cp);
    ASSERT_TRUE(b);
    EXPECT_EQ(map.code_point_offset(*b), cp);
  }
}

TEST(Utf8OffsetsTest, StrayContinuationBytesCountWithThePreviousCharacter) {
  const std::string text = "a\x80" "b";  // invalid: a stray continuation byte
  EXPECT_EQ(Utf8OffsetMap(text).code_points(), 2u);
  EXPECT_EQ(utf8_byte_offset(text, 1), 2u);
  EXPECT_FALSE(utf8_code_point_offset(text, 1));
}

TEST(PiiDatasetTest, ReadsSpansAsByteOffsets) {
  // "Zoë" is 3 code points and 4 bytes: the email starts at code point 12,
  // byte 13.
  const std::string content =
      "{\"text\": \"Zo\xC3\xAB's mail: z@example.com\", \"spans\": [{\"type\": \"PERSON\", \"start\": 0, \"end\": 3}, "
      "{\"type\": \"EMAIL_ADDRESS\", \"start\": 12, \"end\": 25}]}\n"
      "\n"
      "{\"text\": \"nothing here\", \"spans\": []}\n"
      "{\"text\": \"unlabelled input\"}\n";
  StatusOr<std::vector<PiiExample>> rows = parse_pii_jsonl(content, "inline.jsonl");
  ASSERT_TRUE(rows.is_ok()) << rows.status().to_string();
  ASSERT_EQ(rows->size(), 3u);
  const PiiExample& first = (*rows)[0];
  ASSERT_EQ(first.spans.size(), 2u);
  EXPECT_EQ(first.spans[0], (PiiSpan{PiiType::kPerson, 0, 4}));
  EXPECT_EQ(first.spans[1], (PiiSpan{PiiType::kEmailAddress, 13, 26}));
  EXPECT_EQ(first.text.substr(13, 13), "z@example.com");
  EXPECT_TRUE((*rows)[1].spans.empty());
  EXPECT_EQ((*rows)[2].text, "unlabelled input");
}

TEST(PiiDatasetTest, ErrorsNameTheSourceAndLine) {
  struct Case {
    std::string content;
    std::string message;  // expected prefix of the error message
  };
  const Case cases[] = {
      {"{\"text\": \"ok\"}\nnot json\n", "data.jsonl:2: not valid JSON"},
      {"[1, 2]\n", "data.jsonl:1: a row must be a JSON object"},
      {"{\"spans\": []}\n", "data.jsonl:1: `text` must be a string"},
      {"{\"text\": 5}\n", "data.jsonl:1: `text` must be a string"},
      {"{\"text\": \"a\", \"spans\": {}}\n", "data.jsonl:1: `spans` must be an array"},
      {"{\"text\": \"a\", \"spans\": [7]}\n", "data.jsonl:1: spans[0]: must be an object"},
      {"{\"text\": \"abc\", \"spans\": [{\"type\": \"SSN\", \"start\": 0, \"end\": 1}]}\n",
       "data.jsonl:1: spans[0]: unknown type 'SSN'"},
      {"{\"text\": \"abc\", \"spans\": [{\"type\": \"PERSON\", \"start\": \"0\", \"end\": 1}]}\n",
       "data.jsonl:1: spans[0]: `start` and `end` must be integers"},
      {"{\"text\": \"abc\", \"spans\": [{\"type\": \"PERSON\", \"start\": 2, \"end\": 2}]}\n",
       "data.jsonl:1: spans[0]: needs 0 <= start < end"},
      {"{\"text\": \"abc\", \"spans\": [{\"type\": \"PERSON\", \"start\": -1, \"end\": 2}]}\n",
       "data.jsonl:1: spans[0]: needs 0 <= start < end"},
      {"\n\n{\"text\": \"abc\", \"spans\": [{\"type\": \"PERSON\", \"start\": 0, \"end\": 1}, "
       "{\"type\": \"PERSON\", \"start\": 1, \"end\": 4}]}\n",
       "data.jsonl:3: spans[1]: span [1, 4) is past the text's 3 characters"},
  };
  for (const Case& c : cases) {
    StatusOr<std::vector<PiiExample>> rows = parse_pii_jsonl(c.content, "data.jsonl");
    ASSERT_FALSE(rows.is_ok()) << c.content;
    EXPECT_EQ(rows.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(rows.status().message().rfind(c.message, 0), 0u) << rows.status().message();
  }
}

TEST(PiiDatasetTest, LoadsAFileAndReportsAMissingOne) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::string path = (dir / ("pii_dataset_test_" + std::to_string(::getpid()) + ".jsonl")).string();
  {
    std::ofstream out(path);
    out << "{\"text\": \"call 415-555-2671\", \"spans\": [{\"type\": \"PHONE_NUMBER\", \"start\": 5, \"end\": 17}]}\n"
        << "{\"text\": \"x\", \"spans\": [{\"type\": \"PHONE_NUMBER\", \"start\": 0}]}\n";
  }
  StatusOr<std::vector<PiiExample>> rows = load_pii_jsonl(path);
  ASSERT_FALSE(rows.is_ok());
  EXPECT_EQ(rows.status().message(), path + ":2: spans[0]: `start` and `end` must be integers");
  std::filesystem::remove(path);

  rows = load_pii_jsonl(path);
  ASSERT_FALSE(rows.is_ok());
  EXPECT_EQ(rows.status().code(), StatusCode::kNotFound);
  EXPECT_NE(rows.status().message().find(path), std::string::npos);
}

// As the labelled data writes its rows without capitals, at the same
// offsets: a letter whose small one is longer or shorter in UTF-8 stays,
// as do bytes that are no whole UTF-8 sequence.
TEST(PiiDatasetTest, SmallLettersKeepEveryOffset) {
  EXPECT_EQ(small_letters("Angela ŠVEC, ΠΥΡΓΑ, Άρης Ώρα, ПЁТР, Ÿves, ŁÓDŹ, ĐỘ Ơ"),
            "angela švec, πυργα, άρης ώρα, пётр, ÿves, łódź, độ ơ");
  EXPECT_EQ(small_letters("İzmir ẞ × 5"), "İzmir ẞ × 5");
  const std::string broken = "A\xc5 B\xe1\xbb";
  EXPECT_EQ(small_letters(broken), "a\xc5 b\xe1\xbb");
  EXPECT_EQ(small_letters("already small: élan, ölçü"), "already small: élan, ölçü");
}

// The converse, at the same offsets: each small letter whose capital
// small_letters() lowers becomes it; "ß", "ĸ" and other letters without
// one of as many bytes stay, as do broken sequences.
TEST(PiiDatasetTest, CapitalLettersKeepEveryOffset) {
  EXPECT_EQ(capital_letters("angela švec, πυργας, άρης ώρα, пётр, ÿves, łódź, độ ơ"),
            "ANGELA ŠVEC, ΠΥΡΓΑΣ, ΆΡΗΣ ΏΡΑ, ПЁТР, ŸVES, ŁÓDŹ, ĐỘ Ơ");
  EXPECT_EQ(capital_letters("straße ĸ ı × 5"), "STRAßE ĸ ı × 5");
  EXPECT_EQ(capital_letters("a\xc5 b\xe1\xbb"), "A\xc5 B\xe1\xbb");
  // (Not a final "ς", which comes back as "σ".)
  const std::string mixed = "Angela ŠVEC, Άρτα Ώρα, ПЁТР, Łódź, Độ";
  EXPECT_EQ(small_letters(capital_letters(mixed)), small_letters(mixed));
}

}  // namespace
}  // namespace tiergate
