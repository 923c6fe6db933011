#include "tiergate/privacy/policy.h"

#include "tiergate/privacy/pii_types.h"

#include <gtest/gtest.h>

namespace tiergate {
namespace {

TEST(PolicyTest, NamesRoundTrip) {
  for (TrustLevel level : {TrustLevel::kPublic, TrustLevel::kContract, TrustLevel::kPrivate}) {
    EXPECT_EQ(parse_trust_level(trust_level_name(level)), level);
  }
  for (PrivacyAction action : {PrivacyAction::kAllow, PrivacyAction::kRedact, PrivacyAction::kLocalOnly}) {
    EXPECT_EQ(parse_privacy_action(privacy_action_name(action)), action);
  }
  EXPECT_EQ(parse_trust_level("Public"), std::nullopt);
  EXPECT_EQ(parse_privacy_action("deny"), std::nullopt);
}

TEST(PolicyTest, DefaultsKeepSecretsLocalAndRedactPersonalData) {
  const PrivacyPolicy p = PrivacyPolicy::defaults();
  EXPECT_EQ(p.action_for("API_KEY", TrustLevel::kPrivate), PrivacyAction::kLocalOnly);
  EXPECT_EQ(p.action_for("PERSON", TrustLevel::kPublic), PrivacyAction::kRedact);
  EXPECT_EQ(p.action_for("PERSON", TrustLevel::kContract), PrivacyAction::kRedact);
  EXPECT_EQ(p.action_for("PERSON", TrustLevel::kPrivate), PrivacyAction::kAllow);
  EXPECT_EQ(p.action_for("CREDIT_CARD", TrustLevel::kPublic), PrivacyAction::kRedact);
  EXPECT_EQ(p.action_for("LOCATION", TrustLevel::kPublic), PrivacyAction::kAllow);
  // A date alone names no one; a date of birth is personal data.
  EXPECT_EQ(p.action_for("DATE_TIME", TrustLevel::kPublic), PrivacyAction::kAllow);
  EXPECT_EQ(p.action_for("DATE_OF_BIRTH", TrustLevel::kPublic), PrivacyAction::kRedact);
  // Health data stays on the device.
  EXPECT_EQ(*p.class_of("MEDICAL_RECORD_NUMBER"), "phi");
  EXPECT_EQ(p.action_for("MEDICAL_RECORD_NUMBER", TrustLevel::kPrivate), PrivacyAction::kLocalOnly);
  // A taxpayer number is personal data, as an SSN is.
  EXPECT_EQ(*p.class_of("US_ITIN"), "pii");
  EXPECT_EQ(p.action_for("US_ITIN", TrustLevel::kPublic), PrivacyAction::kRedact);
}

TEST(PolicyTest, EveryDetectedTypeHasADefaultClassWithARule) {
  const PrivacyPolicy p = PrivacyPolicy::defaults();
  for (PiiType type : kAllPiiTypes) {
    const std::string* cls = p.class_of(pii_type_name(type));
    ASSERT_NE(cls, nullptr) << pii_type_name(type);
    EXPECT_TRUE(p.rules().contains(*cls)) << *cls;
  }
  EXPECT_EQ(p.classes().size(), kAllPiiTypes.size());
}

TEST(PolicyTest, ATypeOrClassThePolicyDoesNotMentionIsLocalOnly) {
  PrivacyPolicy p;
  p.set_class("PERSON", "pii");  // a class without a rule
  EXPECT_EQ(p.action_for("PERSON", TrustLevel::kPrivate), PrivacyAction::kLocalOnly);
  EXPECT_EQ(p.action_for("MEDICAL_RECORD", TrustLevel::kPrivate), PrivacyAction::kLocalOnly);
  const EgressDecision unknown = p.decide({"MEDICAL_RECORD"}, TrustLevel::kPublic);
  EXPECT_EQ(unknown.action, PrivacyAction::kLocalOnly);
  EXPECT_EQ(unknown.reason, "data type MEDICAL_RECORD has no sensitivity class: local_only");
  EXPECT_EQ(p.decide({"PERSON"}, TrustLevel::kPublic).reason, "class pii (PERSON) has no rule: local_only");
}

TEST(PolicyTest, TheStrictestClassFoundDecides) {
  PrivacyPolicy p;
  p.set_class("PERSON", "pii");
  p.set_class("EMAIL_ADDRESS", "pii");
  p.set_class("CREDIT_CARD", "financial");
  p.set_class("LOCATION", "context");
  p.set_class("PASSWORD", "secret");
  p.set_rule("pii", {.allow_from = TrustLevel::kContract, .otherwise = PrivacyAction::kRedact});
  p.set_rule("financial", {.allow_from = std::nullopt, .otherwise = PrivacyAction::kRedact});
  p.set_rule("context", {.allow_from = TrustLevel::kPublic});
  p.set_rule("secret", {.allow_from = std::nullopt, .otherwise = PrivacyAction::kLocalOnly});

  EXPECT_EQ(p.decide({}, TrustLevel::kPublic).action, PrivacyAction::kAllow);
  EXPECT_EQ(p.decide({"LOCATION"}, TrustLevel::kPublic).action, PrivacyAction::kAllow);

  const EgressDecision public_hop = p.decide({"PERSON", "LOCATION", "CREDIT_CARD", "PERSON"}, TrustLevel::kPublic);
  EXPECT_EQ(public_hop.action, PrivacyAction::kRedact);
  EXPECT_EQ(public_hop.redact_types, (std::vector<std::string>{"PERSON", "CREDIT_CARD"}));

  // Under contract, names go as they are; the card is still redacted.
  const EgressDecision contract_hop = p.decide({"PERSON", "CREDIT_CARD"}, TrustLevel::kContract);
  EXPECT_EQ(contract_hop.action, PrivacyAction::kRedact);
  EXPECT_EQ(contract_hop.redact_types, (std::vector<std::string>{"CREDIT_CARD"}));

  const EgressDecision secret = p.decide({"PERSON", "PASSWORD", "CREDIT_CARD"}, TrustLevel::kPrivate);
  EXPECT_EQ(secret.action, PrivacyAction::kLocalOnly);
  EXPECT_TRUE(secret.redact_types.empty());
  EXPECT_EQ(secret.reason, "class secret (PASSWORD) is local_only for private upstreams");
}

TEST(PolicyTest, TheConfigOverlaysTheDefaults) {
  auto config = parse_config(
      "listen: 127.0.0.1:8080\n"
      "edge: {model: a.gguf}\n"
      "privacy:\n"
      "  classes:\n"
      "    DATE_TIME: pii\n"
      "    LOCATION: phi\n"
      "  rules:\n"
      "    pii: {allow: contract, otherwise: redact}\n",
      "gw.yaml");
  ASSERT_TRUE(config.is_ok()) << config.status().to_string();
  auto policy = PrivacyPolicy::from_config(**config);
  ASSERT_TRUE(policy.is_ok()) << policy.status().to_string();
  EXPECT_EQ(policy->action_for("DATE_TIME", TrustLevel::kPublic), PrivacyAction::kRedact);
  EXPECT_EQ(policy->action_for("DATE_TIME", TrustLevel::kContract), PrivacyAction::kAllow);
  EXPECT_EQ(policy->action_for("PERSON", TrustLevel::kContract), PrivacyAction::kAllow);
  EXPECT_EQ(policy->action_for("LOCATION", TrustLevel::kPrivate), PrivacyAction::kLocalOnly);  // default phi rule
  EXPECT_EQ(policy->action_for("API_KEY", TrustLevel::kPrivate), PrivacyAction::kLocalOnly);  // untouched default

  auto typo = parse_config("listen: 127.0.0.1:8080\nedge: {model: a.gguf}\nprivacy:\n  classes:\n    PERSN: pii\n",
                           "gw.yaml");
  ASSERT_TRUE(typo.is_ok()) << typo.status().to_string();
  const auto rejected = PrivacyPolicy::from_config(**typo);
  ASSERT_FALSE(rejected.is_ok());
  EXPECT_EQ(rejected.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(rejected.status().message().rfind("gw.yaml:5: privacy.classes.PERSN: no detector reports this data type", 0), 0u)
      << rejected.status().message();
}

TEST(PolicyTest, ARestrictionOnlyEverTightens) {
  const PrivacyPolicy base = PrivacyPolicy::defaults();
  const PrivacyPolicy redact = base.restricted(PrivacyAction::kRedact);
  EXPECT_EQ(redact.action_for("PERSON", TrustLevel::kPrivate), PrivacyAction::kRedact);
  EXPECT_EQ(redact.action_for("LOCATION", TrustLevel::kPublic), PrivacyAction::kRedact);
  EXPECT_EQ(redact.action_for("API_KEY", TrustLevel::kPrivate), PrivacyAction::kLocalOnly);
  const PrivacyPolicy local = base.restricted(PrivacyAction::kLocalOnly);
  const PrivacyPolicy loosened = local.restricted(PrivacyAction::kAllow);
  for (const auto& [type, cls] : base.classes()) {
    for (TrustLevel t : {TrustLevel::kPublic, TrustLevel::kContract, TrustLevel::kPrivate}) {
      EXPECT_GE(redact.action_for(type, t), base.action_for(type, t)) << type;
      EXPECT_EQ(local.action_for(type, t), PrivacyAction::kLocalOnly) << type;
      EXPECT_EQ(loosened.action_for(type, t), PrivacyAction::kLocalOnly) << type;
    }
  }
}

}  // namespace
}  // namespace tiergate
