#include "tiergate/engines/local/switchable_local_engine.h"

namespace tiergate {

SwitchableLocalEngine::SwitchableLocalEngine(LocalEngineParams params)
    : engine_(std::make_shared<LocalEngine>(params)), params_(std::move(params)) {
  engine_->start();
}

Status SwitchableLocalEngine::wait_until_loaded() { return current()->wait_until_loaded(); }

Status SwitchableLocalEngine::switch_to(LocalEngineParams params) {
  auto next = std::make_shared<LocalEngine>(params);
  next->start();
  if (Status s = next->wait_until_loaded(); !s.is_ok()) return s;
  std::shared_ptr<LocalEngine> previous;
  {
    std::lock_guard lock(mu_);
    previous = std::move(engine_);
    engine_ = std::move(next);
    params_ = std::move(params);
  }
  // `previous` is released here; calls still running on it hold it until they return.
  return Status::ok();
}

std::shared_ptr<LocalEngine> SwitchableLocalEngine::current() const {
  std::lock_guard lock(mu_);
  return engine_;
}

LocalEngineParams SwitchableLocalEngine::current_params() const {
  std::lock_guard lock(mu_);
  return params_;
}

StatusOr<Completion> SwitchableLocalEngine::generate(const ChatRequest& request, const std::string& model,
                                                     TokenSink& sink) {
  return current()->generate(request, model, sink);
}

TierHealth SwitchableLocalEngine::health() const { return current()->health(); }
TierLoad SwitchableLocalEngine::load() const { return current()->load(); }

}  // namespace tiergate
