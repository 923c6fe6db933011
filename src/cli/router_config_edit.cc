#include "router_config_edit.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "tiergate/config/config.h"
#include "tiergate/core/file_output.h"

namespace tiergate::cli {
namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

size_t indent_of(const std::string& line) { return line.find_first_not_of(' '); }

bool is_blank_or_comment(const std::string& line) {
  size_t first = line.find_first_not_of(" \t");
  return first == std::string::npos || line[first] == '#';
}

// True when `line` is `key:` (optionally followed by a value or comment) at `indent`.
bool is_key(const std::string& line, size_t indent, const std::string& key) {
  return indent_of(line) == indent && line.compare(indent, key.size() + 1, key + ":") == 0;
}

std::string format_number(double value) {
  std::ostringstream out;
  out.precision(9);
  out << value;
  return out.str();
}

}  // namespace

std::string with_router_threshold(const std::string& yaml, double threshold) {
  std::vector<std::string> lines = split_lines(yaml);
  const std::string value = format_number(threshold);
  size_t routing = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    if (is_key(lines[i], 0, "routing")) {
      routing = i;
      break;
    }
  }
  if (routing == lines.size()) {
    lines.push_back("routing:");
    lines.push_back("  threshold: " + value + "  # tiergate router calibrate");
  } else {
    // The block: following lines that are blank, comments or indented.
    size_t child_indent = 2, end = routing + 1;
    bool found_child = false;
    for (; end < lines.size(); ++end) {
      if (is_blank_or_comment(lines[end])) continue;
      if (indent_of(lines[end]) == 0) break;
      if (!found_child) {
        child_indent = indent_of(lines[end]);
        found_child = true;
      }
    }
    bool replaced = false;
    for (size_t i = routing + 1; i < end; ++i) {
      if (is_key(lines[i], child_indent, "threshold")) {
        lines[i] = std::string(child_indent, ' ') + "threshold: " + value + "  # tiergate router calibrate";
        replaced = true;
        break;
      }
    }
    if (!replaced) {
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(routing) + 1,
                   std::string(child_indent, ' ') + "threshold: " + value + "  # tiergate router calibrate");
    }
  }
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

Status write_router_threshold(const std::string& config_path, double threshold) {
  std::ifstream in(config_path);
  if (!in) return not_found(config_path + ": cannot read the config");
  std::stringstream text;
  text << in.rdbuf();
  const std::string updated = with_router_threshold(text.str(), threshold);
  auto check = parse_config(updated, config_path);
  if (!check.is_ok()) {
    return failed_precondition("the config would not load after the edit, left unchanged: " + check.status().message());
  }
  return write_file_atomically(config_path, updated);
}

}  // namespace tiergate::cli
