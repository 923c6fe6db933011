// Chat request and response value types shared by every layer. They mirror
// OpenAI's chat completion API; the server parses JSON into them once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tiergate {

enum class Role { kSystem, kDeveloper, kUser, kAssistant, kTool };

std::string_view role_name(Role role);
// Returns false for a name that is not an OpenAI role.
bool parse_role(std::string_view name, Role& out);

struct ChatMessage {
  Role role = Role::kUser;
  std::string content;
};

// Sampling options. Unset fields take the engine's defaults (temperature 1,
// top_p 1, top_k off, min_p off, random seed, generation up to the context).
struct SamplingParams {
  std::optional<double> temperature;
  std::optional<double> top_p;
  std::optional<int> top_k;
  std::optional<double> min_p;
  std::optional<uint32_t> seed;
  std::optional<int> max_tokens;
  std::vector<std::string> stop;
  bool logprobs = false;
  int top_logprobs = 0;  // 0..20, only with logprobs
};

struct ChatRequest {
  std::string model;  // as the client sent it: auto, edge, cloud, or a model name
  std::vector<ChatMessage> messages;
  SamplingParams sampling;
  bool stream = false;
  bool include_usage = false;  // stream_options.include_usage
  std::string user;
  // Which conversation this request continues (x-tiergate-conversation,
  // else `user`); "" = none. For cross-tier context handoff; not sent upstream.
  std::string conversation;
};

struct TopLogprob {
  std::string token;
  double logprob = 0;
};

// One generated token with its log-probability under the model and the most
// likely alternatives at that position, as OpenAI's logprobs.content[i].
struct TokenLogprob {
  std::string token;
  double logprob = 0;
  std::vector<TopLogprob> top;
};

enum class FinishReason { kStop, kLength };

std::string_view finish_reason_name(FinishReason reason);

struct Usage {
  int64_t prompt_tokens = 0;
  int64_t completion_tokens = 0;
  int64_t total() const { return prompt_tokens + completion_tokens; }
};

// A piece of an answer as it is generated. text is valid UTF-8 (engines hold
// back incomplete characters and partial stop sequences).
struct Delta {
  std::string text;
  std::vector<TokenLogprob> logprobs;
};

struct Completion {
  std::string model;  // the model that answered (file name or upstream model id)
  std::string text;
  std::vector<TokenLogprob> logprobs;
  FinishReason finish = FinishReason::kStop;
  Usage usage;
  bool usage_counted = false;  // true when the tier did not report usage and it was estimated
};

// Rough token count for text whose tokenizer is unknown: about four bytes a
// token for English, never zero for non-empty text.
int64_t estimate_tokens(std::string_view text);
int64_t estimate_prompt_tokens(const std::vector<ChatMessage>& messages);

// True when s is well-formed UTF-8.
bool is_valid_utf8(std::string_view s);
// Length of the longest prefix of s that ends on a character boundary.
size_t utf8_complete_prefix(std::string_view s);

}  // namespace tiergate
