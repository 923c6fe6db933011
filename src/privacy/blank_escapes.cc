#include "blank_escapes.h"

#include <cstring>

namespace tiergate::pii_scan {

std::string_view without_blank_escapes(std::string_view text, std::string& buffer) {
  const auto* first = static_cast<const char*>(std::memchr(text.data(), '\\', text.size()));
  if (first == nullptr) return text;
  buffer.assign(text);
  char* const end = buffer.data() + buffer.size();
  // From one backslash to the next: most bytes of a text are none.
  for (char* at = buffer.data() + (first - text.data()); at != nullptr && at + 1 < end;
       at = static_cast<char*>(std::memchr(at, '\\', static_cast<size_t>(end - at)))) {
    if (at[1] == 'n') {
      at[0] = ' ';
      at[1] = '\n';
    } else if (at[1] == 't' || at[1] == 'r') {
      at[0] = ' ';
      at[1] = ' ';
    }
    at += 2;  // past the escaped character, a backslash too: "\\n" stays
  }
  return buffer;
}

}  // namespace tiergate::pii_scan
