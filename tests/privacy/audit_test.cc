#include "tiergate/privacy/audit.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace tiergate {
namespace {

using nlohmann::json;

EgressRecord record(const std::string& upstream, PrivacyAction action) {
  EgressRecord r;
  r.time_ms = 1764400000000;
  r.request_id = "chatcmpl-1";
  r.upstream = upstream;
  r.action = action;
  r.types = {{"EMAIL_ADDRESS", 2}};
  r.classes = {{"pii", 2}};
  r.sent_sha256 = sha256_hex("{\"messages\":[]}");
  return r;
}

std::string log_of(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

TEST(AuditTest, Sha256MatchesTheStandardVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(AuditTest, EntriesCarryMetadataAndChain) {
  AuditChain chain;
  const std::string first = chain.append(record("openai", PrivacyAction::kRedact));
  const std::string second = chain.append(record("azure", PrivacyAction::kAllow));
  const json a = json::parse(first), b = json::parse(second);
  EXPECT_EQ(a["seq"], 1);
  EXPECT_EQ(a["prev"], std::string(64, '0'));
  EXPECT_EQ(a["action"], "redact");
  EXPECT_EQ(a["types"], json({{"EMAIL_ADDRESS", 2}}));
  EXPECT_EQ(a["classes"], json({{"pii", 2}}));
  EXPECT_EQ(b["seq"], 2);
  EXPECT_EQ(b["prev"], sha256_hex(first));
  auto summary = verify_audit_log(log_of({first, second}), "audit.jsonl");
  ASSERT_TRUE(summary.is_ok()) << summary.status().to_string();
  EXPECT_EQ(summary->entries, 2u);
  EXPECT_EQ(summary->by_upstream.at("openai"), 1u);
  EXPECT_EQ(summary->by_action.at("allow"), 1u);
}

TEST(AuditTest, AResumedChainContinuesTheLog) {
  AuditChain chain;
  const std::string first = chain.append(record("openai", PrivacyAction::kRedact));
  auto resumed = AuditChain::resume(first);
  ASSERT_TRUE(resumed.is_ok());
  const std::string second = resumed->append(record("openai", PrivacyAction::kAllow));
  EXPECT_TRUE(verify_audit_log(log_of({first, second}), "audit.jsonl").is_ok());
  EXPECT_FALSE(AuditChain::resume("not json").is_ok());
}

TEST(AuditTest, VerifyNamesTheLineOfAnyTampering) {
  AuditChain chain;
  std::vector<std::string> lines;
  for (int i = 0; i < 4; ++i) lines.push_back(chain.append(record("openai", PrivacyAction::kRedact)));

  std::vector<std::string> edited = lines;  // a changed upstream in entry 2 breaks entry 3's link
  const size_t at = edited[1].find("openai");
  edited[1].replace(at, 6, "gemini");
  auto r = verify_audit_log(log_of(edited), "audit.jsonl");
  ASSERT_FALSE(r.is_ok());
  EXPECT_EQ(r.status().message(),
            "audit.jsonl:3: prev does not match the hash of the line before: an earlier entry was changed");

  std::vector<std::string> removed = lines;
  removed.erase(removed.begin() + 2);
  r = verify_audit_log(log_of(removed), "audit.jsonl");
  ASSERT_FALSE(r.is_ok());
  EXPECT_NE(r.status().message().find("audit.jsonl:3: seq 4 where 3 was due"), std::string::npos)
      << r.status().message();

  std::vector<std::string> swapped = lines;
  std::swap(swapped[0], swapped[1]);
  EXPECT_FALSE(verify_audit_log(log_of(swapped), "audit.jsonl").is_ok());

  EXPECT_FALSE(verify_audit_log(log_of({lines[0], "{}"}), "audit.jsonl").is_ok());
  EXPECT_FALSE(verify_audit_log(log_of({lines[0], ""}), "audit.jsonl").is_ok());
  EXPECT_TRUE(verify_audit_log("", "audit.jsonl").is_ok());  // nothing left the device yet
}

}  // namespace
}  // namespace tiergate
