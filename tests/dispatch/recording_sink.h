// The client's side of a dispatch for tests: what the dispatcher told it and
// sent it, recorded. Never cancels.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "fake_engine.h"
#include "tiergate/dispatch/dispatcher.h"

namespace tiergate::testing {

class RecordingSink final : public DispatchSink {
 public:
  void on_attempt(const Attempt& a) override { attempts.push_back(a); }
  void on_egress(const Attempt& a, std::string_view) override { egress_routes.push_back(a.route); }
  bool on_delta(const Delta& d) override {
    if (deltas == 0 && edge != nullptr) first_delta_after = edge->pieces_sent.load();
    text += d.text;
    for (const TokenLogprob& t : d.logprobs) alternatives.push_back(t.top.size());
    logprobs += d.logprobs.size();
    ++deltas;
    return true;
  }
  bool cancelled() override { return false; }

  std::vector<Attempt> attempts;
  std::vector<std::string> egress_routes;  // the attempt's route of each body that left
  std::string text;
  int deltas = 0;
  size_t logprobs = 0;               // tokens with log-probabilities received
  std::vector<size_t> alternatives;  // alternatives per such token
  const FakeEngine* edge = nullptr;  // when set: how many tokens the edge had made at the first delta
  int first_delta_after = -1;
};

}  // namespace tiergate::testing
