#include "json_fields.h"

#include <cmath>
#include <cstdio>

namespace tiergate::fleet_json {
namespace {

// 0 -> "0", 1 -> "1", 1e12 -> "1e+12": bounds as a reader writes them.
std::string shortest(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", value);
  return buf;
}

}  // namespace

JsonFields::JsonFields(const nlohmann::json* object, std::string path, Status* error)
    : object_(object), path_(std::move(path)), error_(error) {
  if (object_ != nullptr && !object_->is_object()) {
    fail_at(path_.empty() ? std::string("the document") : path_, "must be an object");
    object_ = nullptr;
  }
}

std::string JsonFields::child_path(const char* key) const {
  std::string path = path_;
  if (!path.empty()) path.append(".");
  path.append(key);
  return path;
}

void JsonFields::fail_at(const std::string& path, const std::string& message) {
  if (!error_->is_ok()) return;
  std::string text = path;
  text.append(": ").append(message);
  *error_ = invalid_argument(std::move(text));
}

void JsonFields::fail(const char* key, const std::string& message) { fail_at(child_path(key), message); }

bool JsonFields::has(const char* key) const { return object_ != nullptr && object_->contains(key); }

const nlohmann::json* JsonFields::find(const char* key, Need need, const char* what) {
  if (object_ == nullptr) return nullptr;
  auto it = object_->find(key);
  if (it == object_->end() || (it->is_null() && need == Need::kOptional)) {
    if (need == Need::kRequired) fail(key, std::string("missing (") + what + ")");
    return nullptr;
  }
  return &*it;
}

std::optional<std::string> JsonFields::string(const char* key, Need need) {
  const nlohmann::json* v = find(key, need, "a string");
  if (v == nullptr) return std::nullopt;
  if (!v->is_string()) {
    fail(key, "must be a string");
    return std::nullopt;
  }
  return v->get<std::string>();
}

std::optional<std::string> JsonFields::text(const char* key, Need need) {
  std::optional<std::string> s = string(key, need);
  if (s && s->empty()) {
    fail(key, "must not be empty");
    return std::nullopt;
  }
  return s;
}

std::optional<uint64_t> JsonFields::unsigned_integer(const char* key, Need need) {
  const nlohmann::json* v = find(key, need, "a non-negative integer");
  if (v == nullptr) return std::nullopt;
  if (!v->is_number_unsigned()) {
    fail(key, "must be a non-negative integer");
    return std::nullopt;
  }
  return v->get<uint64_t>();
}

std::optional<int64_t> JsonFields::integer(const char* key, Need need, int64_t min, int64_t max) {
  const nlohmann::json* v = find(key, need, "an integer");
  if (v == nullptr) return std::nullopt;
  if (!v->is_number_integer() || (v->is_number_unsigned() && v->get<uint64_t>() > static_cast<uint64_t>(max)) ||
      v->get<int64_t>() < min || v->get<int64_t>() > max) {
    fail(key, "must be an integer from " + std::to_string(min) + " to " + std::to_string(max));
    return std::nullopt;
  }
  return v->get<int64_t>();
}

std::optional<double> JsonFields::number(const char* key, Need need, double min, double max) {
  const nlohmann::json* v = find(key, need, "a number");
  if (v == nullptr) return std::nullopt;
  if (!v->is_number()) {
    fail(key, "must be a number");
    return std::nullopt;
  }
  const double d = v->get<double>();
  if (!std::isfinite(d) || d < min || d > max) {
    fail(key, std::string("must be a number from ").append(shortest(min)).append(" to ").append(shortest(max)));
    return std::nullopt;
  }
  return d;
}

std::optional<bool> JsonFields::boolean(const char* key, Need need) {
  const nlohmann::json* v = find(key, need, "true or false");
  if (v == nullptr) return std::nullopt;
  if (!v->is_boolean()) {
    fail(key, "must be true or false");
    return std::nullopt;
  }
  return v->get<bool>();
}

std::vector<std::string> JsonFields::strings(const char* key, Need need) {
  std::vector<std::string> out;
  const nlohmann::json* v = find(key, need, "an array of strings");
  if (v == nullptr) return out;
  if (!v->is_array()) {
    fail(key, "must be an array of strings");
    return out;
  }
  for (size_t i = 0; i < v->size(); ++i) {
    if (!(*v)[i].is_string()) {
      fail_at(index_path(child_path(key), i), "must be a string");
      return {};
    }
    out.push_back((*v)[i].get<std::string>());
  }
  return out;
}

std::map<std::string, std::string> JsonFields::string_map(const char* key, Need need) {
  std::map<std::string, std::string> out;
  const nlohmann::json* v = find(key, need, "an object of strings");
  if (v == nullptr) return out;
  if (!v->is_object()) {
    fail(key, "must be an object of strings");
    return out;
  }
  for (const auto& [name, value] : v->items()) {
    if (!value.is_string() || value.get<std::string>().empty()) {
      fail_at(child_path(key).append(".").append(name), "must be a non-empty string");
      return {};
    }
    out[name] = value.get<std::string>();
  }
  return out;
}

JsonFields JsonFields::object(const char* key, Need need) {
  const nlohmann::json* v = find(key, need, "an object");
  return JsonFields(v, child_path(key), error_);
}

std::vector<const nlohmann::json*> JsonFields::array(const char* key, Need need) {
  std::vector<const nlohmann::json*> out;
  const nlohmann::json* v = find(key, need, "an array");
  if (v == nullptr) return out;
  if (!v->is_array()) {
    fail(key, "must be an array");
    return out;
  }
  for (const nlohmann::json& element : *v) out.push_back(&element);
  return out;
}

std::string index_path(const std::string& parent, size_t index) {
  std::string path = parent;
  path.append("[").append(std::to_string(index)).append("]");
  return path;
}

}  // namespace tiergate::fleet_json
