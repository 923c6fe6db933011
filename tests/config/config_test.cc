#include "tiergate/config/config.h"

#include "tiergate/core/key_fingerprint.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace tiergate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

constexpr char kSource[] = "tiergate.yaml";

StatusOr<ConfigPtr> parse(const std::string& yaml) { return parse_config(yaml, kSource); }

// ---------------------------------------------------------------------------
// Invalid configs: each must fail with kInvalidArgument and a message holding
// the expected text (file, line, key path and what is wrong).

struct ErrorCase {
  std::string name;
  std::string yaml;
  std::string error;  // expected substring of the message
};

const std::vector<ErrorCase>& error_cases() {
  static const std::vector<ErrorCase> kCases = {
      // --- document shape
      {"SyntaxError", "listen: 127.0.0.1:8080\nedge: {model: a.gguf\n",
       "tiergate.yaml:3: YAML syntax error"},
      {"SyntaxErrorBadIndent", "listen: 127.0.0.1:8080\nedge:\n  model: a\n bad: 1\n",
       "tiergate.yaml:4: YAML syntax error"},
      {"EmptyDocument", "", "tiergate.yaml:1: expected a mapping at the top level, got null"},
      {"TopLevelList", "- a\n- b\n", "tiergate.yaml:1: expected a mapping at the top level, got a list"},
      {"TopLevelScalar", "hello\n", "expected a mapping at the top level, got \"hello\""},
      {"TwoDocuments", "listen: 127.0.0.1:1\n---\nlisten: 127.0.0.1:2\n",
       "expected one YAML document, found 2"},
      {"UnknownTopKey", "listen: 127.0.0.1:8080\nlisen: 1\n",
       "tiergate.yaml:2: lisen: unknown key 'lisen'; known keys: listen, max_body_bytes, edge, "
       "cloud, routing, privacy, admin"},
      {"UnknownEdgeKey", "listen: 127.0.0.1:8080\nedge:\n  modle: a.gguf\n",
       "tiergate.yaml:3: edge.modle: unknown key 'modle'; known keys: model, manifest, min_decode_tps, alias, "
       "context, parallel, queue, threads, batch, price_per_mtok, adaptation, circuit_breaker"},
      {"DuplicateKey", "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  model: b.gguf\n",
       "tiergate.yaml:4: edge.model: duplicate key 'model'"},
      {"NonScalarKey", "listen: 127.0.0.1:8080\n? [a, b]\n: 1\n",
       "tiergate.yaml:2: expected a key name, got a list"},
      // --- listen / max_body_bytes
      {"MissingListen", "edge: {model: a.gguf}\n", "tiergate.yaml:1: listen: required key is missing"},
      {"NullListen", "listen:\nedge: {model: a.gguf}\n", "listen: required key is missing"},
      {"ListenNoPort", "listen: localhost\nedge: {model: a.gguf}\n",
       "tiergate.yaml:1: listen: expected host:port (e.g. 127.0.0.1:8080 or [::1]:8080, port "
       "0..65535), got \"localhost\""},
      {"ListenPortOnly", "listen: 8080\nedge: {model: a.gguf}\n", "listen: expected host:port"},
      {"ListenEmptyHost", "listen: \":8080\"\nedge: {model: a.gguf}\n", "listen: expected host:port"},
      {"ListenPortTooLarge", "listen: 127.0.0.1:65536\nedge: {model: a.gguf}\n",
       "listen: expected host:port"},
      {"ListenPortNotNumber", "listen: 127.0.0.1:http\nedge: {model: a.gguf}\n",
       "listen: expected host:port"},
      {"ListenBareIpv6", "listen: \"::1:8080\"\nedge: {model: a.gguf}\n", "listen: expected host:port"},
      {"ListenIpv6NoColon", "listen: \"[::1]8080\"\nedge: {model: a.gguf}\n",
       "listen: expected host:port"},
      {"ListenNotString", "listen: {host: a}\nedge: {model: a.gguf}\n",
       "tiergate.yaml:1: listen: expected a string, got a mapping"},
      {"MaxBodyZero", "listen: 127.0.0.1:8080\nmax_body_bytes: 0\nedge: {model: a.gguf}\n",
       "tiergate.yaml:2: max_body_bytes: expected an integer >= 1, got \"0\""},
      {"MaxBodyWithUnit", "listen: 127.0.0.1:8080\nmax_body_bytes: 1MB\nedge: {model: a.gguf}\n",
       "max_body_bytes: expected an integer >= 1, got \"1MB\""},
      // --- which tiers
      {"NoTier", "listen: 127.0.0.1:8080\n",
       "tiergate.yaml:1: configure edge.model or at least one cloud upstream"},
      {"NoTierNullEdgeEmptyCloud", "listen: 127.0.0.1:8080\nedge:\ncloud: []\n",
       "configure edge.model or at least one cloud upstream"},
      // --- edge
      {"EdgeNotMapping", "listen: 127.0.0.1:8080\nedge: a.gguf\n",
       "tiergate.yaml:2: edge: expected a mapping, got \"a.gguf\""},
      {"EdgeMissingModel", "listen: 127.0.0.1:8080\nedge:\n  alias: local\n",
       "tiergate.yaml:3: edge.model: required key is missing (or give edge.manifest, a variant manifest)"},
      {"EdgeModelAndManifest", "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  manifest: m.json\n",
       "tiergate.yaml:4: edge.manifest: give edge.model (one GGUF) or edge.manifest (choose a variant), not both"},
      {"EdgeSpeedTargetWithoutManifest", "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  min_decode_tps: 5\n",
       "tiergate.yaml:4: edge.min_decode_tps: only with edge.manifest"},
      {"EdgeAdaptationUnknownKey", "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  adaptation:\n    enable: true\n",
       "tiergate.yaml:5: edge.adaptation.enable: unknown key 'enable'"},
      {"EdgeAdaptationRatiosCrossed",
       "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  adaptation:\n    enabled: true\n    slow_ratio: 0.8\n"
       "    recover_ratio: 0.5\n",
       "edge.adaptation.recover_ratio: must be at least slow_ratio"},
      {"EdgeAdaptationTinyInterval",
       "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  adaptation:\n    enabled: true\n    interval_ms: 1\n",
       "tiergate.yaml:6: edge.adaptation.interval_ms: expected an integer in 10..3600000"},
      {"EdgeEmptyModel", "listen: 127.0.0.1:8080\nedge:\n  model: \"\"\n",
       "tiergate.yaml:3: edge.model: expected a non-empty string"},
      {"EdgeModelList", "listen: 127.0.0.1:8080\nedge:\n  model: [a, b]\n",
       "edge.model: expected a string, got a list"},
      {"EdgeContextTooSmall", "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  context: 10\n",
       "tiergate.yaml:4: edge.context: expected an integer >= 64, got \"10\""},
      {"EdgeContextFraction", "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  context: 1.5\n",
       "edge.context: expected an integer >= 64, got \"1.5\""},
      {"EdgeContextOverflowsInt",
       "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  context: 99999999999\n",
       "edge.context: expected an integer >= 64, got \"99999999999\""},
      {"EdgeParallelTooLarge", "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  parallel: 65\n",
       "edge.parallel: expected an integer in 1..64, got \"65\""},
      {"EdgeParallelZero", "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  parallel: 0\n",
       "edge.parallel: expected an integer in 1..64, got \"0\""},
      {"EdgeQueueNegative", "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  queue: -1\n",
       "edge.queue: expected an integer >= 0, got \"-1\""},
      {"EdgeThreadsWord", "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  threads: many\n",
       "edge.threads: expected an integer >= 0, got \"many\""},
      {"EdgeBatchZero", "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  batch: 0\n",
       "edge.batch: expected an integer >= 1, got \"0\""},
      {"EdgeAliasReserved", "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  alias: auto\n",
       "tiergate.yaml:4: edge.alias: 'auto' is reserved"},
      {"EdgePriceNotMapping",
       "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  price_per_mtok: 0.1\n",
       "edge.price_per_mtok: expected a mapping, got \"0.1\""},
      {"EdgePriceUnknownKey",
       "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  price_per_mtok: {in: 1}\n",
       "edge.price_per_mtok.in: unknown key 'in'; known keys: input, output"},
      {"EdgePriceNegative",
       "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  price_per_mtok: {output: -1}\n",
       "edge.price_per_mtok.output: expected a non-negative number, got \"-1\""},
      {"EdgePriceInfinite",
       "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  price_per_mtok: {input: .inf}\n",
       "edge.price_per_mtok.input: expected a non-negative number, got \".inf\""},
      // --- cloud
      {"CloudPriceWord",
       "listen: 127.0.0.1:8080\n"
       "cloud:\n"
       "  - name: openai\n"
       "    base_url: https://api.openai.com/v1\n"
       "    models: [gpt-4o-mini]\n"
       "    price_per_mtok:\n"
       "      input: abc\n",
       "tiergate.yaml:7: cloud[0].price_per_mtok.input: expected a non-negative number, got "
       "\"abc\""},
      {"CloudNotList", "listen: 127.0.0.1:8080\ncloud: {name: a}\n",
       "tiergate.yaml:2: cloud: expected a list of upstreams, got a mapping"},
      {"CloudItemNotMapping", "listen: 127.0.0.1:8080\ncloud: [openai]\n",
       "cloud[0]: expected a mapping, got \"openai\""},
      {"CloudUnknownKey",
       "listen: 127.0.0.1:8080\ncloud:\n  - name: a\n    base_url: http://x\n    models: [m]\n"
       "    modles: [n]\n",
       "tiergate.yaml:6: cloud[0].modles: unknown key 'modles'; known keys: name, base_url, "
       "api_key_env, models, price_per_mtok, timeouts, retries"},
      {"CloudMissingName", "listen: 127.0.0.1:8080\ncloud:\n  - base_url: http://x\n    models: [m]\n",
       "tiergate.yaml:3: cloud[0].name: required key is missing"},
      {"CloudNameUppercase",
       "listen: 127.0.0.1:8080\ncloud:\n  - name: OpenAI\n    base_url: http://x\n    models: [m]\n",
       "tiergate.yaml:3: cloud[0].name: expected a name of [a-z0-9_-]+, got \"OpenAI\""},
      {"CloudNameReserved",
       "listen: 127.0.0.1:8080\ncloud:\n  - name: edge\n    base_url: http://x\n    models: [m]\n",
       "cloud[0].name: 'edge' is reserved"},
      {"CloudNameDuplicate",
       "listen: 127.0.0.1:8080\ncloud:\n"
       "  - {name: a, base_url: http://x, models: [m1]}\n"
       "  - {name: a, base_url: http://y, models: [m2]}\n",
       "tiergate.yaml:4: cloud[1].name: duplicate upstream name 'a' (also cloud[0])"},
      {"CloudMissingBaseUrl", "listen: 127.0.0.1:8080\ncloud:\n  - name: a\n    models: [m]\n",
       "cloud[0].base_url: required key is missing"},
      {"CloudBaseUrlScheme",
       "listen: 127.0.0.1:8080\ncloud:\n  - name: a\n    base_url: ftp://x\n    models: [m]\n",
       "tiergate.yaml:4: cloud[0].base_url: expected an http:// or https:// URL, got \"ftp://x\""},
      {"CloudBaseUrlNoHost",
       "listen: 127.0.0.1:8080\ncloud:\n  - name: a\n    base_url: https:///\n    models: [m]\n",
       "cloud[0].base_url: expected an http:// or https:// URL"},
      {"CloudApiKeyEnvBad",
       "listen: 127.0.0.1:8080\ncloud:\n  - name: a\n    base_url: http://x\n    models: [m]\n"
       "    api_key_env: my-key\n",
       "tiergate.yaml:6: cloud[0].api_key_env: expected an environment variable name, got "
       "\"my-key\""},
      {"CloudMissingModels", "listen: 127.0.0.1:8080\ncloud:\n  - name: a\n    base_url: http://x\n",
       "cloud[0].models: required key is missing"},
      {"CloudModelsEmpty",
       "listen: 127.0.0.1:8080\ncloud:\n  - name: a\n    base_url: http://x\n    models: []\n",
       "tiergate.yaml:5: cloud[0].models: expected at least one model"},
      {"CloudModelsString",
       "listen: 127.0.0.1:8080\ncloud:\n  - name: a\n    base_url: http://x\n    models: gpt\n",
       "cloud[0].models: expected a list of strings, got \"gpt\""},
      {"CloudModelsNested",
       "listen: 127.0.0.1:8080\ncloud:\n  - name: a\n    base_url: http://x\n    models:\n"
       "      - m1\n      - [m2]\n",
       "tiergate.yaml:7: cloud[0].models[1]: expected a string, got a list"},
      {"CloudModelEmptyString",
       "listen: 127.0.0.1:8080\ncloud:\n  - name: a\n    base_url: http://x\n    models: [\"\"]\n",
       "cloud[0].models[0]: expected a non-empty string"},
      {"CloudModelReserved",
       "listen: 127.0.0.1:8080\ncloud:\n  - name: a\n    base_url: http://x\n    models: [m, auto]\n",
       "cloud[0].models[1]: model name 'auto' is reserved"},
      {"CloudModelIsEdgeAlias",
       "listen: 127.0.0.1:8080\nedge:\n  model: a.gguf\n  alias: local\ncloud:\n"
       "  - name: a\n    base_url: http://x\n    models: [local]\n",
       "tiergate.yaml:8: cloud[0].models[0]: model name 'local' is also edge.alias (line 4)"},
      {"CloudModelDuplicateWithinUpstream",
       "listen: 127.0.0.1:8080\ncloud:\n  - name: a\n    base_url: http://x\n    models: [m, m]\n",
       "cloud[0].models[1]: duplicate model 'm' (already served by upstream 'a')"},
      {"CloudModelDuplicateAcrossUpstreams",
       "listen: 127.0.0.1:8080\ncloud:\n"
       "  - {name: a, base_url: http://x, models: [m1, shared]}\n"
       "  - name: b\n"
       "    base_url: http://y\n"
       "    models:\n"
       "      - m2\n"
       "      - shared\n",
       "tiergate.yaml:8: cloud[1].models[1]: duplicate model 'shared' (already served by upstream "
       "'a')"},
      {"CloudTimeoutZero",
       "listen: 127.0.0.1:8080\ncloud:\n  - name: a\n    base_url: http://x\n    models: [m]\n"
       "    timeouts: {connect_ms: 0}\n",
       "tiergate.yaml:6: cloud[0].timeouts.connect_ms: expected an integer >= 1, got \"0\""},
      {"CloudTimeoutUnknownKey",
       "listen: 127.0.0.1:8080\ncloud:\n  - name: a\n    base_url: http://x\n    models: [m]\n"
       "    timeouts: {read_ms: 5}\n",
       "cloud[0].timeouts.read_ms: unknown key 'read_ms'; known keys: connect_ms, first_byte_ms, "
       "request_ms"},
      {"CloudRetriesNegative",
       "listen: 127.0.0.1:8080\ncloud:\n  - name: a\n    base_url: http://x\n    models: [m]\n"
       "    retries: {max: -1}\n",
       "cloud[0].retries.max: expected an integer in 0..100, got \"-1\""},
      {"CloudRetriesNotMapping",
       "listen: 127.0.0.1:8080\ncloud:\n  - name: a\n    base_url: http://x\n    models: [m]\n"
       "    retries: 3\n",
       "cloud[0].retries: expected a mapping, got \"3\""},
      {"CloudBreakerZeroFailures",
       "listen: 127.0.0.1:8080\ncloud:\n  - name: a\n    base_url: http://x\n    models: [m]\n"
       "    circuit_breaker: {failures: 0}\n",
       "cloud[0].circuit_breaker.failures: expected an integer in 1..1000, got \"0\""},
      {"CloudBreakerMaxBelowOpen",
       "listen: 127.0.0.1:8080\ncloud:\n  - name: a\n    base_url: http://x\n    models: [m]\n"
       "    circuit_breaker: {open_ms: 5000, max_open_ms: 100}\n",
       "tiergate.yaml:6: cloud[0].circuit_breaker: max_open_ms (100) must be at least open_ms (5000)"},
      {"CloudBreakerUnknownKey",
       "listen: 127.0.0.1:8080\ncloud:\n  - name: a\n    base_url: http://x\n    models: [m]\n"
       "    circuit_breaker: {threshold: 2}\n",
       "cloud[0].circuit_breaker.threshold: unknown key 'threshold'; known keys: failures, open_ms, max_open_ms"},
      {"SecondUpstreamError",
       "listen: 127.0.0.1:8080\ncloud:\n"
       "  - {name: a, base_url: http://x, models: [m1]}\n"
       "  - {name: b, base_url: http://y, models: [m2], price_per_mtok: {input: x}}\n",
       "tiergate.yaml:4: cloud[1].price_per_mtok.input: expected a non-negative number, got \"x\""},
      // --- routing
      {"RoutingUnknownKey", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\nrouting:\n  cascade: {}\n",
       "tiergate.yaml:4: routing.cascade: unknown key 'cascade'; known keys: auto, router, threshold, quality, "
       "price_sensitivity, latency_weight, rules, budgets"},
      {"RoutingAutoUnknownKey",
       "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\nrouting:\n  auto:\n    keywords: [a]\n",
       "tiergate.yaml:5: routing.auto.keywords: unknown key 'keywords'; known keys: "
       "max_edge_prompt_tokens, cloud_keywords"},
      {"RoutingMaxTokensNegative",
       "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\nrouting:\n  auto:\n"
       "    max_edge_prompt_tokens: -5\n",
       "routing.auto.max_edge_prompt_tokens: expected an integer >= 0, got \"-5\""},
      {"RoutingKeywordsNotList",
       "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\nrouting:\n  auto:\n    cloud_keywords: prove\n",
       "routing.auto.cloud_keywords: expected a list of strings, got \"prove\""},
      // --- routing: scheduler
      {"RoutingQualityAboveOne", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  quality: 1.5\n",
       "tiergate.yaml:6: routing.quality: expected a number in 0..1, got \"1.5\""},
      {"RoutingQualityNotNumber", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  quality: best\n",
       "routing.quality: expected a number in 0..1, got \"best\""},
      {"RoutingThresholdNotNumber", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  threshold: [1]\n",
       "tiergate.yaml:6: routing.threshold: expected a number, got a list"},
      {"RoutingPriceSensitivityNegative", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  price_sensitivity: -0.1\n",
       "routing.price_sensitivity: expected a number >= 0, got \"-0.1\""},
      {"RoutingLatencyWeightNegative", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  latency_weight: -1\n",
       "routing.latency_weight: expected a number >= 0, got \"-1\""},
      {"RoutingRouterEmpty", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  router: \"\"\n", "routing.router: expected a non-empty string"},
      {"RoutingRulesNotList", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  rules: {a: 1}\n",
       "tiergate.yaml:6: routing.rules: expected a list of rules, got a mapping"},
      {"RoutingRuleUnknownKey", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  rules:\n    - {name: a, route: edge, when: 1}\n",
       "tiergate.yaml:7: routing.rules[0].when: unknown key 'when'; known keys: name, priority, match, route"},
      {"RoutingRuleMissingName", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  rules:\n    - {route: edge}\n",
       "routing.rules[0].name: required key is missing"},
      {"RoutingRuleMissingRoute", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  rules:\n    - {name: a}\n",
       "routing.rules[0].route: required key is missing"},
      {"RoutingRuleUnknownRoute", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  rules:\n    - {name: a, route: mars}\n",
       "tiergate.yaml:7: routing.rules[0].route: unknown route \"mars\"; expected edge, cloud or an upstream "
       "name (upstreams: up1)"},
      {"RoutingRuleDuplicateName",
       "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  rules:\n    - {name: a, route: edge}\n    - {name: a, route: cloud}\n",
       "tiergate.yaml:8: routing.rules[1].name: duplicate rule name 'a' (also routing.rules[0])"},
      {"RoutingRulePriorityNotInteger", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  rules:\n    - {name: a, route: edge, priority: high}\n",
       "routing.rules[0].priority: expected an integer in -1000000..1000000, got \"high\""},
      {"RoutingRuleMatchUnknownKey", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  rules:\n    - {name: a, route: edge, match: {tenant: x}}\n",
       "routing.rules[0].match.tenant: unknown key 'tenant'; known keys: api_key, model, user, header"},
      {"RoutingRuleMatchHeaderNotMap", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  rules:\n    - {name: a, route: edge, match: {header: x}}\n",
       "routing.rules[0].match.header: expected a mapping of header name to value, got \"x\""},
      {"RoutingRuleMatchBadHeaderName",
       "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  rules:\n    - {name: a, route: edge, match: {header: {\"x tenant\": a}}}\n",
       "routing.rules[0].match.header.x tenant: expected a header name of [A-Za-z0-9_-]"},
      {"RoutingRuleEdgeWithoutEdge",
       "listen: 127.0.0.1:8080\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  rules:\n"
       "    - {name: a, route: edge}\n",
       "tiergate.yaml:6: routing.rules[0].route: route 'edge' but no edge.model is configured"},
      {"RoutingBudgetsNotList", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  budgets: 5\n", "routing.budgets: expected a list of budgets, got \"5\""},
      {"RoutingBudgetNegative", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  budgets:\n    - {api_key: \"*\", usd_per_day: -1}\n",
       "tiergate.yaml:7: routing.budgets[0].usd_per_day: expected a non-negative number (USD), got \"-1\""},
      {"RoutingBudgetMissingKey", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  budgets:\n    - {usd_per_day: 1}\n",
       "routing.budgets[0].api_key: required key is missing"},
      {"RoutingBudgetDuplicateKey",
       "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\ncloud:\n  - {name: up1, base_url: http://x, models: [m1]}\nrouting:\n  budgets:\n    - {api_key: sk-1, usd_per_day: 1}\n    - {api_key: sk-1, usd_per_day: 2}\n",
       "tiergate.yaml:8: routing.budgets[1].api_key: a budget for this api_key is already set (routing.budgets[0])"},
      // --- privacy
      {"UpstreamTrustUnknown", "listen: 127.0.0.1:8080\ncloud:\n  - {name: up1, base_url: http://x, models: [m1], trust: high}\n",
       "tiergate.yaml:3: cloud[0].trust: expected public, contract or private, got \"high\""},
      {"PrivacyNotMap", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "privacy: on\n", "tiergate.yaml:3: privacy: expected a mapping, got \"on\""},
      {"PrivacyUnknownKey", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "privacy:\n  rule: {}\n", "tiergate.yaml:4: privacy.rule: unknown key 'rule'; known keys: enabled, classes, rules, audit_log, tagger, "
       "scan_cache_mb, scan_timeout_ms"},
      {"PrivacyScanCacheNegative", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "privacy:\n  scan_cache_mb: -1\n", "privacy.scan_cache_mb: expected an integer in 0..4096"},
      {"PrivacyScanTimeoutNotANumber", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "privacy:\n  scan_timeout_ms: 2s\n", "privacy.scan_timeout_ms: expected an integer in 0..3600000, got \"2s\""},
      {"SpeculativeWithoutCloud", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "speculative: {enabled: true}\n",
       "speculative.enabled: speculative edge execution needs an edge.model and at least one cloud upstream"},
      {"SpeculativeThresholdRange", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "speculative: {threshold: 1.5}\n", "tiergate.yaml:3: speculative.threshold: expected a number in 0..1"},
      {"SpeculativeEarlyExitZero", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "speculative: {early_exit_tokens: 0}\n", "speculative.early_exit_tokens: expected an integer in 1..100000"},
      {"SpeculativeUnknownKey", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "speculative: {verify: true}\n",
       "speculative.verify: unknown key 'verify'; known keys: enabled, margin, verifier, threshold, early_exit_tokens, "
       "hold_back_tokens, hold_back_ms, log, hedge_below"},
      {"HandoffHistoryUnknown", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "handoff: {history: all}\n",
       "tiergate.yaml:3: handoff.history: expected auto, raw, redacted or summary, got \"all\""},
      {"HandoffTtlZero", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "handoff: {ttl_s: 0}\n", "handoff.ttl_s: expected an integer"},
      {"DispatchWaitNegative", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "dispatch: {cloud_wait_ms: -1}\n", "dispatch.cloud_wait_ms: expected an integer in 0..600000"},
      {"AdminTokenEnvBad", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "admin: {token_env: \"my token\"}\n", "tiergate.yaml:3: admin.token_env: expected an environment variable name"},
      {"PrivacyEnabledNotBool", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "privacy:\n  enabled: yes please\n", "privacy.enabled: expected true or false, got \"yes please\""},
      {"PrivacyClassesNotMap", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "privacy:\n  classes: [PERSON]\n", "privacy.classes: expected a mapping of data type to class, got a list"},
      {"PrivacyTypeLowerCase", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "privacy:\n  classes: {person: pii}\n",
       "tiergate.yaml:4: privacy.classes.person: expected a data type of [A-Z0-9_] (e.g. PERSON), got \"person\""},
      {"PrivacyClassUpperCase", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "privacy:\n  classes:\n    PERSON: PII\n",
       "tiergate.yaml:5: privacy.classes.PERSON: expected a class name of [a-z0-9_] (e.g. pii), got \"PII\""},
      {"PrivacyDuplicateType", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "privacy:\n  classes:\n    PERSON: pii\n    PERSON: phi\n", "tiergate.yaml:6: privacy.classes.PERSON: duplicate"},
      {"PrivacyRuleUnknownAction", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "privacy:\n  rules:\n    pii: deny\n",
       "tiergate.yaml:5: privacy.rules.pii: expected allow, redact, local_only or {allow: <trust level>, otherwise: ...}, got \"deny\""},
      {"PrivacyRuleMissingAllow", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "privacy:\n  rules:\n    pii: {otherwise: redact}\n", "privacy.rules.pii.allow: required key is missing"},
      {"PrivacyRuleBadTrust", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "privacy:\n  rules:\n    pii: {allow: partner}\n",
       "privacy.rules.pii.allow: expected the lowest trust level allowed: public, contract or private, got \"partner\""},
      {"PrivacyRuleOtherwiseAllow", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "privacy:\n  rules:\n    pii: {allow: contract, otherwise: allow}\n",
       "privacy.rules.pii.otherwise: expected redact or local_only, got \"allow\""},
      {"PrivacyRuleUnknownKey", "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\n"
       "privacy:\n  rules:\n    pii: {allow: contract, else: redact}\n",
       "privacy.rules.pii.else: unknown key 'else'; known keys: allow, otherwise"},
      {"RoutingKeywordEmpty",
       "listen: 127.0.0.1:8080\nedge: {model: a.gguf}\nrouting:\n  auto:\n"
       "    cloud_keywords: [prove, \"\"]\n",
       "routing.auto.cloud_keywords[1]: expected a non-empty string"},
  };
  return kCases;
}

class ConfigErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ConfigErrorTest, IsRejectedWithLocatedMessage) {
  const ErrorCase& c = GetParam();
  auto result = parse(c.yaml);
  ASSERT_FALSE(result.is_ok()) << "accepted:\n" << c.yaml;
  EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(result.status().message(), HasSubstr(c.error));
  // Every message starts with the file name.
  EXPECT_EQ(result.status().message().rfind(std::string(kSource) + ":", 0), 0u)
      << result.status().message();
}

INSTANTIATE_TEST_SUITE_P(Cases, ConfigErrorTest, ::testing::ValuesIn(error_cases()),
                         [](const ::testing::TestParamInfo<ErrorCase>& param_info) {
                           return param_info.param.name;
                         });

// ---------------------------------------------------------------------------
// Valid configs.

TEST(ConfigTest, MinimalConfigKeepsDefaults) {
  auto result = parse("listen: 127.0.0.1:8080\nedge:\n  model: /models/edge.gguf\n");
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  const Config& c = **result;
  const Config defaults;
  const EdgeConfig edge_defaults;
  EXPECT_EQ(c.source, kSource);
  EXPECT_EQ(c.listen_host, "127.0.0.1");
  EXPECT_EQ(c.listen_port, 8080);
  EXPECT_EQ(c.max_body_bytes, defaults.max_body_bytes);
  EXPECT_TRUE(c.has_edge());
  EXPECT_EQ(c.edge.model, "/models/edge.gguf");
  EXPECT_EQ(c.edge.alias, edge_defaults.alias);
  EXPECT_EQ(c.edge.context, edge_defaults.context);
  EXPECT_EQ(c.edge.parallel, edge_defaults.parallel);
  EXPECT_EQ(c.edge.queue, edge_defaults.queue);
  EXPECT_EQ(c.edge.threads, edge_defaults.threads);
  EXPECT_EQ(c.edge.batch, edge_defaults.batch);
  EXPECT_EQ(c.edge.price.input_per_mtok, 0);
  EXPECT_EQ(c.edge.price.output_per_mtok, 0);
  EXPECT_TRUE(c.cloud.empty());
  EXPECT_EQ(c.auto_rule.max_edge_prompt_tokens, defaults.auto_rule.max_edge_prompt_tokens);
  EXPECT_EQ(c.auto_rule.cloud_keywords, defaults.auto_rule.cloud_keywords);
}

TEST(ConfigTest, EdgeFromAManifestWithAdaptation) {
  auto result = parse(
      "listen: 127.0.0.1:8080\nedge:\n  manifest: variants/manifest.json\n  min_decode_tps: 12.5\n"
      "  adaptation:\n    enabled: true\n    interval_ms: 2000\n    slow_ratio: 0.5\n    recover_ratio: 0.9\n"
      "    low_memory_mb: 512\n    escalate_after: 2\n    recover_after: 4\n    max_tokens: 128\n"
      "    context: 512\n");
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  const EdgeConfig& edge = (*result)->edge;
  EXPECT_TRUE((*result)->has_edge());
  EXPECT_TRUE(edge.model.empty());
  EXPECT_TRUE(edge.manifest.ends_with("/variants/manifest.json")) << edge.manifest;
  EXPECT_EQ(edge.min_decode_tps, 12.5);
  EXPECT_TRUE(edge.adaptation.enabled);
  EXPECT_EQ(edge.adaptation.interval_ms, 2000);
  EXPECT_EQ(edge.adaptation.slow_ratio, 0.5);
  EXPECT_EQ(edge.adaptation.recover_ratio, 0.9);
  EXPECT_EQ(edge.adaptation.low_memory_mb, 512);
  EXPECT_EQ(edge.adaptation.escalate_after, 2);
  EXPECT_EQ(edge.adaptation.recover_after, 4);
  EXPECT_EQ(edge.adaptation.max_tokens, 128);
  EXPECT_EQ(edge.adaptation.context, 512);
}

TEST(ConfigTest, PrivacySectionOverlaysAndUpstreamTrust) {
  auto result = parse(
      "listen: 127.0.0.1:8080\n"
      "cloud:\n"
      "  - {name: openai, base_url: https://api.openai.com/v1, models: [gpt-4o]}\n"
      "  - {name: azure, base_url: https://x.example/v1, models: [gpt-4o-baa], trust: contract}\n"
      "privacy:\n"
      "  classes:\n"
      "    DATE_TIME: pii\n"
      "  rules:\n"
      "    pii: {allow: contract, otherwise: redact}\n"
      "    phi: {allow: private}\n"
      "    secret: local_only\n"
      "    context: allow\n");
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  const Config& c = **result;
  EXPECT_EQ(c.cloud[0].trust, TrustLevel::kPublic);
  EXPECT_EQ(c.cloud[1].trust, TrustLevel::kContract);
  EXPECT_TRUE(c.privacy.enabled);
  ASSERT_EQ(c.privacy.classes.size(), 1u);
  EXPECT_EQ(c.privacy.classes[0].type, "DATE_TIME");
  EXPECT_EQ(c.privacy.classes[0].cls, "pii");
  EXPECT_EQ(c.privacy.classes[0].line, 7);
  ASSERT_EQ(c.privacy.rules.size(), 4u);
  const ClassRule& pii = c.privacy.rules[0].rule;
  EXPECT_EQ(pii.action_for(TrustLevel::kPublic), PrivacyAction::kRedact);
  EXPECT_EQ(pii.action_for(TrustLevel::kContract), PrivacyAction::kAllow);
  EXPECT_EQ(pii.action_for(TrustLevel::kPrivate), PrivacyAction::kAllow);
  const ClassRule& phi = c.privacy.rules[1].rule;  // below private: local_only, failing closed
  EXPECT_EQ(phi.action_for(TrustLevel::kContract), PrivacyAction::kLocalOnly);
  EXPECT_EQ(phi.action_for(TrustLevel::kPrivate), PrivacyAction::kAllow);
  EXPECT_EQ(c.privacy.rules[2].rule.action_for(TrustLevel::kPrivate), PrivacyAction::kLocalOnly);
  EXPECT_EQ(c.privacy.rules[3].rule.action_for(TrustLevel::kPublic), PrivacyAction::kAllow);

  EXPECT_EQ(c.privacy.audit_log, "");
  EXPECT_EQ(c.privacy.scan_cache_mb, 16);
  EXPECT_EQ(c.privacy.scan_timeout_ms, 2000);
  EXPECT_EQ(c.admin.token_env, "");
  auto off = parse("listen: 127.0.0.1:8080\nedge: {model: a.gguf}\nprivacy: {enabled: false, audit_log: audit.jsonl, "
                   "tagger: t.bin, scan_cache_mb: 0, scan_timeout_ms: 0}\n"
                   "admin: {token_env: TG_ADMIN}\n");
  ASSERT_TRUE(off.is_ok()) << off.status().to_string();
  EXPECT_FALSE((*off)->privacy.enabled);
  EXPECT_TRUE(std::filesystem::path((*off)->privacy.audit_log).is_absolute());
  EXPECT_EQ(std::filesystem::path((*off)->privacy.audit_log).filename(), "audit.jsonl");
  EXPECT_EQ((*off)->admin.token_env, "TG_ADMIN");
  EXPECT_EQ(std::filesystem::path((*off)->privacy.tagger).filename(), "t.bin");
  EXPECT_TRUE(std::filesystem::path((*off)->privacy.tagger).is_absolute());
  EXPECT_FALSE((*off)->privacy.no_tagger);
  EXPECT_EQ((*off)->privacy.scan_cache_mb, 0);
  EXPECT_EQ((*off)->privacy.scan_timeout_ms, 0);
  // `tagger: none` turns the default tagger off; "./none" is a file.
  auto none = parse("listen: 127.0.0.1:8080\nedge: {model: a.gguf}\nprivacy: {tagger: none}\n");
  ASSERT_TRUE(none.is_ok()) << none.status().to_string();
  EXPECT_TRUE((*none)->privacy.no_tagger);
  EXPECT_EQ((*none)->privacy.tagger, "");
  auto file = parse("listen: 127.0.0.1:8080\nedge: {model: a.gguf}\nprivacy: {tagger: ./none}\n");
  ASSERT_TRUE(file.is_ok()) << file.status().to_string();
  EXPECT_FALSE((*file)->privacy.no_tagger);
  EXPECT_EQ(std::filesystem::path((*file)->privacy.tagger).filename(), "none");
  EXPECT_FALSE(c.privacy.no_tagger);
}

TEST(ConfigTest, FullExampleFile) {
  const std::string dir = std::string(TIERGATE_SOURCE_DIR) + "/tests/config/cases";
  auto result = load_config(dir + "/full.yaml");
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  const Config& c = **result;
  EXPECT_EQ(c.source, dir + "/full.yaml");
  EXPECT_EQ(c.listen_host, "127.0.0.1");
  EXPECT_EQ(c.listen_port, 8080);
  EXPECT_EQ(c.max_body_bytes, 1048576);

  EXPECT_EQ(c.edge.model, (fs::path(dir) / "models/edge.gguf").lexically_normal().string());
  EXPECT_EQ(c.edge.alias, "edge");
  EXPECT_EQ(c.edge.context, 4096);
  EXPECT_EQ(c.edge.parallel, 4);
  EXPECT_EQ(c.edge.queue, 64);
  EXPECT_EQ(c.edge.threads, 0);
  EXPECT_EQ(c.edge.batch, 512);
  EXPECT_EQ(c.edge.price.input_per_mtok, 0);
  EXPECT_EQ(c.edge.price.output_per_mtok, 0);

  ASSERT_EQ(c.cloud.size(), 1u);
  const UpstreamConfig& up = c.cloud[0];
  EXPECT_EQ(up.name, "openai");
  EXPECT_EQ(up.base_url, "https://api.openai.com/v1");
  EXPECT_EQ(up.api_key_env, "OPENAI_API_KEY");
  EXPECT_EQ(up.models, std::vector<std::string>{"gpt-4o-mini"});
  EXPECT_DOUBLE_EQ(up.price.input_per_mtok, 0.15);
  EXPECT_DOUBLE_EQ(up.price.output_per_mtok, 0.60);
  EXPECT_DOUBLE_EQ(up.price.cost_usd(1'000'000, 1'000'000), 0.75);
  EXPECT_EQ(up.connect_timeout_ms, 5000);
  EXPECT_EQ(up.first_byte_timeout_ms, 60000);
  EXPECT_EQ(up.request_timeout_ms, 600000);
  EXPECT_EQ(up.max_retries, 2);
  EXPECT_EQ(up.backoff_ms, 200);
  EXPECT_EQ(up.breaker.failures, 4);
  EXPECT_EQ(up.breaker.open_ms, 2000);
  EXPECT_EQ(up.breaker.max_open_ms, 30000);

  EXPECT_EQ(c.auto_rule.max_edge_prompt_tokens, 512);
  EXPECT_TRUE(c.speculative.enabled);
  EXPECT_DOUBLE_EQ(c.speculative.margin, 0.2);
  EXPECT_EQ(c.speculative.verifier_path, dir + "/models/verifier.json");
  EXPECT_EQ(c.speculative.threshold, std::optional<double>(0.6));
  EXPECT_EQ(c.speculative.early_exit_tokens, 12);
  EXPECT_EQ(c.speculative.hold_back_tokens, 24);
  EXPECT_EQ(c.speculative.log_path, dir + "/verifier-log.jsonl");
  EXPECT_EQ(c.speculative.hedge_below, std::optional<double>(0.8));
  EXPECT_EQ(c.handoff.history, HistoryHandoff::kSummary);
  EXPECT_EQ(c.handoff.ttl_s, 1800);
  EXPECT_EQ(c.handoff.max_conversations, 5000);
  EXPECT_EQ(c.handoff.summary_max_tokens, 200);
  EXPECT_EQ(c.dispatch.cloud_wait_ms, 5000);
  EXPECT_EQ(c.dispatch.max_waiting, 32);
  EXPECT_EQ(c.auto_rule.cloud_keywords, (std::vector<std::string>{"prove", "step by step"}));

  const RoutingConfig& r = c.routing;
  EXPECT_EQ(r.router_path, (fs::path(dir) / "models/router.json").lexically_normal().string());
  ASSERT_TRUE(r.threshold.has_value());
  EXPECT_DOUBLE_EQ(*r.threshold, 0.05);
  EXPECT_DOUBLE_EQ(r.quality, 0.5);
  EXPECT_DOUBLE_EQ(r.price_sensitivity, 0.02);
  EXPECT_DOUBLE_EQ(r.latency_weight, 0.0);
  ASSERT_EQ(r.rules.size(), 2u);
  EXPECT_EQ(r.rules[0].name, "to-openai");  // higher priority first
  EXPECT_EQ(r.rules[0].route, RuleRoute::kUpstream);
  EXPECT_EQ(r.rules[0].upstream, "openai");
  const RoutingRule& pin = r.rules[1];
  EXPECT_EQ(pin.name, "pin-tenant-a");
  EXPECT_EQ(pin.priority, 10);
  EXPECT_EQ(pin.route, RuleRoute::kEdge);
  EXPECT_EQ(pin.match.api_key_fingerprint, key_fingerprint("sk-abc"));
  EXPECT_EQ(pin.match.model, "fast");
  EXPECT_EQ(pin.match.user, "alice");
  ASSERT_EQ(pin.match.headers.size(), 1u);
  EXPECT_EQ(pin.match.headers[0], (std::pair<std::string, std::string>{"x-tenant", "a"}));
  ASSERT_EQ(r.budgets.size(), 2u);
  EXPECT_EQ(r.budget_for(key_fingerprint("sk-abc")), 1.5);
  EXPECT_EQ(r.budget_for(key_fingerprint("sk-other")), 5.0);
  EXPECT_EQ(r.budget_for(""), 5.0);
}

TEST(ConfigTest, RoutingDefaultsWithoutScheduler) {
  auto result = parse("listen: 127.0.0.1:8080\nedge:\n  model: /m.gguf\n");
  ASSERT_TRUE(result.is_ok());
  const RoutingConfig& r = (*result)->routing;
  EXPECT_TRUE(r.router_path.empty());
  EXPECT_FALSE(r.threshold.has_value());
  EXPECT_DOUBLE_EQ(r.quality, 0.5);
  EXPECT_TRUE(r.rules.empty());
  EXPECT_FALSE(r.budget_for("abc").has_value());
}

TEST(ConfigTest, NegativeThresholdIsAccepted) {
  // `tiergate router calibrate` may write any score, including a negative one.
  auto result = parse("listen: 127.0.0.1:8080\nedge:\n  model: /m.gguf\nrouting:\n  threshold: -0.25\n");
  ASSERT_TRUE(result.is_ok()) << result.status().message();
  EXPECT_DOUBLE_EQ(*(*result)->routing.threshold, -0.25);
}

TEST(ConfigTest, CloudOnlyWithoutEdge) {
  auto result = parse(
      "listen: 0.0.0.0:9000\n"
      "cloud:\n"
      "  - name: local-vllm\n"
      "    base_url: http://localhost:8000/v1//\n"
      "    models: [qwen, llama_3]\n"
      "  - name: openai_2\n"
      "    base_url: https://api.example.com\n"
      "    models: [gpt]\n"
      "    retries: {max: 0}\n");
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  const Config& c = **result;
  EXPECT_FALSE(c.has_edge());
  EXPECT_EQ(c.listen_host, "0.0.0.0");
  EXPECT_EQ(c.listen_port, 9000);
  ASSERT_EQ(c.cloud.size(), 2u);
  EXPECT_EQ(c.cloud[0].base_url, "http://localhost:8000/v1");
  EXPECT_EQ(c.cloud[0].models, (std::vector<std::string>{"qwen", "llama_3"}));
  EXPECT_TRUE(c.cloud[0].api_key_env.empty());
  const UpstreamConfig defaults;
  EXPECT_EQ(c.cloud[0].connect_timeout_ms, defaults.connect_timeout_ms);
  EXPECT_EQ(c.cloud[0].first_byte_timeout_ms, defaults.first_byte_timeout_ms);
  EXPECT_EQ(c.cloud[0].request_timeout_ms, defaults.request_timeout_ms);
  EXPECT_EQ(c.cloud[0].max_retries, defaults.max_retries);
  EXPECT_EQ(c.cloud[0].backoff_ms, defaults.backoff_ms);
  EXPECT_EQ(c.cloud[0].breaker.failures, 3);
  EXPECT_EQ(c.cloud[0].breaker.open_ms, 5000);
  EXPECT_EQ(c.cloud[0].breaker.max_open_ms, 60000);
  EXPECT_EQ(c.cloud[1].name, "openai_2");
  EXPECT_EQ(c.cloud[1].base_url, "https://api.example.com");
  EXPECT_EQ(c.cloud[1].max_retries, 0);
  EXPECT_EQ(c.cloud[1].backoff_ms, defaults.backoff_ms);
}

TEST(ConfigTest, ListenForms) {
  struct ListenCase {
    std::string text;
    std::string host;
    uint16_t port;
  };
  const std::vector<ListenCase> cases = {
      {"127.0.0.1:8080", "127.0.0.1", 8080},
      {"\"[::1]:8080\"", "::1", 8080},
      {"\"[::]:0\"", "::", 0},
      {"localhost:0", "localhost", 0},
      {"0.0.0.0:65535", "0.0.0.0", 65535},
  };
  for (const auto& lc : cases) {
    SCOPED_TRACE(lc.text);
    auto result = parse("listen: " + lc.text + "\nedge: {model: /a.gguf}\n");
    ASSERT_TRUE(result.is_ok()) << result.status().to_string();
    EXPECT_EQ((*result)->listen_host, lc.host);
    EXPECT_EQ((*result)->listen_port, lc.port);
  }
}

TEST(ConfigTest, NullValuesMeanAbsent) {
  auto result = parse(
      "listen: 127.0.0.1:8080\n"
      "max_body_bytes:\n"
      "edge:\n"
      "  model: /a.gguf\n"
      "  price_per_mtok:\n"
      "  context: ~\n"
      "cloud:\n"
      "routing:\n");
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  const Config defaults;
  EXPECT_EQ((*result)->max_body_bytes, defaults.max_body_bytes);
  EXPECT_EQ((*result)->edge.context, defaults.edge.context);
  EXPECT_TRUE((*result)->cloud.empty());
  EXPECT_EQ((*result)->auto_rule.cloud_keywords, defaults.auto_rule.cloud_keywords);
}

TEST(ConfigTest, EmptyKeywordListDisablesKeywords) {
  auto result = parse(
      "listen: 127.0.0.1:8080\nedge: {model: /a.gguf}\n"
      "routing: {auto: {cloud_keywords: [], max_edge_prompt_tokens: 0}}\n");
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_TRUE((*result)->auto_rule.cloud_keywords.empty());
  EXPECT_EQ((*result)->auto_rule.max_edge_prompt_tokens, 0);
}

TEST(ConfigTest, EdgeAliasAndEdgeLimits) {
  auto result = parse(
      "listen: 127.0.0.1:8080\n"
      "edge: {model: /a.gguf, alias: local, context: 64, parallel: 64, queue: 0, threads: 8,"
      " batch: 1, price_per_mtok: {input: 0.01, output: 2e-2}}\n"
      "cloud:\n"
      "  - {name: a, base_url: http://x, models: [edge-large]}\n");
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  const EdgeConfig& e = (*result)->edge;
  EXPECT_EQ(e.alias, "local");
  EXPECT_EQ(e.context, 64);
  EXPECT_EQ(e.parallel, 64);
  EXPECT_EQ(e.queue, 0);
  EXPECT_EQ(e.threads, 8);
  EXPECT_EQ(e.batch, 1);
  EXPECT_DOUBLE_EQ(e.price.input_per_mtok, 0.01);
  EXPECT_DOUBLE_EQ(e.price.output_per_mtok, 0.02);
}

TEST(ConfigTest, YamlAnchorsAreFollowed) {
  auto result = parse(
      "listen: 127.0.0.1:8080\n"
      "cloud:\n"
      "  - name: a\n"
      "    base_url: http://x\n"
      "    models: [m1]\n"
      "    price_per_mtok: &price {input: 1, output: 2}\n"
      "  - name: b\n"
      "    base_url: http://y\n"
      "    models: [m2]\n"
      "    price_per_mtok: *price\n");
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_EQ((*result)->cloud[1].price.output_per_mtok, 2);
}

// ---------------------------------------------------------------------------
// Relative model paths.

TEST(ConfigTest, RelativeModelPathIsResolvedAgainstConfigDirectory) {
  const std::string yaml = "listen: 127.0.0.1:8080\nedge:\n  model: models/edge.gguf\n";
  auto result = parse_config(yaml, "/etc/tiergate/tiergate.yaml");
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_EQ((*result)->edge.model, "/etc/tiergate/models/edge.gguf");

  result = parse_config("listen: 127.0.0.1:8080\nedge: {model: ../shared/./e.gguf}\n",
                        "/etc/tiergate/tiergate.yaml");
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_EQ((*result)->edge.model, "/etc/shared/e.gguf");

  result = parse_config("listen: 127.0.0.1:8080\nedge: {model: /srv/e.gguf}\n",
                        "/etc/tiergate/tiergate.yaml");
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_EQ((*result)->edge.model, "/srv/e.gguf");
}

TEST(ConfigTest, RelativeConfigPathResolvesAgainstWorkingDirectory) {
  const std::string yaml = "listen: 127.0.0.1:8080\nedge:\n  model: models/edge.gguf\n";
  auto result = parse_config(yaml, "tiergate.yaml");
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_EQ((*result)->edge.model, (fs::current_path() / "models/edge.gguf").string());

  result = parse_config(yaml, "conf/tiergate.yaml");
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_EQ((*result)->edge.model, (fs::current_path() / "conf/models/edge.gguf").string());
}

// ---------------------------------------------------------------------------
// load_config.

class LoadConfigTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::path(::testing::TempDir()) / "tiergate_config_XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string write(const std::string& name, const std::string& text) {
    fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  fs::path dir_;
};

TEST_F(LoadConfigTest, ReadsFileAndResolvesModelNextToIt) {
  std::string path = write("conf/tiergate.yaml", "listen: 127.0.0.1:0\nedge:\n  model: e.gguf\n");
  auto result = load_config(path);
  ASSERT_TRUE(result.is_ok()) << result.status().to_string();
  EXPECT_EQ((*result)->source, path);
  EXPECT_EQ((*result)->edge.model, (dir_ / "conf/e.gguf").string());
  EXPECT_EQ((*result)->listen_port, 0);
}

TEST_F(LoadConfigTest, MissingFileIsNotFound) {
  std::string path = (dir_ / "absent.yaml").string();
  auto result = load_config(path);
  ASSERT_FALSE(result.is_ok());
  EXPECT_EQ(result.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(result.status().message(),
            "cannot read config file " + path + ": No such file or directory");
}

TEST_F(LoadConfigTest, DirectoryIsNotFound) {
  auto result = load_config(dir_.string());
  ASSERT_FALSE(result.is_ok());
  EXPECT_EQ(result.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(result.status().message(),
            "cannot read config file " + dir_.string() + ": Is a directory");
}

TEST_F(LoadConfigTest, ErrorsNameTheFile) {
  std::string path = write("bad.yaml", "listen: 127.0.0.1:8080\nedge:\n  modle: e.gguf\n");
  auto result = load_config(path);
  ASSERT_FALSE(result.is_ok());
  EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(result.status().message(), HasSubstr(path + ":3: edge.modle: unknown key 'modle'"));
}

}  // namespace
}  // namespace tiergate
