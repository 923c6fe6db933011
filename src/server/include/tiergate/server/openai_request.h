// Parsing and validating an OpenAI chat completion request body.
#pragma once

#include <string>
#include <string_view>

#include "tiergate/core/chat.h"
#include "tiergate/core/status.h"

namespace tiergate {

struct RequestError {
  std::string message;
  std::string param;  // the offending field, OpenAI's error.param ("" when none)
};

// Returns false and fills error for: a body that is not valid UTF-8 or JSON,
// not an object, a missing or empty `messages`, wrong types, values out of
// range, empty user/system content, or unsupported options (n > 1).
// A missing `model` means "auto".
bool parse_chat_request(std::string_view body, ChatRequest& out, RequestError& error);

}  // namespace tiergate
