// The bytes where a handle may join a person's words
// (src/privacy/handle_joins.h) against the plain byte-by-byte statement, on
// cut points around the vectors' widths and on random text.
#include "handle_joins.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace tiergate::pii_handles {
namespace {

std::vector<uint32_t> reference_joins(std::string_view text) {
  std::vector<uint32_t> out;
  auto small = [&](size_t i) { return i < text.size() && text[i] >= 'a' && text[i] <= 'z'; };
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '@' || ((text[i] == '.' || text[i] == '_') && i > 0 && small(i - 1) && small(i + 1))) {
      out.push_back(static_cast<uint32_t>(i));
    }
  }
  return out;
}

void expect_reference_joins(std::string_view text) {
  const std::vector<uint32_t> want = reference_joins(text);
  std::vector<uint32_t> got = {99};  // replaced, not appended to
  find_handle_joins(text, got);
  EXPECT_EQ(got, want) << "text of " << text.size() << " bytes";
  find_handle_joins_without_avx2(text, got);
  EXPECT_EQ(got, want) << "without AVX2, text of " << text.size() << " bytes";
  find_handle_joins_without_vectors(text, got);
  EXPECT_EQ(got, want) << "without vectors, text of " << text.size() << " bytes";
}

TEST(HandleJoinsTest, AtSignsAndStopsBetweenSmallLetters) {
  EXPECT_EQ(reference_joins("cc @priya and mirela.popescu: e.g. Mr.Smith 3.14 end. x@y"),
            (std::vector<uint32_t>{3, 20, 31, 55}));
  expect_reference_joins("cc @priya and mirela.popescu: e.g. Mr.Smith 3.14 end. x@y");
  EXPECT_EQ(reference_joins("dm from ezekiel_marsh: _x a_ A_b"), (std::vector<uint32_t>{15}));
  expect_reference_joins("dm from ezekiel_marsh: _x a_ A_b");
  expect_reference_joins("");
  expect_reference_joins(".");
  expect_reference_joins("@");
  expect_reference_joins("a.");
  expect_reference_joins(".a");
}

// A join at each offset around the widths (16, 32) and the text's end.
TEST(HandleJoinsTest, JoinsAcrossVectorEdges) {
  for (const std::string piece : {"a.b", "@b", "a.", ".b", "A.b", "a.B", "a@b", "a_b", "a_B", "_b"}) {
    for (size_t at = 0; at <= 70; ++at) {
      expect_reference_joins(std::string(at, 'x') + piece);
      expect_reference_joins(std::string(at, ' ') + piece + " tail of the text");
    }
  }
}

TEST(HandleJoinsTest, RandomTextMatchesTheRule) {
  const std::string alphabet = "ab.@_ Z9\xc3\xa9\n";
  std::mt19937 rng(11);
  for (int round = 0; round < 2000; ++round) {
    std::string text(rng() % 200, ' ');
    for (char& c : text) c = alphabet[rng() % alphabet.size()];
    expect_reference_joins(text);
  }
}

}  // namespace
}  // namespace tiergate::pii_handles
