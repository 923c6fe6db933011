// The OpenAI chat completions wire format as the cloud engine speaks it:
// request bodies it sends and the response bodies and stream chunks it reads.
// Pure functions over strings; JSON errors come back as Status, never thrown.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tiergate/core/chat.h"
#include "tiergate/core/status.h"

namespace tiergate {

// Builds the body of POST /chat/completions for model. The upstream is always
// asked to stream with usage (stream: true, stream_options.include_usage),
// whatever the client asked. Sampling fields are sent only when set.
// kInvalidArgument when the request holds invalid UTF-8.
StatusOr<std::string> build_chat_body(const ChatRequest& request, const std::string& model);

// What one stream chunk (or a whole non-streaming response) carries for
// choice 0.
struct WireChunk {
  std::string model;                     // empty when absent
  std::string text;                      // content of the delta (or message)
  std::vector<TokenLogprob> logprobs;    // choices[0].logprobs.content
  std::optional<FinishReason> finish;    // "length" -> kLength, any other -> kStop
  std::optional<Usage> usage;            // present on the final usage chunk
  std::optional<std::string> error;      // an error object sent instead of a chunk
};

// Parses the JSON payload of one `data:` event. kUnavailable when it is not a
// JSON object (the upstream is misbehaving).
StatusOr<WireChunk> parse_stream_chunk(std::string_view payload);

// Parses a non-streaming chat.completion body (choices[0].message.content).
// kUnavailable when it is malformed.
StatusOr<WireChunk> parse_completion_body(std::string_view body);

// The human-readable message of an error body: error.message, error (a
// string), message or detail; empty when there is none. At most max_bytes
// long, cut on a UTF-8 boundary.
std::string extract_error_message(std::string_view body, size_t max_bytes = 300);

// The ids of a GET /models body ({"data": [{"id": ...}, ...]}).
StatusOr<std::vector<std::string>> parse_model_list(std::string_view body);

}  // namespace tiergate
