#include "tiergate/server/gateway.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "tiergate/core/key_fingerprint.h"
#include "tiergate/router/route_trace_format.h"
#include "tiergate/router/router.h"
#include "tiergate/server/openai_request.h"
#include "tiergate/server/openai_response.h"

namespace tiergate {

// The server's metrics, declared once (names, help, labels in one place).
struct Gateway::Metrics {
  explicit Metrics(MetricsRegistry& r)
      : requests(r.counter_family("tiergate_requests_total",
                                  "Chat completion requests by answering tier, route and HTTP status.",
                                  {"tier", "route", "status"})),
        duration(r.histogram_family("tiergate_request_duration_seconds",
                                    "Time from request received to the last byte of the answer, by tier.", {"tier"},
                                    exponential_buckets(0.005, 2, 14))),
        first_token(r.histogram_family("tiergate_time_to_first_token_seconds",
                                       "Time from request received to the first streamed text, by tier.", {"tier"},
                                       exponential_buckets(0.005, 2, 14))),
        tokens(r.counter_family("tiergate_tokens_total", "Tokens processed, by tier and kind (prompt, completion).",
                                {"tier", "kind"})),
        cost(r.counter_family("tiergate_cost_usd_total", "Cost of answered requests in USD, by tier.", {"tier"})),
        fallbacks(r.counter_family("tiergate_fallbacks_total",
                                   "Requests answered by a later candidate after an earlier tier failed.", {"tier"})),
        cancelled(r.counter("tiergate_client_cancelled_total",
                            "Requests whose client disconnected before the answer was complete.")),
        privacy_detections(r.counter_family("tiergate_privacy_detections_total",
                                            "Personal data and secrets found in requests, by data type and class.",
                                            {"type", "class"})),
        privacy_scanned_messages(r.counter_family(
            "tiergate_privacy_scanned_messages_total",
            "Messages of requests scanned for personal data, by where their findings came from: scan (scanned "
            "now) or cache (the same message in an earlier request; privacy.scan_cache_mb).",
            {"source"})),
        privacy_scan_failures(r.counter_family(
            "tiergate_privacy_scan_failures_total",
            "Requests whose privacy scan did not complete, by reason: timeout (it ran past "
            "privacy.scan_timeout_ms) or error (a detector failed); each kept on the device.",
            {"reason"})),
        privacy_requests(r.counter_family(
            "tiergate_privacy_requests_total",
            "Requests with personal data, by what the policy did: allow or redact (sent to the cloud), "
            "local_only (kept on the device: answered by the edge or refused).",
            {"action"})),
        privacy_class_actions(r.counter_family(
            "tiergate_privacy_class_actions_total",
            "Requests with values of a sensitivity class, by what the policy did with that class's values on the "
            "way to the cloud: allow (sent as they were), redact (replaced by placeholders), local_only (kept on "
            "the device).",
            {"class", "action"})),
        degraded(r.counter_family("tiergate_degraded_requests_total",
                                  "Requests answered on another tier because the wanted one could not serve "
                                  "(cloud_unavailable: the edge answered; edge_unavailable: the cloud answered).",
                                  {"reason"})),
        speculative_drafts(r.counter_family("tiergate_speculative_drafts_total",
                                            "Edge drafts of speculative requests by the verifier's verdict: accepted "
                                            "(the draft is the answer) or escalated (discarded; the cloud answered).",
                                            {"verdict"})),
        speculative_time_lost(r.counter("tiergate_speculative_time_lost_seconds_total",
                                        "Edge time spent on drafts the verifier discarded.")),
        waiting_for_cloud(r.gauge("tiergate_waiting_for_cloud",
                                  "Requests only the cloud can serve, waiting for an upstream to serve again "
                                  "(dispatch.cloud_wait_ms).")),
        tier_ready(r.gauge_family("tiergate_tier_ready",
                                  "1 when the tier can take requests now (the edge model is loaded; an upstream's "
                                  "circuit breaker admits calls), else 0. Updated when /metrics is read.",
                                  {"tier"})) {}

  CounterFamily& requests;
  HistogramFamily& duration;
  HistogramFamily& first_token;
  CounterFamily& tokens;
  CounterFamily& cost;
  CounterFamily& fallbacks;
  Counter& cancelled;
  CounterFamily& privacy_detections;
  CounterFamily& privacy_scanned_messages;
  CounterFamily& privacy_scan_failures;
  CounterFamily& privacy_requests;
  CounterFamily& privacy_class_actions;
  CounterFamily& degraded;
  CounterFamily& speculative_drafts;
  Counter& speculative_time_lost;
  Gauge& waiting_for_cloud;
  GaugeFamily& tier_ready;
};

namespace {

const HttpHeaders kJson = {{"Content-Type", "application/json"}};
constexpr size_t kMaxConversationIdBytes = 256;

// One generator for the process: connection threads come and go, and seeding
// a generator per thread would cost many requests a random_device read.
std::string new_completion_id() {
  static std::mutex mu;
  static std::mt19937_64 rng{std::random_device{}()};
  static const char* hex = "0123456789abcdef";
  uint64_t bits[2];
  {
    std::lock_guard lock(mu);
    bits[0] = rng();
    bits[1] = rng();
  }
  std::string id = "chatcmpl-";
  for (int i = 0; i < 24; ++i) id += hex[(bits[i / 16] >> (4 * (i % 16))) & 0xF];
  return id;
}

// Compares a presented credential with the secret in time that does not
// depend on where they first differ.
bool same_secret(std::string_view presented, std::string_view secret) {
  if (presented.size() != secret.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < secret.size(); ++i) diff |= static_cast<unsigned char>(presented[i] ^ secret[i]);
  return diff == 0;
}

// Passes everything to the server's sink and records each request body that
// leaves the device in the egress audit (metadata and a hash, never content).
class AuditingSink final : public DispatchSink {
 public:
  AuditingSink(DispatchSink& inner, EgressAudit& audit, EgressRecord base)
      : inner_(inner), audit_(audit), base_(std::move(base)) {}
  void on_attempt(const Attempt& attempt) override { inner_.on_attempt(attempt); }
  bool on_delta(const Delta& delta) override { return inner_.on_delta(delta); }
  bool cancelled() override { return inner_.cancelled(); }
  void on_egress(const Attempt& attempt, std::string_view body) override {
    EgressRecord r = base_;
    r.upstream = attempt.tier;
    r.action = attempt.privacy;
    r.sent_sha256 = sha256_hex(body);
    if (Status s = audit_.record(r); !s.is_ok()) spdlog::error("egress audit: {}", s.message());
  }

 private:
  DispatchSink& inner_;
  EgressAudit& audit_;
  const EgressRecord base_;
};

HttpHeaders answer_headers(const std::string& content_type, const Attempt& a, const std::string& request_id) {
  HttpHeaders h = {{"Content-Type", content_type},
                   {"x-tiergate-tier", a.tier},
                   {"x-tiergate-route", a.route},
                   {"x-request-id", request_id}};
  if (a.degraded != Degradation::kNone) h.emplace_back("x-tiergate-degraded", std::string(degradation_name(a.degraded)));
  return h;
}

std::string sse_event(const std::string& data) { return "data: " + data + "\n\n"; }

// The route trace as JSON text, rendered once, when first asked for. A stream
// asks right after its first chunk went out, while the tier generates the
// next one, so that rendering adds nothing to the answer's latency.
class TraceText {
 public:
  explicit TraceText(const RoutePlan& plan) : plan_(plan) {}
  const std::string& get() {
    if (!text_) text_ = route_trace_json(plan_);
    return *text_;
  }

 private:
  const RoutePlan& plan_;
  std::optional<std::string> text_;
};

// Streams an answer as SSE. Headers go out with the first text, so that a
// tier that fails before answering can still be replaced by the next one.
class SseSink final : public DispatchSink {
 public:
  SseSink(HttpExchange& ex, const CompletionIds& ids, bool with_logprobs, const Clock& clock, TraceText& trace)
      : ex_(ex), ids_(ids), with_logprobs_(with_logprobs), clock_(clock), trace_(trace) {}

  void on_attempt(const Attempt& attempt) override { attempt_ = attempt; }

  bool on_delta(const Delta& delta) override {
    // An empty delta commits nothing: the stream (and its tier headers) starts
    // with the first text, so a tier that fails before it can still be replaced.
    if (delta.text.empty() && delta.logprobs.empty()) return !cancelled();
    if (!ensure_started()) return false;
    const bool first = !first_text_;
    if (first) first_text_ = clock_.now();
    if (!write(sse_event(chunk_delta_json(ids_, attempt_.model, delta, with_logprobs_)))) return false;
    if (first) trace_.get();
    return true;
  }
  bool cancelled() override { return gone_ || ex_.client_gone(); }

  // Sends the headers. The role chunk goes out in the same write as the first
  // event after them.
  bool ensure_started() {
    if (started_) return !gone_;
    started_ = true;
    if (!ex_.begin_stream(200, stream_headers())) return mark_gone();
    role_pending_ = true;
    return true;
  }
  // Ends the stream: last_events (SSE text), then [DONE], in one write.
  bool done(const std::string& last_events = {}) {
    if (gone_) return false;
    return ex_.end_stream(take_role() + last_events + sse_event("[DONE]")) || mark_gone();
  }

  bool started() const { return started_; }
  const Attempt& attempt() const { return attempt_; }
  std::optional<SteadyTime> first_text() const { return first_text_; }

 private:
  HttpHeaders stream_headers() const {
    HttpHeaders h = answer_headers("text/event-stream", attempt_, ids_.id);
    h.emplace_back("Cache-Control", "no-cache");
    return h;
  }
  bool mark_gone() {
    gone_ = true;
    return false;
  }
  // One chunk per write: a token costs the client one read and the gateway one send.
  bool write(const std::string& events) {
    if (gone_) return false;
    if (!ex_.write_chunk(role_pending_ ? take_role() + events : events)) return mark_gone();
    return true;
  }
  std::string take_role() {
    if (!role_pending_) return {};
    role_pending_ = false;
    return sse_event(chunk_role_json(ids_, attempt_.model));
  }

  HttpExchange& ex_;
  CompletionIds ids_;
  bool with_logprobs_;
  const Clock& clock_;
  TraceText& trace_;
  Attempt attempt_;
  bool started_ = false;
  bool role_pending_ = false;  // headers sent, role chunk not yet
  bool gone_ = false;
  std::optional<SteadyTime> first_text_;
};

// Collects nothing (the Completion holds the text); watches for the client leaving.
class BufferedSink final : public DispatchSink {
 public:
  explicit BufferedSink(HttpExchange& ex) : ex_(ex) {}
  void on_attempt(const Attempt& attempt) override { attempt_ = attempt; }
  bool on_delta(const Delta&) override { return true; }
  bool cancelled() override { return ex_.client_gone(); }
  const Attempt& attempt() const { return attempt_; }

 private:
  HttpExchange& ex_;
  Attempt attempt_;
};

// The key of "Authorization: Bearer <key>"; "" without one.
std::string bearer_key(const std::string& authorization) {
  constexpr std::string_view kPrefix = "Bearer ";
  if (authorization.size() <= kPrefix.size()) return {};
  for (size_t i = 0; i < kPrefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(authorization[i])) != std::tolower(static_cast<unsigned char>(kPrefix[i]))) {
      return {};
    }
  }
  std::string key = authorization.substr(kPrefix.size());
  while (!key.empty() && key.back() == ' ') key.pop_back();
  return key;
}

}  // namespace

Gateway::Gateway(GatewayOptions options)
    : options_(std::move(options)),
      metrics_(std::make_unique<Metrics>(*options_.metrics)),
      signals_(options_.router, options_.embedder) {
  // Every scan goes through the cache; without memory for it
  // (privacy.scan_cache_mb: 0) it scans every message of every request.
  // The key names messages in the cache; drawn afresh per process so that
  // no one outside can make two messages share a name.
  std::random_device device;
  auto draw = [&device] { return (uint64_t{device()} << 32) | device(); };
  const PrivacyConfig& privacy = options_.config->privacy;
  scan_cache_ = std::make_shared<ScanCache>(options_.tagger, static_cast<size_t>(privacy.scan_cache_mb) << 20,
                                            ScanCache::Key{draw(), draw()});
  if (privacy.enabled && privacy.scan_cache_mb > 0) {
    // The gauge holds the cache: the registry may outlive the gateway.
    options_.metrics->gauge_callback("tiergate_privacy_scan_cache_bytes",
                                     "Memory the scan cache's entries take, within privacy.scan_cache_mb.",
                                     [cache = scan_cache_] { return static_cast<double>(cache->stats().bytes); });
  }
}

std::optional<double> Gateway::fresh_edge_decode_tps(int64_t& samples_seen) const {
  const int64_t samples = live_.edge_decode_samples();
  if (samples == samples_seen) return std::nullopt;
  samples_seen = samples;
  return live_.edge_decode_tokens_per_s();
}

SchedulerState Gateway::scheduler_state(const std::string& key_fingerprint) const {
  const Config& cfg = *options_.config;
  SchedulerState s;
  s.now = options_.clock->now();
  s.edge.configured = cfg.has_edge();
  s.edge.model_id = options_.edge_model_id;
  s.edge.parallel = cfg.edge.parallel;
  s.edge.queue_capacity = cfg.edge.queue;
  if (Engine* edge = options_.dispatcher->edge()) {
    s.edge.ready = edge->health().state == TierState::kReady;
    TierLoad load = edge->load();
    s.edge.queue_depth = load.queue_depth;
    s.edge.slots_busy = load.slots_busy;
  }
  s.edge.decode_tokens_per_s = live_.edge_decode_tokens_per_s();
  if (options_.device != nullptr) options_.device->apply(s.edge);
  for (const auto& up : cfg.cloud) {
    UpstreamState& u = s.upstreams[up.name];
    if (Engine* e = options_.dispatcher->cloud(up.name)) {
      u.healthy = e->health().state == TierState::kReady;
      TierLoad load = e->load();
      u.remaining_requests = load.remaining_requests;
      u.remaining_tokens = load.remaining_tokens;
      u.rate_limited_until = load.rate_limited_until;
    }
    LiveTierState::Latency latency = live_.latency(up.name);
    u.ewma_latency_s = latency.ewma_s;
    u.p95_latency_s = latency.p95_s;
  }
  s.budget.spent_today_usd = live_.spent_today(key_fingerprint, options_.clock->unix_seconds());
  s.budget.limit_usd = cfg.routing.budget_for(key_fingerprint);
  return s;
}

StatusOr<RoutePlan> Gateway::decide(HttpExchange& ex, const ChatRequest& request, RouteContext& context) {
  const Config& cfg = *options_.config;
  if (std::string q = ex.header("x-tiergate-quality"); !q.empty()) {
    StatusOr<double> quality = parse_quality_header(q);
    if (!quality.is_ok()) return quality.status();
    context.quality = *quality;
  }
  context.api_key_fingerprint = key_fingerprint(bearer_key(ex.header("authorization")));
  for (const RoutingRule& rule : cfg.routing.rules) {
    for (const auto& [name, value] : rule.match.headers) {
      bool have = false;
      for (const auto& h : context.headers) have = have || h.first == name;
      if (have) continue;
      if (std::string v = ex.header(name); !v.empty()) context.headers.emplace_back(name, std::move(v));
    }
  }
  // Signals decide model "auto" only; explicit models and rules do not read them.
  std::optional<RequestSignals> signals;
  if (request.model == "auto") signals = signals_.assess(request.messages);
  RouteInputs inputs;
  inputs.signals = signals ? &*signals : nullptr;
  if (const RouterArtifact* artifact = signals_.artifact()) inputs.score_quantiles = artifact->score_quantiles;
  inputs.context = context;
  inputs.state = scheduler_state(context.api_key_fingerprint);
  return schedule_route(cfg, request, inputs);
}


Gateway::~Gateway() = default;

void Gateway::handle(HttpExchange& ex) {
  const std::string& path = ex.path();
  const std::string& method = ex.method();
  auto only = [&](const char* allowed) {
    if (method == allowed) return true;
    ex.respond(405, {{"Content-Type", "application/json"}, {"Allow", allowed}},
               error_json(405, "Method " + method + " is not allowed on " + path + "; use " + allowed));
    return false;
  };
  if (path == "/v1/chat/completions") {
    if (only("POST")) chat_completions(ex);
  } else if (path == "/v1/route") {
    if (only("POST")) route(ex);
  } else if (path == "/v1/models") {
    if (only("GET")) models(ex);
  } else if (path == "/healthz") {
    if (only("GET")) ex.respond(200, kJson, R"({"status":"ok"})");
  } else if (path == "/readyz") {
    if (only("GET")) readyz(ex);
  } else if (path == "/admin/audit") {
    if (only("GET")) admin_audit(ex);
  } else if (path == "/metrics") {
    if (only("GET")) {
      refresh_tier_gauges();
      ex.respond(200, {{"Content-Type", "text/plain; version=0.0.4; charset=utf-8"}}, options_.metrics->render());
    }
  } else {
    ex.respond(404, kJson, error_json(404, "Unknown path " + path + "; see /v1/chat/completions, /v1/route and /v1/models"));
  }
}

// GET /admin/audit[?limit=N]: the most recent egress audit entries (oldest
// first), for the bearer of the admin token.
void Gateway::admin_audit(HttpExchange& ex) {
  if (options_.admin_token.empty()) {
    ex.respond(404, kJson, error_json(404, "The admin API is off; set admin.token_env in the config and that "
                                           "environment variable when starting tiergate"));
    return;
  }
  if (!same_secret(ex.header("authorization"), "Bearer " + options_.admin_token)) {
    ex.respond(401, {{"Content-Type", "application/json"}, {"WWW-Authenticate", "Bearer"}},
               error_json(401, "GET /admin/audit needs Authorization: Bearer <the admin token>"));
    return;
  }
  if (options_.audit == nullptr) {
    ex.respond(404, kJson, error_json(404, "No egress audit: privacy.enabled is false in the config"));
    return;
  }
  size_t limit = 100;
  const std::string& target = ex.query();
  if (const size_t at = target.find("limit="); at != std::string::npos) {
    limit = 0;
    for (size_t i = at + 6; i < target.size() && target[i] >= '0' && target[i] <= '9' && limit < 1000000; ++i) {
      limit = limit * 10 + static_cast<size_t>(target[i] - '0');
    }
  }
  std::string body = "{\"total\":" + std::to_string(options_.audit->entries()) + ",\"log\":" +
                     nlohmann::json(options_.audit->path()).dump() + ",\"entries\":[";
  bool first = true;
  for (const std::string& line : options_.audit->recent(limit)) {
    body += first ? "" : ",";
    body += line;
    first = false;
  }
  body += "]}";
  ex.respond(200, kJson, body);
}

void Gateway::models(HttpExchange& ex) {
  const Config& cfg = *options_.config;
  std::vector<ModelEntry> list;
  list.push_back({"auto", "tiergate"});
  if (cfg.has_edge()) {
    list.push_back({"edge", "edge"});
    if (cfg.edge.alias != "edge") list.push_back({cfg.edge.alias, "edge"});
    if (!options_.edge_model_id.empty()) list.push_back({options_.edge_model_id, "edge"});
  }
  if (!cfg.cloud.empty()) list.push_back({"cloud", "tiergate"});
  for (const auto& up : cfg.cloud) {
    for (const auto& m : up.models) list.push_back({m, up.name});
  }
  ex.respond(200, kJson, models_json(list, options_.clock->unix_seconds()));
}

void Gateway::refresh_tier_gauges() {
  if (Engine* edge = options_.dispatcher->edge()) {
    metrics_->tier_ready.with({"edge"}).set(edge->health().state == TierState::kReady ? 1 : 0);
  }
  for (const auto& up : options_.config->cloud) {
    if (Engine* e = options_.dispatcher->cloud(up.name)) {
      metrics_->tier_ready.with({up.name}).set(e->health().state == TierState::kReady ? 1 : 0);
    }
  }
}

std::optional<int64_t> Gateway::retry_after_s(const RoutePlan& plan) const {
  const SteadyTime now = options_.clock->now();
  std::optional<SteadyTime> earliest;
  auto consider = [&](const std::optional<SteadyTime>& t) {
    if (t && *t > now && (!earliest || *t < *earliest)) earliest = t;
  };
  for (const RouteCandidate& c : plan.candidates) {
    Engine* e = c.kind == TierKind::kEdge ? options_.dispatcher->edge() : options_.dispatcher->cloud(c.tier);
    if (e == nullptr) continue;
    consider(e->health().retry_at);
    consider(e->load().rate_limited_until);
  }
  if (!earliest) return std::nullopt;
  return std::max<int64_t>(1, static_cast<int64_t>(std::ceil(seconds_between(now, *earliest))));
}

StatusOr<DispatchResult> Gateway::dispatch(const RoutePlan& plan, const ChatRequest& request, DispatchSink& out,
                                          const PrivacyScan& scan, const std::function<bool()>& nothing_sent) {
  StatusOr<DispatchResult> result = options_.dispatcher->run(plan, request, out, &scan);
  const int budget_ms = options_.config->dispatch.cloud_wait_ms;
  const bool cloud_only = std::all_of(plan.candidates.begin(), plan.candidates.end(),
                                      [](const RouteCandidate& c) { return c.kind == TierKind::kCloud; });
  if (budget_ms <= 0 || !cloud_only || plan.candidates.empty()) return result;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(budget_ms);
  while (!result.is_ok() && nothing_sent()) {
    const StatusCode code = result.status().code();
    if (code != StatusCode::kUnavailable && code != StatusCode::kResourceExhausted) break;
    const std::optional<int64_t> wait_s = retry_after_s(plan);
    if (!wait_s) break;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(*wait_s);
    if (until > deadline) break;
    // A bounded number wait; the others get their 503 or 429 at once.
    if (waiting_for_cloud_.fetch_add(1) >= options_.config->dispatch.max_waiting) {
      waiting_for_cloud_.fetch_sub(1);
      break;
    }
    metrics_->waiting_for_cloud.inc();
    bool gone = false;
    while (std::chrono::steady_clock::now() < until && !(gone = out.cancelled())) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    metrics_->waiting_for_cloud.dec();
    waiting_for_cloud_.fetch_sub(1);
    if (gone) return cancelled("client went away while waiting for the cloud");
    result = options_.dispatcher->run(plan, request, out, &scan);
  }
  return result;
}

void Gateway::readyz(HttpExchange& ex) {
  const Config& cfg = *options_.config;
  const SteadyTime now = options_.clock->now();
  nlohmann::json tiers = nlohmann::json::object();
  bool edge_ready = false, any_cloud_ready = false;
  auto entry = [&](const TierHealth& h) {
    nlohmann::json e = {{"state", tier_state_name(h.state)}, {"detail", h.detail}};
    if (h.state != TierState::kReady && h.retry_at && *h.retry_at > now) {
      e["retry_in_s"] = std::ceil(seconds_between(now, *h.retry_at));
    }
    return e;
  };
  if (Engine* edge = options_.dispatcher->edge()) {
    TierHealth h = edge->health();
    edge_ready = h.state == TierState::kReady;
    tiers["edge"] = entry(h);
  }
  for (const auto& up : cfg.cloud) {
    if (Engine* e = options_.dispatcher->cloud(up.name)) {
      TierHealth h = e->health();
      any_cloud_ready = any_cloud_ready || h.state == TierState::kReady;
      tiers[up.name] = entry(h);
      tiers[up.name]["base_url"] = up.base_url;
    }
  }
  // What the gateway can do now: "normal" (every configured kind of tier
  // serves), "edge_only" (the cloud is unreachable: offline, the edge serves
  // on), "cloud_only" (the edge cannot serve), "unavailable".
  const bool edge_configured = options_.dispatcher->edge() != nullptr;
  const bool cloud_configured = !cfg.cloud.empty();
  std::string mode;
  if ((!edge_configured || edge_ready) && (!cloud_configured || any_cloud_ready) && (edge_ready || any_cloud_ready)) {
    mode = "normal";
  } else if (edge_ready) {
    mode = "edge_only";
  } else if (any_cloud_ready) {
    mode = "cloud_only";
  } else {
    mode = "unavailable";
  }
  bool ready = cfg.has_edge() ? edge_ready : any_cloud_ready;
  nlohmann::json body = {{"status", ready ? "ready" : "not_ready"}, {"mode", mode}, {"tiers", tiers}};
  if (options_.device != nullptr) body["device"] = nlohmann::json::parse(device_status_json(options_.device->status()));
  ex.respond(ready ? 200 : 503, kJson, body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void Gateway::chat_completions(HttpExchange& ex) {
  const Clock& clock = *options_.clock;
  const SteadyTime start = clock.now();
  auto count = [&](const std::string& tier, const std::string& route, int status) {
    metrics_->requests.with({tier, route, std::to_string(status)}).inc();
  };
  auto reject = [&](int status, const std::string& body) {
    count("none", "rejected", status);
    ex.respond(status, kJson, body);
  };

  ChatRequest request;
  RouteContext context;
  Decision decision = parse_and_decide(ex, request, context);
  if (!decision.plan) {
    reject(decision.error_status, decision.error_body);
    return;
  }
  const RoutePlan* plan = &*decision.plan;

  CompletionIds ids{new_completion_id(), options_.clock->unix_seconds()};
  const bool with_logprobs = request.sampling.logprobs;
  auto elapsed_ms = [&] {
    return seconds_between(start, clock.now()) * 1000.0;
  };
  TraceText trace(*plan);
  auto answer_info = [&](const DispatchResult& r) {
    AnswerInfo info{r.attempt.tier, r.attempt.route, r.completion.model,         r.cost_usd, elapsed_ms(),
                    r.attempts,     r.completion.usage_counted, trace.get(), std::string(degradation_name(r.attempt.degraded))};
    info.handoff = r.handoff;
    if (r.speculative) {
      const SpeculativeOutcome& s = *r.speculative;
      info.speculative_json = nlohmann::json{{"verdict", s.accepted ? "accepted" : "escalated"},
                                             {"confidence", s.confidence},
                                             {"threshold", s.threshold},
                                             {"draft_tokens", s.draft_tokens},
                                             {"drafts_discarded", s.accepted ? 0 : 1},
                                             {"hedged", s.hedged},
                                             {"time_lost_ms", s.time_lost_ms}}
                                  .dump();
    }
    return info;
  };
  // Metadata only: never the prompt or the answer. Written after the answer,
  // whose latency it would otherwise add to.
  auto log_answer = [&](const DispatchResult& r, int status) {
    spdlog::info("chat id={} status={} tier={} route={} stream={} latency_ms={:.1f} prompt_tokens={} "
                 "completion_tokens={} cost_usd={:.8f}",
                 ids.id, status, r.attempt.tier, r.attempt.route, request.stream, elapsed_ms(),
                 r.completion.usage.prompt_tokens, r.completion.usage.completion_tokens, r.cost_usd);
  };
  // Metrics and live state, recorded before the answer's last bytes go out, so
  // that a client reading /metrics right after its answer sees it counted.
  auto record = [&](const DispatchResult& r, int status) {
    const std::string& tier = r.attempt.tier;
    const double latency_ms = elapsed_ms();
    count(tier, r.attempt.route, status);
    metrics_->duration.with({tier}).observe(latency_ms / 1000.0);
    metrics_->tokens.with({tier, "prompt"}).inc(static_cast<double>(r.completion.usage.prompt_tokens));
    metrics_->tokens.with({tier, "completion"}).inc(static_cast<double>(r.completion.usage.completion_tokens));
    metrics_->cost.with({tier}).inc(r.cost_usd);
    live_.record_answer(tier, tier == "edge", latency_ms / 1000.0, r.completion.usage.completion_tokens);
    live_.record_spend(context.api_key_fingerprint, clock.unix_seconds(), r.cost_usd);
    if (r.attempts > 1) metrics_->fallbacks.with({tier}).inc();
    if (r.attempt.degraded != Degradation::kNone) {
      metrics_->degraded.with({std::string(degradation_name(r.attempt.degraded))}).inc();
    }
    if (r.speculative) {
      metrics_->speculative_drafts.with({r.speculative->accepted ? "accepted" : "escalated"}).inc();
      metrics_->speculative_time_lost.inc(r.speculative->time_lost_ms / 1000.0);
      if (options_.verifier_log != nullptr) {
        Status logged = options_.verifier_log->record(clock.unix_seconds() * 1000, ids.id, tier, *r.speculative);
        if (!logged.is_ok()) spdlog::warn("{}", logged.message());
      }
    }
  };
  // An error answer's headers: a 503 or 429 says when to come back, from the
  // planned tiers' circuit breakers and rate limits (1 s when none is known).
  auto error_headers = [&](const Status& s, const Attempt& a) {
    HttpHeaders h = kJson;
    if (!a.tier.empty()) {
      h.emplace_back("x-tiergate-tier", a.tier);
      h.emplace_back("x-tiergate-route", a.route);
    }
    const int http = http_status_for(s);
    if (http == 503 || http == 429) h.emplace_back("Retry-After", std::to_string(retry_after_s(*plan).value_or(1)));
    return h;
  };
  // The audit entry's request-wide part: what was found, by type and class.
  auto egress_base = [&] {
    EgressRecord r;
    r.time_ms = clock.unix_seconds() * 1000;
    r.request_id = ids.id;
    r.types = decision.privacy_scan.counts();
    if (const PrivacyPolicy* policy = options_.dispatcher->privacy()) {
      for (const auto& [type, n] : r.types) {
        const std::string* cls = policy->class_of(type);
        r.classes[cls != nullptr ? *cls : "none"] += n;
      }
    }
    return r;
  };
  // What the privacy policy did with a request that held personal data and
  // met it on the way to the cloud: sent as it was or redacted, or kept on
  // the device (the edge answered instead, or the request was refused).
  auto count_privacy = [&](const StatusOr<DispatchResult>& result) {
    const std::map<std::string, int> found = decision.privacy_scan.counts();
    if (found.empty() && decision.privacy_scan.failure.empty()) return;
    std::string_view action;
    if (!result.is_ok()) {
      if (result.status().code() == StatusCode::kPermissionDenied) action = "local_only";
    } else if (result->attempt.tier != "edge" || result->attempt.privacy == PrivacyAction::kLocalOnly) {
      action = privacy_action_name(result->attempt.privacy);
    }
    if (action.empty()) return;
    metrics_->privacy_requests.with({std::string(action)}).inc();
    // Per class: under redact, a class of which no value was replaced
    // went as it was.
    const PrivacyPolicy* policy = options_.dispatcher->privacy();
    if (policy == nullptr) return;
    static const std::vector<std::string> kNothingRedacted;
    const std::vector<std::string>& redacted = result.is_ok() ? result->attempt.redacted_types : kNothingRedacted;
    std::map<std::string, bool> classes;  // class -> some value of it redacted
    for (const auto& [type, n] : found) {
      const std::string* cls = policy->class_of(type);
      classes[cls != nullptr ? *cls : "none"] |= std::binary_search(redacted.begin(), redacted.end(), type);
    }
    for (const auto& [cls, some_redacted] : classes) {
      const std::string_view class_action = action == "redact" && !some_redacted ? "allow" : action;
      metrics_->privacy_class_actions.with({cls, std::string(class_action)}).inc();
    }
  };
  auto record_error = [&](const Attempt& a, const Status& s) {
    // No attempt was made when no tier was configured for the plan.
    const std::string tier = a.tier.empty() ? "none" : a.tier;
    const std::string& route = a.route.empty() ? plan->reason : a.route;
    const int status = http_status_for(s);
    spdlog::info("chat id={} status={} tier={} route={} stream={} latency_ms={:.1f} error={}", ids.id, status, tier,
                 route, request.stream, elapsed_ms(), status_code_name(s.code()));
    if (s.code() == StatusCode::kCancelled) metrics_->cancelled.inc();
    count(tier, route, status);
  };

  if (!request.stream) {
    BufferedSink sink(ex);
    std::optional<AuditingSink> audited;
    if (options_.audit != nullptr) audited.emplace(sink, *options_.audit, egress_base());
    DispatchSink& out = audited ? static_cast<DispatchSink&>(*audited) : sink;
    StatusOr<DispatchResult> result = dispatch(*plan, request, out, decision.privacy_scan, [] { return true; });
    count_privacy(result);
    if (!result.is_ok()) {
      record_error(sink.attempt(), result.status());
      ex.respond(http_status_for(result.status()), error_headers(result.status(), sink.attempt()),
                 error_json(result.status()));
      return;
    }
    AnswerInfo info = answer_info(*result);
    HttpHeaders h = answer_headers("application/json", result->attempt, ids.id);
    h.emplace_back("x-tiergate-cost-usd", std::to_string(result->cost_usd));
    // Recorded before the answer goes out, so a client that reads /metrics
    // right after its answer sees it counted.
    record(*result, 200);
    ex.respond(200, h, completion_json(ids, result->completion, info, with_logprobs));
    log_answer(*result, 200);
    return;
  }

  SseSink sink(ex, ids, with_logprobs, clock, trace);
  std::optional<AuditingSink> audited;
  if (options_.audit != nullptr) audited.emplace(sink, *options_.audit, egress_base());
  DispatchSink& out = audited ? static_cast<DispatchSink&>(*audited) : sink;
  StatusOr<DispatchResult> result =
      dispatch(*plan, request, out, decision.privacy_scan, [&sink] { return !sink.started(); });
  count_privacy(result);
  if (!result.is_ok()) {
    record_error(sink.attempt(), result.status());
    if (result.status().code() == StatusCode::kCancelled) {
      if (!sink.started()) ex.respond(499, kJson, error_json(result.status()));
      return;
    }
    if (!sink.started()) {
      // Nothing sent yet: an ordinary JSON error with the right status.
      ex.respond(http_status_for(result.status()), error_headers(result.status(), sink.attempt()),
                 error_json(result.status()));
    } else {
      // Mid-stream: an error event the SDKs raise, then the end of the stream.
      sink.done(sse_event(error_json(result.status())));
    }
    return;
  }
  if (!sink.ensure_started()) {
    record_error(result->attempt, cancelled("client went away"));
    return;
  }
  if (sink.first_text()) {
    metrics_->first_token.with({result->attempt.tier})
        .observe(seconds_between(start, *sink.first_text()));
  }
  AnswerInfo info = answer_info(*result);
  std::string last_events = sse_event(chunk_finish_json(ids, result->attempt.model, result->completion.finish, info));
  if (request.include_usage) {
    last_events += sse_event(chunk_usage_json(ids, result->attempt.model, result->completion.usage));
  }
  record(*result, 200);
  sink.done(last_events);
  log_answer(*result, 200);
}

Gateway::Decision Gateway::parse_and_decide(HttpExchange& ex, ChatRequest& request, RouteContext& context) {
  Decision d;
  if (ex.body_too_large()) {
    d.error_status = 413;
    d.error_body = error_json(413,
                              "The request body exceeds the limit of " +
                                  std::to_string(options_.config->max_body_bytes) + " bytes (max_body_bytes in the config)",
                              "", "request_too_large");
    return d;
  }
  RequestError parse_error;
  if (!parse_chat_request(ex.body(), request, parse_error)) {
    d.error_status = 400;
    d.error_body = error_json(400, parse_error.message, parse_error.param);
    return d;
  }
  // The conversation this request continues, for cross-tier handoff.
  request.conversation = ex.header("x-tiergate-conversation");
  if (request.conversation.size() > kMaxConversationIdBytes) {
    d.error_status = 400;
    d.error_body = error_json(400, "x-tiergate-conversation: at most " + std::to_string(kMaxConversationIdBytes) +
                                       " bytes", "x-tiergate-conversation");
    return d;
  }
  if (request.conversation.empty()) request.conversation = request.user;
  // Scanned before any routing decision; dispatch checks the findings
  // against the policy before every hop to the cloud. A request may ask for
  // a stricter policy (x-tiergate-privacy: redact | local_only), never a
  // looser one.
  const PrivacyPolicy* policy = options_.dispatcher->privacy();
  std::optional<PrivacyAction> floor;
  if (std::string h = ex.header("x-tiergate-privacy"); !h.empty()) {
    floor = parse_privacy_action(h);
    if (!floor) {
      d.error_status = 400;
      d.error_body = error_json(400, "x-tiergate-privacy: expected redact or local_only (or allow, which changes "
                                     "nothing), got \"" + h.substr(0, 40) + "\"", "x-tiergate-privacy");
      return d;
    }
    if (policy == nullptr && *floor != PrivacyAction::kAllow) {
      d.error_status = 400;
      d.error_body = error_json(400, "x-tiergate-privacy: this gateway runs with privacy.enabled: false and "
                                     "cannot scan requests; enable privacy in its config", "x-tiergate-privacy");
      return d;
    }
  }
  if (policy != nullptr) {
    // The cache's scope is the caller's key (none: the scope of requests
    // without one), held only for the call.
    // The scan stops once it runs past privacy.scan_timeout_ms, and the
    // request then keeps to the device.
    const Clock& clock = *options_.clock;
    const int timeout_ms = options_.config->privacy.scan_timeout_ms;
    const SteadyTime scan_deadline = clock.now() + std::chrono::milliseconds(timeout_ms);
    ScanStop stop;
    if (timeout_ms > 0) stop = [&clock, scan_deadline] { return clock.now() >= scan_deadline; };
    d.privacy_scan = scan_request(request, *scan_cache_, bearer_key(ex.header("authorization")), stop);
    if (d.privacy_scan.stopped) {
      d.privacy_scan.failure = "it ran past privacy.scan_timeout_ms, " + std::to_string(timeout_ms) + " ms";
    }
    if (!d.privacy_scan.failure.empty()) {
      metrics_->privacy_scan_failures.with({d.privacy_scan.stopped ? "timeout" : "error"}).inc();
      spdlog::warn("privacy scan of a request with {} messages did not complete ({}): it keeps to the device",
                   request.messages.size(), d.privacy_scan.failure);
    }
    d.privacy_scan.floor = floor.value_or(PrivacyAction::kAllow);
    const size_t cached = d.privacy_scan.cached_messages;
    if (cached > 0) metrics_->privacy_scanned_messages.with({"cache"}).inc(static_cast<double>(cached));
    if (request.messages.size() > cached) {
      metrics_->privacy_scanned_messages.with({"scan"}).inc(static_cast<double>(request.messages.size() - cached));
    }
    for (const auto& [type, n] : d.privacy_scan.counts()) {
      const std::string* cls = policy->class_of(type);
      metrics_->privacy_detections.with({type, cls != nullptr ? *cls : "none"}).inc(static_cast<double>(n));
    }
  }
  StatusOr<RoutePlan> plan = decide(ex, request, context);
  if (!plan.is_ok()) {
    d.error_status = http_status_for(plan.status());
    d.error_body = error_json(plan.status());
    return d;
  }
  d.plan = std::move(*plan);
  return d;
}

void Gateway::route(HttpExchange& ex) {
  ChatRequest request;
  RouteContext context;
  Decision decision = parse_and_decide(ex, request, context);
  if (!decision.plan) {
    ex.respond(decision.error_status, kJson, decision.error_body);
    return;
  }
  const RoutePlan* plan = &*decision.plan;
  HttpHeaders h = kJson;
  if (!plan->candidates.empty()) h.emplace_back("x-tiergate-tier", plan->candidates.front().tier);
  h.emplace_back("x-tiergate-route", plan->reason);
  const PrivacyPolicy* policy = options_.dispatcher->privacy();
  if (policy == nullptr) {
    ex.respond(200, h, route_plan_json(*plan));
    return;
  }
  // What the privacy policy would do with this request for each upstream:
  // types and counts only, never the values.
  nlohmann::json out = nlohmann::json::parse(route_plan_json(*plan));
  nlohmann::json upstreams = nlohmann::json::object();
  for (const UpstreamConfig& up : options_.config->cloud) {
    const EgressDecision d = prepare_egress(*policy, decision.privacy_scan, request, up.trust).decision;
    nlohmann::json entry = {{"trust", trust_level_name(up.trust)}, {"action", privacy_action_name(d.action)}};
    if (!d.redact_types.empty()) entry["redact"] = d.redact_types;
    if (!d.reason.empty()) entry["reason"] = d.reason;
    upstreams[up.name] = std::move(entry);
  }
  out["privacy"] = {{"found", decision.privacy_scan.counts()}, {"upstreams", std::move(upstreams)}};
  ex.respond(200, h, out.dump());
}

}  // namespace tiergate
