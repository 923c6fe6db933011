// Holds an edge draft back from the client while the verifier decides
// whether it stands (speculative edge execution, docs/dispatch.md). Sits
// between the edge engine and the client's sink:
//
//   held ──(K tokens: the verifier rejects)──────────────▶ rejected (generation stops)
//     │ ──(stream: hold_back tokens or ms, the verifier accepts)─▶ committed (held text sent,
//     │                                                     the rest passes through)
//     └──(the draft ends: final verdict on the whole draft)─▶ committed or rejected
//
// A rejected draft never reached the client. The edge is asked for
// log-probabilities (the verifier's evidence); the client receives them only
// as far as it asked (logprobs, top_logprobs). Not thread-safe: one request.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tiergate/config/config.h"
#include "tiergate/core/clock.h"
#include "tiergate/dispatch/verifier.h"
#include "tiergate/engines/engine.h"

namespace tiergate {

class DraftGate final : public TokenSink {
 public:
  // `client` is what the client asked for (logprobs, stream); prior and
  // intent come from the router. `on_first_verdict` (may be empty) hears
  // the confidence of a first verdict that let the draft go on (hedging).
  DraftGate(TokenSink& inner, const Verifier& verifier, double threshold, const SpeculativeConfig& config,
            const SamplingParams& client, bool stream, double router_prior, std::string intent,
            std::function<void(double)> on_first_verdict = {}, std::function<SteadyTime()> now = {});

  // `now` (empty = the steady clock) times config.hold_back_ms.

  // The request to send to the edge: log-probabilities with alternatives.
  static ChatRequest edge_request(const ChatRequest& request);

  bool on_delta(const Delta& delta) override;
  bool cancelled() override;
  void on_request_sent(std::string_view body) override { inner_.on_request_sent(body); }

  // After the edge finished its draft: the final verdict when none was
  // reached yet. True when the draft stands (what was held has been passed
  // on; false if the client went away meanwhile: check cancelled()).
  bool finish(FinishReason finish);
  // The completion as the client should see it (log-probabilities trimmed
  // to what it asked for).
  void trim(Completion& completion) const;

  bool rejected() const { return rejected_; }
  bool committed() const { return committed_; }
  const DraftFeatures& features() const { return features_; }
  double confidence() const { return confidence_; }
  int tokens() const { return static_cast<int>(tokens_.size()); }

 private:
  // Scores the draft so far; sets rejected_ below the threshold.
  bool verdict(bool finished_by_model);
  bool commit();
  Delta for_client(const Delta& delta) const;

  TokenSink& inner_;
  const Verifier& verifier_;
  const double threshold_;
  const SpeculativeConfig& config_;
  const SamplingParams client_;
  const bool stream_;
  const double prior_;
  const std::string intent_;
  const std::function<void(double)> on_first_verdict_;
  const std::function<SteadyTime()> now_;

  std::vector<TokenLogprob> tokens_;
  std::optional<SteadyTime> first_token_at_;  // for hold_back_ms
  std::vector<Delta> held_;
  bool early_checked_ = false;
  bool committed_ = false;
  bool rejected_ = false;
  bool client_gone_ = false;
  DraftFeatures features_;
  double confidence_ = 0;
};

}  // namespace tiergate
