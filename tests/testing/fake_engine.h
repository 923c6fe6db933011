// A scripted Engine for fault injection in server and dispatch tests: answers
// with fixed pieces, or fails before or after some of them, or streams until
// the client goes away. Not a model: real answers come from llama.cpp in the
// engine and integration tests.
#pragma once

#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tiergate/engines/engine.h"

namespace tiergate::testing {

class FakeEngine final : public Engine {
 public:
  std::vector<std::string> pieces = {"Hello", ", ", "world"};
  Status fail_before;          // returned before any piece when not OK
  Status fail_after_first;     // returned after the first piece when not OK
  bool until_cancelled = false;  // stream pieces until the sink reports the client gone
  TierState state = TierState::kReady;
  std::optional<SteadyTime> retry_at;  // what health() reports when not ready
  // Down until then (steady clock): health() unavailable with that retry
  // time, generate() kUnavailable at once; up after.
  std::optional<SteadyTime> down_until;
  std::string model_name = "fake-model";

  std::atomic<int> calls{0};
  ChatRequest last_request;  // what the last call received (single-threaded tests only)
  // Like a cloud engine, report the "body" that leaves: here the message
  // contents joined by newlines (wire_body()).
  bool reports_egress = false;
  static std::string wire_body(const ChatRequest& request) {
    std::string body;
    for (const ChatMessage& m : request.messages) body += m.content + "\n";
    return body;
  }
  std::atomic<bool> saw_cancel{false};
  // With request.sampling.logprobs, each piece carries one token with this
  // log-probability and these alternatives (the verifier's evidence).
  double piece_logprob = -0.05;
  std::vector<TopLogprob> piece_top = {};
  std::atomic<int> pieces_sent{0};

  StatusOr<Completion> generate(const ChatRequest& request, const std::string& model, TokenSink& sink) override {
    ++calls;
    last_request = request;
    if (down_until && std::chrono::steady_clock::now() < *down_until) return unavailable("fake tier down for now");
    if (reports_egress) sink.on_request_sent(wire_body(request));
    if (!fail_before.is_ok()) return fail_before;
    Completion c;
    c.model = model.empty() ? model_name : model;
    c.usage.prompt_tokens = estimate_prompt_tokens(request.messages);
    for (size_t i = 0; until_cancelled || i < pieces.size(); ++i) {
      std::string piece = pieces[i % pieces.size()];
      Delta delta{piece, {}};
      if (request.sampling.logprobs) delta.logprobs.push_back({piece, piece_logprob, piece_top});
      if (sink.cancelled()) {
        saw_cancel = true;
        return cancelled("client went away");
      }
      ++pieces_sent;
      if (!sink.on_delta(delta)) {
        saw_cancel = true;
        return cancelled("client went away");
      }
      c.text += piece;
      if (request.sampling.logprobs) c.logprobs.push_back(delta.logprobs.front());
      ++c.usage.completion_tokens;
      if (i == 0 && !fail_after_first.is_ok()) return fail_after_first;
      // Bounded: a cancelled stream ends within the loop; 100000 pieces at most.
      if (until_cancelled) std::this_thread::sleep_for(std::chrono::milliseconds(2));
      if (i > 100000) break;
    }
    return c;
  }
  TierHealth health() const override {
    if (down_until && std::chrono::steady_clock::now() < *down_until) {
      return {TierState::kUnavailable, "down for now", down_until};
    }
    return {state, state == TierState::kReady ? "ok" : "down", state == TierState::kReady ? std::nullopt : retry_at};
  }
  TierLoad load_value;  // what load() reports
  TierLoad load() const override { return load_value; }
};

}  // namespace tiergate::testing
