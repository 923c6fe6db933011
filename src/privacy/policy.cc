#include "tiergate/privacy/policy.h"

#include <algorithm>

#include "tiergate/privacy/pii_types.h"

namespace tiergate {

PrivacyPolicy PrivacyPolicy::defaults() {
  PrivacyPolicy p;
  for (const char* type : {"API_KEY", "PRIVATE_KEY", "PASSWORD"}) p.set_class(type, "secret");
  // Health data: a record number names a patient to whoever holds the
  // records, and the default phi rule keeps it on the device.
  p.set_class("MEDICAL_RECORD_NUMBER", "phi");
  for (const char* type : {"CREDIT_CARD", "IBAN_CODE"}) p.set_class(type, "financial");
  for (const char* type : {"PERSON", "EMAIL_ADDRESS", "PHONE_NUMBER", "STREET_ADDRESS", "US_SSN", "US_ITIN",
                           "US_DRIVER_LICENSE", "US_PASSPORT", "IP_ADDRESS", "MAC_ADDRESS", "AGE", "NRP",
                           "DATE_OF_BIRTH"}) {
    p.set_class(type, "pii");
  }
  // Alone these name no one (a city, a company, a date, a web site): they
  // travel unless a policy says otherwise.
  for (const char* type : {"LOCATION", "ORGANIZATION", "DATE_TIME", "ZIP_CODE", "DOMAIN_NAME", "TITLE", "PREFIX"}) {
    p.set_class(type, "context");
  }
  p.set_rule("secret", {.allow_from = std::nullopt, .otherwise = PrivacyAction::kLocalOnly});
  p.set_rule("phi", {.allow_from = std::nullopt, .otherwise = PrivacyAction::kLocalOnly});
  p.set_rule("financial", {.allow_from = TrustLevel::kPrivate, .otherwise = PrivacyAction::kRedact});
  p.set_rule("pii", {.allow_from = TrustLevel::kPrivate, .otherwise = PrivacyAction::kRedact});
  p.set_rule("context", {.allow_from = TrustLevel::kPublic, .otherwise = PrivacyAction::kRedact});
  return p;
}

StatusOr<PrivacyPolicy> PrivacyPolicy::from_config(const Config& config) {
  PrivacyPolicy p = defaults();
  for (const PrivacyConfig::TypeClass& entry : config.privacy.classes) {
    if (!parse_pii_type(entry.type)) {
      std::string known;
      for (const auto& [type, cls] : p.classes_) known += (known.empty() ? "" : ", ") + type;
      return invalid_argument(config.source + ":" + std::to_string(entry.line) + ": privacy.classes." + entry.type +
                              ": no detector reports this data type; known types: " + known);
    }
  }
  for (const PrivacyConfig::TypeClass& entry : config.privacy.classes) p.set_class(entry.type, entry.cls);
  for (const PrivacyConfig::Rule& entry : config.privacy.rules) p.set_rule(entry.cls, entry.rule);
  return p;
}

void PrivacyPolicy::set_class(std::string type, std::string cls) { classes_[std::move(type)] = std::move(cls); }

void PrivacyPolicy::set_rule(std::string cls, ClassRule rule) { rules_[std::move(cls)] = rule; }

const std::string* PrivacyPolicy::class_of(std::string_view type) const {
  const auto found = classes_.find(type);
  return found == classes_.end() ? nullptr : &found->second;
}

PrivacyAction PrivacyPolicy::action_for(std::string_view type, TrustLevel trust) const {
  const std::string* cls = class_of(type);
  if (cls == nullptr) return PrivacyAction::kLocalOnly;
  const auto rule = rules_.find(*cls);
  return rule == rules_.end() ? PrivacyAction::kLocalOnly : rule->second.action_for(trust);
}

EgressDecision PrivacyPolicy::decide(const std::vector<std::string>& types, TrustLevel trust) const {
  EgressDecision d;
  for (const std::string& type : types) {
    const PrivacyAction action = action_for(type, trust);
    if (action == PrivacyAction::kRedact &&
        std::find(d.redact_types.begin(), d.redact_types.end(), type) == d.redact_types.end()) {
      d.redact_types.push_back(type);
    }
    if (action == PrivacyAction::kLocalOnly && d.action != PrivacyAction::kLocalOnly) {
      const std::string* cls = class_of(type);
      if (cls == nullptr) {
        d.reason = "data type " + type + " has no sensitivity class: local_only";
      } else if (!rules_.contains(*cls)) {
        d.reason = "class " + *cls + " (" + type + ") has no rule: local_only";
      } else {
        d.reason = "class " + *cls + " (" + type + ") is local_only for " + std::string(trust_level_name(trust)) +
                   " upstreams";
      }
    }
    d.action = std::max(d.action, action);
  }
  if (d.action == PrivacyAction::kLocalOnly) d.redact_types.clear();
  return d;
}

PrivacyPolicy PrivacyPolicy::restricted(PrivacyAction floor) const {
  PrivacyPolicy p = *this;
  if (floor == PrivacyAction::kAllow) return p;
  for (auto& [cls, rule] : p.rules_) {
    rule.allow_from.reset();
    rule.otherwise = std::max(rule.otherwise, floor);
  }
  return p;
}

}  // namespace tiergate
