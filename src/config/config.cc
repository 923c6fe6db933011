#include "tiergate/config/config.h"

#include "tiergate/core/key_fingerprint.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>

namespace tiergate {
namespace {

constexpr int kIntMax = std::numeric_limits<int>::max();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
// Model names the router gives a meaning of its own; no upstream may serve a
// model called like this, and none may be called like this.
constexpr std::string_view kReservedNames[] = {"edge", "auto", "cloud"};
// Longest scalar quoted back in an error message.
constexpr size_t kMaxQuotedChars = 60;

constexpr std::string_view kTopKeys[] = {"listen",  "max_body_bytes", "edge",       "cloud",
                                         "routing", "privacy",        "admin",      "speculative",
                                         "handoff", "dispatch"};
constexpr std::string_view kDispatchKeys[] = {"cloud_wait_ms", "max_waiting"};
constexpr std::string_view kHandoffKeys[] = {"history", "ttl_s", "max_conversations", "summary_max_tokens"};
constexpr std::string_view kSpeculativeKeys[] = {"enabled",           "margin",           "verifier", "threshold",
                                                 "early_exit_tokens", "hold_back_tokens", "hold_back_ms", "log", "hedge_below"};
constexpr std::string_view kAdminKeys[] = {"token_env"};
constexpr std::string_view kEdgeKeys[] = {"model",   "manifest", "min_decode_tps", "alias",          "context",
                                          "parallel", "queue",    "threads",        "batch",          "price_per_mtok",
                                          "adaptation", "circuit_breaker"};
constexpr std::string_view kAdaptationKeys[] = {"enabled",        "interval_ms",   "slow_ratio", "recover_ratio",
                                                "low_memory_mb",  "escalate_after", "recover_after", "max_tokens",
                                                "context"};
constexpr std::string_view kUpstreamKeys[] = {"name",     "base_url", "api_key_env", "models",         "price_per_mtok",
                                              "timeouts", "retries",  "trust",       "circuit_breaker"};
constexpr std::string_view kPriceKeys[] = {"input", "output"};
constexpr std::string_view kTimeoutKeys[] = {"connect_ms", "first_byte_ms", "request_ms"};
constexpr std::string_view kRetryKeys[] = {"max", "backoff_ms"};
constexpr std::string_view kBreakerKeys[] = {"failures", "open_ms", "max_open_ms"};
constexpr std::string_view kRoutingKeys[] = {"auto",          "router", "threshold", "quality", "price_sensitivity",
                                             "latency_weight", "rules",  "budgets"};
constexpr std::string_view kRuleKeys[] = {"name", "priority", "match", "route"};
constexpr std::string_view kMatchKeys[] = {"api_key", "model", "user", "header"};
constexpr std::string_view kBudgetKeys[] = {"api_key", "usd_per_day"};
constexpr std::string_view kAutoKeys[] = {"max_edge_prompt_tokens", "cloud_keywords"};
constexpr std::string_view kPrivacyKeys[] = {"enabled", "classes", "rules", "audit_log", "tagger", "scan_cache_mb",
                                              "scan_timeout_ms"};
constexpr std::string_view kClassRuleKeys[] = {"allow", "otherwise"};

bool is_reserved(std::string_view name) {
  for (std::string_view r : kReservedNames) {
    if (r == name) return true;
  }
  return false;
}

std::string child_path(std::string_view parent, std::string_view key) {
  if (parent.empty()) return std::string(key);
  std::string out(parent);
  out += '.';
  out += key;
  return out;
}

std::string index_path(std::string_view parent, size_t index) {
  return std::string(parent) + "[" + std::to_string(index) + "]";
}

std::string quote(std::string_view text) {
  std::string out = "\"";
  size_t n = 0;
  for (char c : text) {
    if (n++ == kMaxQuotedChars) {
      out += "...";
      break;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default: out += c;
    }
  }
  out += '"';
  return out;
}

// What a node is, for the "got ..." part of an error message.
std::string describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Undefined: return "nothing";
    case YAML::NodeType::Null: return "null";
    case YAML::NodeType::Scalar: return quote(node.Scalar());
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a mapping";
  }
  return "an unknown node";
}

template <size_t N>
std::string join_names(const std::string_view (&names)[N]) {
  std::string out;
  for (std::string_view n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

std::string location(const std::string& source, const YAML::Mark& mark) {
  // A null mark (e.g. an empty document) points at the start of the file.
  int line = mark.line >= 0 ? mark.line + 1 : 1;
  return source + ":" + std::to_string(line) + ": ";
}

bool parse_int64(std::string_view text, int64_t& out) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

bool parse_double(std::string_view text, double& out) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && std::isfinite(out);
}

// Splits "host:port" or "[v6-host]:port". The host comes back without brackets.
bool parse_host_port(std::string_view text, std::string& host, uint16_t& port) {
  std::string_view h;
  std::string_view p;
  if (!text.empty() && text.front() == '[') {
    size_t close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      return false;
    }
    h = text.substr(1, close - 1);
    p = text.substr(close + 2);
  } else {
    size_t colon = text.rfind(':');
    if (colon == std::string_view::npos) return false;
    h = text.substr(0, colon);
    p = text.substr(colon + 1);
    if (h.find(':') != std::string_view::npos) return false;  // a bare IPv6 address
  }
  if (h.empty() || p.empty() || p.size() > 5) return false;
  for (char c : h) {
    if (c == ' ' || c == '\t' || c == '[' || c == ']' || c == '/') return false;
  }
  unsigned value = 0;
  for (char c : p) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<unsigned>(c - '0');
  }
  if (value > 65535) return false;
  host = std::string(h);
  port = static_cast<uint16_t>(value);
  return true;
}

bool is_upstream_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

// Data types as detectors name them: PERSON, EMAIL_ADDRESS.
bool is_data_type_name(std::string_view name) {
  if (name.empty() || name.front() < 'A' || name.front() > 'Z') return false;
  for (char c : name) {
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

// Sensitivity classes: pii, phi, financial, secret, ...
bool is_class_name(std::string_view name) {
  if (name.empty() || name.front() < 'a' || name.front() > 'z') return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

bool is_env_name(std::string_view name) {
  if (name.empty() || (name.front() >= '0' && name.front() <= '9')) return false;
  for (char c : name) {
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '_';
    if (!ok) return false;
  }
  return true;
}

// A relative path is taken relative to the directory of the config file, made
// absolute so that the result does not depend on a later working directory.
std::string resolve_path(const std::string& path, const std::string& source_name) {
  namespace fs = std::filesystem;
  fs::path p(path);
  if (p.is_absolute()) return path;
  std::error_code ec;
  fs::path base = fs::path(source_name).parent_path();
  fs::path abs_base = base.empty() ? fs::current_path(ec) : fs::absolute(base, ec);
  if (!ec) base = abs_base;
  return (base / p).lexically_normal().string();
}

// Reads the YAML tree into a Config. The first error wins: later failures are
// not recorded, so one mistake yields one message; fields that were not read
// keep their defaults, which is harmless because the Config is then dropped.
class ConfigReader {
 public:
  explicit ConfigReader(const std::string& source) : source_(source) {}

  Status read(const YAML::Node& root, Config& config) {
    if (!expect_map(root, "", kTopKeys, "the top level")) return error_;
    const YAML::Mark top_mark = root.Mark();

    if (auto listen = require(root, "listen", "")) {
      std::string text;
      if (as_string(*listen, "listen", text) &&
          !parse_host_port(text, config.listen_host, config.listen_port)) {
        fail(*listen, "listen",
             "expected host:port (e.g. 127.0.0.1:8080 or [::1]:8080, port 0..65535), got " +
                 describe(*listen));
      }
    }
    read_int(root, "max_body_bytes", "", 1, kInt64Max, config.max_body_bytes);
    if (auto edge = find(root, "edge")) read_edge(*edge, config.edge);
    if (auto cloud = find(root, "cloud")) read_cloud(*cloud, config);
    if (auto routing = find(root, "routing")) read_routing(*routing, config);
    if (auto privacy = find(root, "privacy")) read_privacy(*privacy, config.privacy);
    if (auto speculative = find(root, "speculative")) read_speculative(*speculative, config.speculative);
    if (auto handoff = find(root, "handoff")) read_handoff(*handoff, config.handoff);
    if (auto dispatch = find(root, "dispatch")) {
      if (expect_map(*dispatch, "dispatch", kDispatchKeys)) {
        read_int(*dispatch, "cloud_wait_ms", "dispatch", 0, 600000, config.dispatch.cloud_wait_ms);
        read_int(*dispatch, "max_waiting", "dispatch", 1, 100000, config.dispatch.max_waiting);
      }
    }
    if (auto admin = find(root, "admin")) {
      if (expect_map(*admin, "admin", kAdminKeys)) {
        if (auto env = find(*admin, "token_env")) {
          if (as_string(*env, "admin.token_env", config.admin.token_env) && !is_env_name(config.admin.token_env)) {
            fail(*env, "admin.token_env", "expected an environment variable name, got " + describe(*env));
          }
        }
      }
    }

    if (ok() && !config.has_edge() && config.cloud.empty()) {
      fail_at(top_mark, "", "configure edge.model or at least one cloud upstream");
    }
    if (ok() && config.speculative.enabled && (!config.has_edge() || config.cloud.empty())) {
      fail_at(top_mark, "speculative.enabled",
              "speculative edge execution needs an edge.model and at least one cloud upstream to escalate to");
    }
    return error_;
  }

 private:
  bool ok() const { return error_.is_ok(); }

  void fail_at(const YAML::Mark& mark, std::string_view path, const std::string& message) {
    if (!ok()) return;
    std::string text = location(source_, mark);
    if (!path.empty()) {
      text += path;
      text += ": ";
    }
    text += message;
    error_ = invalid_argument(std::move(text));
  }

  void fail(const YAML::Node& at, std::string_view path, const std::string& message) {
    fail_at(at.Mark(), path, message);
  }

  // True when node is a mapping with unique scalar keys, all of them in known.
  template <size_t N>
  bool expect_map(const YAML::Node& node, std::string_view path, const std::string_view (&known)[N],
                  std::string_view what = {}) {
    if (!ok()) return false;
    if (!node.IsMap()) {
      std::string subject = what.empty() ? std::string() : " at " + std::string(what);
      fail(node, path, "expected a mapping" + subject + ", got " + describe(node));
      return false;
    }
    std::set<std::string, std::less<>> seen;
    for (const auto& entry : node) {
      const YAML::Node& key = entry.first;
      if (!key.IsScalar()) {
        fail(key, path, "expected a key name, got " + describe(key));
        return false;
      }
      const std::string& name = key.Scalar();
      bool is_known = false;
      for (std::string_view k : known) is_known = is_known || k == name;
      if (!is_known) {
        fail(key, child_path(path, name),
             "unknown key '" + name + "'; known keys: " + join_names(known));
        return false;
      }
      if (!seen.insert(name).second) {
        fail(key, child_path(path, name), "duplicate key '" + name + "'");
        return false;
      }
    }
    return true;
  }

  // The value of key in map, or nothing when the key is absent or null (an
  // empty `edge:` means the same as no `edge:`). map has passed expect_map.
  static std::optional<YAML::Node> find(const YAML::Node& map, std::string_view key) {
    for (const auto& entry : map) {
      if (entry.first.Scalar() == key) {
        if (entry.second.IsNull()) return std::nullopt;
        return entry.second;
      }
    }
    return std::nullopt;
  }

  std::optional<YAML::Node> require(const YAML::Node& map, std::string_view key,
                                    std::string_view parent) {
    auto value = find(map, key);
    if (!value) fail(map, child_path(parent, key), "required key is missing");
    return value;
  }

  bool as_string(const YAML::Node& node, std::string_view path, std::string& out) {
    if (!ok()) return false;
    if (!node.IsScalar()) {
      fail(node, path, "expected a string, got " + describe(node));
      return false;
    }
    out = node.Scalar();
    return true;
  }

  bool as_nonempty_string(const YAML::Node& node, std::string_view path, std::string& out) {
    if (!as_string(node, path, out)) return false;
    if (out.empty()) {
      fail(node, path, "expected a non-empty string");
      return false;
    }
    return true;
  }

  bool as_int(const YAML::Node& node, std::string_view path, int64_t min, int64_t max,
              int64_t& out) {
    if (!ok()) return false;
    int64_t value = 0;
    if (!node.IsScalar() || !parse_int64(node.Scalar(), value) || value < min || value > max) {
      std::string want = "expected an integer";
      if (max == kIntMax || max == kInt64Max) {
        want += " >= " + std::to_string(min);
      } else {
        want += " in " + std::to_string(min) + ".." + std::to_string(max);
      }
      fail(node, path, want + ", got " + describe(node));
      return false;
    }
    out = value;
    return true;
  }

  bool as_price(const YAML::Node& node, std::string_view path, double& out) {
    if (!ok()) return false;
    double value = 0;
    if (!node.IsScalar() || !parse_double(node.Scalar(), value) || value < 0) {
      fail(node, path, "expected a non-negative number, got " + describe(node));
      return false;
    }
    out = value;
    return true;
  }

  // True when there is no error yet and node is a list; records the error
  // ("expected a list of <items>") when it is not.
  bool is_list_of(const YAML::Node& node, std::string_view path, std::string_view items) {
    if (!ok()) return false;
    if (node.IsSequence()) return true;
    fail(node, path, "expected a list of " + std::string(items) + ", got " + describe(node));
    return false;
  }

  // A list of non-empty strings.
  bool as_string_list(const YAML::Node& node, std::string_view path,
                      std::vector<std::pair<std::string, YAML::Node>>& out) {
    if (!is_list_of(node, path, "strings")) return false;
    out.clear();
    for (size_t i = 0; i < node.size(); ++i) {
      std::string item;
      if (!as_nonempty_string(node[i], index_path(path, i), item)) return false;
      out.emplace_back(std::move(item), node[i]);
    }
    return true;
  }

  template <typename T>
  void read_int(const YAML::Node& map, std::string_view key, std::string_view parent, int64_t min,
                int64_t max, T& out) {
    static_assert(std::is_integral_v<T>);
    auto node = find(map, key);
    if (!node) return;
    int64_t value = 0;
    if (as_int(*node, child_path(parent, key), min, max, value)) out = static_cast<T>(value);
  }

  void read_price(const YAML::Node& map, std::string_view parent, Price& price) {
    auto node = find(map, "price_per_mtok");
    if (!node) return;
    std::string path = child_path(parent, "price_per_mtok");
    if (!expect_map(*node, path, kPriceKeys)) return;
    if (auto v = find(*node, "input")) {
      as_price(*v, child_path(path, "input"), price.input_per_mtok);
    }
    if (auto v = find(*node, "output")) {
      as_price(*v, child_path(path, "output"), price.output_per_mtok);
    }
  }

  void read_edge(const YAML::Node& node, EdgeConfig& edge) {
    if (!expect_map(node, "edge", kEdgeKeys)) return;
    auto model = find(node, "model");
    auto manifest = find(node, "manifest");
    if (model && manifest) {
      fail(*manifest, "edge.manifest", "give edge.model (one GGUF) or edge.manifest (choose a variant), not both");
      return;
    }
    if (!model && !manifest) {
      fail(node, "edge.model", "required key is missing (or give edge.manifest, a variant manifest)");
      return;
    }
    if (model && as_nonempty_string(*model, "edge.model", edge.model)) edge.model = resolve_path(edge.model, source_);
    if (manifest && as_nonempty_string(*manifest, "edge.manifest", edge.manifest)) {
      edge.manifest = resolve_path(edge.manifest, source_);
    }
    if (auto tps = find(node, "min_decode_tps")) {
      if (!manifest) {
        fail(*tps, "edge.min_decode_tps", "only with edge.manifest (it is the variant choice's speed target)");
        return;
      }
      double v = 0;
      if (as_number(*tps, "edge.min_decode_tps", 0, 1e9, v)) edge.min_decode_tps = v;
    }
    if (auto adaptation = find(node, "adaptation")) read_adaptation(*adaptation, edge.adaptation);
    if (auto breaker = find(node, "circuit_breaker")) read_breaker(*breaker, "edge.circuit_breaker", edge.breaker);
    if (auto alias = find(node, "alias")) {
      if (as_nonempty_string(*alias, "edge.alias", edge.alias) && edge.alias != "edge" &&
          is_reserved(edge.alias)) {
        fail(*alias, "edge.alias", "'" + edge.alias + "' is reserved; choose another name");
      }
      alias_mark_ = alias->Mark();
    }
    read_int(node, "context", "edge", 64, kIntMax, edge.context);
    read_int(node, "parallel", "edge", 1, 64, edge.parallel);
    read_int(node, "queue", "edge", 0, kIntMax, edge.queue);
    read_int(node, "threads", "edge", 0, kIntMax, edge.threads);
    read_int(node, "batch", "edge", 1, kIntMax, edge.batch);
    read_price(node, "edge", edge.price);
  }

  void read_adaptation(const YAML::Node& node, EdgeAdaptationConfig& a) {
    if (!expect_map(node, "edge.adaptation", kAdaptationKeys)) return;
    if (!read_bool(node, "enabled", "edge.adaptation.enabled", a.enabled)) return;
    read_int(node, "interval_ms", "edge.adaptation", 10, 3600000, a.interval_ms);
    if (auto v = find(node, "slow_ratio")) as_number(*v, "edge.adaptation.slow_ratio", 0, 1, a.slow_ratio);
    if (auto v = find(node, "recover_ratio")) as_number(*v, "edge.adaptation.recover_ratio", 0, 1, a.recover_ratio);
    if (ok() && a.recover_ratio < a.slow_ratio) {
      fail(node, "edge.adaptation.recover_ratio", "must be at least slow_ratio, or the steps would flap");
    }
    read_int(node, "low_memory_mb", "edge.adaptation", 0, int64_t{1} << 24, a.low_memory_mb);
    read_int(node, "escalate_after", "edge.adaptation", 1, 1000, a.escalate_after);
    read_int(node, "recover_after", "edge.adaptation", 1, 1000, a.recover_after);
    read_int(node, "max_tokens", "edge.adaptation", 1, kIntMax, a.max_tokens);
    read_int(node, "context", "edge.adaptation", 64, kIntMax, a.context);
  }

  void read_cloud(const YAML::Node& node, Config& config) {
    if (!is_list_of(node, "cloud", "upstreams")) return;
    // Which upstream serves each model name, to reject ambiguous model names.
    std::map<std::string, std::string, std::less<>> model_owner;
    std::map<std::string, size_t, std::less<>> name_index;
    for (size_t i = 0; i < node.size() && ok(); ++i) {
      const YAML::Node item = node[i];
      std::string path = index_path("cloud", i);
      UpstreamConfig up;
      read_upstream(item, path, up);
      if (!ok()) return;
      if (auto [it, inserted] = name_index.emplace(up.name, i); !inserted) {
        fail(*find(item, "name"), child_path(path, "name"),
             "duplicate upstream name '" + up.name + "' (also cloud[" + std::to_string(it->second) +
                 "])");
        return;
      }
      const YAML::Node models = *find(item, "models");
      for (size_t m = 0; m < up.models.size(); ++m) {
        const std::string& model = up.models[m];
        std::string model_path = index_path(child_path(path, "models"), m);
        if (is_reserved(model)) {
          fail(models[m], model_path, "model name '" + model + "' is reserved; it selects a tier");
          return;
        }
        if (config.has_edge() && model == config.edge.alias) {
          fail(models[m], model_path,
               "model name '" + model + "' is also edge.alias (line " +
                   std::to_string(alias_mark_.line + 1) + ")");
          return;
        }
        if (auto [it, inserted] = model_owner.emplace(model, up.name); !inserted) {
          fail(models[m], model_path,
               "duplicate model '" + model + "' (already served by upstream '" + it->second + "')");
          return;
        }
      }
      config.cloud.push_back(std::move(up));
    }
  }

  void read_upstream(const YAML::Node& node, const std::string& path, UpstreamConfig& up) {
    if (!expect_map(node, path, kUpstreamKeys)) return;
    if (auto name = require(node, "name", path)) {
      std::string name_path = child_path(path, "name");
      if (as_string(*name, name_path, up.name)) {
        if (!is_upstream_name(up.name)) {
          fail(*name, name_path, "expected a name of [a-z0-9_-]+, got " + describe(*name));
        } else if (is_reserved(up.name)) {
          fail(*name, name_path, "'" + up.name + "' is reserved; choose another name");
        }
      }
    }
    if (auto url = require(node, "base_url", path)) {
      std::string url_path = child_path(path, "base_url");
      if (as_string(*url, url_path, up.base_url)) {
        while (!up.base_url.empty() && up.base_url.back() == '/') up.base_url.pop_back();
        std::string_view u = up.base_url;
        size_t scheme = u.starts_with("https://") ? 8 : u.starts_with("http://") ? 7 : 0;
        bool has_space = u.find_first_of(" \t\r\n") != std::string_view::npos;
        if (scheme == 0 || u.size() == scheme || has_space) {
          fail(*url, url_path, "expected an http:// or https:// URL, got " + describe(*url));
        }
      }
    }
    if (auto env = find(node, "api_key_env")) {
      std::string env_path = child_path(path, "api_key_env");
      if (as_string(*env, env_path, up.api_key_env) && !is_env_name(up.api_key_env)) {
        fail(*env, env_path, "expected an environment variable name, got " + describe(*env));
      }
    }
    if (auto models = require(node, "models", path)) {
      std::string models_path = child_path(path, "models");
      std::vector<std::pair<std::string, YAML::Node>> items;
      if (as_string_list(*models, models_path, items)) {
        if (items.empty()) fail(*models, models_path, "expected at least one model");
        for (auto& item : items) up.models.push_back(std::move(item.first));
      }
    }
    read_price(node, path, up.price);
    if (auto timeouts = find(node, "timeouts")) {
      std::string t_path = child_path(path, "timeouts");
      if (expect_map(*timeouts, t_path, kTimeoutKeys)) {
        read_int(*timeouts, "connect_ms", t_path, 1, kIntMax, up.connect_timeout_ms);
        read_int(*timeouts, "first_byte_ms", t_path, 1, kIntMax, up.first_byte_timeout_ms);
        read_int(*timeouts, "request_ms", t_path, 1, kIntMax, up.request_timeout_ms);
      }
    }
    if (auto trust = find(node, "trust")) {
      const std::string trust_path = child_path(path, "trust");
      std::string name;
      if (as_string(*trust, trust_path, name)) {
        if (auto level = parse_trust_level(name)) {
          up.trust = *level;
        } else {
          fail(*trust, trust_path, "expected public, contract or private, got " + describe(*trust));
        }
      }
    }
    if (auto retries = find(node, "retries")) {
      std::string r_path = child_path(path, "retries");
      if (expect_map(*retries, r_path, kRetryKeys)) {
        read_int(*retries, "max", r_path, 0, 100, up.max_retries);
        read_int(*retries, "backoff_ms", r_path, 0, kIntMax, up.backoff_ms);
      }
    }
    if (auto breaker = find(node, "circuit_breaker")) read_breaker(*breaker, child_path(path, "circuit_breaker"), up.breaker);
  }

  void read_breaker(const YAML::Node& node, const std::string& path, BreakerConfig& b) {
    if (!expect_map(node, path, kBreakerKeys)) return;
    read_int(node, "failures", path, 1, 1000, b.failures);
    read_int(node, "open_ms", path, 1, kIntMax, b.open_ms);
    read_int(node, "max_open_ms", path, 1, kIntMax, b.max_open_ms);
    if (b.max_open_ms < b.open_ms) {
      fail(node, path, "max_open_ms (" + std::to_string(b.max_open_ms) + ") must be at least open_ms (" +
                           std::to_string(b.open_ms) + ")");
    }
  }

  void read_routing(const YAML::Node& node, Config& config) {
    if (!expect_map(node, "routing", kRoutingKeys)) return;
    RoutingConfig& routing = config.routing;
    if (auto auto_node = find(node, "auto")) read_auto_rule(*auto_node, config.auto_rule);
    if (auto router = find(node, "router")) {
      if (as_nonempty_string(*router, "routing.router", routing.router_path)) {
        routing.router_path = resolve_path(routing.router_path, source_);
      }
    }
    if (auto threshold = find(node, "threshold")) {
      double value = 0;
      if (as_number(*threshold, "routing.threshold", -1e9, 1e9, value)) routing.threshold = value;
    }
    if (auto quality = find(node, "quality")) as_number(*quality, "routing.quality", 0, 1, routing.quality);
    if (auto ps = find(node, "price_sensitivity")) {
      as_number(*ps, "routing.price_sensitivity", 0, 1e9, routing.price_sensitivity);
    }
    if (auto lw = find(node, "latency_weight")) as_number(*lw, "routing.latency_weight", 0, 1e9, routing.latency_weight);
    if (auto rules = find(node, "rules")) read_rules(*rules, config);
    if (auto budgets = find(node, "budgets")) read_budgets(*budgets, routing);
  }

  // An optional true/false key; false when it is there but not a boolean.
  bool read_bool(const YAML::Node& map, std::string_view key, std::string_view path, bool& out) {
    auto node = find(map, key);
    if (!node) return true;
    if (!node->IsScalar() || (node->Scalar() != "true" && node->Scalar() != "false")) {
      fail(*node, path, "expected true or false, got " + describe(*node));
      return false;
    }
    out = node->Scalar() == "true";
    return true;
  }

  void read_handoff(const YAML::Node& node, HandoffConfig& h) {
    if (!expect_map(node, "handoff", kHandoffKeys)) return;
    if (auto history = find(node, "history")) {
      std::string name;
      if (as_string(*history, "handoff.history", name)) {
        if (name == "auto") {
          h.history = HistoryHandoff::kAuto;
        } else if (name == "raw") {
          h.history = HistoryHandoff::kRaw;
        } else if (name == "redacted") {
          h.history = HistoryHandoff::kRedacted;
        } else if (name == "summary") {
          h.history = HistoryHandoff::kSummary;
        } else {
          fail(*history, "handoff.history", "expected auto, raw, redacted or summary, got " + describe(*history));
        }
      }
    }
    read_int(node, "ttl_s", "handoff", 1, kIntMax, h.ttl_s);
    read_int(node, "max_conversations", "handoff", 1, 10000000, h.max_conversations);
    read_int(node, "summary_max_tokens", "handoff", 16, 4096, h.summary_max_tokens);
  }

  void read_speculative(const YAML::Node& node, SpeculativeConfig& s) {
    if (!expect_map(node, "speculative", kSpeculativeKeys)) return;
    if (!read_bool(node, "enabled", "speculative.enabled", s.enabled)) return;
    if (auto margin = find(node, "margin")) as_number(*margin, "speculative.margin", 0, 1e9, s.margin);
    if (auto verifier = find(node, "verifier")) {
      if (as_nonempty_string(*verifier, "speculative.verifier", s.verifier_path)) {
        s.verifier_path = resolve_path(s.verifier_path, source_);
      }
    }
    if (auto threshold = find(node, "threshold")) {
      double t = 0;
      if (as_number(*threshold, "speculative.threshold", 0, 1, t)) s.threshold = t;
    }
    read_int(node, "early_exit_tokens", "speculative", 1, 100000, s.early_exit_tokens);
    read_int(node, "hold_back_tokens", "speculative", 0, 100000, s.hold_back_tokens);
    read_int(node, "hold_back_ms", "speculative", 0, 600000, s.hold_back_ms);
    if (auto log = find(node, "log")) {
      if (as_nonempty_string(*log, "speculative.log", s.log_path)) s.log_path = resolve_path(s.log_path, source_);
    }
    if (auto hedge = find(node, "hedge_below")) {
      double h = 0;
      if (as_number(*hedge, "speculative.hedge_below", 0, 1, h)) s.hedge_below = h;
    }
  }

  void read_privacy(const YAML::Node& node, PrivacyConfig& privacy) {
    if (!expect_map(node, "privacy", kPrivacyKeys)) return;
    if (!read_bool(node, "enabled", "privacy.enabled", privacy.enabled)) return;
    if (auto tagger = find(node, "tagger")) {
      if (as_nonempty_string(*tagger, "privacy.tagger", privacy.tagger)) {
        // "none" turns the default tagger off ("./none" names a file).
        privacy.no_tagger = privacy.tagger == "none";
        privacy.tagger = privacy.no_tagger ? "" : resolve_path(privacy.tagger, source_);
      }
    }
    read_int(node, "scan_cache_mb", "privacy", 0, 4096, privacy.scan_cache_mb);
    read_int(node, "scan_timeout_ms", "privacy", 0, 3600000, privacy.scan_timeout_ms);
    if (auto log = find(node, "audit_log")) {
      if (as_nonempty_string(*log, "privacy.audit_log", privacy.audit_log)) {
        privacy.audit_log = resolve_path(privacy.audit_log, source_);
      }
    }
    if (auto classes = find(node, "classes")) {
      if (!classes->IsMap()) {
        fail(*classes, "privacy.classes", "expected a mapping of data type to class, got " + describe(*classes));
        return;
      }
      std::set<std::string, std::less<>> seen;
      for (const auto& entry : *classes) {
        std::string type, cls;
        if (!as_nonempty_string(entry.first, "privacy.classes", type)) return;
        const std::string path = child_path("privacy.classes", type);
        if (!is_data_type_name(type)) {
          fail(entry.first, path, "expected a data type of [A-Z0-9_] (e.g. PERSON), got " + quote(type));
          return;
        }
        if (!seen.insert(type).second) {
          fail(entry.first, path, "duplicate data type '" + type + "'");
          return;
        }
        if (!as_nonempty_string(entry.second, path, cls)) return;
        if (!is_class_name(cls)) {
          fail(entry.second, path, "expected a class name of [a-z0-9_] (e.g. pii), got " + quote(cls));
          return;
        }
        privacy.classes.push_back({type, cls, entry.first.Mark().line + 1});
      }
    }
    if (auto rules = find(node, "rules")) {
      if (!rules->IsMap()) {
        fail(*rules, "privacy.rules", "expected a mapping of class to rule, got " + describe(*rules));
        return;
      }
      std::set<std::string, std::less<>> seen;
      for (const auto& entry : *rules) {
        std::string cls;
        if (!as_nonempty_string(entry.first, "privacy.rules", cls)) return;
        const std::string path = child_path("privacy.rules", cls);
        if (!is_class_name(cls)) {
          fail(entry.first, path, "expected a class name of [a-z0-9_] (e.g. pii), got " + quote(cls));
          return;
        }
        if (!seen.insert(cls).second) {
          fail(entry.first, path, "duplicate class '" + cls + "'");
          return;
        }
        ClassRule rule;
        if (!read_class_rule(entry.second, path, rule)) return;
        privacy.rules.push_back({cls, rule, entry.first.Mark().line + 1});
      }
    }
  }

  // `allow`, `redact`, `local_only`, or {allow: <trust level>, otherwise: redact|local_only}.
  bool read_class_rule(const YAML::Node& node, const std::string& path, ClassRule& rule) {
    if (node.IsScalar()) {
      const std::optional<PrivacyAction> action = parse_privacy_action(node.Scalar());
      if (!action) {
        fail(node, path,
             "expected allow, redact, local_only or {allow: <trust level>, otherwise: ...}, got " + describe(node));
        return false;
      }
      rule.allow_from = *action == PrivacyAction::kAllow ? std::optional(TrustLevel::kPublic) : std::nullopt;
      rule.otherwise = *action == PrivacyAction::kAllow ? PrivacyAction::kLocalOnly : *action;
      return true;
    }
    if (!expect_map(node, path, kClassRuleKeys)) return false;
    auto allow = require(node, "allow", path);
    if (!allow) return false;
    std::string name;
    if (!as_string(*allow, child_path(path, "allow"), name)) return false;
    rule.allow_from = parse_trust_level(name);
    if (!rule.allow_from) {
      fail(*allow, child_path(path, "allow"),
           "expected the lowest trust level allowed: public, contract or private, got " + describe(*allow));
      return false;
    }
    if (auto otherwise = find(node, "otherwise")) {
      const std::optional<PrivacyAction> action =
          otherwise->IsScalar() ? parse_privacy_action(otherwise->Scalar()) : std::nullopt;
      if (!action || *action == PrivacyAction::kAllow) {
        fail(*otherwise, child_path(path, "otherwise"), "expected redact or local_only, got " + describe(*otherwise));
        return false;
      }
      rule.otherwise = *action;
    }
    return ok();
  }

  void read_auto_rule(const YAML::Node& auto_node, AutoRuleConfig& rule) {
    if (!expect_map(auto_node, "routing.auto", kAutoKeys)) return;
    read_int(auto_node, "max_edge_prompt_tokens", "routing.auto", 0, kIntMax, rule.max_edge_prompt_tokens);
    if (auto keywords = find(auto_node, "cloud_keywords")) {
      std::vector<std::pair<std::string, YAML::Node>> items;
      if (as_string_list(*keywords, "routing.auto.cloud_keywords", items)) {
        rule.cloud_keywords.clear();
        for (auto& item : items) rule.cloud_keywords.push_back(std::move(item.first));
      }
    }
  }

  // A finite number in [min, max].
  bool as_number(const YAML::Node& node, std::string_view path, double min, double max, double& out) {
    if (!ok()) return false;
    double value = 0;
    if (!node.IsScalar() || !parse_double(node.Scalar(), value) || value < min || value > max) {
      std::string want = max >= 1e9 ? "expected a number >= " + format_bound(min)
                                     : "expected a number in " + format_bound(min) + ".." + format_bound(max);
      if (min <= -1e9) want = "expected a number";
      fail(node, path, want + ", got " + describe(node));
      return false;
    }
    out = value;
    return true;
  }

  static std::string format_bound(double v) {
    std::string s = std::to_string(v);
    while (s.find('.') != std::string::npos && (s.back() == '0' || s.back() == '.')) {
      bool dot = s.back() == '.';
      s.pop_back();
      if (dot) break;
    }
    return s;
  }

  void read_rules(const YAML::Node& node, Config& config) {
    if (!is_list_of(node, "routing.rules", "rules")) return;
    std::map<std::string, size_t, std::less<>> names;
    std::vector<RoutingRule> rules;
    for (size_t i = 0; i < node.size() && ok(); ++i) {
      const YAML::Node item = node[i];
      const std::string path = index_path("routing.rules", i);
      if (!expect_map(item, path, kRuleKeys)) return;
      RoutingRule rule;
      if (auto name = require(item, "name", path)) {
        const std::string name_path = child_path(path, "name");
        if (as_nonempty_string(*name, name_path, rule.name)) {
          if (auto [it, inserted] = names.emplace(rule.name, i); !inserted) {
            fail(*name, name_path,
                 "duplicate rule name '" + rule.name + "' (also routing.rules[" + std::to_string(it->second) + "])");
            return;
          }
        }
      }
      read_int(item, "priority", path, -1000000, 1000000, rule.priority);
      if (auto match = find(item, "match")) read_match(*match, child_path(path, "match"), rule.match);
      if (auto route = require(item, "route", path)) {
        const std::string route_path = child_path(path, "route");
        std::string target;
        if (as_nonempty_string(*route, route_path, target)) {
          if (target == "edge") {
            rule.route = RuleRoute::kEdge;
            if (!config.has_edge()) fail(*route, route_path, "route 'edge' but no edge.model is configured");
          } else if (target == "cloud") {
            rule.route = RuleRoute::kCloud;
            if (config.cloud.empty()) fail(*route, route_path, "route 'cloud' but no cloud upstream is configured");
          } else {
            bool known = false;
            std::string names_list;
            for (const auto& up : config.cloud) {
              known = known || up.name == target;
              names_list += ", " + up.name;
            }
            if (!known) {
              fail(*route, route_path,
                   "unknown route " + quote(target) + "; expected edge, cloud or an upstream name" +
                       (config.cloud.empty() ? std::string(" (no upstream is configured)")
                                             : " (upstreams: " + names_list.substr(2) + ")"));
            }
            rule.route = RuleRoute::kUpstream;
            rule.upstream = target;
          }
        }
      }
      rules.push_back(std::move(rule));
    }
    std::stable_sort(rules.begin(), rules.end(),
                     [](const RoutingRule& a, const RoutingRule& b) { return a.priority > b.priority; });
    config.routing.rules = std::move(rules);
  }

  void read_match(const YAML::Node& node, const std::string& path, RuleMatch& match) {
    if (!expect_map(node, path, kMatchKeys)) return;
    std::string value;
    if (auto key = find(node, "api_key")) {
      if (as_nonempty_string(*key, child_path(path, "api_key"), value)) match.api_key_fingerprint = key_fingerprint(value);
    }
    if (auto model = find(node, "model")) {
      if (as_nonempty_string(*model, child_path(path, "model"), value)) match.model = value;
    }
    if (auto user = find(node, "user")) {
      if (as_nonempty_string(*user, child_path(path, "user"), value)) match.user = value;
    }
    if (auto header = find(node, "header")) {
      const std::string h_path = child_path(path, "header");
      if (!ok()) return;
      if (!header->IsMap()) {
        fail(*header, h_path, "expected a mapping of header name to value, got " + describe(*header));
        return;
      }
      for (const auto& entry : *header) {
        std::string name, header_value;
        if (!as_nonempty_string(entry.first, h_path, name)) return;
        std::string lowered;
        for (char c : name) {
          bool token = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                       c == '_';
          if (!token) {
            fail(entry.first, child_path(h_path, name), "expected a header name of [A-Za-z0-9_-], got " + quote(name));
            return;
          }
          lowered += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        }
        if (!as_string(entry.second, child_path(h_path, name), header_value)) return;
        match.headers.emplace_back(std::move(lowered), std::move(header_value));
      }
    }
  }

  void read_budgets(const YAML::Node& node, RoutingConfig& routing) {
    if (!is_list_of(node, "routing.budgets", "budgets")) return;
    std::map<std::string, size_t, std::less<>> keys;
    for (size_t i = 0; i < node.size() && ok(); ++i) {
      const YAML::Node item = node[i];
      const std::string path = index_path("routing.budgets", i);
      if (!expect_map(item, path, kBudgetKeys)) return;
      BudgetConfig budget;
      if (auto key = require(item, "api_key", path)) {
        std::string value;
        if (as_nonempty_string(*key, child_path(path, "api_key"), value)) {
          budget.every_key = value == "*";
          if (!budget.every_key) budget.api_key_fingerprint = key_fingerprint(value);
          // The key itself is not quoted back: it is a secret.
          if (auto [it, inserted] = keys.emplace(budget.every_key ? "*" : budget.api_key_fingerprint, i); !inserted) {
            fail(*key, child_path(path, "api_key"),
                 "a budget for this api_key is already set (routing.budgets[" + std::to_string(it->second) + "])");
            return;
          }
        }
      }
      if (auto usd = require(item, "usd_per_day", path)) {
        const std::string usd_path = child_path(path, "usd_per_day");
        if (!ok()) return;
        double value = 0;
        if (!usd->IsScalar() || !parse_double(usd->Scalar(), value) || value < 0) {
          fail(*usd, usd_path, "expected a non-negative number (USD), got " + describe(*usd));
          return;
        }
        budget.usd_per_day = value;
      }
      routing.budgets.push_back(std::move(budget));
    }
  }

  const std::string& source_;
  Status error_;
  YAML::Mark alias_mark_;
};

}  // namespace

std::string_view trust_level_name(TrustLevel level) {
  switch (level) {
    case TrustLevel::kPublic:
      return "public";
    case TrustLevel::kContract:
      return "contract";
    case TrustLevel::kPrivate:
      return "private";
  }
  return "?";
}

std::optional<TrustLevel> parse_trust_level(std::string_view name) {
  for (TrustLevel level : {TrustLevel::kPublic, TrustLevel::kContract, TrustLevel::kPrivate}) {
    if (name == trust_level_name(level)) return level;
  }
  return std::nullopt;
}

std::string_view privacy_action_name(PrivacyAction action) {
  switch (action) {
    case PrivacyAction::kAllow:
      return "allow";
    case PrivacyAction::kRedact:
      return "redact";
    case PrivacyAction::kLocalOnly:
      return "local_only";
  }
  return "?";
}

std::optional<PrivacyAction> parse_privacy_action(std::string_view name) {
  for (PrivacyAction action : {PrivacyAction::kAllow, PrivacyAction::kRedact, PrivacyAction::kLocalOnly}) {
    if (name == privacy_action_name(action)) return action;
  }
  return std::nullopt;
}

const UpstreamConfig* Config::upstream(std::string_view name) const {
  for (const UpstreamConfig& up : cloud) {
    if (up.name == name) return &up;
  }
  return nullptr;
}

std::optional<double> RoutingConfig::budget_for(const std::string& api_key_fingerprint) const {
  std::optional<double> every;
  for (const BudgetConfig& b : budgets) {
    if (b.every_key) {
      every = b.usd_per_day;
    } else if (!api_key_fingerprint.empty() && b.api_key_fingerprint == api_key_fingerprint) {
      return b.usd_per_day;
    }
  }
  return every;
}

StatusOr<ConfigPtr> parse_config(const std::string& yaml_text, const std::string& source_name) {
  try {
    std::vector<YAML::Node> docs = YAML::LoadAll(yaml_text);
    if (docs.size() > 1) {
      return invalid_argument(location(source_name, docs[1].Mark()) +
                              "expected one YAML document, found " + std::to_string(docs.size()));
    }
    YAML::Node root = docs.empty() ? YAML::Node() : docs.front();
    auto config = std::make_shared<Config>();
    config->source = source_name;
    ConfigReader reader(source_name);
    if (Status s = reader.read(root, *config); !s.is_ok()) return s;
    return ConfigPtr(std::move(config));
  } catch (const YAML::ParserException& e) {
    return invalid_argument(location(source_name, e.mark) + "YAML syntax error: " + e.msg);
  } catch (const YAML::Exception& e) {
    return invalid_argument(location(source_name, e.mark) + e.msg);
  }
}

StatusOr<ConfigPtr> load_config(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    return not_found("cannot read config file " + path + ": " + std::strerror(errno));
  }
  std::string text;
  char buffer[8192];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, n);
  int read_errno = std::ferror(file) ? errno : 0;
  std::fclose(file);
  if (read_errno != 0) {
    return not_found("cannot read config file " + path + ": " + std::strerror(read_errno));
  }
  return parse_config(text, path);
}

}  // namespace tiergate
