// The variant manifest: one base checkpoint and the quantized variants made
// from it (`tiergate variants build` writes it, `variants eval` adds the
// measured figures, `device choose` reads it). The units the fleet signs and
// ships. Format (docs/fleet.md has every field):
//
//   {"format": "tiergate-variant-manifest", "version": 1,
//    "base": {"id", "file", "sha256", "size_bytes"},
//    "variants": [{"id", "base_id",
//                  "recipe": {"name", "ftype", "imatrix", "tensor_types"?},
//                  "file", "sha256", "size_bytes", "min_memory_bytes",
//                  "requires": {"cpu_features": [...], "backends": [...]},
//                  "fidelity"?: {"kl_mean", "top1_agreement", "perplexity"?,
//                                "reference_perplexity"?, "tokens"?},
//                  "speed"?: {"prefill_tps", "decode_tps", "bench_decode_tps"?},
//                  "peak_rss_bytes"?}]}
//
// Fields marked ? are optional (absent before eval). Unknown keys are ignored
// so that a newer writer's additions do not break an older reader; a change
// of meaning bumps "version". File names are relative to the manifest's
// directory and may not leave it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tiergate/core/status.h"

namespace tiergate {

inline constexpr std::string_view kManifestFormat = "tiergate-variant-manifest";
inline constexpr int kManifestVersion = 1;

// The checkpoint the variants were made from.
struct ManifestBase {
  std::string id;      // e.g. "tiergate-synthetic-L8-E768" (general.name)
  std::string file;    // relative to the manifest's directory
  std::string sha256;  // 64 lowercase hex digits of the file's bytes
  uint64_t size_bytes = 0;

  bool operator==(const ManifestBase&) const = default;
};

// How a variant was quantized.
struct QuantRecipe {
  std::string name;   // the tier or named recipe, e.g. "q4_k_m", "mixed-2g"
  std::string ftype;  // llama.cpp file type of the bulk of the tensors, e.g. "q4_k_m"
  bool imatrix = false;  // quantized with an importance matrix from a query log
  // Mixed precision: tensor name -> type overriding ftype (e.g.
  // "output.weight" -> "q6_k"). Empty for a fixed tier.
  std::map<std::string, std::string> tensor_types;

  bool operator==(const QuantRecipe&) const = default;
};

// What a device needs to run the variant. Names as in the device profile:
// cpu_features from cpu_feature_names() (e.g. "AVX2"), backends as ggml
// registers them (e.g. "CPU", "CUDA").
struct VariantRequirements {
  std::vector<std::string> cpu_features;
  std::vector<std::string> backends;

  bool operator==(const VariantRequirements&) const = default;
};

// Agreement with the base checkpoint on the query log (`variants eval`).
struct Fidelity {
  double kl_mean = 0;         // mean KL(base || variant) of next-token distributions, >= 0
  double top1_agreement = 0;  // share of positions with the same top token, [0, 1]
  std::optional<double> perplexity;            // the variant's, on the log's text
  std::optional<double> reference_perplexity;  // the base's, same text
  std::optional<int64_t> tokens;               // positions compared

  bool operator==(const Fidelity&) const = default;
};

// Speed measured on the machine that ran eval.
struct MeasuredSpeed {
  double prefill_tps = 0;
  double decode_tps = 0;
  // The micro-benchmark's decode tokens/s on that machine (micro_benchmark.h),
  // so a device can scale decode_tps by its own benchmark.
  std::optional<double> bench_decode_tps;

  bool operator==(const MeasuredSpeed&) const = default;
};

struct VariantEntry {
  std::string id;       // unique within the manifest
  std::string base_id;  // == Manifest::base.id
  QuantRecipe recipe;
  std::string file;     // relative to the manifest's directory
  std::string sha256;
  uint64_t size_bytes = 0;
  uint64_t min_memory_bytes = 0;  // resident memory needed to serve it
  VariantRequirements requirements;  // JSON key "requires"
  std::optional<Fidelity> fidelity;
  std::optional<MeasuredSpeed> speed;
  std::optional<uint64_t> peak_rss_bytes;  // measured during eval

  bool operator==(const VariantEntry&) const = default;
};

struct Manifest {
  ManifestBase base;
  std::vector<VariantEntry> variants;

  bool operator==(const Manifest&) const = default;
};

// Checks what the JSON shape cannot: sha256 is 64 hex digits, file names are
// relative without "..", variant ids are unique, every base_id is base.id.
// kInvalidArgument naming the field, e.g. "variants[1].id: \"q4\" is used
// twice".
Status validate_manifest(const Manifest& manifest);

// Parses and validates manifest JSON. kInvalidArgument naming the field path:
// not JSON, another format, a version other than 1, a required field missing
// ("variants[0].sha256: missing (a string)"), a field of the wrong type or
// range ("variants[0].size_bytes: must be a non-negative integer").
StatusOr<Manifest> parse_manifest(std::string_view text);

// The manifest as JSON (indented with 2 spaces); optional fields that are
// absent are omitted. parse_manifest(manifest_to_json(m)) == m for a valid m.
std::string manifest_to_json(const Manifest& manifest);

// Reads a manifest file: kNotFound when it cannot be opened; otherwise
// parse_manifest's errors as "<path>: <field>: <problem>".
StatusOr<Manifest> read_manifest(const std::string& path);

// Validates, then writes atomically (core/file_output.h): readers see the old
// manifest or the new one. kInvalidArgument from validate_manifest (nothing
// is written); kUnavailable when writing fails (path is untouched).
Status write_manifest(const std::string& path, const Manifest& manifest);

// The path of a manifest's file entry: its directory joined with file.
std::string manifest_file_path(const std::string& manifest_path, const std::string& file);

// Lowercase hex SHA-256 of a file's bytes, streamed. kNotFound when it cannot
// be opened; kUnavailable when reading fails midway.
StatusOr<std::string> sha256_file(const std::string& path);

// Checks that the file of `variant` (beside the manifest at manifest_path)
// has the recorded size and sha256. kNotFound: the file is missing.
// kFailedPrecondition: its size or digest differ (a partial or corrupt copy:
// fetch it again before use); the message names the file and both values.
Status verify_variant_file(const std::string& manifest_path, const VariantEntry& variant);
// The same for the base checkpoint.
Status verify_base_file(const std::string& manifest_path, const ManifestBase& base);

}  // namespace tiergate
