#include "tiergate/dispatch/dispatcher.h"

#include <chrono>
#include <string>
#include <vector>

#include "draft_gate.h"
#include "handoff.h"
#include "hedge.h"

namespace tiergate {

namespace {

// Forwards to the server's sink, remembers whether anything was sent, and
// reports each request body that leaves for the attempt's upstream.
class TrackingSink final : public TokenSink {
 public:
  TrackingSink(DispatchSink& inner, const Attempt& attempt) : inner_(inner), attempt_(attempt) {}
  bool on_delta(const Delta& delta) override {
    if (!delta.text.empty() || !delta.logprobs.empty()) sent_ = true;
    return inner_.on_delta(delta);
  }
  bool cancelled() override { return inner_.cancelled(); }
  void on_request_sent(std::string_view body) override { inner_.on_egress(attempt_, body); }
  bool sent() const { return sent_; }

 private:
  DispatchSink& inner_;
  const Attempt& attempt_;
  bool sent_ = false;
};

// Restores redacted values in a streamed answer before the client sees it,
// holding back only a possible placeholder split across deltas (redaction.h).
// Log-probabilities pass as the upstream gave them (of the redacted text).
class RestoringSink final : public TokenSink {
 public:
  RestoringSink(TokenSink& inner, const RedactionMap& map) : inner_(inner), restorer_(map) {}
  bool on_delta(const Delta& delta) override {
    Delta restored{restorer_.push(delta.text), delta.logprobs};
    if (restored.text.empty() && restored.logprobs.empty()) return !inner_.cancelled();
    return inner_.on_delta(restored);
  }
  bool cancelled() override { return inner_.cancelled(); }
  void on_request_sent(std::string_view body) override { inner_.on_request_sent(body); }
  // What was held back when the answer ended.
  bool flush() {
    Delta rest{restorer_.finish(), {}};
    return rest.text.empty() || inner_.on_delta(rest);
  }

 private:
  TokenSink& inner_;
  StreamRestorer restorer_;
};

// The client's side of one attempt: what reaches the client is tracked, and
// redacted values are restored on the way.
class AttemptSink {
 public:
  AttemptSink(DispatchSink& sink, const Attempt& attempt, const RedactionMap* redactions) : tracking_(sink, attempt) {
    if (redactions != nullptr) restoring_.emplace(tracking_, *redactions);
  }
  TokenSink& out() { return restoring_ ? static_cast<TokenSink&>(*restoring_) : tracking_; }
  bool sent() const { return tracking_.sent(); }
  // Passes on what restoration held back; false when the client left.
  bool flush() { return !restoring_ || restoring_->flush(); }

 private:
  TrackingSink tracking_;
  std::optional<RestoringSink> restoring_;
};

}  // namespace

Dispatcher::Dispatcher(ConfigPtr config, Engine* edge, std::map<std::string, Engine*> cloud,
                       std::shared_ptr<const PrivacyPolicy> privacy)
    : config_(std::move(config)),
      edge_(edge),
      cloud_(std::move(cloud)),
      privacy_(std::move(privacy)),
      conversations_(std::make_unique<ConversationStore>(std::chrono::seconds(config_->handoff.ttl_s),
                                                         static_cast<size_t>(config_->handoff.max_conversations))) {}

Engine* Dispatcher::cloud(const std::string& name) const {
  auto it = cloud_.find(name);
  return it == cloud_.end() ? nullptr : it->second;
}

double Dispatcher::cost_usd(const std::string& tier, const Usage& usage) const {
  if (tier == "edge") return config_->edge.price.cost_usd(usage.prompt_tokens, usage.completion_tokens);
  const UpstreamConfig* up = config_->upstream(tier);
  return up != nullptr ? up->price.cost_usd(usage.prompt_tokens, usage.completion_tokens) : 0;
}

StatusOr<DispatchResult> Dispatcher::run(const RoutePlan& plan, const ChatRequest& request, DispatchSink& sink,
                                         const PrivacyScan* scan) {
  const SteadyTime now = std::chrono::steady_clock::now();
  StatusOr<DispatchResult> result = run_plan(plan, request, sink, scan, now);
  if (result.is_ok() && !request.conversation.empty()) {
    conversations_->record(request.conversation, result->attempt.tier == "edge" ? TierKind::kEdge : TierKind::kCloud,
                           now);
  }
  return result;
}

StatusOr<DispatchResult> Dispatcher::run_plan(const RoutePlan& plan, const ChatRequest& request, DispatchSink& sink,
                                              const PrivacyScan* scan, SteadyTime now) {
  if (plan.candidates.empty()) return unavailable("no tier can serve this request");
  Status last = unavailable("no tier was tried");
  std::string route = plan.reason;
  int attempts = 0;
  bool edge_planned = false;
  std::string denied;  // the policy's reason for the last hop it forbade
  // Tiers that failed (not privacy denials), for degradation and the error.
  bool edge_failed = false, cloud_failed = false;
  std::vector<std::string> failures;
  // Speculative plans: the first edge attempt drafts behind a DraftGate.
  std::optional<SpeculativeOutcome> speculative;
  std::string next_hop = ">fallback:";
  // Cross-tier handoff: the conversation was being served on the edge; its
  // earlier turns are prepared once, at the first cloud hop.
  const bool handing_off = !request.conversation.empty() &&
                           conversations_->last_tier(request.conversation, now) == TierKind::kEdge;
  std::optional<HandedOff> handed;
  // A constrained device caps the edge's answer; the answer then says so.
  const bool edge_capped =
      plan.edge_max_tokens && (!request.sampling.max_tokens || *request.sampling.max_tokens > *plan.edge_max_tokens);
  std::optional<ChatRequest> capped;
  if (edge_capped) {
    capped = request;
    capped->sampling.max_tokens = *plan.edge_max_tokens;
  }
  const ChatRequest& edge_request = capped ? *capped : request;
  static const Verifier kBuiltInVerifier;
  const Verifier& verifier = verifier_ != nullptr ? *verifier_ : kBuiltInVerifier;

  // What a cloud hop may send: the request with its earlier turns handed off
  // (when the edge served the conversation) and redacted as the policy says
  // for that upstream; nullopt when the policy keeps it from the upstream
  // (`denied` then holds the reason).
  struct CloudHop {
    ChatRequest request;
    std::shared_ptr<const RedactionMap> redactions;
  };
  auto prepare_cloud = [&](const RouteCandidate& c) -> std::optional<CloudHop> {
    const ChatRequest* outgoing = &request;
    const PrivacyScan* outgoing_scan = scan;
    static const std::vector<size_t> kNoMessages;
    const std::vector<size_t>* redact_all_in = &kNoMessages;
    if (handing_off) {
      if (!handed) {
        handed = hand_off(config_->handoff, request, privacy_ != nullptr ? scan : nullptr, edge_, *conversations_,
                          whole_scan(tagger_.get()), sink, now);
      }
      outgoing = &handed->request;
      if (handed->scan) outgoing_scan = &*handed->scan;
      redact_all_in = &handed->redact_all_in;
    }
    if (privacy_ == nullptr) return CloudHop{*outgoing, nullptr};
    const UpstreamConfig* up = config_->upstream(c.tier);
    const TrustLevel trust = up != nullptr ? up->trust : TrustLevel::kPublic;
    static const PrivacyScan kNoScan = [] {
      PrivacyScan none;
      none.failure = "no scan result reached dispatch";
      return none;
    }();
    Egress egress =
        prepare_egress(*privacy_, outgoing_scan != nullptr ? *outgoing_scan : kNoScan, *outgoing, trust, *redact_all_in);
    if (egress.decision.action == PrivacyAction::kLocalOnly) {
      denied = egress.decision.reason;
      return std::nullopt;
    }
    return CloudHop{std::move(egress.request), std::move(egress.redactions)};
  };

  // One attempt on a tier; false when the next candidate may not be tried.
  std::optional<DispatchResult> answer;
  size_t current = 0;  // the plan index of the candidate being tried
  const RouteCandidate* failed_hedge = nullptr;  // tried already, as a hedge that failed
  auto attempt_for = [&](const RouteCandidate& c, const std::string& attempt_route, const RedactionMap* redactions) {
    Attempt attempt;
    attempt.tier = c.tier;
    attempt.model = c.model;
    attempt.route = attempt_route;
    attempt.degraded = plan.degraded;
    if (c.kind == TierKind::kEdge && cloud_failed) attempt.degraded = Degradation::kCloudUnavailable;
    if (c.kind == TierKind::kCloud && edge_failed) attempt.degraded = Degradation::kEdgeUnavailable;
    if (c.kind == TierKind::kEdge && edge_capped && attempt.degraded == Degradation::kNone) {
      attempt.degraded = Degradation::kDeviceConstrained;
    }
    if (redactions != nullptr) {
      attempt.route += "+redacted";
      attempt.privacy = PrivacyAction::kRedact;
      attempt.redacted_types = redactions->types();
    } else if (c.kind == TierKind::kEdge && !denied.empty()) {
      attempt.privacy = PrivacyAction::kLocalOnly;  // the edge answers because the policy kept the request here
    }
    return attempt;
  };
  // A rejected draft's hedge: its answer, replayed to the client on this
  // thread, when it succeeded (true). Else false with `last` set: the plan
  // goes on unless the client left (kCancelled).
  // The answer of an attempt that succeeded.
  auto accept = [&](Completion completion, const Attempt& attempt, const RouteCandidate& c,
                    const RedactionMap* redactions) {
    DispatchResult done{std::move(completion), attempt, 0, attempts, speculative, ""};
    if (redactions != nullptr) done.completion.text = redactions->restore(done.completion.text);
    done.cost_usd = cost_usd(c.tier, done.completion.usage);
    answer = std::move(done);
  };
  auto answer_from_hedge = [&](Hedge& hedge, const RouteCandidate& c, const RedactionMap* redactions) {
    StatusOr<Completion> result = hedge.wait();
    const Attempt attempt = attempt_for(c, route + ">escalated:" + c.tier, redactions);
    sink.on_attempt(attempt);
    ++attempts;
    AttemptSink client(sink, attempt, redactions);
    const bool delivered = hedge.replay(client.out(), /*deltas=*/result.is_ok());
    if (!result.is_ok()) {
      last = result.status();
      failed_hedge = &c;
      if (last.allows_fallback()) {
        cloud_failed = true;
        failures.push_back(c.tier + ": " + last.message());
      }
      return false;
    }
    if (!delivered || !client.flush()) {
      last = cancelled("client went away");
      return false;
    }
    accept(std::move(result).value(), attempt, c, redactions);
    return true;
  };
  auto attempt_on = [&](Engine* engine, const RouteCandidate& c, const ChatRequest& sent,
                        const RedactionMap* redactions) {
    const Attempt attempt = attempt_for(c, route, redactions);
    sink.on_attempt(attempt);
    ++attempts;
    AttemptSink client(sink, attempt, redactions);
    TokenSink& out = client.out();
    std::optional<DraftGate> gate;
    // Hedging: the next cloud candidate starts in parallel when the first
    // verdict passes with a confidence below speculative.hedge_below.
    std::optional<Hedge> hedge;
    std::optional<CloudHop> hedge_hop;
    const RouteCandidate* hedge_to = nullptr;
    auto maybe_hedge = [&](double confidence) {
      const std::optional<double>& below = config_->speculative.hedge_below;
      if (!below || confidence >= *below) return;
      for (size_t j = current + 1; j < plan.candidates.size() && hedge_to == nullptr; ++j) {
        if (plan.candidates[j].kind == TierKind::kCloud) hedge_to = &plan.candidates[j];
      }
      Engine* e = hedge_to != nullptr ? cloud(hedge_to->tier) : nullptr;
      if (e == nullptr || !(hedge_hop = prepare_cloud(*hedge_to))) return;
      hedge.emplace(*e, hedge_hop->request, hedge_to->model);
    };
    if (plan.speculative && c.kind == TierKind::kEdge && !speculative) {
      gate.emplace(out, verifier, config_->speculative.threshold.value_or(verifier.threshold()), config_->speculative,
                   request.sampling, request.stream, plan.detail.score, plan.detail.intent, maybe_hedge);
    }
    const auto started = std::chrono::steady_clock::now();
    StatusOr<Completion> result = gate ? engine->generate(DraftGate::edge_request(sent), c.model, *gate)
                                       : engine->generate(sent, c.model, out);
    if (gate) {
      if (result.is_ok()) {
        if (gate->finish(result->finish)) {
          gate->trim(*result);
        } else if (!gate->rejected()) {
          result = cancelled("client went away");
        }
      }
      SpeculativeOutcome o;
      o.confidence = gate->confidence();
      o.threshold = config_->speculative.threshold.value_or(verifier.threshold());
      o.draft_tokens = gate->tokens();
      o.features = gate->features();
      o.hedged = hedge.has_value();
      if (gate->rejected()) {
        // Escalation: the draft never reached the client; the next tier answers.
        o.time_lost_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
        speculative = o;
        next_hop = ">escalated:";
        last = unavailable("the verifier rejected the edge draft");
        if (hedge && answer_from_hedge(*hedge, *hedge_to, hedge_hop->redactions.get())) return false;
        return !hedge || last.code() != StatusCode::kCancelled;
      }
      if (hedge) {
        // The draft stands (or the edge failed): the hedge loses. What it
        // sent still left the device, for the audit.
        hedge->cancel();
        (void)hedge->wait();
        const Attempt cancelled_hedge = attempt_for(*hedge_to, route + ">hedge_cancelled:" + hedge_to->tier,
                                                    hedge_hop->redactions.get());
        TrackingSink audit(sink, cancelled_hedge);
        hedge->replay(audit, /*deltas=*/false);
      }
      // An edge that failed instead is an ordinary fallback, not a verdict.
      if (result.is_ok()) {
        o.accepted = true;
        speculative = o;
      }
    }
    if (result.is_ok() && !client.flush()) result = cancelled("client went away");
    if (result.is_ok()) {
      accept(std::move(result).value(), attempt, c, redactions);
      return false;
    }
    last = result.status();
    if (last.allows_fallback()) {
      (c.kind == TierKind::kEdge ? edge_failed : cloud_failed) = true;
      failures.push_back(c.tier + ": " + last.message());
    }
    return !client.sent() && last.allows_fallback();
  };
  // The error of a request no tier could answer: the last tier's code, and
  // every tier's reason when there were several.
  auto failed = [&]() -> Status {
    if (last.code() == StatusCode::kPermissionDenied && edge_failed && !denied.empty()) {
      // The policy kept the request on the device and the edge failed too.
      std::string edge_error;
      for (const std::string& f : failures) {
        if (f.rfind("edge: ", 0) == 0) edge_error = f.substr(6);
      }
      return permission_denied("privacy: " + denied + ", and the edge, which may answer on the device, could not: " +
                               edge_error);
    }
    if (failures.size() < 2 || !last.allows_fallback()) return last;
    std::string message = "no tier could answer this request";
    for (const std::string& f : failures) message += "; " + f;
    return Status(last.code(), message);
  };

  for (size_t i = 0; i < plan.candidates.size(); ++i) {
    const RouteCandidate& c = plan.candidates[i];
    Engine* engine = c.kind == TierKind::kEdge ? edge_ : cloud(c.tier);
    edge_planned = edge_planned || c.kind == TierKind::kEdge;
    if (i > 0) {
      route += next_hop + c.tier;
      next_hop = ">fallback:";
    }
    if (engine == nullptr) {
      last = unavailable("tier " + c.tier + " is not configured");
      failures.push_back(c.tier + ": not configured");
      continue;
    }
    current = i;
    if (&c == failed_hedge) continue;
    if (c.kind == TierKind::kCloud) {
      std::optional<CloudHop> hop = prepare_cloud(c);
      if (!hop) {
        last = permission_denied("privacy: " + denied);
        route += ">privacy_denied:" + c.tier;
        continue;
      }
      if (!attempt_on(engine, c, hop->request, hop->redactions.get())) break;
      continue;
    }
    if (!attempt_on(engine, c, edge_request, nullptr)) break;
  }
  if (answer && answer->attempt.tier != "edge" && handed) answer->handoff = handed->mode;
  if (answer) return std::move(*answer);
  // The policy kept the request from the cloud and the plan had no edge to
  // fall back to: local_only means the edge answers when there is one.
  if (!denied.empty() && !edge_planned && attempts == 0) {
    if (edge_ != nullptr) {
      route += ">privacy:edge";
      const RouteCandidate edge{TierKind::kEdge, "edge", ""};
      attempt_on(edge_, edge, edge_request, nullptr);
      if (answer) return std::move(*answer);
      return failed();
    }
    return permission_denied("privacy: " + denied + ", and no edge model is configured to answer on the device");
  }
  return failed();
}

}  // namespace tiergate
