#include "tiergate/engines/cloud/sse_parser.h"

namespace tiergate {

std::vector<std::string> SseParser::feed(std::string_view bytes) {
  std::vector<std::string> out;
  if (at_start_ && !bytes.empty()) {
    // The BOM may itself be split; keep it simple and only skip a whole one.
    constexpr std::string_view kBom = "\xEF\xBB\xBF";
    if (bytes.substr(0, kBom.size()) == kBom) bytes.remove_prefix(kBom.size());
    at_start_ = false;
  }
  while (!bytes.empty()) {
    if (after_cr_) {
      after_cr_ = false;
      if (bytes.front() == '\n') {
        bytes.remove_prefix(1);
        continue;
      }
    }
    size_t end = bytes.find_first_of("\r\n");
    if (end == std::string_view::npos) {
      line_.append(bytes);
      break;
    }
    if (line_.empty()) {
      process_line(bytes.substr(0, end), out);
    } else {
      line_.append(bytes.substr(0, end));
      process_line(line_, out);
    }
    line_.clear();
    after_cr_ = bytes[end] == '\r';
    bytes.remove_prefix(end + 1);
  }
  return out;
}

std::optional<std::string> SseParser::finish() {
  std::vector<std::string> out;
  if (!line_.empty()) {
    std::string last = std::move(line_);
    line_.clear();
    process_line(last, out);
  }
  std::optional<std::string> result;
  if (has_data_) result = std::move(data_);
  reset();
  return result;
}

void SseParser::reset() {
  line_.clear();
  data_.clear();
  has_data_ = false;
  after_cr_ = false;
  at_start_ = true;
}

void SseParser::process_line(std::string_view line, std::vector<std::string>& out) {
  if (line.empty()) {
    if (has_data_) out.push_back(std::move(data_));
    data_.clear();
    has_data_ = false;
    return;
  }
  if (line.front() == ':') return;
  std::string_view field = line;
  std::string_view value;
  if (size_t colon = line.find(':'); colon != std::string_view::npos) {
    field = line.substr(0, colon);
    value = line.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  }
  if (field != "data") return;
  if (has_data_) data_.push_back('\n');
  data_.append(value);
  has_data_ = true;
}

}  // namespace tiergate
