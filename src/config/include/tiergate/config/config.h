// The gateway's configuration: YAML parsed once, validated, and frozen into an
// immutable Config shared as shared_ptr<const Config>. A reload builds a new
// one and swaps it. Every validation error names the file, line and key path,
// e.g. "tiergate.yaml:7: cloud[0].price_per_mtok.input: expected a number".
#pragma once

#include <cstdint>
#include <memory>
#include <string>
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

struct EdgeConfig {
  std::string model;           // GGUF path, absolute once parsed; empty = no edge tier
  std::string alias = "edge";  // extra model name that selects the edge tier
  int context = 4096;          // tokens per sequence (prompt + answer)
  int parallel = 4;            // sequences decoded together (continuous batching)
  int queue = 64;              // requests waiting for a free sequence
  int threads = 0;             // 0 = all hardware threads
  int batch = 512;             // tokens per llama_decode call
  Price price;                 // optional: energy/amortised cost of the device
};

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

struct Config {
  std::string source;                 // file the config came from
  std::string listen_host = "127.0.0.1";  // IPv6 without brackets: "[::1]:8080" gives "::1"
  uint16_t listen_port = 8080;        // 0 = any free port (printed at start)
  int64_t max_body_bytes = 1 << 20;   // larger request bodies get 413
  EdgeConfig edge;
  std::vector<UpstreamConfig> cloud;
  AutoRuleConfig auto_rule;

  bool has_edge() const { return !edge.model.empty(); }
};

using ConfigPtr = std::shared_ptr<const Config>;

// Parses and validates YAML text; source_name is used in error messages and
// becomes Config::source. A relative edge.model is resolved against the
// directory of source_name (the working directory when it has none). Errors
// are kInvalidArgument: "<source>:<line>: <key path>: <what is wrong>".
StatusOr<ConfigPtr> parse_config(const std::string& yaml_text, const std::string& source_name);
// Reads and parses a file. kNotFound when it cannot be read.
StatusOr<ConfigPtr> load_config(const std::string& path);

}  // namespace tiergate
