#include "tiergate/fleet/byte_size.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace tiergate {
namespace {

std::string lower(std::string_view s) {
  std::string out;
  for (char c : s) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

struct Unit {
  const char* name;
  double factor;
};

constexpr std::array<Unit, 14> kUnits{{
    {"", 1.0},
    {"b", 1.0},
    {"k", 1024.0},
    {"kib", 1024.0},
    {"m", 1024.0 * 1024},
    {"mib", 1024.0 * 1024},
    {"g", 1024.0 * 1024 * 1024},
    {"gib", 1024.0 * 1024 * 1024},
    {"t", 1024.0 * 1024 * 1024 * 1024},
    {"tib", 1024.0 * 1024 * 1024 * 1024},
    {"kb", 1e3},
    {"mb", 1e6},
    {"gb", 1e9},
    {"tb", 1e12},
}};

Status bad_size(std::string_view text) {
  std::string message = "\"";
  message.append(text).append(
      "\" is not a size: write a number of bytes, optionally with a unit K/M/G/T (or KiB/MiB/GiB/TiB, "
      "powers of 1024) or KB/MB/GB/TB (powers of 1000), e.g. 512M, 2G, 1.5GiB");
  return invalid_argument(std::move(message));
}

}  // namespace

StatusOr<uint64_t> parse_byte_size(std::string_view text) {
  size_t end = 0;
  while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.')) ++end;
  std::string_view number = text.substr(0, end);
  std::string_view rest = text.substr(end);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  if (number.empty() || number.front() == '.' || number.back() == '.') return bad_size(text);
  double value = 0;
  auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec != std::errc() || ptr != number.data() + number.size()) return bad_size(text);
  const std::string unit = lower(rest);
  for (const Unit& u : kUnits) {
    if (unit != u.name) continue;
    const double bytes = std::floor(value * u.factor);
    if (!std::isfinite(bytes) || bytes >= 9223372036854775808.0) return bad_size(text);
    return static_cast<uint64_t>(bytes);
  }
  return bad_size(text);
}

std::string format_bytes(uint64_t bytes) {
  static constexpr std::array<const char*, 5> kNames{"B", "KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < kNames.size()) {
    value /= 1024;
    ++unit;
  }
  char buf[32];
  const double tenths = std::round(value * 10) / 10;
  if (tenths == std::floor(tenths)) {
    std::snprintf(buf, sizeof buf, "%.0f %s", tenths, kNames[unit]);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f %s", tenths, kNames[unit]);
  }
  return buf;
}

}  // namespace tiergate
