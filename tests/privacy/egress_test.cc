// scan_messages (privacy/egress.h) fails closed: a scan cut short by its
// stop, or a detector that throws, leaves the request with a failure, and
// prepare_egress then lets nothing leave. The scanners here are fakes
// (fault injection); the real detectors' stop is in pii_tagger_test.cc.
#include "tiergate/privacy/egress.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "tiergate/privacy/scan_cache.h"

namespace tiergate {
namespace {

const std::vector<ChatMessage> kConversation = {{Role::kSystem, "Escalations go to ops@example.com."},
                                                {Role::kUser, "My card is 4111 1111 1111 1111."},
                                                {Role::kUser, "Thanks."}};

// The structured detectors, counting the messages they scanned.
MessageScan counting_scan(int& scanned) {
  return [&scanned](std::string_view text, std::vector<PiiSpan>& out) {
    ++scanned;
    find_pii(text, nullptr, out);
    return ScanOutcome::kScanned;
  };
}

TEST(ScanMessages, AStopBeforeAMessageFailsTheScan) {
  int scanned = 0, asked = 0;
  const PrivacyScan scan = scan_messages(kConversation, counting_scan(scanned), [&asked] { return ++asked >= 2; });
  EXPECT_EQ(scanned, 1);
  EXPECT_TRUE(scan.stopped);
  EXPECT_EQ(scan.failure, "stopped after 1 of 3 messages");
}

TEST(ScanMessages, AMessageCutShortFailsTheScan) {
  const PrivacyScan scan = scan_messages(kConversation, [](std::string_view text, std::vector<PiiSpan>& out) {
    find_pii(text, nullptr, out);
    return text == "Thanks." ? ScanOutcome::kStopped : ScanOutcome::kScanned;
  });
  EXPECT_TRUE(scan.stopped);
  EXPECT_EQ(scan.failure, "stopped after 2 of 3 messages");
}

TEST(ScanMessages, ADetectorThatThrowsFailsTheScanAndNothingLeaves) {
  const PrivacyScan scan = scan_messages(kConversation, [](std::string_view text, std::vector<PiiSpan>& out) {
    if (text.starts_with("My card")) throw std::runtime_error("out of buffers");
    find_pii(text, nullptr, out);
    return ScanOutcome::kScanned;
  });
  EXPECT_FALSE(scan.stopped);
  EXPECT_EQ(scan.failure, "a detector failed on message 1: out of buffers");
  ChatRequest request;
  request.messages = kConversation;
  for (TrustLevel trust : {TrustLevel::kPublic, TrustLevel::kContract, TrustLevel::kPrivate}) {
    const Egress egress = prepare_egress(PrivacyPolicy::defaults(), scan, request, trust);
    EXPECT_EQ(egress.decision.action, PrivacyAction::kLocalOnly);
    EXPECT_EQ(egress.decision.reason,
              "the privacy scan did not complete (a detector failed on message 1: out of buffers): local_only");
    EXPECT_TRUE(egress.request.messages.empty());
  }
}

TEST(ScanMessages, AStopThatNeverAnswersTrueChangesNothing) {
  ScanCache cache(nullptr, 0, {1, 2});
  int asked = 0;
  const PrivacyScan with_stop = scan_messages(kConversation, cache, "", [&asked] {
    ++asked;
    return false;
  });
  const PrivacyScan plain = scan_messages(kConversation, static_cast<const PiiTagger*>(nullptr));
  EXPECT_EQ(asked, 3);  // before each message (the structured detectors alone ask nothing more)
  EXPECT_TRUE(with_stop.failure.empty());
  EXPECT_FALSE(with_stop.stopped);
  EXPECT_EQ(with_stop.counts(), plain.counts());
  EXPECT_EQ(with_stop.counts().at("CREDIT_CARD"), 1);
  EXPECT_EQ(with_stop.counts().at("EMAIL_ADDRESS"), 1);
}

}  // namespace
}  // namespace tiergate
