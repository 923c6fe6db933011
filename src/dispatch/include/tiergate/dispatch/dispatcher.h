// Runs a RoutePlan against the engines: tries the candidates in order and
// moves to the next one only when a tier failed before any text reached the
// client and the failure allows it (Status::allows_fallback). A client never
// receives parts of two answers.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "tiergate/config/config.h"
#include "tiergate/core/clock.h"
#include "tiergate/engines/engine.h"
#include "tiergate/router/route_plan.h"

namespace tiergate {

// What the dispatcher tells the server about each attempt, before any delta
// of that attempt, so the server can name the tier in headers it has not sent yet.
struct Attempt {
  std::string tier;   // "edge" or upstream name
  std::string model;
  std::string route;  // reason, with ">fallback:<tier>" appended on a fallback
};

class DispatchSink : public TokenSink {
 public:
  virtual void on_attempt(const Attempt& attempt) = 0;
};

struct DispatchResult {
  Completion completion;
  Attempt attempt;      // the one that answered
  double cost_usd = 0;  // from the answering tier's price and the usage
  int attempts = 1;
};

class Dispatcher {
 public:
  // Engines are owned by the caller and outlive the dispatcher. edge may be null.
  Dispatcher(ConfigPtr config, Engine* edge, std::map<std::string, Engine*> cloud);

  // Thread-safe. Errors: the last attempt's Status; kCancelled when the client left.
  StatusOr<DispatchResult> run(const RoutePlan& plan, const ChatRequest& request, DispatchSink& sink);

  // Cost of a completion on a tier, from the configured prices (USD).
  double cost_usd(const std::string& tier, const Usage& usage) const;

  Engine* edge() const { return edge_; }
  Engine* cloud(const std::string& name) const;

 private:
  ConfigPtr config_;
  Engine* edge_;
  std::map<std::string, Engine*> cloud_;
};

}  // namespace tiergate
