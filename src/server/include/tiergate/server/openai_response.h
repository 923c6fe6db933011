// OpenAI response shapes: completion, stream chunks, errors, model list. Each
// JSON text is serialised with invalid UTF-8 replaced (a token piece may hold
// part of a character).
#pragma once

#include <string>
#include <vector>

#include "tiergate/core/chat.h"
#include "tiergate/core/status.h"

namespace tiergate {

// The `tiergate` object every response carries: who answered and why.
struct AnswerInfo {
  std::string tier;
  std::string route;
  std::string model;
  double cost_usd = 0;
  double latency_ms = 0;
  int attempts = 1;
  bool usage_counted = false;
  std::string trace_json{};  // the route trace (route_trace_json), a JSON object; "" = none
  std::string degraded{};    // degradation_name of the answer ("" = none): "degraded" in the object
  std::string speculative_json{};  // the verifier's verdict, a JSON object; "" = not speculative
  std::string handoff{};           // how earlier turns reached the cloud ("raw", "redacted", "summary"); "" = no handoff
};

struct CompletionIds {
  std::string id;  // chatcmpl-...
  int64_t created = 0;
};

std::string completion_json(const CompletionIds& ids, const Completion& c, const AnswerInfo& info, bool with_logprobs);

// Stream chunks, in the order they are sent: role (first), content deltas,
// finish (with the tiergate object), usage (only with include_usage).
std::string chunk_role_json(const CompletionIds& ids, const std::string& model);
std::string chunk_delta_json(const CompletionIds& ids, const std::string& model, const Delta& delta, bool with_logprobs);
std::string chunk_finish_json(const CompletionIds& ids, const std::string& model, FinishReason finish,
                              const AnswerInfo& info);
std::string chunk_usage_json(const CompletionIds& ids, const std::string& model, const Usage& usage);

// HTTP status for a Status code, and OpenAI's error object for it.
int http_status_for(const Status& status);
std::string error_json(int http_status, const std::string& message, const std::string& param = "",
                       const std::string& code = "");
std::string error_json(const Status& status);

struct ModelEntry {
  std::string id;
  std::string owned_by;  // "tiergate", "edge", or the upstream name
};
std::string models_json(const std::vector<ModelEntry>& models, int64_t created);

}  // namespace tiergate
