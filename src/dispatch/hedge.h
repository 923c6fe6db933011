// Hedging for speculative edge execution (speculative.hedge_below): when the
// verifier's first verdict on an edge draft passes but without much room,
// the cloud request starts in parallel, so that a draft rejected at its end
// costs no extra wait for the cloud's answer. Whichever loses is cancelled:
// an accepted draft cancels the hedge; a rejected one takes the hedge's
// answer.
//
// The hedge runs on a thread of its own into a buffer; nothing reaches the
// client from that thread. replay() hands the caller, on its own thread, the
// request bodies that left (for the egress audit) and then the answer's
// deltas. A cancelled hedge's bodies left too and must be replayed.
#pragma once

#include <atomic>
#include <string>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tiergate/engines/engine.h"

namespace tiergate {

class Hedge {
 public:
  // Starts engine.generate(request, model) on a new thread.
  Hedge(Engine& engine, ChatRequest request, std::string model);
  ~Hedge();  // cancels and joins
  Hedge(const Hedge&) = delete;
  Hedge& operator=(const Hedge&) = delete;

  void cancel() { cancelled_ = true; }
  // Waits for the hedge to end; its completion or error (kCancelled after cancel()).
  StatusOr<Completion> wait();
  // After wait(): each request body that left, then (with `deltas`) every
  // delta, into sink. False when the sink refused a delta (the client left).
  bool replay(TokenSink& sink, bool deltas);

 private:
  class Buffer;
  void run();

  Engine& engine_;
  const ChatRequest request_;
  const std::string model_;
  std::atomic<bool> cancelled_{false};
  std::mutex mu_;  // guards bodies_, deltas_
  std::vector<std::string> bodies_;
  std::vector<Delta> deltas_;
  std::optional<StatusOr<Completion>> result_;  // set by run() before the thread ends
  std::thread thread_;
};

}  // namespace tiergate
