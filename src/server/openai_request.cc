#include "tiergate/server/openai_request.h"

#include <nlohmann/json.hpp>

namespace tiergate {

using json = nlohmann::json;

namespace {

struct Fail {
  RequestError error;
};

[[noreturn]] void fail(std::string message, std::string param) { throw Fail{{std::move(message), std::move(param)}}; }

const char* type_name(const json& v) { return v.type_name(); }

double number_in(const json& body, const char* key, double lo, double hi) {
  const json& v = body.at(key);
  if (!v.is_number()) fail(std::string("Invalid type for '") + key + "': expected a number, got " + type_name(v), key);
  double d = v.get<double>();
  if (d < lo || d > hi) {
    fail(std::string("Invalid value for '") + key + "': " + std::to_string(d) + " is outside [" + std::to_string(lo) +
             ", " + std::to_string(hi) + "]",
         key);
  }
  return d;
}

int64_t integer_in(const json& body, const char* key, int64_t lo, int64_t hi) {
  const json& v = body.at(key);
  if (!v.is_number_integer()) fail(std::string("Invalid type for '") + key + "': expected an integer, got " + type_name(v), key);
  auto i = v.get<int64_t>();
  if (i < lo || i > hi) {
    fail(std::string("Invalid value for '") + key + "': " + std::to_string(i) + " is outside [" + std::to_string(lo) +
             ", " + std::to_string(hi) + "]",
         key);
  }
  return i;
}

bool boolean(const json& body, const char* key) {
  const json& v = body.at(key);
  if (!v.is_boolean()) fail(std::string("Invalid type for '") + key + "': expected a boolean, got " + type_name(v), key);
  return v.get<bool>();
}

// content: a string, an array of {"type":"text","text":...} parts, or null.
std::string content_text(const json& content, const std::string& param) {
  if (content.is_null()) return {};
  if (content.is_string()) return content.get<std::string>();
  if (content.is_array()) {
    std::string text;
    for (size_t i = 0; i < content.size(); ++i) {
      const json& part = content[i];
      std::string p = param + "[" + std::to_string(i) + "]";
      if (!part.is_object() || !part.contains("type") || part["type"] != "text") {
        fail("Unsupported content part in '" + p + "': only {\"type\": \"text\"} parts are supported", p);
      }
      if (!part.contains("text") || !part["text"].is_string()) fail("Missing string 'text' in '" + p + "'", p + ".text");
      text += part["text"].get<std::string>();
    }
    return text;
  }
  fail("Invalid type for '" + param + "': expected a string or an array of text parts, got " + content.type_name(), param);
}

void parse_messages(const json& body, ChatRequest& out) {
  if (!body.contains("messages")) fail("Missing required parameter: 'messages'", "messages");
  const json& msgs = body["messages"];
  if (!msgs.is_array()) fail(std::string("Invalid type for 'messages': expected an array, got ") + msgs.type_name(), "messages");
  if (msgs.empty()) fail("Invalid 'messages': empty array; at least one message is required", "messages");
  for (size_t i = 0; i < msgs.size(); ++i) {
    const json& m = msgs[i];
    std::string p = "messages[" + std::to_string(i) + "]";
    if (!m.is_object()) fail("Invalid type for '" + p + "': expected an object", p);
    if (!m.contains("role") || !m["role"].is_string()) fail("Missing string 'role' in '" + p + "'", p + ".role");
    ChatMessage msg;
    std::string role = m["role"].get<std::string>();
    if (!parse_role(role, msg.role)) {
      fail("Invalid value for '" + p + ".role': '" + role + "'; expected system, developer, user, assistant or tool",
           p + ".role");
    }
    if (!m.contains("content") && msg.role != Role::kAssistant) fail("Missing 'content' in '" + p + "'", p + ".content");
    msg.content = m.contains("content") ? content_text(m["content"], p + ".content") : std::string();
    if (msg.content.empty() && (msg.role == Role::kUser || msg.role == Role::kSystem || msg.role == Role::kDeveloper)) {
      fail("Invalid '" + p + ".content': empty; a " + role + " message needs text", p + ".content");
    }
    out.messages.push_back(std::move(msg));
  }
}

void parse_sampling(const json& body, ChatRequest& out) {
  SamplingParams& s = out.sampling;
  if (body.contains("temperature") && !body["temperature"].is_null()) s.temperature = number_in(body, "temperature", 0, 2);
  if (body.contains("top_p") && !body["top_p"].is_null()) s.top_p = number_in(body, "top_p", 0, 1);
  if (body.contains("top_k") && !body["top_k"].is_null()) s.top_k = static_cast<int>(integer_in(body, "top_k", 0, 1 << 20));
  if (body.contains("min_p") && !body["min_p"].is_null()) s.min_p = number_in(body, "min_p", 0, 1);
  if (body.contains("seed") && !body["seed"].is_null()) {
    s.seed = static_cast<uint32_t>(integer_in(body, "seed", INT64_MIN, INT64_MAX));
  }
  for (const char* key : {"max_tokens", "max_completion_tokens"}) {
    if (body.contains(key) && !body[key].is_null()) s.max_tokens = static_cast<int>(integer_in(body, key, 1, 1 << 24));
  }
  if (body.contains("stop") && !body["stop"].is_null()) {
    const json& stop = body["stop"];
    if (stop.is_string()) {
      s.stop.push_back(stop.get<std::string>());
    } else if (stop.is_array()) {
      if (stop.size() > 4) fail("Invalid 'stop': at most 4 sequences", "stop");
      for (const auto& v : stop) {
        if (!v.is_string()) fail("Invalid type for 'stop': expected strings", "stop");
        s.stop.push_back(v.get<std::string>());
      }
    } else {
      fail(std::string("Invalid type for 'stop': expected a string or an array of strings, got ") + stop.type_name(), "stop");
    }
  }
  if (body.contains("logprobs") && !body["logprobs"].is_null()) s.logprobs = boolean(body, "logprobs");
  if (body.contains("top_logprobs") && !body["top_logprobs"].is_null()) {
    s.top_logprobs = static_cast<int>(integer_in(body, "top_logprobs", 0, 20));
    if (s.top_logprobs > 0 && !s.logprobs) fail("'top_logprobs' requires 'logprobs': true", "top_logprobs");
  }
  if (body.contains("n") && !body["n"].is_null() && integer_in(body, "n", 1, 128) != 1) {
    fail("Invalid value for 'n': only n = 1 is supported", "n");
  }
}

}  // namespace

bool parse_chat_request(std::string_view body, ChatRequest& out, RequestError& error) {
  out = ChatRequest{};
  if (!is_valid_utf8(body)) {
    error = {"The request body is not valid UTF-8", ""};
    return false;
  }
  json doc = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    error = {"The request body is not valid JSON", ""};
    return false;
  }
  try {
    if (!doc.is_object()) fail(std::string("The request body must be a JSON object, got ") + doc.type_name(), "");
    out.model = "auto";
    if (doc.contains("model")) {
      if (!doc["model"].is_string()) fail(std::string("Invalid type for 'model': expected a string"), "model");
      out.model = doc["model"].get<std::string>();
      if (out.model.empty()) out.model = "auto";
    }
    parse_messages(doc, out);
    parse_sampling(doc, out);
    if (doc.contains("stream") && !doc["stream"].is_null()) out.stream = boolean(doc, "stream");
    if (doc.contains("stream_options") && !doc["stream_options"].is_null()) {
      const json& so = doc["stream_options"];
      if (!so.is_object()) fail("Invalid type for 'stream_options': expected an object", "stream_options");
      if (so.contains("include_usage")) out.include_usage = boolean(so, "include_usage");
    }
    if (doc.contains("user") && !doc["user"].is_null()) {
      if (!doc["user"].is_string()) fail("Invalid type for 'user': expected a string", "user");
      out.user = doc["user"].get<std::string>();
    }
  } catch (const Fail& f) {
    error = f.error;
    return false;
  } catch (const json::exception& e) {
    error = {std::string("Invalid request: ") + e.what(), ""};
    return false;
  }
  return true;
}

}  // namespace tiergate
