// The dispatcher's privacy checks: every hop to a cloud upstream is checked
// against the policy for that upstream's trust level; redacted requests get
// their answers restored; forbidden hops fall to the edge or fail with the
// reason. Scripted engines (testing/fake_engine.h) stand in for the tiers.
#include "tiergate/dispatch/dispatcher.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "fake_engine.h"
#include "recording_sink.h"

namespace tiergate {
namespace {

using testing::FakeEngine;
using testing::RecordingSink;

constexpr char kConfig[] =
    "listen: 127.0.0.1:0\n"
    "edge: {model: edge.gguf}\n"
    "cloud:\n"
    "  - {name: pub, base_url: http://127.0.0.1:9/v1, models: [m-pub]}\n"
    "  - {name: baa, base_url: http://127.0.0.1:9/v1, models: [m-baa], trust: contract}\n"
    "privacy:\n"
    "  rules:\n"
    "    pii: {allow: contract, otherwise: redact}\n";

const std::string kPrompt = "Please write to Ana Lima about her card 4111 1111 1111 1111.";

// What a scan of kPrompt finds.
PrivacyScan scan_of_prompt() {
  PrivacyScan scan;
  const size_t name = kPrompt.find("Ana Lima");
  const size_t card = kPrompt.find("4111");
  scan.findings.push_back({"PERSON", 0, name, name + 8});
  scan.findings.push_back({"CREDIT_CARD", 0, card, card + 19});
  return scan;
}

class DispatcherPrivacyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    config_ = *parse_config(kConfig, "test.yaml");
    policy_ = std::make_shared<const PrivacyPolicy>(*PrivacyPolicy::from_config(*config_));
    request_.model = "auto";
    request_.messages = {{Role::kUser, kPrompt}};
  }
  Dispatcher dispatcher(Engine* edge) {
    return Dispatcher(config_, edge, {{"pub", &pub_}, {"baa", &baa_}}, policy_);
  }
  static RoutePlan plan(std::initializer_list<const char*> tiers) {
    RoutePlan p;
    p.reason = "test";
    for (const char* t : tiers) {
      p.candidates.push_back(std::string(t) == "edge" ? RouteCandidate{TierKind::kEdge, "edge", "edge.gguf"}
                                                      : RouteCandidate{TierKind::kCloud, t, "m"});
    }
    return p;
  }

  ConfigPtr config_;
  std::shared_ptr<const PrivacyPolicy> policy_;
  ChatRequest request_;
  FakeEngine edge_, pub_, baa_;
};

TEST_F(DispatcherPrivacyTest, APublicUpstreamGetsPlaceholdersAndTheClientTheOriginals) {
  // The upstream answers with the placeholders, split across deltas.
  pub_.pieces = {"Dear [PER", "SON_1], your card [CREDIT_CA", "RD_1", "] is fine", "."};
  const PrivacyScan scan = scan_of_prompt();
  RecordingSink sink;
  Dispatcher d = dispatcher(&edge_);
  auto result = d.run(plan({"pub"}), request_, sink, &scan);
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_EQ(pub_.last_request.messages[0].content,
            "Please write to [PERSON_1] about her card [CREDIT_CARD_1].");
  EXPECT_EQ(sink.text, "Dear Ana Lima, your card 4111 1111 1111 1111 is fine.");
  EXPECT_EQ(result->completion.text, sink.text);
  EXPECT_EQ(result->attempt.privacy, PrivacyAction::kRedact);
  EXPECT_EQ(result->attempt.route, "test+redacted");
  EXPECT_EQ(edge_.calls, 0);
}

TEST_F(DispatcherPrivacyTest, EveryHopIsCheckedForItsOwnUpstream) {
  // The public upstream fails after receiving the redacted request; the
  // fallback under contract may see the name but not the card (financial
  // keeps its default: allowed to private upstreams only).
  pub_.fail_before = unavailable("down");
  const PrivacyScan scan = scan_of_prompt();
  RecordingSink sink;
  Dispatcher d = dispatcher(&edge_);
  auto result = d.run(plan({"pub", "baa"}), request_, sink, &scan);
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_EQ(pub_.last_request.messages[0].content, "Please write to [PERSON_1] about her card [CREDIT_CARD_1].");
  EXPECT_EQ(baa_.last_request.messages[0].content, "Please write to Ana Lima about her card [CREDIT_CARD_1].");
  EXPECT_EQ(result->attempt.tier, "baa");
  EXPECT_EQ(result->attempt.route, "test>fallback:baa+redacted");
}

TEST_F(DispatcherPrivacyTest, LocalOnlyDataIsAnsweredByTheEdgeAndNeverSent) {
  PrivacyScan scan = scan_of_prompt();
  scan.findings.push_back({"API_KEY", 0, 0, 6});  // secret: local_only by default
  RecordingSink sink;
  Dispatcher d = dispatcher(&edge_);
  auto result = d.run(plan({"pub", "baa"}), request_, sink, &scan);
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_EQ(pub_.calls, 0);
  EXPECT_EQ(baa_.calls, 0);
  EXPECT_EQ(result->attempt.tier, "edge");
  EXPECT_EQ(result->attempt.route, "test>privacy_denied:pub>fallback:baa>privacy_denied:baa>privacy:edge");
  EXPECT_EQ(edge_.last_request.messages[0].content, kPrompt);  // the edge sees the request as it is
  EXPECT_EQ(sink.text, "Hello, world");
}

TEST_F(DispatcherPrivacyTest, APlannedEdgeAfterAForbiddenHopAnswers) {
  PrivacyScan scan;
  scan.findings.push_back({"PASSWORD", 0, 0, 6});
  RecordingSink sink;
  Dispatcher d = dispatcher(&edge_);
  auto result = d.run(plan({"pub", "edge"}), request_, sink, &scan);
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_EQ(pub_.calls, 0);
  EXPECT_EQ(result->attempt.route, "test>privacy_denied:pub>fallback:edge");
}

TEST_F(DispatcherPrivacyTest, WithoutAnEdgeTheRequestIsRefusedWithTheReason) {
  PrivacyScan scan;
  scan.findings.push_back({"PRIVATE_KEY", 0, 0, 6});
  RecordingSink sink;
  Dispatcher d = dispatcher(nullptr);
  auto result = d.run(plan({"pub", "baa"}), request_, sink, &scan);
  ASSERT_FALSE(result.is_ok());
  EXPECT_EQ(result.status().code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(result.status().message(),
            "privacy: class secret (PRIVATE_KEY) is local_only for contract upstreams, and no edge model is "
            "configured to answer on the device");
  EXPECT_EQ(pub_.calls + baa_.calls, 0);
  EXPECT_TRUE(sink.attempts.empty());
}

// Graceful degradation never overrides privacy: with the edge down, data
// that must stay on the device is refused with both reasons, not sent.
TEST_F(DispatcherPrivacyTest, AnEdgeThatIsDownDoesNotSendLocalOnlyDataToTheCloud) {
  PrivacyScan scan;
  scan.findings.push_back({"PRIVATE_KEY", 0, 0, 6});
  edge_.fail_before = unavailable("edge model not loaded: out of memory");
  RecordingSink sink;
  Dispatcher d = dispatcher(&edge_);
  auto result = d.run(plan({"edge", "pub", "baa"}), request_, sink, &scan);
  ASSERT_FALSE(result.is_ok());
  EXPECT_EQ(result.status().code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(result.status().message(),
            "privacy: class secret (PRIVATE_KEY) is local_only for contract upstreams, and the edge, which may "
            "answer on the device, could not: edge model not loaded: out of memory");
  EXPECT_EQ(pub_.calls + baa_.calls, 0);
}

TEST_F(DispatcherPrivacyTest, AFailedOrMissingScanKeepsEverythingOnTheDevice) {
  PrivacyScan failed;
  failed.failure = "detector timeout";
  for (const PrivacyScan* scan : {static_cast<const PrivacyScan*>(&failed), static_cast<const PrivacyScan*>(nullptr)}) {
    RecordingSink sink;
    Dispatcher d = dispatcher(nullptr);
    auto result = d.run(plan({"pub"}), request_, sink, scan);
    ASSERT_FALSE(result.is_ok());
    EXPECT_EQ(result.status().code(), StatusCode::kPermissionDenied);
    EXPECT_NE(result.status().message().find("did not complete"), std::string::npos) << result.status().message();
  }
  EXPECT_EQ(pub_.calls, 0);
}

TEST_F(DispatcherPrivacyTest, AFindingOutsideTheRequestFailsClosed) {
  PrivacyScan scan;
  scan.findings.push_back({"PERSON", 0, 10, kPrompt.size() + 1});
  RecordingSink sink;
  Dispatcher d = dispatcher(nullptr);
  auto result = d.run(plan({"pub"}), request_, sink, &scan);
  ASSERT_FALSE(result.is_ok());
  EXPECT_EQ(result.status().code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(pub_.calls, 0);
}

TEST_F(DispatcherPrivacyTest, WithoutAPolicyRequestsGoAsTheyAre) {
  const PrivacyScan scan = scan_of_prompt();
  RecordingSink sink;
  Dispatcher d(config_, &edge_, {{"pub", &pub_}});
  auto result = d.run(plan({"pub"}), request_, sink, &scan);
  ASSERT_TRUE(result.is_ok());
  EXPECT_EQ(pub_.last_request.messages[0].content, kPrompt);
  EXPECT_EQ(result->attempt.privacy, PrivacyAction::kAllow);
}

}  // namespace
}  // namespace tiergate
