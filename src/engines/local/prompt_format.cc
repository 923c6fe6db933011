#include "tiergate/engines/local/prompt_format.h"

#include <string_view>

#include "llama.h"

namespace tiergate {

namespace {

FormattedPrompt plain_default(const std::vector<ChatMessage>& messages) {
  FormattedPrompt out;
  for (size_t i = 0; i < messages.size(); ++i) {
    if (i > 0) out.text += '\n';
    out.text += messages[i].content;
  }
  return out;
}

}  // namespace

FormattedPrompt format_prompt(const llama_model* model, const std::vector<ChatMessage>& messages) {
  const char* tmpl = llama_model_chat_template(model, nullptr);
  if (tmpl == nullptr) return plain_default(messages);

  std::vector<llama_chat_message> chat;
  chat.reserve(messages.size());
  for (const auto& m : messages) {
    // llama.cpp's built-in templates know "developer" as "system".
    std::string_view role = m.role == Role::kDeveloper ? "system" : role_name(m.role);
    chat.push_back({role.data(), m.content.c_str()});
  }
  size_t total = 0;
  for (const auto& m : messages) total += m.content.size();
  std::string buf(2 * total + 256, '\0');
  int32_t n = llama_chat_apply_template(tmpl, chat.data(), chat.size(), true, buf.data(),
                                        static_cast<int32_t>(buf.size()));
  if (n < 0) return plain_default(messages);
  if (static_cast<size_t>(n) > buf.size()) {
    buf.resize(static_cast<size_t>(n));
    n = llama_chat_apply_template(tmpl, chat.data(), chat.size(), true, buf.data(),
                                  static_cast<int32_t>(buf.size()));
    if (n < 0) return plain_default(messages);
  }
  buf.resize(static_cast<size_t>(n));
  return {std::move(buf), true};
}

}  // namespace tiergate
