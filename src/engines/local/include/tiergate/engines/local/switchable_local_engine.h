// The edge tier as the gateway holds it: a LocalEngine that can be replaced
// by another variant of the model while requests run (run-time adaptation,
// fleet/device_adaptation.h).
//
// Each generate() call runs on the engine current when it started. switch_to()
// loads the new variant first, so the edge never stops answering; once it is
// ready new calls go to it, and the old engine is destroyed when its last
// call returns (the memory of both is held meanwhile). A variant that fails
// to load leaves the current one in place.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "tiergate/engines/engine.h"
#include "tiergate/engines/local/local_engine.h"

namespace tiergate {

class SwitchableLocalEngine final : public Engine {
 public:
  // Creates and starts the first engine (loading on its worker thread).
  explicit SwitchableLocalEngine(LocalEngineParams params);

  // Blocks until the current engine left LOADING; its load result.
  Status wait_until_loaded();

  // Loads `params` (typically another model_path and a context) and makes it
  // current when ready. Blocks for the load; call from a background thread.
  // Errors: the load errors of LocalEngine; the current engine is kept.
  Status switch_to(LocalEngineParams params);

  std::shared_ptr<LocalEngine> current() const;
  LocalEngineParams current_params() const;

  StatusOr<Completion> generate(const ChatRequest& request, const std::string& model, TokenSink& sink) override;
  TierHealth health() const override;
  TierLoad load() const override;

 private:
  mutable std::mutex mu_;  // guards the two fields below
  std::shared_ptr<LocalEngine> engine_;
  LocalEngineParams params_;
};

}  // namespace tiergate
