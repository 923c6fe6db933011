#include "tiergate/server/openai_response.h"

#include <nlohmann/json.hpp>

namespace tiergate {

using json = nlohmann::json;

namespace {

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

json bytes_of(const std::string& s) {
  json arr = json::array();
  for (unsigned char c : s) arr.push_back(static_cast<int>(c));
  return arr;
}

json logprobs_json(const std::vector<TokenLogprob>& lps) {
  json content = json::array();
  for (const auto& lp : lps) {
    json top = json::array();
    for (const auto& t : lp.top) top.push_back({{"token", t.token}, {"logprob", t.logprob}, {"bytes", bytes_of(t.token)}});
    content.push_back({{"token", lp.token}, {"logprob", lp.logprob}, {"bytes", bytes_of(lp.token)}, {"top_logprobs", top}});
  }
  return {{"content", content}, {"refusal", nullptr}};
}

// Adds `"key":raw_value` at the end of a serialised JSON object; raw_value is
// JSON text already, so it is not parsed and serialised a second time.
std::string with_raw_member(std::string object, std::string_view key, std::string_view raw_value) {
  object.pop_back();  // the closing '}'
  if (object.size() > 1) object += ',';
  object += '"';
  object += key;
  object += "\":";
  object += raw_value;
  object += '}';
  return object;
}

// The tiergate object as JSON text, with the route trace (already JSON) spliced in.
std::string info_text(const AnswerInfo& info) {
  json out = {{"tier", info.tier},         {"route", info.route},           {"model", info.model},
              {"cost_usd", info.cost_usd}, {"latency_ms", info.latency_ms}, {"attempts", info.attempts},
              {"usage_counted", info.usage_counted}};
  if (!info.degraded.empty()) out["degraded"] = info.degraded;
  if (!info.handoff.empty()) out["handoff"] = info.handoff;
  std::string text = dump(out);
  if (!info.speculative_json.empty()) text = with_raw_member(text, "speculative", info.speculative_json);
  if (info.trace_json.empty()) return text;
  return with_raw_member(text, "trace", info.trace_json);
}

// A JSON string literal, invalid UTF-8 replaced as everywhere else.
std::string quoted(const std::string& s) { return dump(json(s)); }

json usage_json(const Usage& u) {
  return {{"prompt_tokens", u.prompt_tokens}, {"completion_tokens", u.completion_tokens}, {"total_tokens", u.total()}};
}

json chunk_base(const CompletionIds& ids, const std::string& model) {
  return {{"id", ids.id}, {"object", "chat.completion.chunk"}, {"created", ids.created}, {"model", model},
          {"system_fingerprint", nullptr}};
}

std::string_view error_type(int status) {
  if (status == 429) return "rate_limit_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

}  // namespace

std::string completion_json(const CompletionIds& ids, const Completion& c, const AnswerInfo& info, bool with_logprobs) {
  json choice = {{"index", 0},
                 {"message", {{"role", "assistant"}, {"content", c.text}, {"refusal", nullptr}}},
                 {"logprobs", with_logprobs ? logprobs_json(c.logprobs) : json(nullptr)},
                 {"finish_reason", finish_reason_name(c.finish)}};
  json body = {{"id", ids.id},
               {"object", "chat.completion"},
               {"created", ids.created},
               {"model", c.model},
               {"choices", json::array({choice})},
               {"usage", usage_json(c.usage)},
               {"system_fingerprint", nullptr}};
  return with_raw_member(dump(body), "tiergate", info_text(info));
}

std::string chunk_role_json(const CompletionIds& ids, const std::string& model) {
  json j = chunk_base(ids, model);
  j["choices"] = json::array(
      {{{"index", 0}, {"delta", {{"role", "assistant"}, {"content", ""}}}, {"logprobs", nullptr}, {"finish_reason", nullptr}}});
  return dump(j);
}

std::string chunk_delta_json(const CompletionIds& ids, const std::string& model, const Delta& delta, bool with_logprobs) {
  if (with_logprobs) {
    json j = chunk_base(ids, model);
    j["choices"] = json::array({{{"index", 0},
                                 {"delta", {{"content", delta.text}}},
                                 {"logprobs", logprobs_json(delta.logprobs)},
                                 {"finish_reason", nullptr}}});
    return dump(j);
  }
  // One per generated token, so it is written directly rather than built as a
  // JSON tree: the same text, members in the order dump() gives them.
  std::string out = R"({"choices":[{"delta":{"content":)";
  out += quoted(delta.text);
  out += R"(},"finish_reason":null,"index":0,"logprobs":null}],"created":)";
  out += std::to_string(ids.created);
  out += R"(,"id":)";
  out += quoted(ids.id);
  out += R"(,"model":)";
  out += quoted(model);
  out += R"(,"object":"chat.completion.chunk","system_fingerprint":null})";
  return out;
}

std::string chunk_finish_json(const CompletionIds& ids, const std::string& model, FinishReason finish,
                              const AnswerInfo& info) {
  json j = chunk_base(ids, model);
  j["choices"] = json::array(
      {{{"index", 0}, {"delta", json::object()}, {"logprobs", nullptr}, {"finish_reason", finish_reason_name(finish)}}});
  return with_raw_member(dump(j), "tiergate", info_text(info));
}

std::string chunk_usage_json(const CompletionIds& ids, const std::string& model, const Usage& usage) {
  json j = chunk_base(ids, model);
  j["choices"] = json::array();
  j["usage"] = usage_json(usage);
  return dump(j);
}

int http_status_for(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk: return 200;
    case StatusCode::kInvalidArgument: return 400;
    case StatusCode::kNotFound: return 404;
    case StatusCode::kUnavailable: return 503;
    case StatusCode::kDeadlineExceeded: return 504;
    case StatusCode::kResourceExhausted: return 429;
    case StatusCode::kFailedPrecondition: return 503;
    case StatusCode::kPermissionDenied: return 403;
    case StatusCode::kCancelled: return 499;
    case StatusCode::kInternal: return 500;
  }
  return 500;
}

std::string error_json(int http_status, const std::string& message, const std::string& param, const std::string& code) {
  json err = {{"message", message},
              {"type", error_type(http_status)},
              {"param", param.empty() ? json(nullptr) : json(param)},
              {"code", code.empty() ? json(nullptr) : json(code)}};
  return dump(json{{"error", err}});
}

std::string error_json(const Status& status) {
  int http = http_status_for(status);
  std::string code;
  if (status.code() == StatusCode::kNotFound) code = "model_not_found";
  if (status.message().rfind("context_length_exceeded", 0) == 0) code = "context_length_exceeded";
  if (status.code() == StatusCode::kPermissionDenied && status.message().rfind("privacy", 0) == 0) code = "privacy_policy";
  return error_json(http, status.message(), "", code);
}

std::string models_json(const std::vector<ModelEntry>& models, int64_t created) {
  json data = json::array();
  for (const auto& m : models) {
    data.push_back({{"id", m.id}, {"object", "model"}, {"created", created}, {"owned_by", m.owned_by}});
  }
  return dump(json{{"object", "list"}, {"data", data}});
}

}  // namespace tiergate
