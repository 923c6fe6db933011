// The variant manifest: round trip, every malformed input and its error, the
// atomic write, and sha256 verification of the files it names.
#include "tiergate/fleet/manifest.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "test_models.h"

namespace tiergate {
namespace {

using nlohmann::json;

// sha256 of the empty string, and of "abc".
constexpr const char* kEmptySha = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
constexpr const char* kAbcSha = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

Manifest sample_manifest() {
  Manifest m;
  m.base = {"tiergate-synthetic-L8-E768", "base.gguf", kEmptySha, 123};
  VariantEntry q4;
  q4.id = "tiergate-synthetic-L8-E768-q4_k_m-imat";
  q4.base_id = m.base.id;
  q4.recipe = {"q4_k_m", "q4_k_m", true, {{"output.weight", "q6_k"}}};
  q4.file = "q4_k_m-imat.gguf";
  q4.sha256 = kAbcSha;
  q4.size_bytes = 3;
  q4.min_memory_bytes = 456;
  q4.requirements = {{"AVX2"}, {"CPU"}};
  q4.fidelity = Fidelity{0.01, 0.97, 12.3, 12.1, 1024};
  q4.speed = MeasuredSpeed{900.0, 40.0, 300.0};
  q4.peak_rss_bytes = 456;
  VariantEntry q8;  // before eval: no fidelity, speed or peak RSS
  q8.id = "tiergate-synthetic-L8-E768-q8_0";
  q8.base_id = m.base.id;
  q8.recipe = {"q8_0", "q8_0", false, {}};
  q8.file = "variants/q8_0.gguf";
  q8.sha256 = kEmptySha;
  q8.size_bytes = 0;
  q8.min_memory_bytes = 1000;
  m.variants = {q4, q8};
  return m;
}

TEST(ManifestTest, RoundTripKeepsEveryField) {
  const Manifest m = sample_manifest();
  const std::string text = manifest_to_json(m);
  StatusOr<Manifest> back = parse_manifest(text);
  ASSERT_TRUE(back.is_ok()) << back.status().message();
  EXPECT_EQ(*back, m);
  const json doc = json::parse(text);
  EXPECT_EQ(doc["format"], "tiergate-variant-manifest");
  EXPECT_EQ(doc["version"], 1);
  EXPECT_EQ(doc["variants"][0]["requires"]["cpu_features"][0], "AVX2");
  EXPECT_EQ(doc["variants"][0]["recipe"]["tensor_types"]["output.weight"], "q6_k");
  EXPECT_FALSE(doc["variants"][1].contains("fidelity"));
  EXPECT_FALSE(doc["variants"][1]["recipe"].contains("tensor_types"));
}

TEST(ManifestTest, ReadsTheDocumentedExample) {
  // The example of docs/fleet.md, with an unknown key a newer writer might add.
  const std::string text = R"({"format": "tiergate-variant-manifest", "version": 1, "signed_by": "later",
   "base": {"id": "tiergate-synthetic-L8-E768", "file": "base.gguf", "sha256": ")" +
                           std::string(kEmptySha) +
                           R"(", "size_bytes": 123},
   "variants": [
    {"id": "tiergate-synthetic-L8-E768-q4_k_m-imat", "base_id": "tiergate-synthetic-L8-E768",
     "recipe": {"name": "q4_k_m", "ftype": "q4_k_m", "imatrix": true, "tensor_types": {"output.weight": "q6_k"}},
     "file": "q4_k_m-imat.gguf", "sha256": ")" +
                           std::string(kAbcSha) +
                           R"(", "size_bytes": 123, "min_memory_bytes": 456,
     "requires": {"cpu_features": ["AVX2"], "backends": ["CPU"]},
     "fidelity": {"kl_mean": 0.01, "top1_agreement": 0.97, "perplexity": 12.3, "reference_perplexity": 12.1, "tokens": 1024},
     "speed": {"prefill_tps": 900.0, "decode_tps": 40.0, "bench_decode_tps": 300.0},
     "peak_rss_bytes": 456}
   ]})";
  StatusOr<Manifest> m = parse_manifest(text);
  ASSERT_TRUE(m.is_ok()) << m.status().message();
  ASSERT_EQ(m->variants.size(), 1u);
  EXPECT_TRUE(m->variants[0].recipe.imatrix);
  EXPECT_DOUBLE_EQ(m->variants[0].fidelity->kl_mean, 0.01);
  EXPECT_DOUBLE_EQ(*m->variants[0].speed->bench_decode_tps, 300.0);
  EXPECT_EQ(m->variants[0].peak_rss_bytes, 456u);
}

// Each edit of a valid manifest and the error that must name the field.
TEST(ManifestTest, MalformedInputNamesTheField) {
  const json good = json::parse(manifest_to_json(sample_manifest()));
  struct Case {
    const char* pointer;
    json value;  // null = remove the field
    const char* error;
  };
  const std::vector<Case> cases = {
      {"/format", "tiergate-device-profile",
       "format: is \"tiergate-device-profile\", not \"tiergate-variant-manifest\""},
      {"/format", nullptr, "format: missing (a string)"},
      {"/version", 2, "version: is 2; this build reads version 1"},
      {"/version", "1", "version: must be an integer"},
      {"/base", nullptr, "base: missing (an object)"},
      {"/base/id", "", "base.id: must not be empty"},
      {"/base/sha256", "abc", "base.sha256: must be 64 lowercase hex digits"},
      {"/base/size_bytes", -1, "base.size_bytes: must be a non-negative integer"},
      {"/base/file", "/etc/passwd",
       "base.file: \"/etc/passwd\" must be a relative path inside the manifest's directory"},
      {"/variants", json::object(), "variants: must be an array"},
      {"/variants/0", "q4", "variants[0]: must be an object"},
      {"/variants/0/id", nullptr, "variants[0].id: missing (a string)"},
      {"/variants/1/id", "tiergate-synthetic-L8-E768-q4_k_m-imat",
       "variants[1].id: \"tiergate-synthetic-L8-E768-q4_k_m-imat\" is used twice"},
      {"/variants/0/base_id", "other", "variants[0].base_id: \"other\" is not the base's id"},
      {"/variants/0/recipe/ftype", nullptr, "variants[0].recipe.ftype: missing (a string)"},
      {"/variants/0/recipe/ftype", 4, "variants[0].recipe.ftype: must be a string"},
      {"/variants/0/recipe/imatrix", "yes", "variants[0].recipe.imatrix: must be true or false"},
      {"/variants/0/recipe/tensor_types", json::array(),
       "variants[0].recipe.tensor_types: must be an object of strings"},
      {"/variants/0/recipe/tensor_types/output.weight", 6,
       "variants[0].recipe.tensor_types.output.weight: must be a non-empty string"},
      {"/variants/0/file", "../../escape.gguf", "variants[0].file: \"../../escape.gguf\" must be a relative path"},
      {"/variants/0/sha256", std::string(64, 'G'), "variants[0].sha256: must be 64 lowercase hex digits"},
      {"/variants/0/size_bytes", 1.5, "variants[0].size_bytes: must be a non-negative integer"},
      {"/variants/0/min_memory_bytes", nullptr, "variants[0].min_memory_bytes: missing (a non-negative integer)"},
      {"/variants/0/requires", nullptr, "variants[0].requires: missing (an object)"},
      {"/variants/0/requires/cpu_features", "AVX2", "variants[0].requires.cpu_features: must be an array of strings"},
      {"/variants/0/requires/backends", json::array({1}), "variants[0].requires.backends[0]: must be a string"},
      {"/variants/0/fidelity/kl_mean", nullptr, "variants[0].fidelity.kl_mean: missing (a number)"},
      {"/variants/0/fidelity/kl_mean", -0.5, "variants[0].fidelity.kl_mean: must be a number from 0"},
      {"/variants/0/fidelity/top1_agreement", 1.5, "variants[0].fidelity.top1_agreement: must be a number from 0 to 1"},
      {"/variants/0/fidelity/tokens", 2.5, "variants[0].fidelity.tokens: must be an integer"},
      {"/variants/0/speed/decode_tps", "fast", "variants[0].speed.decode_tps: must be a number"},
      {"/variants/0/speed", 3, "variants[0].speed: must be an object"},
      {"/variants/0/peak_rss_bytes", "big", "variants[0].peak_rss_bytes: must be a non-negative integer"},
  };
  for (const Case& c : cases) {
    json doc = good;
    const json::json_pointer ptr(c.pointer);
    if (c.value.is_null()) {
      doc[ptr.parent_pointer()].erase(ptr.back());
    } else {
      doc[ptr] = c.value;
    }
    StatusOr<Manifest> m = parse_manifest(doc.dump());
    ASSERT_FALSE(m.is_ok()) << c.pointer;
    EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(m.status().message().find(c.error), std::string::npos)
        << c.pointer << ": " << m.status().message();
  }
  EXPECT_EQ(parse_manifest("").status().message(), "not valid JSON");
  EXPECT_EQ(parse_manifest("[]").status().message(), "the document: must be an object");
}

TEST(ManifestTest, ReadErrorsNameTheFile) {
  const std::string dir = testing::make_temp_dir("tiergate-manifest-");
  StatusOr<Manifest> missing = read_manifest(dir + "/absent.json");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), dir + "/absent.json: cannot open the manifest");
  std::ofstream(dir + "/broken.json") << "{\"format\": \"tiergate-variant-manifest\", \"version\": 1}";
  StatusOr<Manifest> broken = read_manifest(dir + "/broken.json");
  EXPECT_EQ(broken.status().message(), dir + "/broken.json: base: missing (an object)");
}

TEST(ManifestTest, WriteIsAtomicAndRefusesAnInvalidManifest) {
  const std::string dir = testing::make_temp_dir("tiergate-manifest-");
  const std::string path = dir + "/manifest.json";
  ASSERT_TRUE(write_manifest(path, sample_manifest()).is_ok());
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  StatusOr<Manifest> back = read_manifest(path);
  ASSERT_TRUE(back.is_ok()) << back.status().message();
  EXPECT_EQ(*back, sample_manifest());

  Manifest bad = sample_manifest();
  bad.variants[1].id = bad.variants[0].id;
  Status refused = write_manifest(path, bad);
  EXPECT_EQ(refused.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.message().find("not written: variants[1].id"), std::string::npos) << refused.message();
  EXPECT_EQ(*read_manifest(path), sample_manifest());  // the old file is untouched

  Status unwritable = write_manifest(dir + "/no/such/dir/manifest.json", sample_manifest());
  EXPECT_EQ(unwritable.code(), StatusCode::kUnavailable);
}

TEST(ManifestTest, VerifiesSizeAndSha256OfTheFiles) {
  const std::string dir = testing::make_temp_dir("tiergate-manifest-");
  const std::string path = dir + "/manifest.json";
  const Manifest m = sample_manifest();
  std::ofstream(dir + "/base.gguf");                          // empty: matches kEmptySha, but size says 123
  std::ofstream(dir + "/q4_k_m-imat.gguf") << "abc";          // matches
  EXPECT_EQ(*sha256_file(dir + "/q4_k_m-imat.gguf"), kAbcSha);
  EXPECT_TRUE(verify_variant_file(path, m.variants[0]).is_ok());

  Status base = verify_base_file(path, m.base);
  EXPECT_EQ(base.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(base.message().find("has 0 bytes, the manifest says 123"), std::string::npos) << base.message();

  Status missing = verify_variant_file(path, m.variants[1]);  // variants/q8_0.gguf does not exist
  EXPECT_EQ(missing.code(), StatusCode::kNotFound);
  EXPECT_NE(missing.message().find("variants/q8_0.gguf: missing"), std::string::npos) << missing.message();

  std::ofstream(dir + "/q4_k_m-imat.gguf") << "abd";  // same size, other bytes
  Status corrupt = verify_variant_file(path, m.variants[0]);
  EXPECT_EQ(corrupt.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(corrupt.message().find(std::string("the manifest says ") + kAbcSha), std::string::npos)
      << corrupt.message();
  EXPECT_EQ(sha256_file(dir + "/absent").status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace tiergate
