#include "tiergate/privacy/redaction.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace tiergate {
namespace {

// Spans of `needle` in `text` (every occurrence), of one type.
std::vector<RedactionSpan> spans_of(std::string_view text, std::string_view needle, std::string_view type) {
  std::vector<RedactionSpan> out;
  for (size_t at = text.find(needle); at != std::string_view::npos; at = text.find(needle, at + 1)) {
    out.push_back({type, at, at + needle.size()});
  }
  return out;
}

TEST(RedactionTest, ValuesBecomeNumberedPlaceholdersPerType) {
  RedactionMap map;
  const std::string text = "Mail ana@example.org or call Ana Lima at +44 20 7946 0958.";
  std::vector<RedactionSpan> spans = spans_of(text, "ana@example.org", "EMAIL_ADDRESS");
  for (const RedactionSpan& s : spans_of(text, "Ana Lima", "PERSON")) spans.push_back(s);
  for (const RedactionSpan& s : spans_of(text, "+44 20 7946 0958", "PHONE_NUMBER")) spans.push_back(s);
  EXPECT_EQ(map.redact(text, spans), "Mail [EMAIL_ADDRESS_1] or call [PERSON_1] at [PHONE_NUMBER_1].");
  EXPECT_EQ(map.size(), 3u);
  EXPECT_EQ(map.types(), (std::vector<std::string>{"EMAIL_ADDRESS", "PERSON", "PHONE_NUMBER"}));
  EXPECT_EQ(map.restore("Dear [PERSON_1], we will reply to [EMAIL_ADDRESS_1]."),
            "Dear Ana Lima, we will reply to ana@example.org.");
}

TEST(RedactionTest, TheSameValueKeepsItsPlaceholderAcrossTurnsAndSpellings) {
  RedactionMap map;
  const std::string first = "My name is Jon  Snow.";
  const std::string second = "jon snow and Arya Stark met jon snow.";
  EXPECT_EQ(map.redact(first, spans_of(first, "Jon  Snow", "PERSON")), "My name is [PERSON_1].");
  std::vector<RedactionSpan> spans = spans_of(second, "jon snow", "PERSON");
  for (const RedactionSpan& s : spans_of(second, "Arya Stark", "PERSON")) spans.push_back(s);
  EXPECT_EQ(map.redact(second, spans), "[PERSON_1] and [PERSON_2] met [PERSON_1].");
  // Restored to the first spelling seen.
  EXPECT_EQ(map.restore("[PERSON_1]"), "Jon  Snow");
  // The same text as another type is another value.
  EXPECT_EQ(map.placeholder("ORGANIZATION", "jon snow"), "[ORGANIZATION_1]");
}

TEST(RedactionTest, OverlappingSpansHideTheWholeValueOnce) {
  RedactionMap map;
  const std::string text = "card 4111 1111 1111 1111 exp";
  // A detector's span and a wider one that contains and extends it, out of order.
  const std::vector<RedactionSpan> spans = {{"CREDIT_CARD", 10, 24}, {"CREDIT_CARD", 5, 19}, {"PERSON", 0, 0}};
  EXPECT_EQ(map.redact(text, spans), "card [CREDIT_CARD_1] exp");
  EXPECT_EQ(map.restore("[CREDIT_CARD_1]"), "4111 1111 1111 1111");
}

TEST(RedactionTest, TextThatOnlyLooksLikeAPlaceholderIsLeftAlone) {
  RedactionMap map;
  EXPECT_EQ(map.restore("[PERSON_1]"), "[PERSON_1]");  // nothing issued yet
  (void)map.placeholder("PERSON", "Ana");
  EXPECT_EQ(map.restore("[PERSON_2] [PERSON_1 [[PERSON_1]] [person_1] [PERSON_1]"),
            "[PERSON_2] [PERSON_1 [Ana] [person_1] Ana");
  EXPECT_EQ(map.original("[PERSON_1]") != nullptr, true);
  EXPECT_EQ(map.original("[PERSON_2]"), nullptr);
}

TEST(RedactionTest, PlaceholderShapedTextInTheRequestIsNeverIssuedNorRestored) {
  RedactionMap map;
  const std::string text = "Is [PERSON_1] or [PERSON_2x] a placeholder? Ask Ana Lima.";
  map.reserve(text);
  EXPECT_EQ(map.redact(text, spans_of(text, "Ana Lima", "PERSON")),
            "Is [PERSON_1] or [PERSON_2x] a placeholder? Ask [PERSON_2].");
  // The model quotes the user's literal and uses the real placeholder.
  EXPECT_EQ(map.restore("[PERSON_1] is literal; [PERSON_2] is Ana Lima."), "[PERSON_1] is literal; Ana Lima is Ana Lima.");
  EXPECT_EQ(map.placeholder("PERSON", "Bo"), "[PERSON_3]");
}

// Streaming: whatever the chunking, the client sees exactly what restoring
// the whole answer gives, and only a possible placeholder's start is held.
TEST(RedactionTest, StreamedAnswersAreRestoredAcrossEveryChunkBoundary) {
  RedactionMap map;
  (void)map.placeholder("PERSON", "Ana Lima");
  (void)map.placeholder("EMAIL_ADDRESS", "ana@example.org");
  const std::string answer = "Hi [PERSON_1]! Write to [EMAIL_ADDRESS_1] [see [PERSON_1]] or [PERSON_12] [EMAIL [PERSON_1]";
  const std::string whole = map.restore(answer);
  ASSERT_EQ(whole, "Hi Ana Lima! Write to ana@example.org [see Ana Lima] or [PERSON_12] [EMAIL Ana Lima");
  for (size_t a = 0; a <= answer.size(); ++a) {
    for (size_t b = a; b <= answer.size(); ++b) {
      StreamRestorer restorer(map);
      std::string seen = restorer.push(answer.substr(0, a));
      seen += restorer.push(answer.substr(a, b - a));
      seen += restorer.push(answer.substr(b));
      EXPECT_LT(restorer.held(), map.longest_placeholder());
      seen += restorer.finish();
      ASSERT_EQ(seen, whole) << "chunks end at " << a << " and " << b;
    }
  }
}

TEST(RedactionTest, StreamingHoldsBackOnlyWhatCouldStillBecomeAPlaceholder) {
  RedactionMap map;
  (void)map.placeholder("PERSON", "Ana");
  StreamRestorer restorer(map);
  EXPECT_EQ(restorer.push("Hello [PERS"), "Hello ");
  EXPECT_EQ(restorer.held(), 5u);
  EXPECT_EQ(restorer.push("ON_1], and [note"), "Ana, and [note");  // "[note" opens no placeholder
  EXPECT_EQ(restorer.held(), 0u);
  EXPECT_EQ(restorer.push(" [PERSON_"), " ");
  EXPECT_EQ(restorer.finish(), "[PERSON_");  // the answer ended: sent as it is
  // With nothing issued, nothing is ever held.
  RedactionMap empty;
  StreamRestorer plain(empty);
  EXPECT_EQ(plain.push("[PERSON_"), "[PERSON_");
}

TEST(RedactionTest, RandomChunkingsOfRandomAnswersRestoreLikeTheWhole) {
  RedactionMap map;
  (void)map.placeholder("PERSON", "Ana");
  (void)map.placeholder("PERSON", "Bo");
  (void)map.placeholder("IP_ADDRESS", "10.0.0.1");
  const std::vector<std::string> pieces = {"[PERSON_1]", "[PERSON_2]", "[IP_ADDRESS_1]", "[", "]", "PERSON", "_", "1",
                                           " ", "x", "[PERSON_", "[IP", "\n"};
  std::mt19937 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    std::string answer;
    for (int i = static_cast<int>(rng() % 12); i >= 0; --i) answer += pieces[rng() % pieces.size()];
    StreamRestorer restorer(map);
    std::string seen;
    for (size_t at = 0; at < answer.size();) {
      const size_t take = std::min<size_t>(answer.size() - at, rng() % 5);
      seen += restorer.push(answer.substr(at, take));
      at += take;
    }
    seen += restorer.finish();
    ASSERT_EQ(seen, map.restore(answer)) << answer;
  }
}

}  // namespace
}  // namespace tiergate
