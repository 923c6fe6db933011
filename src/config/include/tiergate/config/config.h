// The gateway's configuration: YAML parsed once, validated, and frozen into an
// immutable Config shared as shared_ptr<const Config>. A reload builds a new
// one and swaps it. Every validation error names the file, line and key path,
// e.g. "tiergate.yaml:7: cloud[0].price_per_mtok.input: expected a number".
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tiergate/core/status.h"

namespace tiergate {

struct Price {
  double input_per_mtok = 0;   // USD per million prompt tokens
  double output_per_mtok = 0;  // USD per million completion tokens
  double cost_usd(int64_t prompt_tokens, int64_t completion_tokens) const {
    return (static_cast<double>(prompt_tokens) * input_per_mtok +
            static_cast<double>(completion_tokens) * output_per_mtok) / 1e6;
  }
};

// A tier's circuit breaker (circuit_breaker: of an upstream or of the edge):
// after `failures` consecutive failed requests the tier gets none for
// open_ms, then one probe; each failed probe doubles the wait, up to
// max_open_ms.
struct BreakerConfig {
  int failures = 3;
  int open_ms = 5000;
  int max_open_ms = 60000;
};

// Run-time adaptation of the edge to the device (fleet/device_adaptation.h
// documents the steps and thresholds).
struct EdgeAdaptationConfig {
  bool enabled = false;
  int interval_ms = 5000;  // between observations
  double slow_ratio = 0.6;
  double recover_ratio = 0.85;
  int64_t low_memory_mb = 256;
  int escalate_after = 3;
  int recover_after = 6;
  int max_tokens = 256;  // the shortened step's cap on new tokens
  int context = 1024;    // the shortened step's longest prompt; the smaller variant's context
};

struct EdgeConfig {
  // GGUF path, absolute once parsed. Empty with `manifest`: `tiergate serve`
  // chooses the variant for this device and fills it in.
  std::string model;
  // A variant manifest (`tiergate variants build`/`eval`), absolute once
  // parsed; the edge runs the variant fleet/variant_choice.h picks for this
  // device. Exclusive with `model`.
  std::string manifest;
  std::optional<double> min_decode_tps;  // with manifest: the choice's speed target
  EdgeAdaptationConfig adaptation;
  BreakerConfig breaker;  // over failed decodes (engines/local/local_engine.h)
  std::string alias = "edge";  // extra model name that selects the edge tier
  int context = 4096;          // tokens per sequence (prompt + answer)
  int parallel = 4;            // sequences decoded together (continuous batching)
  int queue = 64;              // requests waiting for a free sequence
  int threads = 0;             // 0 = all hardware threads
  int batch = 512;             // tokens per llama_decode call
  Price price;                 // optional: energy/amortised cost of the device
};

// How far an upstream is trusted with personal data (privacy.rules), from
// least to most: public (a provider under its standard terms), contract (a
// provider under a business-associate or data-processing agreement),
// private (one the team runs itself). A rule allowing `contract` allows
// `private` too.
enum class TrustLevel { kPublic, kContract, kPrivate };
// What a privacy rule does with a class of data, from least to most strict
// (docs/privacy.md).
enum class PrivacyAction { kAllow, kRedact, kLocalOnly };

std::string_view trust_level_name(TrustLevel level);
std::optional<TrustLevel> parse_trust_level(std::string_view name);
std::string_view privacy_action_name(PrivacyAction action);
std::optional<PrivacyAction> parse_privacy_action(std::string_view name);

struct UpstreamConfig {
  std::string name;            // shown in x-tiergate-tier
  std::string base_url;        // e.g. https://api.openai.com/v1 (no trailing /)
  std::string api_key_env;     // environment variable holding the key; may be empty
  std::vector<std::string> models;  // first one is the default for model "cloud"
  Price price;
  int connect_timeout_ms = 5000;
  int first_byte_timeout_ms = 60000;  // until the response headers arrive
  int request_timeout_ms = 600000;    // whole request
  int max_retries = 2;                // on connection errors and 5xx before the first byte
  int backoff_ms = 200;               // base of the jittered exponential backoff
  BreakerConfig breaker;
  TrustLevel trust = TrustLevel::kPublic;
};

// The placeholder `auto` rule (replaced by the routing cascade): a prompt goes
// to the cloud when its estimated token count exceeds max_edge_prompt_tokens or
// it contains one of cloud_keywords (case-insensitive); otherwise to the edge.
struct AutoRuleConfig {
  int max_edge_prompt_tokens = 512;
  std::vector<std::string> cloud_keywords = {
      "step by step", "prove", "derive", "analyze", "analyse", "explain why", "write code",
      "implement", "debug", "refactor", "algorithm", "legal", "diagnos", "translate"};
};

// An explicit routing rule (routing.rules[]). A rule applies to a request
// whose model is "auto", or whose model is the rule's match.model; every
// field of `match` that is given must match. Rules run before the scheduler,
// highest priority first (config order among equal priorities).
enum class RuleRoute { kEdge, kCloud, kUpstream };

struct RuleMatch {
  std::optional<std::string> api_key_fingerprint;  // key_fingerprint() of match.api_key
  std::optional<std::string> model;                // the request's model field
  std::optional<std::string> user;                 // the request's user field
  // Header name (lower case) -> exact value.
  std::vector<std::pair<std::string, std::string>> headers;
};

struct RoutingRule {
  std::string name;  // unique; the route reads "rule:<name>"
  int priority = 0;
  RuleMatch match;
  RuleRoute route = RuleRoute::kEdge;
  std::string upstream;  // kUpstream: the upstream's name (validated to exist)
};

// routing.budgets[]: a daily spend limit per API key (UTC day). When a key's
// spend today reaches it, its requests stay on the edge.
struct BudgetConfig {
  bool every_key = false;           // api_key: "*": each key has its own budget of this size
  std::string api_key_fingerprint;  // a specific key (when !every_key)
  double usd_per_day = 0;
};

// The scheduler's configuration (docs/routing.md, "Scheduler").
struct RoutingConfig {
  std::string router_path;          // trained artifact, absolute once parsed; "" = placeholder rule
  std::optional<double> threshold;  // cloud-score threshold at the default quality
  double quality = 0.5;             // default quality dial, 0 (cheapest) .. 1 (best)
  double price_sensitivity = 0.02;  // score units per e-fold of marginal cloud cost over the reference
  double latency_weight = 0.0;      // score units per second of extra expected cloud latency
  std::vector<RoutingRule> rules;   // sorted: highest priority first, config order among equals
  std::vector<BudgetConfig> budgets;

  // The daily limit for a key (its fingerprint; "" for requests without a
  // key): a budget naming the key wins over "*"; nullopt = no limit.
  std::optional<double> budget_for(const std::string& api_key_fingerprint) const;
};

// privacy.rules.<class>: data of the class goes as it is to upstreams trusted
// at `allow_from` or more, and is handled by `otherwise` below that.
struct ClassRule {
  std::optional<TrustLevel> allow_from;                 // nullopt: never as it is
  PrivacyAction otherwise = PrivacyAction::kLocalOnly;  // never kAllow

  PrivacyAction action_for(TrustLevel upstream) const {
    return allow_from && upstream >= *allow_from ? PrivacyAction::kAllow : otherwise;
  }
};

// The `privacy` section. Entries overlay the built-in defaults
// (docs/privacy.md); the privacy module checks the data type names when it
// builds the policy, and `line` lets it name the place of a bad one.
struct PrivacyConfig {
  bool enabled = true;
  // The egress audit log (JSON Lines, chained; docs/privacy.md), absolute
  // once parsed; "" = kept in memory only (the last entries, for /admin/audit).
  std::string audit_log;
  // The tagger for names, addresses and the other unstructured types
  // (`tiergate pii train`), absolute once parsed; "" = none named, and
  // `tiergate serve` takes the default one (src/cli/default_tagger.h) if
  // there is one. `tagger: none` (no_tagger) = the structured detectors only.
  std::string tagger;
  bool no_tagger = false;
  // Memory for the spans found in messages seen before (privacy/scan_cache.h):
  // a conversation's earlier turns are not scanned again with each new one.
  // 0 = scan every message of every request.
  int scan_cache_mb = 16;
  // The most a request's scan may take, in milliseconds: a scan still
  // running then stops, and the request keeps to the device (failing
  // closed, as on a detector's error). 0 = no limit.
  int scan_timeout_ms = 2000;
  struct TypeClass {
    std::string type;  // a detector's data type, e.g. PERSON
    std::string cls;   // a sensitivity class, e.g. pii
    int line = 0;
  };
  struct Rule {
    std::string cls;
    ClassRule rule;
    int line = 0;
  };
  std::vector<TypeClass> classes;
  std::vector<Rule> rules;
};

// The admin API (/admin/*): callers present `Authorization: Bearer <token>`
// with the token read from the environment variable token_env at start.
struct AdminConfig {
  std::string token_env;  // "" = the admin API is off
};

// Speculative edge execution (speculative:, docs/dispatch.md). An `auto`
// request the router sends to the edge while a cloud upstream could take it,
// and about which it is uncertain (a cloud score within `margin` of the
// threshold; every such request without a trained router), is answered by
// the edge first; the verifier scores the draft and below its threshold the
// request escalates to the cloud and the draft is discarded.
struct SpeculativeConfig {
  bool enabled = false;
  double margin = 0.1;              // |cloud score - threshold| that counts as uncertain
  std::string verifier_path;        // tiergate verifier calibrate's file; "" = built-in weights
  std::optional<double> threshold;  // overrides the verifier's own, 0..1
  int early_exit_tokens = 16;       // first verdict after this many draft tokens (a doomed draft stops there)
  int hold_back_tokens = 32;        // a stream sends nothing before this many tokens passed the verifier
  int hold_back_ms = 0;             // ... or, when > 0, this long after the first draft token, whichever comes first
  // Hedging: when the first verdict passes with a confidence below this, the
  // cloud request starts in parallel; the loser is cancelled. nullopt = off.
  std::optional<double> hedge_below;
  std::string log_path;             // JSONL of each verified draft's features and verdict (no text); "" = none
};

// Cross-tier context handoff (handoff:, docs/dispatch.md): what the cloud
// receives of the earlier turns when a conversation the edge was serving
// moves to the cloud. Conversations are told apart by the
// x-tiergate-conversation header, else the request's `user` field.
enum class HistoryHandoff {
  kAuto,      // kSummary when the earlier turns hold data the privacy scan found, else kRaw
  kRaw,       // the earlier turns as they are (the privacy policy still applies)
  kRedacted,  // every value found in the earlier turns replaced by a placeholder
  kSummary,   // a summary of the earlier turns written by the edge model, then scanned like any outgoing text
};

struct HandoffConfig {
  HistoryHandoff history = HistoryHandoff::kAuto;
  int ttl_s = 3600;               // a conversation not seen for this long is forgotten
  int max_conversations = 10000;  // the least recently seen are forgotten first
  int summary_max_tokens = 256;
};

// Waiting for the cloud (dispatch:, docs/dispatch.md): a request only the
// cloud can serve, refused because its upstreams are down or rate limited,
// waits until one of them may serve again when that is within
// cloud_wait_ms, at most max_waiting requests at a time; else (and by
// default) it gets a 503 or 429 with Retry-After at once.
struct DispatchConfig {
  int cloud_wait_ms = 0;  // 0 = never wait
  int max_waiting = 64;
};

struct Config {
  std::string source;                 // file the config came from
  std::string listen_host = "127.0.0.1";  // IPv6 without brackets: "[::1]:8080" gives "::1"
  uint16_t listen_port = 8080;        // 0 = any free port (printed at start)
  int64_t max_body_bytes = 1 << 20;   // larger request bodies get 413
  EdgeConfig edge;
  std::vector<UpstreamConfig> cloud;
  AutoRuleConfig auto_rule;
  RoutingConfig routing;
  PrivacyConfig privacy;
  AdminConfig admin;
  SpeculativeConfig speculative;
  HandoffConfig handoff;
  DispatchConfig dispatch;

  bool has_edge() const { return !edge.model.empty() || !edge.manifest.empty(); }
  // The cloud upstream called `name`, or nullptr.
  const UpstreamConfig* upstream(std::string_view name) const;
};

using ConfigPtr = std::shared_ptr<const Config>;

// Parses and validates YAML text; source_name is used in error messages and
// becomes Config::source. A relative edge.model is resolved against the
// directory of source_name (the working directory when it has none); so is
// routing.router. Errors are kInvalidArgument: "<source>:<line>: <key path>: <what is wrong>".
StatusOr<ConfigPtr> parse_config(const std::string& yaml_text, const std::string& source_name);
// Reads and parses a file. kNotFound when it cannot be read.
StatusOr<ConfigPtr> load_config(const std::string& path);

}  // namespace tiergate
