#include "tiergate/fleet/manifest.h"

#include <openssl/evp.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "json_fields.h"
#include "tiergate/core/file_output.h"

namespace tiergate {
namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;  // output keeps the documented key order
using fleet_json::JsonFields;
using fleet_json::Need;

constexpr double kMaxTps = 1e12;

template <typename T>
void put(ojson& object, const char* key, const std::optional<T>& value) {
  if (value) object[key] = *value;
}

Status field_error(const std::string& path, const std::string& problem) {
  return invalid_argument(std::string(path).append(": ").append(problem));
}

bool is_sha256(const std::string& s) {
  if (s.size() != 64) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c)) && (c < 'a' || c > 'f')) return false;
  }
  return true;
}

// A file name inside the manifest's directory: relative, no "..", not empty.
bool is_contained_file_name(const std::string& file) {
  if (file.empty()) return false;
  const std::filesystem::path p(file);
  if (p.is_absolute() || p.has_root_name() || p.has_root_directory()) return false;
  for (const auto& part : p) {
    if (part == "..") return false;
  }
  return true;
}

Status check_file_fields(const std::string& path, const std::string& file, const std::string& sha256) {
  if (!is_contained_file_name(file)) {
    return field_error(path + ".file", "\"" + file + "\" must be a relative path inside the manifest's directory");
  }
  if (!is_sha256(sha256)) return field_error(path + ".sha256", "must be 64 lowercase hex digits");
  return Status::ok();
}

VariantEntry variant_from_json(const json* element, const std::string& path, Status* error) {
  JsonFields f(element, path, error);
  VariantEntry v;
  v.id = f.text("id", Need::kRequired).value_or("");
  v.base_id = f.text("base_id", Need::kRequired).value_or("");
  JsonFields recipe = f.object("recipe", Need::kRequired);
  v.recipe.name = recipe.text("name", Need::kRequired).value_or("");
  v.recipe.ftype = recipe.text("ftype", Need::kRequired).value_or("");
  v.recipe.imatrix = recipe.boolean("imatrix", Need::kRequired).value_or(false);
  v.recipe.tensor_types = recipe.string_map("tensor_types", Need::kOptional);
  v.file = f.text("file", Need::kRequired).value_or("");
  v.sha256 = f.string("sha256", Need::kRequired).value_or("");
  v.size_bytes = f.unsigned_integer("size_bytes", Need::kRequired).value_or(0);
  v.min_memory_bytes = f.unsigned_integer("min_memory_bytes", Need::kRequired).value_or(0);
  JsonFields requires_fields = f.object("requires", Need::kRequired);
  v.requirements.cpu_features = requires_fields.strings("cpu_features", Need::kRequired);
  v.requirements.backends = requires_fields.strings("backends", Need::kRequired);
  JsonFields fidelity = f.object("fidelity", Need::kOptional);
  if (fidelity.present()) {
    Fidelity fi;
    fi.kl_mean = fidelity.number("kl_mean", Need::kRequired, 0, 1e9).value_or(0);
    fi.top1_agreement = fidelity.number("top1_agreement", Need::kRequired, 0, 1).value_or(0);
    fi.perplexity = fidelity.number("perplexity", Need::kOptional, 0, 1e300);
    fi.reference_perplexity = fidelity.number("reference_perplexity", Need::kOptional, 0, 1e300);
    fi.tokens = fidelity.integer("tokens", Need::kOptional, 0, INT64_MAX);
    v.fidelity = fi;
  }
  JsonFields speed = f.object("speed", Need::kOptional);
  if (speed.present()) {
    MeasuredSpeed sp;
    sp.prefill_tps = speed.number("prefill_tps", Need::kRequired, 0, kMaxTps).value_or(0);
    sp.decode_tps = speed.number("decode_tps", Need::kRequired, 0, kMaxTps).value_or(0);
    sp.bench_decode_tps = speed.number("bench_decode_tps", Need::kOptional, 0, kMaxTps);
    v.speed = sp;
  }
  v.peak_rss_bytes = f.unsigned_integer("peak_rss_bytes", Need::kOptional);
  return v;
}

ojson variant_to_json(const VariantEntry& v) {
  ojson recipe = {{"name", v.recipe.name}, {"ftype", v.recipe.ftype}, {"imatrix", v.recipe.imatrix}};
  if (!v.recipe.tensor_types.empty()) recipe["tensor_types"] = v.recipe.tensor_types;
  ojson out = {{"id", v.id},
              {"base_id", v.base_id},
              {"recipe", recipe},
              {"file", v.file},
              {"sha256", v.sha256},
              {"size_bytes", v.size_bytes},
              {"min_memory_bytes", v.min_memory_bytes},
              {"requires", {{"cpu_features", v.requirements.cpu_features}, {"backends", v.requirements.backends}}}};
  if (v.fidelity) {
    ojson fidelity = {{"kl_mean", v.fidelity->kl_mean}, {"top1_agreement", v.fidelity->top1_agreement}};
    put(fidelity, "perplexity", v.fidelity->perplexity);
    put(fidelity, "reference_perplexity", v.fidelity->reference_perplexity);
    put(fidelity, "tokens", v.fidelity->tokens);
    out["fidelity"] = fidelity;
  }
  if (v.speed) {
    ojson speed = {{"prefill_tps", v.speed->prefill_tps}, {"decode_tps", v.speed->decode_tps}};
    put(speed, "bench_decode_tps", v.speed->bench_decode_tps);
    out["speed"] = speed;
  }
  put(out, "peak_rss_bytes", v.peak_rss_bytes);
  return out;
}

std::string prefixed(const std::string& path, const std::string& message) {
  return std::string(path).append(": ").append(message);
}

Status verify_file(const std::string& path, uint64_t size_bytes, const std::string& sha256) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return not_found(prefixed(path, "missing"));
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return not_found(prefixed(path, "cannot read its size: " + ec.message()));
  if (size != size_bytes) {
    return failed_precondition(prefixed(path, "has " + std::to_string(size) + " bytes, the manifest says " +
                                                  std::to_string(size_bytes) + " (partial or replaced copy)"));
  }
  StatusOr<std::string> digest = sha256_file(path);
  if (!digest.is_ok()) return digest.status();
  if (*digest != sha256) {
    return failed_precondition(
        prefixed(path, "sha256 is " + *digest + ", the manifest says " + sha256 + " (corrupt or replaced copy)"));
  }
  return Status::ok();
}

}  // namespace

Status validate_manifest(const Manifest& m) {
  if (m.base.id.empty()) return field_error("base.id", "must not be empty");
  if (Status s = check_file_fields("base", m.base.file, m.base.sha256); !s.is_ok()) return s;
  std::set<std::string> ids;
  for (size_t i = 0; i < m.variants.size(); ++i) {
    const VariantEntry& v = m.variants[i];
    const std::string path = fleet_json::index_path("variants", i);
    if (v.id.empty()) return field_error(path + ".id", "must not be empty");
    if (!ids.insert(v.id).second) return field_error(path + ".id", "\"" + v.id + "\" is used twice");
    if (v.base_id != m.base.id) {
      return field_error(path + ".base_id", "\"" + v.base_id + "\" is not the base's id \"" + m.base.id + "\"");
    }
    if (v.recipe.name.empty()) return field_error(path + ".recipe.name", "must not be empty");
    if (v.recipe.ftype.empty()) return field_error(path + ".recipe.ftype", "must not be empty");
    if (Status s = check_file_fields(path, v.file, v.sha256); !s.is_ok()) return s;
  }
  return Status::ok();
}

StatusOr<Manifest> parse_manifest(std::string_view text) {
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return invalid_argument("not valid JSON");
  Status error;
  JsonFields top(&doc, "", &error);
  if (std::optional<std::string> format = top.string("format", Need::kRequired);
      format && *format != kManifestFormat) {
    top.fail("format", "is \"" + *format + "\", not \"" + std::string(kManifestFormat) + "\"");
  }
  if (std::optional<int64_t> version = top.integer("version", Need::kRequired, 0, INT32_MAX);
      version && *version != kManifestVersion) {
    top.fail("version", "is " + std::to_string(*version) + "; this build reads version " +
                            std::to_string(kManifestVersion));
  }
  if (!error.is_ok()) return error;  // another format: its fields mean other things

  Manifest m;
  JsonFields base = top.object("base", Need::kRequired);
  m.base.id = base.text("id", Need::kRequired).value_or("");
  m.base.file = base.text("file", Need::kRequired).value_or("");
  m.base.sha256 = base.string("sha256", Need::kRequired).value_or("");
  m.base.size_bytes = base.unsigned_integer("size_bytes", Need::kRequired).value_or(0);
  const std::vector<const json*> variants = top.array("variants", Need::kRequired);
  for (size_t i = 0; i < variants.size() && error.is_ok(); ++i) {
    m.variants.push_back(variant_from_json(variants[i], fleet_json::index_path("variants", i), &error));
  }
  if (!error.is_ok()) return error;
  if (Status valid = validate_manifest(m); !valid.is_ok()) return valid;
  return m;
}

std::string manifest_to_json(const Manifest& m) {
  ojson variants = ojson::array();
  for (const VariantEntry& v : m.variants) variants.push_back(variant_to_json(v));
  ojson out = {{"format", kManifestFormat},
              {"version", kManifestVersion},
              {"base", {{"id", m.base.id}, {"file", m.base.file}, {"sha256", m.base.sha256},
                        {"size_bytes", m.base.size_bytes}}},
              {"variants", variants}};
  return out.dump(2) + "\n";
}

StatusOr<Manifest> read_manifest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return not_found(prefixed(path, "cannot open the manifest"));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return unavailable(prefixed(path, "cannot read the manifest"));
  StatusOr<Manifest> manifest = parse_manifest(text.str());
  if (!manifest.is_ok()) return invalid_argument(prefixed(path, manifest.status().message()));
  return manifest;
}

Status write_manifest(const std::string& path, const Manifest& manifest) {
  if (Status valid = validate_manifest(manifest); !valid.is_ok()) {
    return invalid_argument(prefixed(path, "not written: " + valid.message()));
  }
  return write_file_atomically(path, manifest_to_json(manifest));
}

std::string manifest_file_path(const std::string& manifest_path, const std::string& file) {
  return (std::filesystem::path(manifest_path).parent_path() / file).string();
}

StatusOr<std::string> sha256_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return not_found(prefixed(path, "cannot open"));
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) {
    return internal_error("OpenSSL cannot start a SHA-256 digest");
  }
  std::vector<char> buf(1 << 20);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const std::streamsize n = in.gcount();
    if (n > 0 && EVP_DigestUpdate(ctx.get(), buf.data(), static_cast<size_t>(n)) != 1) {
      return internal_error("OpenSSL SHA-256 update failed");
    }
  }
  if (in.bad()) return unavailable(prefixed(path, "read failed midway"));
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(ctx.get(), digest, &length) != 1) return internal_error("OpenSSL SHA-256 final failed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    hex.push_back(kHex[digest[i] >> 4]);
    hex.push_back(kHex[digest[i] & 0xf]);
  }
  return hex;
}

Status verify_variant_file(const std::string& manifest_path, const VariantEntry& variant) {
  return verify_file(manifest_file_path(manifest_path, variant.file), variant.size_bytes, variant.sha256);
}

Status verify_base_file(const std::string& manifest_path, const ManifestBase& base) {
  return verify_file(manifest_file_path(manifest_path, base.file), base.size_bytes, base.sha256);
}

}  // namespace tiergate
