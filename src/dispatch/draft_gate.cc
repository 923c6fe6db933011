#include "draft_gate.h"

#include <algorithm>

namespace tiergate {
namespace {

// Alternatives asked of the edge per token: enough for an entropy estimate.
constexpr int kVerifierTopLogprobs = 5;

}  // namespace

DraftGate::DraftGate(TokenSink& inner, const Verifier& verifier, double threshold, const SpeculativeConfig& config,
                     const SamplingParams& client, bool stream, double router_prior, std::string intent,
                     std::function<void(double)> on_first_verdict, std::function<SteadyTime()> now)
    : inner_(inner),
      verifier_(verifier),
      threshold_(threshold),
      config_(config),
      client_(client),
      stream_(stream),
      prior_(router_prior),
      intent_(std::move(intent)),
      on_first_verdict_(std::move(on_first_verdict)),
      now_(now ? std::move(now) : std::function<SteadyTime()>([] { return std::chrono::steady_clock::now(); })) {}

ChatRequest DraftGate::edge_request(const ChatRequest& request) {
  ChatRequest r = request;
  r.sampling.logprobs = true;
  r.sampling.top_logprobs = std::max(r.sampling.top_logprobs, kVerifierTopLogprobs);
  return r;
}

Delta DraftGate::for_client(const Delta& delta) const {
  Delta out{delta.text, {}};
  if (!client_.logprobs) return out;
  out.logprobs = delta.logprobs;
  for (TokenLogprob& t : out.logprobs) {
    if (t.top.size() > static_cast<size_t>(client_.top_logprobs)) t.top.resize(static_cast<size_t>(client_.top_logprobs));
  }
  return out;
}

void DraftGate::trim(Completion& completion) const {
  if (!client_.logprobs) {
    completion.logprobs.clear();
    return;
  }
  for (TokenLogprob& t : completion.logprobs) {
    if (t.top.size() > static_cast<size_t>(client_.top_logprobs)) t.top.resize(static_cast<size_t>(client_.top_logprobs));
  }
}

bool DraftGate::verdict(bool finished_by_model) {
  features_ = draft_features(tokens_, finished_by_model, prior_, intent_);
  confidence_ = verifier_.confidence(features_);
  rejected_ = confidence_ < threshold_;
  return !rejected_;
}

bool DraftGate::commit() {
  committed_ = true;
  for (const Delta& d : held_) {
    if (!inner_.on_delta(for_client(d))) {
      client_gone_ = true;
      return false;
    }
  }
  held_.clear();
  return true;
}

bool DraftGate::on_delta(const Delta& delta) {
  if (committed_) {
    if (inner_.on_delta(for_client(delta))) return true;
    client_gone_ = true;
    return false;
  }
  tokens_.insert(tokens_.end(), delta.logprobs.begin(), delta.logprobs.end());
  held_.push_back(delta);
  const auto n = static_cast<int>(tokens_.size());
  // Early exit: a doomed draft stops after K tokens.
  if (!early_checked_ && n >= config_.early_exit_tokens) {
    early_checked_ = true;
    if (!verdict(false)) return false;
    if (on_first_verdict_) on_first_verdict_(confidence_);
  }
  // A stream commits once the hold-back window (tokens, or time since the
  // first draft token, whichever ends first) has passed the verifier.
  if (!first_token_at_) first_token_at_ = now_();
  const bool window_over =
      n >= config_.hold_back_tokens ||
      (config_.hold_back_ms > 0 && now_() - *first_token_at_ >= std::chrono::milliseconds(config_.hold_back_ms));
  if (stream_ && window_over) {
    if (!verdict(false)) return false;
    return commit();
  }
  return !inner_.cancelled();
}

bool DraftGate::cancelled() {
  if (client_gone_ || rejected_) return true;  // a rejected draft stops generating
  return inner_.cancelled();
}

bool DraftGate::finish(FinishReason finish) {
  if (committed_) return !client_gone_;
  if (!verdict(finish == FinishReason::kStop)) return false;
  return commit();
}

}  // namespace tiergate
