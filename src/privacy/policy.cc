#include "tiergate/privacy/policy.h"

#include <algorithm>

namespace tiergate {

std::string_view trust_level_name(TrustLevel level) {
  switch (level) {
    case TrustLevel::kPublic:
      return "public";
    case TrustLevel::kContract:
      return "contract";
    case TrustLevel::kPrivate:
      return "private";
  }
  return "?";
}

std::optional<TrustLevel> parse_trust_level(std::string_view name) {
  for (TrustLevel level : {TrustLevel::kPublic, TrustLevel::kContract, TrustLevel::kPrivate}) {
    if (name == trust_level_name(level)) return level;
  }
  return std::nullopt;
}

std::string_view privacy_action_name(PrivacyAction action) {
  switch (action) {
    case PrivacyAction::kAllow:
      return "allow";
    case PrivacyAction::kRedact:
      return "redact";
    case PrivacyAction::kLocalOnly:
      return "local_only";
  }
  return "?";
}

std::optional<PrivacyAction> parse_privacy_action(std::string_view name) {
  for (PrivacyAction action : {PrivacyAction::kAllow, PrivacyAction::kRedact, PrivacyAction::kLocalOnly}) {
    if (name == privacy_action_name(action)) return action;
  }
  return std::nullopt;
}

PrivacyPolicy PrivacyPolicy::defaults() {
  PrivacyPolicy p;
  for (const char* type : {"API_KEY", "PRIVATE_KEY", "PASSWORD"}) p.set_class(type, "secret");
  for (const char* type : {"CREDIT_CARD", "IBAN_CODE"}) p.set_class(type, "financial");
  for (const char* type : {"PERSON", "EMAIL_ADDRESS", "PHONE_NUMBER", "STREET_ADDRESS", "US_SSN", "US_DRIVER_LICENSE",
                           "US_PASSPORT", "IP_ADDRESS", "MAC_ADDRESS", "AGE", "NRP"}) {
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
