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

// The scan of `request` by the structured detectors, as the gateway runs it
// without a tagger.
PrivacyScan structured_scan_of(const ChatRequest& request) {
  ScanCache cache(nullptr, 0, {1, 2});
  return scan_request(request, cache);
}

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

// The user field and the stop sequences go out with the messages: the
// policy applies to what they hold as to the messages' values, with the
// same placeholders.
TEST(PrepareEgress, RedactsTheUserFieldAndTheStopSequencesAsTheMessages) {
  ChatRequest request;
  request.messages = {{Role::kUser, "Reply to jane.roe@example.com, please."}};
  request.user = "jane.roe@example.com";
  request.sampling.stop = {"END", "Sent to jane.roe@example.com"};
  const PrivacyScan scan = structured_scan_of(request);
  ASSERT_EQ(scan.field_findings.size(), 2u);
  EXPECT_EQ(scan.counts().at("EMAIL_ADDRESS"), 3);

  const Egress to_public = prepare_egress(PrivacyPolicy::defaults(), scan, request, TrustLevel::kPublic);
  ASSERT_EQ(to_public.decision.action, PrivacyAction::kRedact);
  EXPECT_EQ(to_public.request.messages[0].content, "Reply to [EMAIL_ADDRESS_1], please.");
  EXPECT_EQ(to_public.request.user, "[EMAIL_ADDRESS_1]");
  EXPECT_EQ(to_public.request.sampling.stop, (std::vector<std::string>{"END", "Sent to [EMAIL_ADDRESS_1]"}));

  // The defaults allow personal data to a private upstream: all as it was.
  const Egress to_private = prepare_egress(PrivacyPolicy::defaults(), scan, request, TrustLevel::kPrivate);
  ASSERT_EQ(to_private.decision.action, PrivacyAction::kAllow);
  EXPECT_EQ(to_private.request.user, "jane.roe@example.com");
  EXPECT_EQ(to_private.request.sampling.stop, request.sampling.stop);
}

// Under the defaults a date of birth is personal data, redacted before a
// public upstream; another date travels.
TEST(PrepareEgress, ADateOfBirthIsRedactedWhereOtherDatesTravel) {
  ChatRequest request;
  request.messages = {{Role::kUser, "My DOB is 03/14/1985 and the meeting is on 04/02/2026."}};
  const PrivacyScan scan = structured_scan_of(request);
  EXPECT_EQ(scan.counts().at("DATE_OF_BIRTH"), 1);
  EXPECT_EQ(scan.counts().at("DATE_TIME"), 1);
  const Egress to_public = prepare_egress(PrivacyPolicy::defaults(), scan, request, TrustLevel::kPublic);
  ASSERT_EQ(to_public.decision.action, PrivacyAction::kRedact);
  EXPECT_EQ(to_public.request.messages[0].content, "My DOB is [DATE_OF_BIRTH_1] and the meeting is on 04/02/2026.");
}

// A medical record number is health data (class phi): by default it keeps
// the request on the device whatever the upstream's trust.
TEST(PrepareEgress, AMedicalRecordNumberKeepsTheRequestOnTheDevice) {
  ChatRequest request;
  request.messages = {{Role::kUser, "Summarize the notes for MRN: 00482913, seen on 04/02/2026."}};
  const PrivacyScan scan = structured_scan_of(request);
  EXPECT_EQ(scan.counts().at("MEDICAL_RECORD_NUMBER"), 1);
  for (const TrustLevel trust : {TrustLevel::kPublic, TrustLevel::kContract, TrustLevel::kPrivate}) {
    const Egress egress = prepare_egress(PrivacyPolicy::defaults(), scan, request, trust);
    EXPECT_EQ(egress.decision.action, PrivacyAction::kLocalOnly);
    EXPECT_TRUE(egress.request.messages.empty());
  }
}

TEST(PrepareEgress, ASecretInTheUserFieldKeepsTheRequestOnTheDevice) {
  ChatRequest request;
  request.messages = {{Role::kUser, "What is the capital of France?"}};
  request.user = "sk-proj-4fJ9xQ2LmZ8vT1wR6yU3pK0aB5nC7dE2";
  const PrivacyScan scan = structured_scan_of(request);
  const Egress egress = prepare_egress(PrivacyPolicy::defaults(), scan, request, TrustLevel::kPrivate);
  EXPECT_EQ(egress.decision.action, PrivacyAction::kLocalOnly);
  EXPECT_TRUE(egress.request.messages.empty());
}

TEST(PrepareEgress, AFieldFindingOutsideItsFieldFailsClosed) {
  ChatRequest request;
  request.messages = {{Role::kUser, "Hello."}};
  request.user = "u-1";
  PrivacyScan scan;
  scan.field_findings.push_back({"PERSON", 0, 0, 4});  // past the end of "u-1"
  const Egress egress = prepare_egress(PrivacyPolicy::defaults(), scan, request, TrustLevel::kPublic);
  EXPECT_EQ(egress.decision.action, PrivacyAction::kLocalOnly);
  EXPECT_EQ(egress.decision.reason, "a finding lies outside the request (a detector bug): local_only");
}

}  // namespace
}  // namespace tiergate
