// Renders a conversation into the prompt text the model was trained on.
#pragma once

#include <string>
#include <vector>

#include "tiergate/core/chat.h"

struct llama_model;

namespace tiergate {

struct FormattedPrompt {
  std::string text;
  bool uses_template = false;  // false: the plain default below was used
};

// Applies the model's own chat template (GGUF key tokenizer.chat_template,
// when llama.cpp recognises it). A model without one, or with a template
// llama.cpp cannot apply, gets the documented default: the message contents
// joined by newlines with no role markup, so a base model continues the text
// (docs/edge.md explains why).
FormattedPrompt format_prompt(const llama_model* model, const std::vector<ChatMessage>& messages);

}  // namespace tiergate
