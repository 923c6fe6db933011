// The tagger's tokenizer (src/privacy/tagger_tokens.h) against the plain
// byte-by-byte statement of its rules, on cut points around its 64-byte
// blocks and on random text.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "tagger_tokens.h"

namespace tiergate::pii_tokens {
namespace {

// Whether a small letter of Latin-1 (U+00DF-U+00FF but U+00F7), Greek
// (U+03AC-U+03CE) or Cyrillic (U+0430-U+045F) opens at byte i of p (n
// bytes): the letters in small case of two UTF-8 bytes.
// The small and the capital letters of the Latin Extended blocks the
// tokenizer knows the case of, by code point.
bool latin_extended_small(unsigned cp) {
  auto odd_in = [&](unsigned from, unsigned to) { return cp >= from && cp <= to && cp % 2 == 1; };
  auto even_in = [&](unsigned from, unsigned to) { return cp >= from && cp <= to && cp % 2 == 0; };
  return odd_in(0x100, 0x137) || cp == 0x138 || even_in(0x139, 0x148) || cp == 0x149 || odd_in(0x14a, 0x177) ||
         even_in(0x179, 0x17e) || cp == 0x17f || cp == 0x1a1 || cp == 0x1b0 || odd_in(0x1e00, 0x1e95) ||
         (cp >= 0x1e96 && cp <= 0x1e9d) || cp == 0x1e9f || odd_in(0x1ea0, 0x1eff);
}
bool latin_extended_capital(unsigned cp) {
  auto odd_in = [&](unsigned from, unsigned to) { return cp >= from && cp <= to && cp % 2 == 1; };
  auto even_in = [&](unsigned from, unsigned to) { return cp >= from && cp <= to && cp % 2 == 0; };
  return even_in(0x100, 0x137) || odd_in(0x139, 0x148) || even_in(0x14a, 0x177) || cp == 0x178 ||
         odd_in(0x179, 0x17e) || cp == 0x1a0 || cp == 0x1af || even_in(0x1e00, 0x1e95) || cp == 0x1e9e ||
         even_in(0x1ea0, 0x1eff);
}

// The code point of a whole sequence of two or three bytes at byte i of p
// (n bytes); 0 for anything else.
unsigned two_or_three_byte_code_point(const unsigned char* p, size_t n, size_t i) {
  if (i + 1 < n && (p[i] & 0xe0) == 0xc0 && (p[i + 1] & 0xc0) == 0x80) return (p[i] & 0x1fu) << 6 | (p[i + 1] & 0x3fu);
  if (i + 2 < n && (p[i] & 0xf0) == 0xe0 && (p[i + 1] & 0xc0) == 0x80 && (p[i + 2] & 0xc0) == 0x80) {
    return (p[i] & 0x0fu) << 12 | (p[i + 1] & 0x3fu) << 6 | (p[i + 2] & 0x3fu);
  }
  return 0;
}

bool small_letter_at(const unsigned char* p, size_t n, size_t i) {
  const unsigned cp = two_or_three_byte_code_point(p, n, i);
  return (cp >= 0xdf && cp <= 0xff && cp != 0xf7) || (cp >= 0x3ac && cp <= 0x3ce) || (cp >= 0x430 && cp <= 0x45f) ||
         latin_extended_small(cp);
}

// The length of the mark that opens at byte i of p (n bytes), by code
// point: general punctuation (U+2010-U+203F), a guillemet (U+00AB, U+00BB)
// or a no-break space (U+00A0); 0 when none does.
size_t mark_at(const unsigned char* p, size_t n, size_t i) {
  if (i + 1 < n && (p[i] & 0xe0) == 0xc0 && (p[i + 1] & 0xc0) == 0x80) {
    const unsigned cp = (p[i] & 0x1fu) << 6 | (p[i + 1] & 0x3fu);
    return cp == 0xab || cp == 0xbb || cp == 0xa0 ? 2 : 0;
  }
  if (i + 2 < n && (p[i] & 0xf0) == 0xe0 && (p[i + 1] & 0xc0) == 0x80 && (p[i + 2] & 0xc0) == 0x80) {
    const unsigned cp = (p[i] & 0x0fu) << 12 | (p[i + 1] & 0x3fu) << 6 | (p[i + 2] & 0x3fu);
    return cp >= 0x2010 && cp <= 0x203f ? 3 : 0;
  }
  return 0;
}

// Whether a code point opens at byte i of p (n bytes) that no word holds:
// U+2014, U+2015, U+2018-U+2027 but U+201A, U+2030, U+2031, U+2038-U+203E,
// U+00AB, U+00BB.
size_t separate_code_point_at(const unsigned char* p, size_t n, size_t i) {
  const unsigned cp = two_or_three_byte_code_point(p, n, i);
  if (cp == 0xab || cp == 0xbb) return p[i] < 0xe0 ? 2 : 0;
  const bool separate = cp == 0x2014 || cp == 0x2015 || (cp >= 0x2018 && cp <= 0x2027 && cp != 0x201a) ||
                        cp == 0x2030 || cp == 0x2031 || (cp >= 0x2038 && cp <= 0x203e);
  return separate && p[i] >= 0xe0 ? 3 : 0;
}

// The length of the token of such a code point at byte i, 0 where it is an
// opening quote mark (U+2018, U+201B, U+201C, U+201E, U+201F) after a word
// byte, or a right single quote (U+2019) with a word byte on either side,
// word bytes that no such code point holds.
size_t separate_at(const unsigned char* p, size_t n, size_t i) {
  const size_t length = separate_code_point_at(p, n, i);
  const unsigned cp = two_or_three_byte_code_point(p, n, i);
  const bool opening = cp == 0x2018 || cp == 0x201b || cp == 0x201c || cp == 0x201e || cp == 0x201f;
  if (length == 0 || (!opening && cp != 0x2019)) return length;
  const bool before = i > 0 && is_word_byte(p[i - 1]) && !(i >= 3 && separate_code_point_at(p, i, i - 3) == 3) &&
                      !(i >= 2 && separate_code_point_at(p, i, i - 2) == 2);
  if (opening) return before ? 0 : length;
  const bool after = i + 3 < n && is_word_byte(p[i + 3]) && separate_code_point_at(p, n, i + 3) == 0;
  return before && after ? 0 : length;
}

// Whether a token that opens with a byte >= 0x80 at i is unmarked: a small
// letter opens it, or marks before the text's end, a separate code point, a
// byte < 0x80 that is no capital nor digit, or a small letter.
bool unmarked_at(const unsigned char* p, size_t n, size_t i) {
  if (small_letter_at(p, n, i)) return true;
  size_t j = i;
  while (mark_at(p, n, j) != 0 && separate_at(p, n, j) == 0) j += mark_at(p, n, j);
  if (j == i) return false;
  if (j == n || separate_at(p, n, j) != 0) return true;
  if (p[j] < 0x80) return !((p[j] >= 'A' && p[j] <= 'Z') || (p[j] >= '0' && p[j] <= '9'));
  return small_letter_at(p, n, j);
}

// The rules, one byte at a time: a separate code point is a token of its
// own, never marked; a word runs over word bytes that no separate code
// point holds and over an apostrophe that stands between a word byte and a
// word byte; any other byte but white space is a token of its own.
std::vector<Token> reference_tokens(std::string_view text) {
  std::vector<Token> out;
  bool line_feed = false;
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  auto word_byte_at = [&](size_t j) { return is_word_byte(p[j]) && separate_at(p, n, j) == 0; };
  for (size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      line_feed = line_feed || c == '\n';
      ++i;
      continue;
    }
    if (const size_t separate = separate_at(p, n, i)) {
      out.push_back({static_cast<uint32_t>(i), static_cast<uint32_t>(i + separate), line_feed, false});
      line_feed = false;
      i += separate;
      continue;
    }
    size_t end = i + 1;
    if (is_word_byte(c)) {
      while (end < n && (word_byte_at(end) || (p[end] == '\'' && end + 1 < n && word_byte_at(end + 1)))) ++end;
    }
    const bool marked = (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || (c >= 0x80 && !unmarked_at(p, n, i));
    out.push_back({static_cast<uint32_t>(i), static_cast<uint32_t>(end), line_feed, marked});
    line_feed = false;
    i = end;
  }
  return out;
}

// A rule of the tokenizer on the bytes a sequence opens with against the
// test's statement of it by code point, over every two- and three-byte
// sequence.
void expect_rule_by_code_point(size_t (*rule)(const unsigned char*, size_t),
                               size_t (*by_code_point)(const unsigned char*, size_t, size_t)) {
  for (unsigned lead = 0xc0; lead < 0xf0; ++lead) {
    for (unsigned second = 0; second < 0x100; ++second) {
      for (unsigned third = 0; third < (lead < 0xe0 ? 1u : 0x100u); ++third) {
        const unsigned char s[3] = {static_cast<unsigned char>(lead), static_cast<unsigned char>(second),
                                    static_cast<unsigned char>(third)};
        const size_t n = lead < 0xe0 ? 2 : 3;
        ASSERT_EQ(rule(s, n), by_code_point(s, n, 0)) << std::hex << lead << " " << second << " " << third;
      }
    }
  }
}

std::string describe(std::string_view text, std::span<const Token> tokens) {
  std::string out;
  for (const Token& t : tokens) {
    out += std::string(t.newline_before ? "\\n" : "") + (t.marked ? "*[" : "[") + std::string(text.substr(t.begin, t.end - t.begin)) + "]" +
           std::to_string(t.begin) + " ";
  }
  return out;
}

void expect_same_tokens_of(bool (*tokenizer)(std::string_view, TokenList&, IndexList&, IndexList&), std::string_view text) {
  TokenList got;
  IndexList marked, line_starts;
  const bool beyond_ascii = tokenizer(text, got, marked, line_starts);
  EXPECT_EQ(beyond_ascii, std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; }))
      << "text of " << text.size() << " bytes";
  const std::vector<Token> want = reference_tokens(text);
  std::vector<uint32_t> want_marked, want_line_starts;
  for (size_t k = 0; k < want.size(); ++k) {
    if (want[k].marked) want_marked.push_back(static_cast<uint32_t>(k));
    if (want[k].newline_before) want_line_starts.push_back(static_cast<uint32_t>(k));
  }
  bool same = got.size() == want.size() && std::vector<uint32_t>(marked.begin(), marked.end()) == want_marked &&
              std::vector<uint32_t>(line_starts.begin(), line_starts.end()) == want_line_starts;
  for (size_t k = 0; same && k < got.size(); ++k) {
    same = got[k].begin == want[k].begin && got[k].end == want[k].end &&
           got[k].newline_before == want[k].newline_before && got[k].marked == want[k].marked;
  }
  EXPECT_TRUE(same) << "text of " << text.size() << " bytes\n got:  " << describe(text, got)
                    << "\n want: " << describe(text, want);
}

// tokenize() (with AVX-512 or AVX2 where this CPU has them) and the
// tokenizers of CPUs without them against the rules.
void expect_same_tokens(std::string_view text) {
  expect_same_tokens_of(static_cast<bool (*)(std::string_view, TokenList&, IndexList&, IndexList&)>(&tokenize), text);
  {
    SCOPED_TRACE("tokenize_without_avx512");
    expect_same_tokens_of(&tokenize_without_avx512, text);
  }
  {
    SCOPED_TRACE("tokenize_without_avx2");
    expect_same_tokens_of(&tokenize_without_avx2, text);
  }
}

TEST(TaggerTokensTest, WordsMarksApostrophesAndLineBreaks) {
  const std::string_view text = "O'Brien's  car,\n\tdon't 'quote' 42kg\r\n\xc3\xa9t\xc3\xa9!";
  TokenList tokens;
  IndexList marked;
  tokenize(text, tokens, marked);
  // O'Brien's | car | , | don't | ' | quote | ' | 42kg | été | !
  ASSERT_EQ(tokens.size(), 10u) << describe(text, tokens);
  expect_same_tokens(text);
  EXPECT_EQ(tokens[0].end - tokens[0].begin, 9u);  // O'Brien's
  EXPECT_TRUE(tokens[3].newline_before);           // don't
  EXPECT_EQ(std::vector<uint32_t>(marked.begin(), marked.end()), (std::vector<uint32_t>{0, 7}));  // O'Brien's, 42kg
  expect_same_tokens("");
  expect_same_tokens("   \n\n  ");
  expect_same_tokens("'");
  expect_same_tokens("a'");
  expect_same_tokens("'a");
  expect_same_tokens("a''b");
  expect_same_tokens(std::string("a\0b", 3));
}

// A word is marked by a capital, a digit or a letter of another script
// than Latin, Greek or Cyrillic; not by a small letter, whichever of those
// (Latin Extended ones too: "łódź", "đường").
TEST(TaggerTokensTest, SmallLettersOfTwoBytesMarkNoWord) {
  const std::string_view text =
      "\xc3\xa9t\xc3\xa9 \xc3\x89t\xc3\xa9 \xd0\xb3\xd0\xbe\xd1\x80\xd0\xbe\xd0\xb4 \xd0\x93\xd0\xbe\xd1\x80\xd0\xbe\xd0\xb4 "
      "\xce\xb1\xce\xb8\xce\xae\xce\xbd\xce\xb1 \xce\x91\xce\xb8\xce\xae\xce\xbd\xce\xb1 \xe6\x9d\xb1\xe4\xba\xac "
      "\xc3\x9f \xc3\xb7x \xc5\x82\xc3\xb3" "d\xc5\xba \xd1\x9f \xd1\xa0 \xc3 "
      "\xc4\x91\xc6\xb0\xe1\xbb\x9dng \xc4\x90\xc3\xa0 \xe1\xbb\x99 \xe1\xbb\x98";
  // été | Été | город | Город | αθήνα | Αθήνα | 東京 | ß | ÷x | łódź | џ | Ѡ | a lone lead byte | đường | Đà | ộ | Ộ
  TokenList tokens;
  IndexList marked;
  tokenize(text, tokens, marked);
  ASSERT_EQ(tokens.size(), 17u) << describe(text, tokens);
  EXPECT_EQ(std::vector<uint32_t>(marked.begin(), marked.end()), (std::vector<uint32_t>{1, 3, 5, 6, 8, 11, 12, 14, 16}));
  expect_same_tokens(text);
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  for (size_t i = 0; i < text.size(); ++i) {
    EXPECT_EQ(opens_with_a_small_letter(bytes + i, text.size() - i), small_letter_at(bytes, text.size(), i)) << "byte " << i;
  }
  // Every two-byte sequence, and every three-byte one of U+1000-U+1FFF,
  // against the code points of the rule.
  for (unsigned lead = 0xc0; lead < 0xe0; ++lead) {
    for (unsigned next = 0; next < 0x100; ++next) {
      const unsigned char pair[2] = {static_cast<unsigned char>(lead), static_cast<unsigned char>(next)};
      EXPECT_EQ(opens_with_a_small_letter(pair, 2), small_letter_at(pair, 2, 0)) << std::hex << lead << " " << next;
    }
  }
  for (unsigned second = 0; second < 0x100; ++second) {
    for (unsigned third = 0; third < 0x100; ++third) {
      const unsigned char s[3] = {0xe1, static_cast<unsigned char>(second), static_cast<unsigned char>(third)};
      ASSERT_EQ(opens_with_a_small_letter(s, 3), small_letter_at(s, 3, 0)) << std::hex << second << " " << third;
      ASSERT_FALSE(opens_with_a_small_letter(s, 2));
    }
  }
}

// A mark that the tokenizer counts into the word it touches (a dash that
// joins words, a no-break space) marks the token only before a capital, a
// digit or another letter that is no small one; a mark that is a token of
// its own (quote marks, an em dash, guillemets) is never marked:
// "“acting”" is no more marked than "acting".
TEST(TaggerTokensTest, MarksBeforeSmallLettersMarkNoWord) {
  const std::string_view text =
      "\xe2\x80\x9c" "acting\xe2\x80\x9d \xe2\x80\x9c" "Remote \xe2\x80\x9d \xe2\x80\x94" "1984 "
      "\xc2\xab\xc3\x89ric\xc2\xbb \xc2\xa0\xc2\xa0" "x \xe2\x80\x98\xc3\xa9t\xc3\xa9 \xe2\x84\xa2 "
      "\xe2\x80\x94\xc2\xa0Paris \xe2\x80\x93" "acting \xe2\x80\x93" "Remote";
  // “ | acting | ” | “ | Remote | ” | — | 1984 | « | Éric | » | (two no-break
  // spaces)x | ‘ | été | ™ | — | (no-break space)Paris | –acting | –Remote
  TokenList tokens;
  IndexList marked;
  tokenize(text, tokens, marked);
  ASSERT_EQ(tokens.size(), 19u) << describe(text, tokens);
  EXPECT_EQ(std::vector<uint32_t>(marked.begin(), marked.end()), (std::vector<uint32_t>{4, 7, 9, 14, 16, 18}))
      << describe(text, tokens);
  expect_same_tokens(text);
  expect_rule_by_code_point(mark_length, mark_at);
}

// Dashes, quote marks, an ellipsis and guillemets that prose glues to words
// are tokens of their own, so that a name next to one is a word of its own
// ("the winner—Maria Lopez—was"); a right single quote between letters
// stays in its word as an apostrophe does, and the hyphens and en dash
// that join words stay in them.
TEST(TaggerTokensTest, GluedPunctuationIsATokenOfItsOwn) {
  auto words = [](std::string_view text) {
    TokenList tokens;
    IndexList marked;
    tokenize(text, tokens, marked);
    std::vector<std::string> out;
    for (const Token& t : tokens) out.emplace_back(text.substr(t.begin, t.end - t.begin));
    return out;
  };
  using Words = std::vector<std::string>;
  EXPECT_EQ(words("winner\xe2\x80\x94Maria Lopez\xe2\x80\x94was"),
            (Words{"winner", "\xe2\x80\x94", "Maria", "Lopez", "\xe2\x80\x94", "was"}));
  EXPECT_EQ(words("\xe2\x80\x9cMaria\xe2\x80\x9d said\xe2\x80\xa6"),
            (Words{"\xe2\x80\x9c", "Maria", "\xe2\x80\x9d", "said", "\xe2\x80\xa6"}));
  EXPECT_EQ(words("Lopez\xe2\x80\x99s don\xe2\x80\x99t"), (Words{"Lopez\xe2\x80\x99s", "don\xe2\x80\x99t"}));
  EXPECT_EQ(words("students\xe2\x80\x99 \xe2\x80\x99tis"),
            (Words{"students", "\xe2\x80\x99", "\xe2\x80\x99", "tis"}));
  EXPECT_EQ(words("a\xe2\x80\x99\xe2\x80\x99s"), (Words{"a", "\xe2\x80\x99", "\xe2\x80\x99", "s"}));
  EXPECT_EQ(words("\xc2\xab\xc3\x89ric\xc2\xbb"), (Words{"\xc2\xab", "\xc3\x89ric", "\xc2\xbb"}));
  // An opening quote mark after a letter: a letter's mark in Uzbek, or bytes
  // decoded in the wrong character set.
  EXPECT_EQ(words("Mo\xe2\x80\x98min \xd7\x92\xe2\x82\xac\xe2\x80\x9c sadly"),
            (Words{"Mo\xe2\x80\x98min", "\xd7\x92\xe2\x82\xac\xe2\x80\x9c", "sadly"}));
  EXPECT_EQ(words("Jean\xe2\x80\x90Pierre Lopez\xe2\x80\x93Garcia"),
            (Words{"Jean\xe2\x80\x90Pierre", "Lopez\xe2\x80\x93Garcia"}));
  expect_same_tokens("winner\xe2\x80\x94Maria \xe2\x80\x94\xe2\x80\x99s x\xe2\x80\x99\xe2\x80\x94");
  expect_rule_by_code_point(separate_mark_length, separate_code_point_at);
}

// The capitals of Latin-1, Greek, Cyrillic and the Latin Extended blocks,
// by code point, over every two-byte sequence and every three-byte one of
// U+1000-U+1FFF: none of them a small letter.
TEST(TaggerTokensTest, CapitalsOfLatin1GreekAndCyrillic) {
  for (unsigned lead = 0xc0; lead < 0xe0; ++lead) {
    for (unsigned next = 0; next < 0x100; ++next) {
      const unsigned char pair[2] = {static_cast<unsigned char>(lead), static_cast<unsigned char>(next)};
      const unsigned cp = (lead & 0x1f) << 6 | (next & 0x3f);
      const bool capital = (next & 0xc0) == 0x80 && ((cp >= 0xc0 && cp <= 0xde && cp != 0xd7) ||
                                                      (cp >= 0x391 && cp <= 0x3a9) || (cp >= 0x400 && cp <= 0x42f) ||
                                                      latin_extended_capital(cp));
      EXPECT_EQ(opens_with_a_capital_letter(pair, 2), capital) << std::hex << lead << " " << next;
      EXPECT_FALSE(opens_with_a_capital_letter(pair, 2) && opens_with_a_small_letter(pair, 2));
      EXPECT_FALSE(opens_with_a_capital_letter(pair, 1));
    }
  }
  for (unsigned second = 0; second < 0x100; ++second) {
    for (unsigned third = 0; third < 0x100; ++third) {
      const unsigned char s[3] = {0xe1, static_cast<unsigned char>(second), static_cast<unsigned char>(third)};
      const unsigned cp = two_or_three_byte_code_point(s, 3, 0);
      ASSERT_EQ(opens_with_a_capital_letter(s, 3), latin_extended_capital(cp)) << std::hex << second << " " << third;
      ASSERT_FALSE(opens_with_a_capital_letter(s, 3) && opens_with_a_small_letter(s, 3));
      ASSERT_FALSE(opens_with_a_capital_letter(s, 2));
    }
  }
}

// The letters of scripts without capitals and the signs written with
// them, by code point: every sequence of two bytes that opens with
// 0xc0-0xdf, of three that opens with 0xe0-0xef, and the same cut short.
TEST(TaggerTokensTest, CaselessLettersAreThoseOfScriptsWithoutCapitals) {
  auto caseless = [](unsigned cp) {
    return (cp >= 0x5d0 && cp <= 0x5f4) || (cp >= 0x620 && cp <= 0x64a) || (cp >= 0x66e && cp <= 0x6d3) ||
           cp == 0x6d5 || (cp >= 0x6fa && cp <= 0x6ff) || (cp >= 0x900 && cp <= 0xeff) ||
           (cp >= 0x3000 && cp <= 0x30ff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff) ||
           (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xff01 && cp <= 0xff0f) || (cp >= 0xff1a && cp <= 0xff20) ||
           (cp >= 0xff3b && cp <= 0xff40) || (cp >= 0xff5b && cp <= 0xff65);
  };
  for (unsigned lead = 0xc0; lead < 0xe0; ++lead) {
    for (unsigned second = 0; second < 0x100; ++second) {
      const unsigned char bytes[2] = {static_cast<unsigned char>(lead), static_cast<unsigned char>(second)};
      const unsigned cp = (lead & 0x1fu) << 6 | (second & 0x3fu);
      ASSERT_EQ(opens_with_a_caseless_letter(bytes, 2), (second & 0xc0) == 0x80 && caseless(cp)) << std::hex << lead << " " << second;
      ASSERT_FALSE(opens_with_a_caseless_letter(bytes, 1));
    }
  }
  for (unsigned lead = 0xe0; lead < 0xf0; ++lead) {
    for (unsigned second = 0; second < 0x100; ++second) {
      for (unsigned third = 0; third < 0x100; ++third) {
        const unsigned char bytes[3] = {static_cast<unsigned char>(lead), static_cast<unsigned char>(second),
                                        static_cast<unsigned char>(third)};
        const bool whole = (second & 0xc0) == 0x80 && (third & 0xc0) == 0x80;
        const unsigned cp = (lead & 0x0fu) << 12 | (second & 0x3fu) << 6 | (third & 0x3fu);
        // (Below U+0800 three bytes are an overlong form, no letter.)
        ASSERT_EQ(opens_with_a_caseless_letter(bytes, 3), whole && cp >= 0x800 && caseless(cp))
            << std::hex << lead << " " << second << " " << third;
        ASSERT_FALSE(opens_with_a_caseless_letter(bytes, 2));
      }
    }
  }
  const std::string_view ascii = "abc";
  EXPECT_FALSE(opens_with_a_caseless_letter(reinterpret_cast<const unsigned char*>(ascii.data()), ascii.size()));
  // Anywhere in a word: after a mark, digits or a letter; not cut short.
  auto holds = [](std::string_view word) {
    return holds_a_caseless_letter(reinterpret_cast<const unsigned char*>(word.data()), word.size());
  };
  EXPECT_TRUE(holds("\u6771\u4eac"));
  EXPECT_TRUE(holds("\u201c\u6771\u4eac"));
  EXPECT_TRUE(holds("2024\u5e74"));
  EXPECT_TRUE(holds("Q\u65b9\u6cd5"));
  EXPECT_TRUE(holds("\u05e9\u05dc\u05d5\u05dd"));        // Hebrew
  EXPECT_TRUE(holds("\u201c\u0634\u0639\u0631"));        // Arabic, after a quote mark
  EXPECT_TRUE(holds("\u0928\u092e\u0938\u094d\u0924\u0947"));  // Devanagari
  EXPECT_TRUE(holds("\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35"));  // Thai
  EXPECT_FALSE(holds("\u0417\u0434\u0440\u0430\u0432"));        // Cyrillic has capitals
  EXPECT_FALSE(holds("\u00c9tat"));
  EXPECT_FALSE(holds("Q\u201c"));
  EXPECT_FALSE(holds("abc"));
  EXPECT_FALSE(holds(std::string_view("Q\u65b9").substr(0, 3)));
}

// Every cut of a word, an apostrophe, a mark and a line break against the
// block edges at 64 and 128 bytes.
TEST(TaggerTokensTest, TokensAcrossBlockEdges) {
  for (const std::string piece : {"don't", "''", "word", "x'y'z", ".", "\n", "a\n'b", "\xe2\x82\xac", "\xd0\xb1", " \xd0\xb1",
                                  "\xe2\x80\x94", "\xe2\x80\x99s", "'\xe2\x80\x9c", "\xc2\xab", "\xe2\x80\x94'a", "x\xe2\x80\x9c"}) {
    for (size_t at = 55; at <= 135; ++at) {
      std::string text(at, 'a');
      text[at / 2] = ' ';
      text += piece;
      expect_same_tokens(text);
      expect_same_tokens(text + " tail");
      std::string spaced(at, ' ');
      expect_same_tokens(spaced + piece + "b");
    }
  }
  expect_same_tokens(std::string(64, 'a'));
  expect_same_tokens(std::string(200, 'a') + "'s");
  expect_same_tokens(std::string(63, 'a') + "'" + std::string(70, 'b'));
  expect_same_tokens(std::string(64, '\n') + "x");
}

TEST(TaggerTokensTest, RandomTextMatchesTheRules) {
  const std::string alphabet = std::string("aZ9'' \n\t\r.,-@[`{") + "\x80\xff\xc3\xce\xcf\xd0\xd1\x9f\xb0\xb7" +
                               "\xe2\xc2\x9c\xab\xa0\x94\x98\x99\xbb" + std::string(1, '\0');
  std::mt19937 rng(7);
  for (int round = 0; round < 3000; ++round) {
    std::string text(rng() % 300, ' ');
    for (char& c : text) c = alphabet[rng() % alphabet.size()];
    expect_same_tokens(text);
  }
}

}  // namespace
}  // namespace tiergate::pii_tokens
