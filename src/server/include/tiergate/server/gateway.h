// The OpenAI-compatible API: routes HTTP requests to the router and the
// dispatcher and writes OpenAI-shaped answers. Endpoints:
//   POST /v1/chat/completions  (JSON or SSE with stream: true)
//   GET  /v1/models
//   GET  /healthz              process is up
//   GET  /readyz               200 when the edge model is loaded (or, without
//                              an edge tier, a cloud upstream is healthy)
//   GET  /metrics              Prometheus text format
// Every answer names its tier and route in headers (x-tiergate-tier,
// x-tiergate-route) and in a `tiergate` object in the body.
#pragma once

#include <memory>
#include <string>

#include "tiergate/config/config.h"
#include "tiergate/core/clock.h"
#include "tiergate/dispatch/dispatcher.h"
#include "tiergate/obs/metrics.h"
#include "tiergate/server/http_server.h"

namespace tiergate {

struct GatewayOptions {
  ConfigPtr config;
  Dispatcher* dispatcher = nullptr;  // not owned
  MetricsRegistry* metrics = nullptr;  // not owned
  const Clock* clock = nullptr;      // not owned
  std::string edge_model_id;         // file name of the edge model, "" without one
};

class Gateway {
 public:
  explicit Gateway(GatewayOptions options);
  ~Gateway();
  // Thread-safe; called on each connection's thread.
  void handle(HttpExchange& exchange);

  struct Metrics;

 private:
  void chat_completions(HttpExchange& ex);
  void models(HttpExchange& ex);
  void readyz(HttpExchange& ex);

  GatewayOptions options_;
  std::unique_ptr<Metrics> metrics_;
};

}  // namespace tiergate
