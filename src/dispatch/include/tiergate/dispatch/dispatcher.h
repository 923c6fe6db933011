// Runs a RoutePlan against the engines: tries the candidates in order and
// moves to the next one only when a tier failed before any text reached the
// client and the failure allows it (Status::allows_fallback). A client never
// receives parts of two answers.
//
// Privacy (docs/privacy.md): before every hop to a cloud upstream — first
// try or fallback alike — the request's scan is checked against the policy
// for that upstream's trust level. A hop the policy forbids is skipped (never
// overridden by cost or by fallback); when no allowed tier is left in the
// plan, the edge answers if there is one, else the request fails with
// kPermissionDenied and the policy's reason. Under `redact` the upstream gets
// the redacted request and the client the restored answer, streamed deltas
// included.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "tiergate/config/config.h"
#include "tiergate/core/clock.h"
#include "tiergate/dispatch/conversation_store.h"
#include "tiergate/dispatch/verifier.h"
#include "tiergate/engines/engine.h"
#include "tiergate/privacy/egress.h"
#include "tiergate/privacy/policy.h"
#include "tiergate/router/route_plan.h"

namespace tiergate {

// What the dispatcher tells the server about each attempt, before any delta
// of that attempt, so the server can name the tier in headers it has not sent yet.
struct Attempt {
  std::string tier;   // "edge" or upstream name
  std::string model;
  // The plan's reason, with ">fallback:<tier>" appended on a fallback,
  // ">privacy_denied:<tier>" for a hop the privacy policy forbade,
  // ">privacy:edge" when the edge answers because the policy kept the
  // request from every planned tier, and "+redacted" when values were
  // replaced before the request left.
  std::string route;
  // What the privacy policy did: the request left as it was (kAllow) or
  // redacted, or the edge answers because the policy kept it on the device
  // after a forbidden hop (kLocalOnly).
  PrivacyAction privacy = PrivacyAction::kAllow;
  // This tier answers because the wanted one could not: the plan's own
  // degradation, or a fallback after a tier of the other kind failed.
  Degradation degraded = Degradation::kNone;
  // With kRedact: the data types whose values were replaced, sorted.
  std::vector<std::string> redacted_types;
};

class DispatchSink : public TokenSink {
 public:
  virtual void on_attempt(const Attempt& attempt) = 0;
  // A request body left the device for `attempt`'s upstream (each send,
  // retries included): for the egress audit. Metadata only may be kept.
  virtual void on_egress(const Attempt& attempt, std::string_view body) { (void)attempt, (void)body; }
};

// What became of a speculative edge draft (RoutePlan::speculative).
struct SpeculativeOutcome {
  bool accepted = false;     // the draft is the answer; false: escalated, the draft discarded
  double confidence = 0;     // the verifier's last score
  double threshold = 0;
  int draft_tokens = 0;      // tokens the edge generated before the verdict stood
  double time_lost_ms = 0;   // edge time spent on a discarded draft
  bool hedged = false;       // the cloud request started while the edge drafted (speculative.hedge_below)
  DraftFeatures features;    // for the verifier log (no text)
};

struct DispatchResult {
  Completion completion;
  Attempt attempt;      // the one that answered
  double cost_usd = 0;  // from the answering tier's price and the usage
  int attempts = 1;
  std::optional<SpeculativeOutcome> speculative;  // set when the plan was speculative and the edge drafted
  // How the conversation's earlier turns reached the cloud when the edge had
  // been serving it (handoff.history): "raw", "redacted", "summary"; "" = no handoff.
  std::string handoff;
};

class Dispatcher {
 public:
  // Engines are owned by the caller and outlive the dispatcher. edge may be
  // null. Without a privacy policy nothing is checked (privacy.enabled: false).
  Dispatcher(ConfigPtr config, Engine* edge, std::map<std::string, Engine*> cloud,
             std::shared_ptr<const PrivacyPolicy> privacy = nullptr);

  // Thread-safe. When the request continues a conversation the edge served
  // last, a cloud hop gets its earlier turns as handoff.history says
  // (docs/dispatch.md). `scan` is what the privacy scan found in `request`; with a
  // policy and no scan, nothing may leave the device (fail closed). Errors:
  // the last attempt's Status (when more than one tier was tried, its
  // message names each tier and why it could not answer); kCancelled when
  // the client left; kPermissionDenied when the policy forbade every tier
  // that could answer.
  StatusOr<DispatchResult> run(const RoutePlan& plan, const ChatRequest& request, DispatchSink& sink,
                               const PrivacyScan* scan = nullptr);

  const PrivacyPolicy* privacy() const { return privacy_.get(); }

  // The verifier of speculative plans; the built-in one when none is set.
  // Its threshold is used unless config.speculative.threshold is set. Set
  // before serving (not synchronised with run()).
  void set_verifier(std::shared_ptr<const Verifier> verifier) { verifier_ = std::move(verifier); }
  // The tagger that scans an edge-written summary before it leaves
  // (handoff.history: summary); null = structured detectors only. Set
  // before serving.
  void set_tagger(std::shared_ptr<const PiiTagger> tagger) { tagger_ = std::move(tagger); }
  // Which tier served each conversation (request.conversation) last.
  ConversationStore& conversations() { return *conversations_; }

  // Cost of a completion on a tier, from the configured prices (USD).
  double cost_usd(const std::string& tier, const Usage& usage) const;

  Engine* edge() const { return edge_; }
  Engine* cloud(const std::string& name) const;

 private:
  ConfigPtr config_;
  Engine* edge_;
  std::map<std::string, Engine*> cloud_;
  std::shared_ptr<const PrivacyPolicy> privacy_;
  std::shared_ptr<const Verifier> verifier_;
  std::shared_ptr<const PiiTagger> tagger_;
  std::unique_ptr<ConversationStore> conversations_;

  StatusOr<DispatchResult> run_plan(const RoutePlan& plan, const ChatRequest& request, DispatchSink& sink,
                                    const PrivacyScan* scan, SteadyTime now);
};

}  // namespace tiergate
