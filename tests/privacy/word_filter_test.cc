// WordFilter (src/privacy/word_filter.h): every token that is a word of the
// set is found, by each path (AVX-512 VBMI, AVX2, one token at a time),
// wherever it lies among the tokens a vector reads and near the text's
// end; other tokens seldom.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "tagger_tokens.h"
#include "word_filter.h"

namespace tiergate::tagger_rules {
namespace {

constexpr std::array<std::string_view, 8> kWords = {"my", "name", "remind", "dr", "i'm", "i\u2019m", "congratulate", "heiße"};
constexpr WordFilter kFilter(kWords);
// Each path this CPU has is tested; the others are skipped.
constexpr std::array<WordFilter::Path, 4> kPaths = {WordFilter::Path::kFastest, WordFilter::Path::kAvx512Vbmi,
                                                    WordFilter::Path::kAvx2, WordFilter::Path::kOneAtATime};

// The indices of the tokens of `text` that are words of kWords, ASCII
// letters in any case, but the last token.
std::vector<uint32_t> words_in(std::string_view text, const pii_tokens::TokenList& tokens) {
  std::vector<uint32_t> out;
  for (size_t j = 0; j + 1 < tokens.size(); ++j) {
    std::string w(text.substr(tokens[j].begin, tokens[j].end - tokens[j].begin));
    for (char& c : w) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    for (const std::string_view word : kWords) {
      if (w == word) out.push_back(static_cast<uint32_t>(j));
    }
  }
  return out;
}

// Whether every index of `needles` is in `found`, which is in order.
bool finds_all(const pii_tokens::IndexList& found, const std::vector<uint32_t>& needles) {
  if (!std::is_sorted(found.begin(), found.end())) return false;
  for (const uint32_t j : needles) {
    if (!std::binary_search(found.begin(), found.end(), j)) return false;
  }
  return true;
}

TEST(WordFilterTest, FindsEveryWordOfTheSetWhereverItLies) {
  std::mt19937 random(7);
  const std::vector<std::string> vocabulary = {
      "the", "My", "NAME", "Remind", "DR", "I'm", "i\u2019m", "congratulate", "heiße", "mine", "names", "reminds", "d",
      "a", ",", ".", "\n", "12", "configuration", "wordsthatrunlongerthansixteenbytes", "x", "namely", "I", "ms", "é"};
  for (int round = 0; round < 400; ++round) {
    std::string text;
    const int words = 1 + static_cast<int>(random() % 90);
    for (int k = 0; k < words; ++k) {
      text += vocabulary[random() % vocabulary.size()];
      // One space mostly; now and then a long run of them, so that sixteen
      // tokens span more than the vector path's 128 bytes.
      text += random() % 12 == 0 ? std::string(1 + random() % 60, ' ') : " ";
    }
    if (random() % 2 == 0) text.pop_back();  // the last word at the text's very end
    pii_tokens::TokenList tokens;
    pii_tokens::IndexList marked, line_starts;
    pii_tokens::tokenize(text, tokens, marked, line_starts);
    const std::vector<uint32_t> expected = words_in(text, tokens);
    for (const WordFilter::Path path : kPaths) {
      if (!WordFilter::cpu_has(path)) continue;
      pii_tokens::IndexList found;
      kFilter.find(text, tokens, found, path);
      EXPECT_TRUE(finds_all(found, expected)) << static_cast<int>(path) << ": " << text;
      for (const uint32_t j : found) EXPECT_LT(j + 1, tokens.size());
    }
  }
}

TEST(WordFilterTest, FindsFewOtherTokens) {
  // Words of everyday text, none of the set: the share found stays small.
  const std::string text =
      "The quick brown fox jumps over the lazy dog while the committee reviews every proposal that arrived before "
      "the deadline, and then writes a summary of the findings for the board to read at its next meeting in the "
      "spring; nobody expects the report to change much, but everyone agrees it should be done carefully.";
  std::string repeated;
  for (int k = 0; k < 20; ++k) repeated += text + "\n";
  pii_tokens::TokenList tokens;
  pii_tokens::IndexList marked, line_starts;
  pii_tokens::tokenize(repeated, tokens, marked, line_starts);
  for (const WordFilter::Path path : kPaths) {
    if (!WordFilter::cpu_has(path)) continue;
    pii_tokens::IndexList found;
    kFilter.find(repeated, tokens, found, path);
    EXPECT_LT(found.size() * 10, tokens.size()) << static_cast<int>(path) << ": " << found.size() << " of " << tokens.size();
  }
}

TEST(WordFilterTest, ATextOfOneTokenOrNoneHasNone) {
  pii_tokens::TokenList tokens;
  pii_tokens::IndexList marked, line_starts, found;
  for (const std::string text : {"", "my", "  "}) {
    pii_tokens::tokenize(text, tokens, marked, line_starts);
    kFilter.find(text, tokens, found);
    EXPECT_TRUE(found.empty()) << text;
  }
}

}  // namespace
}  // namespace tiergate::tagger_rules
