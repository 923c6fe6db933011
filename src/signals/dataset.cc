#include "tiergate/signals/dataset.h"

#include <fstream>
#include <nlohmann/json.hpp>

namespace tiergate {
namespace {

using nlohmann::json;

std::string where(const std::string& path, size_t line) { return path + ":" + std::to_string(line) + ": "; }

// Reads `messages` (OpenAI shape) or `prompt` (one user turn) from a row.
Status read_messages(const json& row, std::vector<ChatMessage>& out) {
  if (row.contains("messages")) {
    const json& messages = row["messages"];
    if (!messages.is_array() || messages.empty()) return invalid_argument("`messages` must be a non-empty array");
    for (const json& m : messages) {
      if (!m.is_object() || !m.contains("role") || !m["role"].is_string()) {
        return invalid_argument("each message needs a string `role`");
      }
      ChatMessage message;
      if (!parse_role(m["role"].get<std::string>(), message.role)) {
        return invalid_argument("unknown role '" + m["role"].get<std::string>() + "'");
      }
      if (m.contains("content") && m["content"].is_string()) {
        message.content = m["content"].get<std::string>();
      } else if (m.contains("content") && m["content"].is_array()) {
        // OpenAI content parts: the text parts, joined.
        for (const json& part : m["content"]) {
          // `type` compared as JSON: value("type", "") throws when it is not a string.
          if (part.is_object() && part.contains("type") && part["type"] == "text" && part.contains("text") &&
              part["text"].is_string()) {
            if (!message.content.empty()) message.content += "\n";
            message.content += part["text"].get<std::string>();
          }
        }
      } else if (!(m.contains("content") && m["content"].is_null())) {
        return invalid_argument("each message needs a string `content`");
      }
      out.push_back(std::move(message));
    }
    return Status::ok();
  }
  if (row.contains("prompt")) {
    if (!row["prompt"].is_string()) return invalid_argument("`prompt` must be a string");
    out.push_back({Role::kUser, row["prompt"].get<std::string>()});
    return Status::ok();
  }
  return invalid_argument("the row has neither `prompt` nor `messages`");
}

std::string string_field(const json& row, const char* name) {
  auto it = row.find(name);
  if (it == row.end() || it->is_null()) return "";
  if (it->is_string()) return it->get<std::string>();
  return it->dump();  // numeric ids
}

Status read_score(const json& row, const char* tier, double& out) {
  auto it = row.find(tier);
  if (it == row.end() || !it->is_object()) return invalid_argument(std::string("missing object `") + tier + "`");
  auto score = it->find("score");
  if (score == it->end() || !score->is_number()) {
    return invalid_argument(std::string("`") + tier + ".score` must be a number");
  }
  out = score->get<double>();
  if (!(out >= 0 && out <= 1)) return invalid_argument(std::string("`") + tier + ".score` must be in [0, 1]");
  return Status::ok();
}

// Calls parse_row(json, line) for each non-blank line of a JSONL file.
template <typename ParseRow>
Status for_each_row(const std::string& path, ParseRow parse_row) {
  std::ifstream in(path);
  if (!in) return not_found(path + ": cannot open the file (does it exist and is it readable?)");
  std::string text;
  size_t line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    json row = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (row.is_discarded()) return invalid_argument(where(path, line) + "not valid JSON");
    if (!row.is_object()) return invalid_argument(where(path, line) + "each line must be a JSON object");
    Status status = parse_row(row, line);
    if (!status.is_ok()) return invalid_argument(where(path, line) + status.message());
  }
  if (in.bad()) return unavailable(path + ": read error");
  return Status::ok();
}

// The fields both row kinds share.
template <typename Row>
Status read_prompt_fields(const json& row, size_t line, Row& out) {
  out.id = string_field(row, "id");
  if (out.id.empty()) out.id = "line-" + std::to_string(line);
  out.source = string_field(row, "source");
  out.category = string_field(row, "category");
  return read_messages(row, out.messages);
}

}  // namespace

StatusOr<std::vector<RoutingRow>> load_routing_rows(const std::string& path) {
  std::vector<RoutingRow> rows;
  Status status = for_each_row(path, [&](const json& row, size_t line) -> Status {
    RoutingRow r;
    if (Status s = read_prompt_fields(row, line, r); !s.is_ok()) return s;
    if (Status s = read_score(row, "edge", r.edge_score); !s.is_ok()) return s;
    if (Status s = read_score(row, "cloud", r.cloud_score); !s.is_ok()) return s;
    rows.push_back(std::move(r));
    return Status::ok();
  });
  if (!status.is_ok()) return status;
  if (rows.empty()) return invalid_argument(path + ": no rows");
  return rows;
}

StatusOr<std::vector<PromptRow>> load_prompt_rows(const std::string& path) {
  std::vector<PromptRow> rows;
  Status status = for_each_row(path, [&](const json& row, size_t line) -> Status {
    PromptRow r;
    if (Status s = read_prompt_fields(row, line, r); !s.is_ok()) return s;
    rows.push_back(std::move(r));
    return Status::ok();
  });
  if (!status.is_ok()) return status;
  return rows;
}

std::string benchmark_of(const std::string& source) { return source.substr(0, source.find('/')); }

}  // namespace tiergate
