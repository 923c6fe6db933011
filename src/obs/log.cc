#include "tiergate/obs/log.h"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <string>

namespace tiergate {
namespace {

spdlog::level::level_enum to_spdlog_level(std::string_view level) {
  if (level == "trace") return spdlog::level::trace;
  if (level == "debug") return spdlog::level::debug;
  if (level == "warn") return spdlog::level::warn;
  if (level == "error") return spdlog::level::err;
  return spdlog::level::info;
}

}  // namespace

bool is_log_level(std::string_view level) {
  for (std::string_view l : kLogLevels) {
    if (l == level) return true;
  }
  return false;
}

void init_logging(std::string_view level) {
  auto logger = std::make_shared<spdlog::logger>(
      "tiergate", std::make_shared<spdlog::sinks::stderr_sink_mt>());
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e%z %l [%t] %v");
  logger->set_level(to_spdlog_level(level));
  logger->flush_on(spdlog::level::warn);
  spdlog::set_default_logger(std::move(logger));
  if (!is_log_level(level)) {
    spdlog::warn("unknown log level '{}', using info", std::string(level));
  }
}

}  // namespace tiergate
