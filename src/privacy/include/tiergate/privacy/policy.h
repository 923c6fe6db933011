// The privacy policy (issue 4): which detected data may leave the device for
// which upstream, and in what form.
//
// Each data type a detector reports (PERSON, CREDIT_CARD, ...) belongs to a
// sensitivity class (pii, financial, secret, ...). Per class the policy says
// what may reach an upstream, by the upstream's trust level:
//   allow      the values go as they are;
//   redact     each value is replaced by a placeholder before it leaves
//              (redaction.h) and restored in the answer;
//   local_only nothing of the request leaves: the edge answers or the
//              request is refused with the reason.
// A class may be allowed from a trust level up and take another action below
// it ("allowed to contract and private upstreams, redacted for public ones").
//
// It fails closed: a type with no class, or a class the policy does not
// mention, is local_only; so is a request whose scan failed. Per-request
// restrictions (restrict()) can only make a policy stricter.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tiergate/config/config.h"
#include "tiergate/core/status.h"

namespace tiergate {

// The rule of one class; TrustLevel, PrivacyAction and ClassRule come from
// the config module, which parses them.

// What a request's findings allow for one upstream.
struct EgressDecision {
  PrivacyAction action = PrivacyAction::kAllow;  // the strictest over the classes found
  std::vector<std::string> redact_types;         // kRedact: the types whose values are replaced
  std::string reason;                            // kLocalOnly: e.g. "class secret (API_KEY) is local_only"
};

class PrivacyPolicy {
 public:
  // Defaults (docs/privacy.md): every type the detectors know in a class —
  // secret (keys, tokens, passwords, private keys) and financial (cards,
  // IBANs) local_only; pii (names, contacts, identifiers, addresses) redact.
  static PrivacyPolicy defaults();
  // The defaults overlaid with the config's privacy.classes and
  // privacy.rules. kInvalidArgument naming the file and line for a data type
  // no detector reports (a typo would otherwise leave the data unprotected
  // under its real name).
  static StatusOr<PrivacyPolicy> from_config(const Config& config);

  // `type` (e.g. "PERSON") -> `cls` (e.g. "pii"); replaces an earlier entry.
  void set_class(std::string type, std::string cls);
  void set_rule(std::string cls, ClassRule rule);

  // The class of a type; nullopt when the policy does not name one.
  const std::string* class_of(std::string_view type) const;
  // The action for data of `type` sent to an upstream of `trust`: local_only
  // for a type without a class or a class without a rule.
  PrivacyAction action_for(std::string_view type, TrustLevel trust) const;

  // The decision for a request in which `types` were found (one entry per
  // type; repeats are harmless), for an upstream of `trust`.
  EgressDecision decide(const std::vector<std::string>& types, TrustLevel trust) const;

  // The policy with every class at least as strict as `floor` (a
  // per-request header asking for redact or local_only): a class allowed
  // becomes `floor`; one already stricter stays. kAllow changes nothing.
  PrivacyPolicy restricted(PrivacyAction floor) const;

  const std::map<std::string, std::string, std::less<>>& classes() const { return classes_; }
  const std::map<std::string, ClassRule, std::less<>>& rules() const { return rules_; }

 private:
  std::map<std::string, std::string, std::less<>> classes_;  // type -> class
  std::map<std::string, ClassRule, std::less<>> rules_;      // class -> rule
};

}  // namespace tiergate
