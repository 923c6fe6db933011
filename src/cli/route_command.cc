// `tiergate route`: the scheduler's decision for one request body, without
// generating: the same signals, rules and thresholds as the gateway, with a
// default state (every tier healthy and idle, nothing spent).
#include <cctype>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "edge_embeddings.h"
#include "tiergate/config/config.h"
#include "tiergate/core/key_fingerprint.h"
#include "tiergate/router/route_trace_format.h"
#include "tiergate/router/scheduler.h"
#include "tiergate/server/openai_request.h"
#include "tiergate/signals/router_artifact.h"
#include "tiergate/signals/signals.h"

namespace tiergate::cli {

namespace {

struct RouteOptions {
  std::string config_path = "tiergate.yaml";
  bool explain = false;
  bool json = false;
  std::optional<std::string> quality;
  std::string api_key;
  std::vector<std::string> headers;  // "name: value"
};

SchedulerState default_state(const Config& config) {
  SchedulerState s;
  s.edge.configured = config.has_edge();
  s.edge.ready = config.has_edge();
  s.edge.model_id = config.has_edge() ? std::filesystem::path(config.edge.model).filename().string() : "";
  s.edge.parallel = config.edge.parallel;
  s.edge.queue_capacity = config.edge.queue;
  for (const auto& up : config.cloud) s.upstreams[up.name] = UpstreamState{};
  return s;
}

int run_route(const RouteOptions& opts) {
  StatusOr<ConfigPtr> loaded = load_config(opts.config_path);
  if (!loaded.is_ok()) {
    std::cerr << "tiergate route: " << loaded.status().message() << "\n";
    return 2;
  }
  const Config& config = **loaded;
  std::shared_ptr<const RouterArtifact> artifact;
  if (!config.routing.router_path.empty()) {
    StatusOr<RouterArtifact> a = load_router_artifact(config.routing.router_path);
    if (!a.is_ok()) {
      std::cerr << "tiergate route: routing.router in " << config.source << ": " << a.status().message() << "\n";
      return 2;
    }
    artifact = std::make_shared<const RouterArtifact>(std::move(a).value());
  }
  RouteInputs inputs;
  if (opts.quality) {
    StatusOr<double> q = parse_quality_header(*opts.quality);
    if (!q.is_ok()) {
      std::cerr << "tiergate route: --quality: " << q.status().message() << "\n";
      return 2;
    }
    inputs.context.quality = *q;
  }
  const std::string body((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  ChatRequest request;
  RequestError error;
  if (!parse_chat_request(body, request, error)) {
    std::cerr << "tiergate route: the request on stdin is not a valid chat completion body: " << error.message
              << "\n";
    return 2;
  }
  inputs.context.api_key_fingerprint = key_fingerprint(opts.api_key);
  for (const std::string& h : opts.headers) {
    size_t colon = h.find(':');
    if (colon == std::string::npos || colon == 0) {
      std::cerr << "tiergate route: --header: expected 'name: value', got '" << h << "'\n";
      return 2;
    }
    std::string name = h.substr(0, colon), value = h.substr(colon + 1);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    while (!value.empty() && value.front() == ' ') value.erase(value.begin());
    inputs.context.headers.emplace_back(name, value);
  }
  std::string embedding_unused;
  SignalExtractor extractor(artifact, edge_request_embedder(artifact.get(), config, embedding_unused));
  if (!embedding_unused.empty()) std::cerr << "tiergate route: routing.router: " << embedding_unused << "\n";
  const RequestSignals signals = extractor.assess(request.messages);
  inputs.signals = &signals;
  if (artifact) inputs.score_quantiles = artifact->score_quantiles;
  inputs.state = default_state(config);
  inputs.state.budget.limit_usd = config.routing.budget_for(inputs.context.api_key_fingerprint);
  StatusOr<RoutePlan> plan = schedule_route(config, request, inputs);
  if (!plan.is_ok()) {
    std::cerr << "tiergate route: " << plan.status().message() << "\n";
    return 1;
  }
  if (opts.explain && !opts.json) {
    std::cout << explain_route(*plan);
  } else {
    std::cout << route_plan_json(*plan) << "\n";
  }
  return 0;
}

}  // namespace

Run add_route_command(CLI::App& app) {
  auto opts = std::make_shared<RouteOptions>();
  CLI::App* sub = app.add_subcommand(
      "route",
      "Decide where a chat completion request (JSON on stdin, the body of POST /v1/chat/completions) would go, "
      "without generating: the configured rules, trained router (routing.router) and thresholds, with every tier "
      "healthy and idle and no spend. Prints the decision as JSON, or with --explain as text.");
  sub->add_option("-c,--config", opts->config_path, "YAML config file (see README.md)")->capture_default_str();
  sub->add_flag("--explain", opts->explain, "print the decision and its trace for a person");
  sub->add_flag("--json", opts->json, "print JSON (the default; overrides --explain)");
  sub->add_option("--quality", opts->quality, "quality dial 0..1, as the x-tiergate-quality header");
  sub->add_option("--api-key", opts->api_key, "the bearer key, for budgets and rules that match a key");
  sub->add_option("--header", opts->headers, "a request header 'name: value' for rules (repeatable)");
  return [opts] { return run_route(*opts); };
}

}  // namespace tiergate::cli
