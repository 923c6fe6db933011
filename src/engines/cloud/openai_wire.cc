#include "tiergate/engines/cloud/openai_wire.h"

#include <nlohmann/json.hpp>

namespace tiergate {
namespace {

using nlohmann::json;

std::optional<std::string> string_field(const json& object, const char* key) {
  if (!object.is_object()) return std::nullopt;
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

double number_or_zero(const json& object, const char* key) {
  if (!object.is_object()) return 0;
  auto it = object.find(key);
  if (it == object.end() || !it->is_number()) return 0;
  return it->get<double>();
}

std::optional<int64_t> integer_field(const json& object, const char* key) {
  if (!object.is_object()) return std::nullopt;
  auto it = object.find(key);
  if (it == object.end() || !it->is_number()) return std::nullopt;
  if (it->is_number_float()) return static_cast<int64_t>(it->get<double>());
  return it->get<int64_t>();
}

std::vector<TokenLogprob> parse_logprobs(const json& choice) {
  std::vector<TokenLogprob> out;
  auto lp = choice.find("logprobs");
  if (lp == choice.end() || !lp->is_object()) return out;
  auto content = lp->find("content");
  if (content == lp->end() || !content->is_array()) return out;
  for (const json& item : *content) {
    if (!item.is_object()) continue;
    TokenLogprob token;
    token.token = string_field(item, "token").value_or("");
    token.logprob = number_or_zero(item, "logprob");
    if (auto top = item.find("top_logprobs"); top != item.end() && top->is_array()) {
      for (const json& alt : *top) {
        if (!alt.is_object()) continue;
        token.top.push_back(
            TopLogprob{string_field(alt, "token").value_or(""), number_or_zero(alt, "logprob")});
      }
    }
    out.push_back(std::move(token));
  }
  return out;
}

std::optional<Usage> parse_usage(const json& root) {
  auto it = root.find("usage");
  if (it == root.end() || !it->is_object()) return std::nullopt;
  auto prompt = integer_field(*it, "prompt_tokens");
  auto completion = integer_field(*it, "completion_tokens");
  if (!prompt && !completion) return std::nullopt;
  return Usage{prompt.value_or(0), completion.value_or(0)};
}

// Choice 0 of choices: the one with index 0, else the first.
const json* first_choice(const json& root) {
  auto it = root.find("choices");
  if (it == root.end() || !it->is_array() || it->empty()) return nullptr;
  for (const json& choice : *it) {
    if (choice.is_object() && integer_field(choice, "index").value_or(0) == 0) return &choice;
  }
  return nullptr;
}

std::optional<FinishReason> parse_finish(const json& choice) {
  auto reason = string_field(choice, "finish_reason");
  if (!reason) return std::nullopt;
  return *reason == "length" ? FinishReason::kLength : FinishReason::kStop;
}

std::optional<std::string> error_of(const json& root) {
  auto it = root.find("error");
  if (it == root.end() || it->is_null()) return std::nullopt;
  if (it->is_string()) return it->get<std::string>();
  if (auto message = string_field(*it, "message")) return message;
  return std::string("error without a message");
}

// Parses text as a JSON object; nullopt when it is not one.
std::optional<json> parse_object(std::string_view text) {
  json root = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object()) return std::nullopt;
  return root;
}

std::string cut_utf8(std::string s, size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  s.resize(utf8_complete_prefix(std::string_view(s).substr(0, max_bytes)));
  s += "...";
  return s;
}

}  // namespace

StatusOr<std::string> build_chat_body(const ChatRequest& request, const std::string& model) {
  try {
    json body = json::object();
    body["model"] = model;
    json messages = json::array();
    for (const ChatMessage& m : request.messages) {
      messages.push_back({{"role", role_name(m.role)}, {"content", m.content}});
    }
    body["messages"] = std::move(messages);
    body["stream"] = true;
    body["stream_options"] = {{"include_usage", true}};
    const SamplingParams& s = request.sampling;
    if (s.temperature) body["temperature"] = *s.temperature;
    if (s.top_p) body["top_p"] = *s.top_p;
    if (s.top_k) body["top_k"] = *s.top_k;
    if (s.min_p) body["min_p"] = *s.min_p;
    if (s.seed) body["seed"] = *s.seed;
    if (s.max_tokens) body["max_tokens"] = *s.max_tokens;
    if (!s.stop.empty()) body["stop"] = s.stop;
    if (s.logprobs) {
      body["logprobs"] = true;
      if (s.top_logprobs > 0) body["top_logprobs"] = s.top_logprobs;
    }
    if (!request.user.empty()) body["user"] = request.user;
    return body.dump();
  } catch (const json::exception&) {
    // The message of a type_error quotes the offending bytes: keep prompt text out.
    return invalid_argument("the request cannot be encoded as JSON (invalid UTF-8?)");
  }
}

StatusOr<WireChunk> parse_stream_chunk(std::string_view payload) {
  try {
    auto root = parse_object(payload);
    if (!root) return unavailable("the upstream sent a stream chunk that is not a JSON object");
    WireChunk chunk;
    chunk.error = error_of(*root);
    chunk.model = string_field(*root, "model").value_or("");
    chunk.usage = parse_usage(*root);
    if (const json* choice = first_choice(*root)) {
      if (auto delta = choice->find("delta"); delta != choice->end() && delta->is_object()) {
        chunk.text = string_field(*delta, "content").value_or("");
      }
      chunk.logprobs = parse_logprobs(*choice);
      chunk.finish = parse_finish(*choice);
    }
    return chunk;
  } catch (const json::exception& e) {
    return unavailable(std::string("the upstream sent a malformed stream chunk: ") + e.what());
  }
}

StatusOr<WireChunk> parse_completion_body(std::string_view body) {
  try {
    auto root = parse_object(body);
    if (!root) return unavailable("the upstream sent a response that is not a JSON object");
    WireChunk chunk;
    chunk.error = error_of(*root);
    chunk.model = string_field(*root, "model").value_or("");
    chunk.usage = parse_usage(*root);
    const json* choice = first_choice(*root);
    if (choice == nullptr && !chunk.error) {
      return unavailable("the upstream sent a response without choices");
    }
    if (choice != nullptr) {
      if (auto message = choice->find("message"); message != choice->end() && message->is_object()) {
        chunk.text = string_field(*message, "content").value_or("");
      }
      chunk.logprobs = parse_logprobs(*choice);
      chunk.finish = parse_finish(*choice);
    }
    return chunk;
  } catch (const json::exception& e) {
    return unavailable(std::string("the upstream sent a malformed response: ") + e.what());
  }
}

std::string extract_error_message(std::string_view body, size_t max_bytes) {
  try {
    auto root = parse_object(body);
    if (!root) return "";
    std::optional<std::string> message = error_of(*root);
    if (!message) message = string_field(*root, "message");
    if (!message) message = string_field(*root, "detail");
    if (!message) return "";
    return cut_utf8(std::move(*message), max_bytes);
  } catch (const json::exception&) {
    return "";
  }
}

StatusOr<std::vector<std::string>> parse_model_list(std::string_view body) {
  try {
    auto root = parse_object(body);
    if (!root) return unavailable("the upstream sent a model list that is not a JSON object");
    auto data = root->find("data");
    if (data == root->end() || !data->is_array()) {
      return unavailable("the upstream sent a model list without data");
    }
    std::vector<std::string> ids;
    for (const json& item : *data) {
      if (auto id = string_field(item, "id")) ids.push_back(std::move(*id));
    }
    return ids;
  } catch (const json::exception& e) {
    return unavailable(std::string("the upstream sent a malformed model list: ") + e.what());
  }
}

}  // namespace tiergate
