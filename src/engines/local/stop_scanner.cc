#include "tiergate/engines/local/stop_scanner.h"

#include <algorithm>

#include "tiergate/core/chat.h"

namespace tiergate {

StopScanner::StopScanner(std::vector<std::string> stop_sequences) {
  for (auto& s : stop_sequences) {
    if (!s.empty()) stops_.push_back(std::move(s));
  }
}

std::string StopScanner::push(std::string_view piece) {
  if (stopped_) return {};
  held_.append(piece);

  // A stop sequence anywhere in the held text ends generation there.
  size_t first_stop = std::string::npos;
  for (const auto& s : stops_) first_stop = std::min(first_stop, held_.find(s));
  if (first_stop != std::string::npos) {
    stopped_ = true;
    std::string out = held_.substr(0, first_stop);
    held_.clear();
    return out.substr(0, utf8_complete_prefix(out));
  }

  // Hold back the longest suffix that is a proper prefix of a stop sequence.
  size_t keep = 0;
  for (const auto& s : stops_) {
    size_t max_len = std::min(s.size() - 1, held_.size());
    for (size_t len = max_len; len > keep; --len) {
      if (std::string_view(held_).substr(held_.size() - len) == std::string_view(s).substr(0, len)) {
        keep = len;
        break;
      }
    }
  }
  size_t release = utf8_complete_prefix(std::string_view(held_).substr(0, held_.size() - keep));
  std::string out = held_.substr(0, release);
  held_.erase(0, release);
  return out;
}

std::string StopScanner::flush() {
  if (stopped_) return {};
  std::string out = held_.substr(0, utf8_complete_prefix(held_));
  held_.clear();
  return out;
}

}  // namespace tiergate
