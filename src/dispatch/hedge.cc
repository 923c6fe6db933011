#include "hedge.h"

namespace tiergate {

class Hedge::Buffer final : public TokenSink {
 public:
  explicit Buffer(Hedge& hedge) : hedge_(hedge) {}
  bool on_delta(const Delta& delta) override {
    std::lock_guard lock(hedge_.mu_);
    hedge_.deltas_.push_back(delta);
    return !hedge_.cancelled_;
  }
  bool cancelled() override { return hedge_.cancelled_; }
  void on_request_sent(std::string_view body) override {
    std::lock_guard lock(hedge_.mu_);
    hedge_.bodies_.emplace_back(body);
  }

 private:
  Hedge& hedge_;
};

Hedge::Hedge(Engine& engine, ChatRequest request, std::string model)
    : engine_(engine), request_(std::move(request)), model_(std::move(model)), thread_([this] { run(); }) {}

Hedge::~Hedge() {
  cancel();
  if (thread_.joinable()) thread_.join();
}

void Hedge::run() {
  Buffer buffer(*this);
  StatusOr<Completion> done = engine_.generate(request_, model_, buffer);
  result_.emplace(std::move(done));  // read only after join
}

StatusOr<Completion> Hedge::wait() {
  if (thread_.joinable()) thread_.join();
  return *result_;
}

bool Hedge::replay(TokenSink& sink, bool deltas) {
  std::lock_guard lock(mu_);
  for (const std::string& body : bodies_) sink.on_request_sent(body);
  if (!deltas) return true;
  for (const Delta& d : deltas_) {
    if (!sink.on_delta(d)) return false;
  }
  return true;
}

}  // namespace tiergate
