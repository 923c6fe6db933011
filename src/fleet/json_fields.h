// Reading fields of parsed JSON documents (manifests, device profiles) with
// errors that name the field's path, e.g. "variants[2].recipe.ftype: missing
// (a string)". Private to fleet/.
//
// A JsonFields reads one object. Every getter returns the value, or nullopt
// when the field is absent (allowed for Need::kOptional) or wrong; the first
// error of a whole document is kept in the shared Status, so a parser reads
// every field in a row and checks once at the end.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tiergate/core/status.h"

namespace tiergate::fleet_json {

enum class Need { kRequired, kOptional };

class JsonFields {
 public:
  // object may be any JSON value: a non-object records "<path>: must be an
  // object" (when present) and every getter then returns nullopt. path is
  // "" for the top level. error must outlive this reader.
  JsonFields(const nlohmann::json* object, std::string path, Status* error);

  bool present() const { return object_ != nullptr; }
  bool has(const char* key) const;

  std::optional<std::string> string(const char* key, Need need);
  // A non-empty string.
  std::optional<std::string> text(const char* key, Need need);
  std::optional<uint64_t> unsigned_integer(const char* key, Need need);
  std::optional<int64_t> integer(const char* key, Need need, int64_t min, int64_t max);
  // A finite number in [min, max].
  std::optional<double> number(const char* key, Need need, double min, double max);
  std::optional<bool> boolean(const char* key, Need need);
  // An array of strings; absent = empty (when optional).
  std::vector<std::string> strings(const char* key, Need need);
  // An object of non-empty strings (e.g. tensor name -> type name); absent =
  // empty (when optional).
  std::map<std::string, std::string> string_map(const char* key, Need need);
  // An object field: a reader for it (not present() when absent or wrong).
  JsonFields object(const char* key, Need need);
  // An array field's elements, as pointers; path of element i is key[i].
  std::vector<const nlohmann::json*> array(const char* key, Need need);
  std::string child_path(const char* key) const;

  // Records "<path of key>: <message>" unless an error is already recorded.
  void fail(const char* key, const std::string& message);
  bool ok() const { return error_->is_ok(); }

 private:
  const nlohmann::json* find(const char* key, Need need, const char* what);
  void fail_at(const std::string& path, const std::string& message);

  const nlohmann::json* object_;
  std::string path_;
  Status* error_;
};

// "<parent>[<index>]".
std::string index_path(const std::string& parent, size_t index);

}  // namespace tiergate::fleet_json
