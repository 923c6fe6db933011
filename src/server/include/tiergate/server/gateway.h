// The OpenAI-compatible API: routes HTTP requests to the router and the
// dispatcher and writes OpenAI-shaped answers. Endpoints:
//   POST /v1/chat/completions  (JSON or SSE with stream: true)
//   POST /v1/route             the same body; decides the route without
//                              generating: {tier, model, reason, candidates, trace}
//   GET  /v1/models
//   GET  /healthz              process is up
//   GET  /readyz               200 when the edge model is loaded (or, without
//                              an edge tier, a cloud upstream is healthy);
//                              "mode" says what serves: normal, edge_only
//                              (offline: the edge serves on), cloud_only,
//                              unavailable; with edge.adaptation, "device"
//                              says the adaptation step and why
//   A request answered on another tier than the wanted one because that one
//   could not serve carries x-tiergate-degraded (cloud_unavailable,
//   edge_unavailable; device_constrained when a constrained device capped
//   the edge's answer); a 503 or 429 carries Retry-After. A speculative
//   answer's `tiergate` object says what the verifier decided ("speculative").
//   GET  /metrics              Prometheus text format
// Every answer names its tier and route in headers (x-tiergate-tier,
// x-tiergate-route) and in a `tiergate` object in the body, which also holds
// the scheduler's full trace ("trace"). The x-tiergate-quality header (0..1)
// sets the quality dial for one request; a bad value is a 400. The bearer key
// of Authorization is kept only as a fingerprint (core/key_fingerprint.h), for
// budgets and rules.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "tiergate/config/config.h"
#include "tiergate/core/clock.h"
#include "tiergate/dispatch/dispatcher.h"
#include "tiergate/obs/metrics.h"
#include "tiergate/privacy/scan_cache.h"
#include "tiergate/router/route_plan.h"
#include "tiergate/router/scheduler.h"
#include "tiergate/server/device_monitor.h"
#include "tiergate/server/egress_audit.h"
#include "tiergate/server/http_server.h"
#include "tiergate/server/live_tier_state.h"
#include "tiergate/server/verifier_log.h"
#include "tiergate/signals/router_artifact.h"
#include "tiergate/signals/signals.h"

namespace tiergate {

struct GatewayOptions {
  ConfigPtr config;
  Dispatcher* dispatcher = nullptr;  // not owned
  MetricsRegistry* metrics = nullptr;  // not owned
  const Clock* clock = nullptr;      // not owned
  std::string edge_model_id;         // file name of the edge model, "" without one
  // The trained router (routing.router); null = the placeholder rule for "auto".
  std::shared_ptr<const RouterArtifact> router{};
  // The egress audit (not owned); null = none (privacy disabled).
  EgressAudit* audit = nullptr;
  // The admin API's bearer token (admin.token_env); "" = /admin/* is off.
  std::string admin_token{};
  // The privacy tagger (privacy.tagger); null = structured detectors only.
  std::shared_ptr<const PiiTagger> tagger{};
  // The verifier log (speculative.log, not owned); null = none.
  VerifierLog* verifier_log = nullptr;
  // The edge's run-time adaptation (edge.adaptation, not owned); null = none.
  const DeviceMonitor* device = nullptr;
  // The edge model's embedding of a request, for a router with an embedding
  // part (signals.h); empty = none.
  RequestEmbedder embedder{};
};

class Gateway {
 public:
  explicit Gateway(GatewayOptions options);
  ~Gateway();
  // Thread-safe; called on each connection's thread.
  void handle(HttpExchange& exchange);
  // What the device monitor observes of the edge: its decode EWMA when an
  // edge answer came in since `samples_seen` (which is then updated).
  std::optional<double> fresh_edge_decode_tps(int64_t& samples_seen) const;

  struct Metrics;

 private:
  void chat_completions(HttpExchange& ex);
  void models(HttpExchange& ex);
  void readyz(HttpExchange& ex);
  void refresh_tier_gauges();
  // dispatcher->run, and for a plan of cloud tiers only that failed before
  // anything was sent (`nothing_sent`), waiting for a tier to serve again
  // within dispatch.cloud_wait_ms, then running again.
  StatusOr<DispatchResult> dispatch(const RoutePlan& plan, const ChatRequest& request, DispatchSink& out,
                                    const PrivacyScan& scan, const std::function<bool()>& nothing_sent);
  // Seconds until a tier of the plan may serve again (circuit breaker,
  // rate limit); nullopt when none says.
  std::optional<int64_t> retry_after_s(const RoutePlan& plan) const;
  void route(HttpExchange& ex);
  void admin_audit(HttpExchange& ex);

  // A chat request body -> its plan, or the error to answer with (413 for a
  // body over the limit, 400 for a malformed one, the decision's own errors).
  struct Decision {
    std::optional<RoutePlan> plan;
    PrivacyScan privacy_scan;  // what the detectors found (empty without a privacy policy)
    int error_status = 0;
    std::string error_body;  // an OpenAI error object
  };
  Decision parse_and_decide(HttpExchange& ex, ChatRequest& request, RouteContext& context);

  // Signals, header context and live state -> the plan. `context` receives the
  // request's RouteContext (the caller records spend under its key).
  StatusOr<RoutePlan> decide(HttpExchange& ex, const ChatRequest& request, RouteContext& context);
  SchedulerState scheduler_state(const std::string& key_fingerprint) const;

  GatewayOptions options_;
  std::unique_ptr<Metrics> metrics_;
  SignalExtractor signals_;
  LiveTierState live_;
  std::atomic<int> waiting_for_cloud_{0};  // requests in dispatch()'s wait now
  // The findings of messages seen before (privacy.scan_cache_mb; with 0 it
  // keeps none and scans every message).
  std::shared_ptr<ScanCache> scan_cache_;
};

}  // namespace tiergate
