// Cross-tier context handoff: when a conversation the edge was serving
// moves to the cloud, its earlier turns reach the cloud raw, redacted or
// summarised by the edge (handoff.history), and a summary is scanned like
// any outgoing text. Also the conversation store's TTL, bound and cache.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "fake_engine.h"
#include "handoff.h"
#include "recording_sink.h"
#include "tiergate/dispatch/conversation_store.h"
#include "tiergate/dispatch/dispatcher.h"
#include "tiergate/privacy/egress.h"
#include "tiergate/privacy/scan_cache.h"

namespace tiergate {
namespace {

using std::chrono::seconds;
using testing::FakeEngine;
using testing::RecordingSink;

const SteadyTime kStart = SteadyTime(std::chrono::hours(1));

TEST(ConversationStoreTest, RemembersTheLastTierUntilTheTtl) {
  ConversationStore store(seconds(60), 10);
  EXPECT_FALSE(store.last_tier("a", kStart).has_value());
  store.record("a", TierKind::kEdge, kStart);
  EXPECT_EQ(store.last_tier("a", kStart + seconds(59)), TierKind::kEdge);  // seeing it keeps it alive
  EXPECT_EQ(store.last_tier("a", kStart + seconds(118)), TierKind::kEdge);
  EXPECT_FALSE(store.last_tier("a", kStart + seconds(180)).has_value());
  EXPECT_EQ(store.size(), 0u);
}

TEST(ConversationStoreTest, ForgetsTheLeastRecentlySeenBeyondTheBound) {
  ConversationStore store(seconds(600), 2);
  store.record("a", TierKind::kEdge, kStart);
  store.record("b", TierKind::kCloud, kStart + seconds(1));
  EXPECT_TRUE(store.last_tier("a", kStart + seconds(2)).has_value());  // a is now the most recent
  store.record("c", TierKind::kEdge, kStart + seconds(3));
  EXPECT_EQ(store.size(), 2u);
  EXPECT_FALSE(store.last_tier("b", kStart + seconds(4)).has_value());
  EXPECT_TRUE(store.last_tier("a", kStart + seconds(4)).has_value());
}

TEST(ConversationStoreTest, KeepsASummaryPerHistory) {
  ConversationStore store(seconds(600), 10);
  store.set_summary("a", 42, "they talked", kStart);
  EXPECT_EQ(store.summary("a", 42, kStart), std::optional<std::string>("they talked"));
  EXPECT_FALSE(store.summary("a", 43, kStart).has_value());  // another history
  EXPECT_FALSE(store.summary("b", 42, kStart).has_value());
}

// Personal data may go to any upstream as it is, so what the cloud gets of
// the history is the handoff's doing alone; financial data and e-mail
// addresses are redacted for public upstreams.
std::string config_text(const std::string& history) {
  return "listen: 127.0.0.1:0\n"
         "edge: {model: edge.gguf}\n"
         "cloud:\n"
         "  - {name: up, base_url: http://127.0.0.1:9/v1, models: [m]}\n"
         "privacy:\n"
         "  classes: {EMAIL_ADDRESS: contact}\n"
         "  rules:\n"
         "    pii: {allow: public}\n"
         "    contact: {allow: private, otherwise: redact}\n"
         "handoff: {history: " + history + "}\n";
}

class HandoffTest : public ::testing::Test {
 protected:
  void start(const std::string& history) {
    config_ = *parse_config(config_text(history), "test.yaml");
    policy_ = std::make_shared<const PrivacyPolicy>(*PrivacyPolicy::from_config(*config_));
    dispatcher_ = std::make_unique<Dispatcher>(config_, &edge_, std::map<std::string, Engine*>{{"up", &cloud_}}, policy_);
  }
  // A first turn answered on the edge, then the follow-up for the cloud.
  StatusOr<DispatchResult> follow_up(const std::string& first_turn) {
    ChatRequest first;
    first.model = "auto";
    first.conversation = "conv-1";
    first.messages = {{Role::kUser, first_turn}};
    RecordingSink sink;
    PrivacyScan scan = scan_messages(first.messages);
    EXPECT_TRUE(dispatcher_->run(edge_plan(), first, sink, &scan).is_ok());
    request_ = first;
    request_.messages = {{Role::kSystem, "Be brief."},
                         {Role::kUser, first_turn},
                         {Role::kAssistant, "Noted."},
                         {Role::kUser, "Now prove the theorem."}};
    scan_ = scan_messages(request_.messages);
    return dispatcher_->run(cloud_plan(), request_, sink_, &scan_);
  }
  // The edge first (edge_first) or the cloud first, the other as fallback.
  static RoutePlan plan(bool edge_first) {
    const RouteCandidate edge{TierKind::kEdge, "edge", "edge.gguf"}, up{TierKind::kCloud, "up", "m"};
    RoutePlan p;
    p.reason = "test";
    p.candidates = edge_first ? std::vector<RouteCandidate>{edge, up} : std::vector<RouteCandidate>{up, edge};
    return p;
  }
  static RoutePlan edge_plan() { return plan(true); }
  static RoutePlan cloud_plan() { return plan(false); }
  std::string sent() const {
    std::string all;
    for (const ChatMessage& m : cloud_.last_request.messages) all += std::string(role_name(m.role)) + ": " + m.content + "\n";
    return all;
  }

  ConfigPtr config_;
  std::shared_ptr<const PrivacyPolicy> policy_;
  FakeEngine edge_, cloud_;
  std::unique_ptr<Dispatcher> dispatcher_;
  ChatRequest request_;
  PrivacyScan scan_;
  RecordingSink sink_;
};

TEST_F(HandoffTest, RawSendsTheHistoryAsThePolicyAllows) {
  start("raw");
  auto r = follow_up("I am Ana Lima, write to ana@example.com");
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(r->handoff, "raw");
  EXPECT_EQ(sent(), "system: Be brief.\nuser: I am Ana Lima, write to [EMAIL_ADDRESS_1]\nassistant: Noted.\n"
                    "user: Now prove the theorem.\n");
}

TEST_F(HandoffTest, RedactedReplacesEveryValueOfTheHistoryWhateverItsClassAllows) {
  start("redacted");
  // The phone number, which the policy allows, is redacted in the history
  // all the same.
  auto r = follow_up("Call me on +1 415 555 0100 or ana@example.com");
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(r->handoff, "redacted");
  EXPECT_EQ(sent(), "system: Be brief.\nuser: Call me on [PHONE_NUMBER_1] or [EMAIL_ADDRESS_1]\nassistant: Noted.\n"
                    "user: Now prove the theorem.\n");
}

TEST_F(HandoffTest, SummaryIsWrittenByTheEdgeScannedAndCached) {
  start("summary");
  edge_.pieces = {"The user gave a phone number and ", "the address ana@example.com."};
  auto r = follow_up("Call me on +1 415 555 0100 or ana@example.com");
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(r->handoff, "summary");
  // The summary replaced the history and was scanned: its e-mail address is redacted.
  EXPECT_EQ(sent(), "system: Be brief.\n"
                    "system: Summary of the conversation so far (written by the on-device model): The user gave a "
                    "phone number and the address [EMAIL_ADDRESS_1].\n"
                    "user: Now prove the theorem.\n");
  EXPECT_EQ(sent().find("555"), std::string::npos);
  // The edge answered the first turn and wrote the summary; asked again with
  // the same history, the summary comes from the store.
  EXPECT_EQ(edge_.calls.load(), 2);
  RecordingSink again;
  dispatcher_->conversations().record("conv-1", TierKind::kEdge, std::chrono::steady_clock::now());
  ASSERT_TRUE(dispatcher_->run(cloud_plan(), request_, again, &scan_).is_ok());
  EXPECT_EQ(edge_.calls.load(), 2);
}

// The messages around the history are not scanned again: they keep the
// request's findings (here one no detector would make, as a tagger's
// might be), at their new places: the system message stays first, the
// latest turn moves up behind the summary.
TEST_F(HandoffTest, ASummaryKeepsTheFindingsOfTheMessagesAroundIt) {
  start("summary");
  edge_.pieces = {"The user asked for help."};
  ASSERT_TRUE(follow_up("Call me on +1 415 555 0100").is_ok());
  request_.messages.front().content = "Be brief. Escalate to ops@example.com.";
  request_.messages.back().content = "Now write to bo@example.com and ana@example.com.";
  scan_ = scan_messages(request_.messages);
  scan_.findings.push_back({"EMAIL_ADDRESS", 3, 0, 3});  // "Now"
  dispatcher_->conversations().record("conv-1", TierKind::kEdge, std::chrono::steady_clock::now());
  RecordingSink sink;
  auto r = dispatcher_->run(cloud_plan(), request_, sink, &scan_);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(r->handoff, "summary");
  EXPECT_EQ(sent(), "system: Be brief. Escalate to [EMAIL_ADDRESS_1].\n"
                    "system: Summary of the conversation so far (written by the on-device model): The user asked for "
                    "help.\n"
                    "user: [EMAIL_ADDRESS_2] write to [EMAIL_ADDRESS_3] and [EMAIL_ADDRESS_4].\n");
}

TEST_F(HandoffTest, ASummaryKeepsTheFindingsOfTheUserFieldAndStopSequences) {
  start("summary");
  edge_.pieces = {"The user asked for help."};
  ASSERT_TRUE(follow_up("Call me on +1 415 555 0100").is_ok());
  request_.user = "ana@example.com";
  request_.sampling.stop = {"Regards, ana@example.com"};
  ScanCache cache(nullptr, 0, {1, 2});
  scan_ = scan_request(request_, cache);
  ASSERT_EQ(scan_.field_findings.size(), 2u);
  dispatcher_->conversations().record("conv-1", TierKind::kEdge, std::chrono::steady_clock::now());
  RecordingSink sink;
  auto r = dispatcher_->run(cloud_plan(), request_, sink, &scan_);
  ASSERT_TRUE(r.is_ok()) << r.status().message();
  EXPECT_EQ(r->handoff, "summary");
  EXPECT_EQ(cloud_.last_request.user, "[EMAIL_ADDRESS_1]");
  EXPECT_EQ(cloud_.last_request.sampling.stop, std::vector<std::string>{"Regards, [EMAIL_ADDRESS_1]"});
}

// The summary is new text: a scan of it that fails (here a detector that
// throws, injected) fails the handed-off request's scan, which then keeps it
// on the device.
TEST(HandOff, AFailedScanOfTheSummaryFailsTheRequestsScan) {
  HandoffConfig config;
  config.history = HistoryHandoff::kSummary;
  ChatRequest request;
  request.conversation = "conv-1";
  request.messages = {{Role::kUser, "Call me on +1 415 555 0100"},
                      {Role::kAssistant, "Noted."},
                      {Role::kUser, "Now prove the theorem."}};
  const PrivacyScan scan = scan_messages(request.messages);
  FakeEngine edge;
  edge.pieces = {"The user gave a phone number."};
  ConversationStore conversations(std::chrono::seconds(60), 10);
  RecordingSink client;
  auto throwing = [](std::string_view, std::vector<PiiSpan>&) -> ScanOutcome {
    throw std::runtime_error("out of buffers");
  };
  const HandedOff handed = hand_off(config, request, &scan, &edge, conversations, throwing, client, kStart);
  ASSERT_EQ(handed.mode, "summary");
  ASSERT_TRUE(handed.scan.has_value());
  EXPECT_EQ(handed.scan->failure, "the summary's scan: a detector failed on message 0: out of buffers");
  const Egress egress = prepare_egress(PrivacyPolicy::defaults(), *handed.scan, handed.request, TrustLevel::kPrivate);
  EXPECT_EQ(egress.decision.action, PrivacyAction::kLocalOnly);

  // A scan that works leaves no failure.
  ConversationStore fresh(std::chrono::seconds(60), 10);
  const HandedOff ok = hand_off(config, request, &scan, &edge, fresh, whole_scan(nullptr), client, kStart);
  ASSERT_TRUE(ok.scan.has_value());
  EXPECT_TRUE(ok.scan->failure.empty());
}

TEST_F(HandoffTest, AutoSummarisesOnlyAHistoryWithFoundData) {
  start("auto");
  auto clean = follow_up("What is a prime number?");
  ASSERT_TRUE(clean.is_ok());
  EXPECT_EQ(clean->handoff, "raw");
  auto found = follow_up("Call me on +1 415 555 0100");
  ASSERT_TRUE(found.is_ok());
  EXPECT_EQ(found->handoff, "summary");
  EXPECT_EQ(sent().find("555"), std::string::npos);
}

TEST_F(HandoffTest, NoSummaryToBeHadFallsBackToRedactedNeverRaw) {
  start("summary");
  auto r = follow_up("Call me on +1 415 555 0100");  // the edge answers this turn
  ASSERT_TRUE(r.is_ok());
  edge_.fail_before = unavailable("edge out of memory");
  request_.messages[1].content = "Call me on +1 415 555 0199";  // another history: no cached summary
  scan_ = scan_messages(request_.messages);
  dispatcher_->conversations().record("conv-1", TierKind::kEdge, std::chrono::steady_clock::now());
  RecordingSink sink;
  auto again = dispatcher_->run(cloud_plan(), request_, sink, &scan_);
  ASSERT_TRUE(again.is_ok());
  EXPECT_EQ(again->handoff, "redacted");
  EXPECT_NE(sent().find("[PHONE_NUMBER_1]"), std::string::npos);
}

TEST_F(HandoffTest, AConversationTheCloudServedOrANewOneIsNotHandedOff) {
  start("summary");
  request_.model = "auto";
  request_.conversation = "never-seen";
  request_.messages = {{Role::kUser, "Call me on +1 415 555 0100"}, {Role::kAssistant, "OK"}, {Role::kUser, "Go on"}};
  scan_ = scan_messages(request_.messages);
  auto r = dispatcher_->run(cloud_plan(), request_, sink_, &scan_);
  ASSERT_TRUE(r.is_ok());
  EXPECT_EQ(r->handoff, "");
  EXPECT_NE(sent().find("415 555 0100"), std::string::npos);  // phone numbers are allowed by this policy
  // It stays unhanded while the cloud keeps serving it.
  auto next = dispatcher_->run(cloud_plan(), request_, sink_, &scan_);
  EXPECT_EQ(next->handoff, "");
  EXPECT_EQ(edge_.calls.load(), 0);
}

}  // namespace
}  // namespace tiergate
