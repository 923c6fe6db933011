#include "tiergate/dispatch/dispatcher.h"

namespace tiergate {

namespace {

// Forwards to the server's sink and remembers whether anything was sent.
class TrackingSink final : public TokenSink {
 public:
  explicit TrackingSink(DispatchSink& inner) : inner_(inner) {}
  bool on_delta(const Delta& delta) override {
    if (!delta.text.empty() || !delta.logprobs.empty()) sent_ = true;
    return inner_.on_delta(delta);
  }
  bool cancelled() override { return inner_.cancelled(); }
  bool sent() const { return sent_; }

 private:
  DispatchSink& inner_;
  bool sent_ = false;
};

}  // namespace

Dispatcher::Dispatcher(ConfigPtr config, Engine* edge, std::map<std::string, Engine*> cloud)
    : config_(std::move(config)), edge_(edge), cloud_(std::move(cloud)) {}

Engine* Dispatcher::cloud(const std::string& name) const {
  auto it = cloud_.find(name);
  return it == cloud_.end() ? nullptr : it->second;
}

double Dispatcher::cost_usd(const std::string& tier, const Usage& usage) const {
  if (tier == "edge") return config_->edge.price.cost_usd(usage.prompt_tokens, usage.completion_tokens);
  for (const auto& up : config_->cloud) {
    if (up.name == tier) return up.price.cost_usd(usage.prompt_tokens, usage.completion_tokens);
  }
  return 0;
}

StatusOr<DispatchResult> Dispatcher::run(const RoutePlan& plan, const ChatRequest& request, DispatchSink& sink) {
  if (plan.candidates.empty()) return unavailable("no tier can serve this request");
  Status last = unavailable("no tier was tried");
  std::string route = plan.reason;
  int attempts = 0;
  for (size_t i = 0; i < plan.candidates.size(); ++i) {
    const RouteCandidate& c = plan.candidates[i];
    Engine* engine = c.kind == TierKind::kEdge ? edge_ : cloud(c.tier);
    if (i > 0) route += ">fallback:" + c.tier;
    if (engine == nullptr) {
      last = unavailable("tier " + c.tier + " is not configured");
      continue;
    }
    Attempt attempt{c.tier, c.model, route};
    sink.on_attempt(attempt);
    ++attempts;
    TrackingSink tracking(sink);
    StatusOr<Completion> result = engine->generate(request, c.model, tracking);
    if (result.is_ok()) {
      DispatchResult out{std::move(result).value(), attempt, 0, attempts};
      out.cost_usd = cost_usd(c.tier, out.completion.usage);
      return out;
    }
    last = result.status();
    if (tracking.sent() || !last.allows_fallback()) break;
  }
  return last;
}

}  // namespace tiergate
