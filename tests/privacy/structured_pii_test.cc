// The structured detectors: the case table in structured_cases.json (one row
// per behaviour, positive and negative), then what a table cannot say well:
// byte offsets in non-ASCII text, the output contract, overlaps, bad input.
#include "tiergate/privacy/structured_pii.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>

namespace tiergate {
namespace {

using nlohmann::json;

}  // namespace

// Readable failures: "EMAIL_ADDRESS [9, 25)".
void PrintTo(const PiiSpan& s, std::ostream* os) {
  *os << pii_type_name(s.type) << " [" << s.begin << ", " << s.end << ")";
}

namespace {

json load_cases() {
  std::ifstream in(TIERGATE_SOURCE_DIR "/tests/privacy/structured_cases.json");
  EXPECT_TRUE(in.good()) << "tests/privacy/structured_cases.json is missing";
  return json::parse(in);
}

std::string describe(std::string_view text, const std::vector<PiiSpan>& spans) {
  std::ostringstream out;
  for (const PiiSpan& s : spans) {
    out << "  " << pii_type_name(s.type) << " [" << s.begin << ", " << s.end << ") '"
        << text.substr(s.begin, s.size()) << "'\n";
  }
  return out.str();
}

std::vector<PiiSpan> scan(std::string_view text) {
  std::vector<PiiSpan> out;
  find_structured_pii(text, out);
  return out;
}

TEST(StructuredPiiTest, CaseTable) {
  const json doc = load_cases();
  ASSERT_GE(doc.at("cases").size(), 50u);
  for (const json& c : doc.at("cases")) {
    const std::string name = c.at("name");
    const std::string text = c.at("text");
    SCOPED_TRACE(name);
    std::vector<PiiSpan> want;
    for (const json& e : c.at("expect")) {
      const std::optional<PiiType> type = parse_pii_type(e.at("type").get<std::string>());
      ASSERT_TRUE(type) << "unknown type in the table: " << e.at("type");
      const std::string value = e.at("text");
      size_t at = text.find(value);
      for (int k = 0; k < e.value("occurrence", 0) && at != std::string::npos; ++k) at = text.find(value, at + 1);
      ASSERT_NE(at, std::string::npos) << "'" << value << "' is not in the case's text";
      want.push_back({*type, static_cast<uint32_t>(at), static_cast<uint32_t>(at + value.size())});
    }
    const std::vector<PiiSpan> got = scan(text);
    EXPECT_EQ(got, want) << "text: " << text << "\ngot:\n" << describe(text, got) << "want:\n" << describe(text, want);
  }
}

TEST(StructuredPiiTest, TypeNamesRoundTrip) {
  for (PiiType t : kAllPiiTypes) {
    const std::optional<PiiType> back = parse_pii_type(pii_type_name(t));
    ASSERT_TRUE(back) << pii_type_name(t);
    EXPECT_EQ(*back, t);
  }
  EXPECT_EQ(pii_type_name(PiiType::kUsSsn), "US_SSN");
  EXPECT_EQ(pii_type_name(PiiType::kNrp), "NRP");
  EXPECT_FALSE(parse_pii_type("us_ssn"));  // exact names only
  EXPECT_FALSE(parse_pii_type(""));
  EXPECT_FALSE(parse_pii_type("SSN"));
}

TEST(StructuredPiiTest, OffsetsAreBytesInNonAsciiText) {
  // "Zoë" and "→" take 2 and 3 bytes: spans count bytes, not characters.
  const std::string text = "Zoë → jane@example.com, carte 4111 1111 1111 1111 à Zürich";
  const std::vector<PiiSpan> got = scan(text);
  ASSERT_EQ(got.size(), 2u) << describe(text, got);
  EXPECT_EQ(got[0], (PiiSpan{PiiType::kEmailAddress, 9, 25}));
  EXPECT_EQ(text.substr(got[0].begin, got[0].size()), "jane@example.com");
  EXPECT_EQ(got[1].type, PiiType::kCreditCard);
  EXPECT_EQ(text.substr(got[1].begin, got[1].size()), "4111 1111 1111 1111");
}

TEST(StructuredPiiTest, AppendsSortedAndLeavesEarlierSpansAlone) {
  std::vector<PiiSpan> out = {{PiiType::kPerson, 0, 4}};
  find_structured_pii("mail bob@example.com or call 415-555-2671 on 2019-01-04", out);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0], (PiiSpan{PiiType::kPerson, 0, 4}));
  EXPECT_EQ(out[1].type, PiiType::kEmailAddress);
  EXPECT_EQ(out[2].type, PiiType::kPhoneNumber);
  EXPECT_EQ(out[3].type, PiiType::kDateTime);
  for (size_t k = 2; k < out.size(); ++k) EXPECT_LE(out[k - 1].end, out[k].begin);
}

TEST(StructuredPiiTest, OverlapsKeepTheMoreSpecificType) {
  // A card is also a digit group a phone matcher could take; the card wins.
  std::vector<PiiSpan> got = scan("call 4111 1111 1111 1111");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].type, PiiType::kCreditCard);
  // An email contains a host; the email wins.
  got = scan("mail bob@example.com");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].type, PiiType::kEmailAddress);
  // A key=value password that looks like an email stays a password.
  got = scan("password=bob@example.com");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].type, PiiType::kPassword);
}

TEST(StructuredPiiTest, ResolveOverlapsByRankThenLength) {
  std::vector<PiiSpan> spans = {
      {PiiType::kPerson, 0, 10},        // keeps what comes before the card it overlaps
      {PiiType::kCreditCard, 5, 21},
      {PiiType::kOrganization, 20, 24},  // begins inside the card: goes
      {PiiType::kLocation, 30, 40},     // loses to the longer address
      {PiiType::kStreetAddress, 25, 50},
      {PiiType::kDateTime, 60, 70},
      {PiiType::kDateTime, 60, 70},     // a duplicate is kept once
      {PiiType::kPhoneNumber, 65, 80},  // loses to the date (higher rank)
  };
  resolve_pii_overlaps(spans);
  const std::vector<PiiSpan> want = {
      {PiiType::kPerson, 0, 5}, {PiiType::kCreditCard, 5, 21}, {PiiType::kStreetAddress, 25, 50},
      {PiiType::kDateTime, 60, 70}};
  EXPECT_EQ(spans, want);
  EXPECT_GT(pii_type_rank(PiiType::kPrivateKey), pii_type_rank(PiiType::kCreditCard));
  EXPECT_GT(pii_type_rank(PiiType::kDateTime), pii_type_rank(PiiType::kPhoneNumber));
  EXPECT_GT(pii_type_rank(PiiType::kDomainName), pii_type_rank(PiiType::kPerson));
}

TEST(StructuredPiiTest, ResolveManyOverlappingSpans) {
  // Past the pairwise limit: a chain of 1000 overlapping phone spans keeps
  // every other one.
  std::vector<PiiSpan> spans;
  for (uint32_t k = 0; k < 1000; ++k) spans.push_back({PiiType::kPhoneNumber, 10 * k, 10 * k + 15});
  resolve_pii_overlaps(spans);
  ASSERT_EQ(spans.size(), 500u);
  for (size_t k = 1; k < spans.size(); ++k) EXPECT_LE(spans[k - 1].end, spans[k].begin);
}

TEST(StructuredPiiTest, EmptyAndTinyTexts) {
  EXPECT_TRUE(scan("").empty());
  EXPECT_TRUE(scan("@").empty());
  EXPECT_TRUE(scan("-----").empty());
  EXPECT_TRUE(scan("::").empty());
  EXPECT_TRUE(scan("1").empty());
  EXPECT_TRUE(scan("+").empty());
  EXPECT_TRUE(scan("day").empty());
}

TEST(StructuredPiiTest, InvalidUtf8AndControlBytes) {
  // Invalid bytes separate like blanks; nothing reads past the text.
  const std::string text = std::string("\xff\xfe card 4111111111111111\xc3 \x80 mail a@example.com\0 x", 46);
  const std::vector<PiiSpan> got = scan(text);
  ASSERT_EQ(got.size(), 2u) << describe(text, got);
  EXPECT_EQ(got[0].type, PiiType::kCreditCard);
  EXPECT_EQ(got[1].type, PiiType::kEmailAddress);
}

TEST(StructuredPiiTest, EveryPrefixOfATextScansSafely) {
  // Matchers look ahead; cutting the text anywhere must not read past it
  // (the sanitizer build checks the reads).
  const std::string text =
      "Call +1 (415) 555-2671 x12, mail a.b@example.co.uk, IBAN GB82 WEST 1234 5698 7654 32, "
      "card 4111 1111 1111 1111, ip fe80::1ff:fe23:4567:890a, 2019-01-04T10:30:00Z, "
      "-----BEGIN EC PRIVATE KEY-----\nabc\n-----END EC PRIVATE KEY-----, password=\"x1\", "
      "I am Catholic, a 45-year-old, aged 7, zip code 94103-1234, Apt. 217, P.O. Box 101, a Mexican woman";
  for (size_t n = 0; n <= text.size(); ++n) {
    const std::string prefix = text.substr(0, n);
    for (const PiiSpan& s : scan(prefix)) ASSERT_LE(s.end, n);
  }
}

TEST(StructuredPiiTest, RandomTextKeepsTheOutputContract) {
  // Random text over the bytes the matchers care about (digits, marks, hex
  // letters, keywords' letters, blanks, UTF-8): spans stay inside the text,
  // sorted and disjoint. The sanitizer build checks every read.
  static const std::string kAlphabet =
      "0123456789abcdefxyADEFKLPSY .,:;-+=_@()/#$%&'\"\n\t\xc3\xa9\xe2\x82\xac\xff";
  std::mt19937 rng(5);
  std::uniform_int_distribution<size_t> pick(0, kAlphabet.size() - 1);
  std::uniform_int_distribution<size_t> length(0, 300);
  for (int round = 0; round < 3000; ++round) {
    std::string text(length(rng), ' ');
    for (char& c : text) c = kAlphabet[pick(rng)];
    const std::vector<PiiSpan> got = scan(text);
    for (size_t k = 0; k < got.size(); ++k) {
      ASSERT_LT(got[k].begin, got[k].end);
      ASSERT_LE(got[k].end, text.size());
      if (k > 0) {
        ASSERT_LE(got[k - 1].end, got[k].begin);
      }
    }
  }
}

TEST(StructuredPiiTest, RandomWordsKeepTheOutputContract) {
  // Random sentences of the words the context matchers read (ages, ZIP codes,
  // address units, groups, birthdays), in any case, with numbers and marks
  // between.
  static const std::vector<std::string> kWords = {
      "age", "aged", "of", "is", "years", "year-old", "old", "y/o", "zip", "code", "postal", "apt", "Apt.",
      "suite", "#", "P.O.", "po", "box", "Box", "am", "I'm", "a", "proud", "Catholic", "muslim", "MEXICAN",
      "woman", "descent", "people", "the", "French", "45", "94103", "94103-1234", "7", "130", "12345", ".",
      ",", ":", "-", "\n", "\xc3\xa9", "\xff", "turned", "father", "she's", "in", "near", "last", "21st",
      "birthday", "African", "voters", "nanny"};
  std::mt19937 rng(9);
  std::uniform_int_distribution<size_t> pick(0, kWords.size() - 1);
  std::uniform_int_distribution<size_t> length(0, 60);
  std::uniform_int_distribution<int> coin(0, 3);
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    for (size_t w = length(rng); w > 0; --w) {
      text += kWords[pick(rng)];
      if (coin(rng) != 0) text += ' ';
    }
    const std::vector<PiiSpan> got = scan(text);
    for (size_t k = 0; k < got.size(); ++k) {
      ASSERT_LT(got[k].begin, got[k].end) << text;
      ASSERT_LE(got[k].end, text.size()) << text;
      if (k > 0) {
        ASSERT_LE(got[k - 1].end, got[k].begin) << text;
      }
    }
  }
}

TEST(StructuredPiiTest, GroupWordsAtEveryOffsetOfTheBlocks) {
  // The group detector reads letters and capitals 64 bytes at a time (with
  // AVX-512 where the CPU has it, from a copy for a text's last block): a
  // mention found at every cut against the block edges, with words from
  // both ends of the alphabet, in text with and without capitals.
  for (const auto& [mention, group] : std::vector<std::pair<std::string, std::string>>{
           {"we're Zionists", "Zionists"}, {"she is Albanian", "Albanian"}, {"i am zoroastrian", "zoroastrian"}}) {
    const bool capitals = group[0] >= 'A' && group[0] <= 'Z';
    for (size_t at = 0; at <= 140; ++at) {
      std::string text(at, ' ');
      for (size_t k = 0; k + 1 < at; k += 2) text[k] = capitals && k == 0 ? 'A' : 'a';
      text += mention;
      for (const std::string& tail : {std::string(), std::string(" and so on, for many more words of text.")}) {
        const std::vector<PiiSpan> got = scan(text + tail);
        const size_t begin = text.size() - group.size();
        const bool found = std::any_of(got.begin(), got.end(), [&](const PiiSpan& sp) {
          return sp.type == PiiType::kNrp && sp.begin == begin && sp.end == text.size();
        });
        EXPECT_TRUE(found) << "'" << text + tail << "'";
      }
    }
  }
}

TEST(StructuredPiiTest, LongWorstCaseInputsKeepTheOutputContract) {
  // 1 MB single-line prompts of the worst kinds: digits, separators, dots,
  // dashes, a BEGIN line without its END. A quadratic matcher would take
  // minutes (ctest's limit fails it); their speed is measured by
  // bench/pii_scan_bench (structured_scan/worst_case_1mb), not here.
  const std::vector<std::string> inputs = {
      std::string(1 << 20, '1'),
      [] { std::string s; while (s.size() < (1 << 20)) s += "1 "; return s; }(),
      [] { std::string s; while (s.size() < (1 << 20)) s += "12-"; return s; }(),
      [] { std::string s; while (s.size() < (1 << 20)) s += "a."; return s; }(),
      [] { std::string s; while (s.size() < (1 << 20)) s += "ab1"; return s; }(),
      [] { std::string s; while (s.size() < (1 << 20)) s += "x@"; return s; }(),
      [] { std::string s; while (s.size() < (1 << 20)) s += "-----BEGIN RSA PRIVATE KEY-----\n"; return s; }(),
      std::string(1 << 20, ':'),
  };
  for (const std::string& text : inputs) {
    std::vector<PiiSpan> out;
    find_structured_pii(text, out);
    for (size_t k = 1; k < out.size(); ++k) ASSERT_LE(out[k - 1].end, out[k].begin);
  }
}

TEST(StructuredPiiTest, RandomTokensAreSecretsAndCitationKeysAreNot) {
  // Random base62 and lower-case tokens of 32 bytes, as API keys and session
  // tokens are: at least 97% must be found (the rules trade a few random
  // strings that look like words for precision on identifiers).
  std::mt19937 rng(3);
  for (const std::string& alphabet :
       {std::string("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
        std::string("abcdefghijklmnopqrstuvwxyz0123456789")}) {
    std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1);
    int found = 0;
    for (int k = 0; k < 300; ++k) {
      std::string token(32, ' ');
      for (char& c : token) c = alphabet[pick(rng)];
      const std::vector<PiiSpan> got = scan("the session is " + token + " for now");
      found += got.size() == 1 && got[0].type == PiiType::kApiKey && got[0].size() == 32;
    }
    EXPECT_GE(found, 291) << alphabet;
  }
  EXPECT_TRUE(scan("see schulman2017proximal and bradley1952rankanalysis, max_tokens_2048_default").empty());
}

TEST(StructuredPiiTest, LowerCasedTextFindsTheSame) {
  const std::string text =
      "Mail Jane.Doe@Example.COM, IBAN GB82WEST12345698765432, key AKIAIOSFODNN7EXAMPLE, on Monday, March 3rd, 1990";
  std::string lower = text;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::vector<PiiSpan> a = scan(text), b = scan(lower);
  ASSERT_EQ(a.size(), 4u) << describe(text, a);
  EXPECT_EQ(a, b) << describe(lower, b);
}

}  // namespace
}  // namespace tiergate
