#include "tiergate/core/chat.h"

namespace tiergate {

std::string_view role_name(Role role) {
  switch (role) {
    case Role::kSystem: return "system";
    case Role::kDeveloper: return "developer";
    case Role::kUser: return "user";
    case Role::kAssistant: return "assistant";
    case Role::kTool: return "tool";
  }
  return "user";
}

bool parse_role(std::string_view name, Role& out) {
  for (Role r : {Role::kSystem, Role::kDeveloper, Role::kUser, Role::kAssistant, Role::kTool}) {
    if (role_name(r) == name) {
      out = r;
      return true;
    }
  }
  return false;
}

std::string_view finish_reason_name(FinishReason reason) {
  switch (reason) {
    case FinishReason::kStop: return "stop";
    case FinishReason::kLength: return "length";
  }
  return "stop";
}

int64_t estimate_tokens(std::string_view text) {
  if (text.empty()) return 0;
  return static_cast<int64_t>((text.size() + 3) / 4);
}

int64_t estimate_prompt_tokens(const std::vector<ChatMessage>& messages) {
  int64_t total = 0;
  // Chat templates add a few tokens of role markup per message.
  for (const auto& m : messages) total += estimate_tokens(m.content) + 4;
  return total;
}

namespace {
// Number of bytes of the UTF-8 sequence that starts with lead, 0 when invalid.
size_t sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}
}  // namespace

bool is_valid_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    auto lead = static_cast<unsigned char>(s[i]);
    size_t n = sequence_length(lead);
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k) {
      auto c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xC0) != 0x80) return false;
    }
    if (n == 3) {
      auto c1 = static_cast<unsigned char>(s[i + 1]);
      if (lead == 0xE0 && c1 < 0xA0) return false;             // overlong
      if (lead == 0xED && c1 >= 0xA0) return false;            // surrogates
    } else if (n == 4) {
      auto c1 = static_cast<unsigned char>(s[i + 1]);
      if (lead == 0xF0 && c1 < 0x90) return false;             // overlong
      if (lead == 0xF4 && c1 >= 0x90) return false;            // > U+10FFFF
    }
    i += n;
  }
  return true;
}

size_t utf8_complete_prefix(std::string_view s) {
  // Look back at most 3 bytes for the lead byte of a trailing partial sequence.
  size_t n = s.size();
  for (size_t back = 1; back <= 3 && back <= n; ++back) {
    auto c = static_cast<unsigned char>(s[n - back]);
    if ((c & 0xC0) == 0x80) continue;  // continuation byte: keep looking
    size_t need = sequence_length(c);
    if (need > back) return n - back;  // incomplete sequence at the end
    return n;
  }
  return n;
}

}  // namespace tiergate
