#include "decimal_text.h"

#include <charconv>

namespace tiergate {

void append_fixed(std::string& out, double v, int digits) {
  char buf[330];  // the largest double has 309 digits before the point
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, digits);
  out.append(buf, ec == std::errc() ? end : buf);
}

}  // namespace tiergate
