// Logging setup. The rule for every log line in Tiergate: logs carry metadata
// only (request id, tier, model name, token counts, latencies, status codes,
// error messages); never prompt or answer content and never API keys, since
// logs are kept and shipped where the conversations must not go.
#pragma once

#include <array>
#include <string_view>

namespace tiergate {

inline constexpr std::array<std::string_view, 5> kLogLevels = {"trace", "debug", "info", "warn",
                                                               "error"};

bool is_log_level(std::string_view level);

// Makes the default spdlog logger write to stderr, one line per record with an
// ISO-8601 timestamp, at the given level (one of kLogLevels). An unknown level
// logs at info and says so in a warning. May be called again to change level.
void init_logging(std::string_view level);

}  // namespace tiergate
