// Numbers as the route trace writes them: fixed decimals, through to_chars
// (no printf, no locale), appended in place so that trace lines on the
// decision's path are built without temporaries.
#pragma once

#include <string>

namespace tiergate {

// Appends v with `digits` decimals.
void append_fixed(std::string& out, double v, int digits);

inline std::string fixed_text(double v, int digits) {
  std::string out;
  append_fixed(out, v, digits);
  return out;
}

}  // namespace tiergate
