#include "tiergate/engines/local/test_model.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "gguf.h"
#include "llama.h"

namespace tiergate {
namespace {

namespace fs = std::filesystem;

std::string vocab_file(const std::string& name) {
  return std::string(TIERGATE_LLAMA_SOURCE_DIR) + "/models/ggml-vocab-" + name + ".gguf";
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct GgufFree {
  void operator()(gguf_context* ctx) const { gguf_free(ctx); }
};
using GgufPtr = std::unique_ptr<gguf_context, GgufFree>;

GgufPtr open_gguf(const std::string& path, ggml_context** data = nullptr) {
  return GgufPtr(gguf_init_from_file(path.c_str(), gguf_init_params{data == nullptr, data}));
}

int64_t vocab_tokens(const std::string& path) {
  GgufPtr g = open_gguf(path);
  if (!g) return -1;
  return static_cast<int64_t>(gguf_get_arr_n(g.get(), gguf_find_key(g.get(), "tokenizer.ggml.tokens")));
}

uint32_t get_u32(const gguf_context* g, const char* key) {
  const int64_t id = gguf_find_key(g, key);
  return id < 0 ? 0 : gguf_get_val_u32(g, id);
}

// llama.cpp logs only errors during these tests.
void quiet_log(ggml_log_level level, const char* text, void* /*user*/) {
  if (level == GGML_LOG_LEVEL_ERROR) fputs(text, stderr);
}

class TestModelTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    llama_log_set(quiet_log, nullptr);
    llama_backend_init();
  }
  static void TearDownTestSuite() { llama_backend_free(); }

  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "test_model_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }

  TestModelParams small_params(const std::string& vocab = "llama-spm") const {
    TestModelParams p = test_model_default_params();
    p.out_path = (dir_ / "model.gguf").string();
    p.vocab_path = vocab_file(vocab);
    p.layers = 2;
    p.embd = 64;
    p.heads = 4;
    p.context = 256;
    return p;
  }

  size_t files_in_dir() const { return static_cast<size_t>(std::distance(fs::directory_iterator(dir_), {})); }

  fs::path dir_;
};

// Loads the model with llama.cpp, checks its shape, tokenizes and decodes.
void expect_loads_and_decodes(const TestModelParams& p) {
  llama_model* model = llama_model_load_from_file(p.out_path.c_str(), llama_model_default_params());
  ASSERT_NE(model, nullptr);
  const llama_vocab* vocab = llama_model_get_vocab(model);
  EXPECT_EQ(llama_vocab_n_tokens(vocab), vocab_tokens(p.vocab_path));
  EXPECT_EQ(llama_model_n_layer(model), p.layers);
  EXPECT_EQ(llama_model_n_embd(model), p.embd);
  EXPECT_EQ(llama_model_n_head(model), p.heads);

  std::vector<llama_token> tokens(32);
  const std::string text = "Hello world";
  const int n = llama_tokenize(vocab, text.data(), static_cast<int32_t>(text.size()), tokens.data(),
                               static_cast<int32_t>(tokens.size()), /*add_special=*/true, /*parse_special=*/false);
  ASSERT_GT(n, 0);
  tokens.resize(static_cast<size_t>(n));

  llama_context_params cp = llama_context_default_params();
  cp.n_ctx = 128;
  cp.n_batch = 64;
  cp.n_ubatch = 64;
  llama_context* ctx = llama_init_from_model(model, cp);
  ASSERT_NE(ctx, nullptr);
  EXPECT_EQ(llama_decode(ctx, llama_batch_get_one(tokens.data(), n)), 0);
  const float* logits = llama_get_logits_ith(ctx, -1);
  ASSERT_NE(logits, nullptr);
  bool all_finite = true;
  bool any_nonzero = false;
  for (int i = 0; i < llama_vocab_n_tokens(vocab); ++i) {
    all_finite = all_finite && std::isfinite(logits[i]);
    any_nonzero = any_nonzero || logits[i] != 0.0f;
  }
  EXPECT_TRUE(all_finite);
  EXPECT_TRUE(any_nonzero);
  llama_free(ctx);
  llama_model_free(model);
}

TEST_F(TestModelTest, SentencePieceModelLoadsAndDecodes) {
  const TestModelParams p = small_params("llama-spm");
  ASSERT_TRUE(write_test_model(p).is_ok());
  expect_loads_and_decodes(p);
  EXPECT_EQ(files_in_dir(), 1u);  // no .tmp left behind
}

TEST_F(TestModelTest, BpeF32ModelLoadsAndDecodes) {
  TestModelParams p = small_params("gpt-2");
  p.layers = 1;
  p.embd = 32;
  p.heads = 2;
  p.ff = 96;
  p.weight_type = TestModelParams::WeightType::kF32;
  const Status s = write_test_model(p);
  ASSERT_TRUE(s.is_ok()) << s.to_string();
  expect_loads_and_decodes(p);
}

TEST_F(TestModelTest, MetadataAndTensors) {
  TestModelParams p = small_params();
  p.embd = 256;
  p.layers = 3;
  ASSERT_TRUE(write_test_model(p).is_ok());
  GgufPtr g = open_gguf(p.out_path);
  ASSERT_TRUE(g);
  EXPECT_STREQ(gguf_get_val_str(g.get(), gguf_find_key(g.get(), "general.architecture")), "llama");
  EXPECT_STREQ(gguf_get_val_str(g.get(), gguf_find_key(g.get(), "general.name")), "tiergate-synthetic-L3-E256");
  EXPECT_EQ(get_u32(g.get(), "general.file_type"), 1u);
  EXPECT_EQ(get_u32(g.get(), "llama.block_count"), 3u);
  EXPECT_EQ(get_u32(g.get(), "llama.context_length"), 256u);
  EXPECT_EQ(get_u32(g.get(), "llama.feed_forward_length"), 768u);  // default for 256
  EXPECT_EQ(get_u32(g.get(), "llama.rope.dimension_count"), 64u);
  EXPECT_EQ(get_u32(g.get(), "llama.vocab_size"), 32000u);
  EXPECT_EQ(gguf_find_key(g.get(), "llama.rope.freq_base"), -1);  // not copied from the vocab file
  EXPECT_GE(gguf_find_key(g.get(), "tokenizer.ggml.scores"), 0);
  EXPECT_EQ(gguf_get_n_tensors(g.get()), 3 + 9 * 3);

  const int64_t down = gguf_find_tensor(g.get(), "blk.2.ffn_down.weight");
  ASSERT_GE(down, 0);
  EXPECT_EQ(gguf_get_tensor_type(g.get(), down), GGML_TYPE_F16);
  EXPECT_EQ(gguf_get_tensor_ne(g.get(), down)[0], 768);
  EXPECT_EQ(gguf_get_tensor_ne(g.get(), down)[1], 256);
  const int64_t norm = gguf_find_tensor(g.get(), "blk.0.attn_norm.weight");
  ASSERT_GE(norm, 0);
  EXPECT_EQ(gguf_get_tensor_type(g.get(), norm), GGML_TYPE_F32);
}

TEST_F(TestModelTest, WeightStatistics) {
  TestModelParams p = small_params();
  p.weight_type = TestModelParams::WeightType::kF32;
  ASSERT_TRUE(write_test_model(p).is_ok());
  ggml_context* data = nullptr;
  GgufPtr g = open_gguf(p.out_path, &data);
  ASSERT_TRUE(g);
  ASSERT_NE(data, nullptr);

  const ggml_tensor* embd = ggml_get_tensor(data, "token_embd.weight");
  ASSERT_NE(embd, nullptr);
  const auto* w = static_cast<const float*>(embd->data);
  const int64_t n = ggml_nelements(embd);
  double sum = 0;
  double sum_sq = 0;
  for (int64_t i = 0; i < n; ++i) {
    sum += w[i];
    sum_sq += static_cast<double>(w[i]) * w[i];
  }
  const double mean = sum / static_cast<double>(n);
  EXPECT_NEAR(mean, 0.0, 1e-3);
  EXPECT_NEAR(std::sqrt(sum_sq / static_cast<double>(n) - mean * mean), 0.02, 5e-4);

  const ggml_tensor* norm = ggml_get_tensor(data, "output_norm.weight");
  ASSERT_NE(norm, nullptr);
  for (int64_t i = 0; i < ggml_nelements(norm); ++i) EXPECT_EQ(static_cast<const float*>(norm->data)[i], 1.0f);
  ggml_free(data);
}

TEST_F(TestModelTest, SameSeedSameBytesOtherSeedDifferent) {
  TestModelParams p = small_params();
  ASSERT_TRUE(write_test_model(p).is_ok());
  const std::string first = read_bytes(p.out_path);
  ASSERT_TRUE(write_test_model(p).is_ok());  // overwrites in place
  EXPECT_EQ(read_bytes(p.out_path), first);

  p.out_path = (dir_ / "other.gguf").string();
  p.seed = 43;
  ASSERT_TRUE(write_test_model(p).is_ok());
  const std::string other = read_bytes(p.out_path);
  EXPECT_EQ(other.size(), first.size());
  EXPECT_NE(other, first);
}

TEST_F(TestModelTest, MissingVocabIsNotFound) {
  TestModelParams p = small_params();
  p.vocab_path = (dir_ / "no-such-vocab.gguf").string();
  const Status s = write_test_model(p);
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_NE(s.message().find("no-such-vocab.gguf"), std::string::npos) << s.message();
  EXPECT_EQ(files_in_dir(), 0u);
}

TEST_F(TestModelTest, TextVocabIsInvalidAndLeavesNothing) {
  TestModelParams p = small_params();
  p.vocab_path = (dir_ / "vocab.txt").string();
  std::ofstream(p.vocab_path) << "hello\nworld\n";
  const Status s = write_test_model(p);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("vocab.txt"), std::string::npos) << s.message();
  EXPECT_FALSE(fs::exists(p.out_path));
  EXPECT_EQ(files_in_dir(), 1u);  // only vocab.txt
}

TEST_F(TestModelTest, GgufWithoutTokenizerIsInvalid) {
  TestModelParams p = small_params();
  p.vocab_path = (dir_ / "empty.gguf").string();
  GgufPtr g(gguf_init_empty());
  gguf_set_val_str(g.get(), "general.architecture", "llama");
  ASSERT_TRUE(gguf_write_to_file(g.get(), p.vocab_path.c_str(), /*only_meta=*/false));
  const Status s = write_test_model(p);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("empty.gguf"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("tokenizer.ggml.model"), std::string::npos) << s.message();
  EXPECT_FALSE(fs::exists(p.out_path));
}

TEST_F(TestModelTest, BadDimensionsAreInvalid) {
  TestModelParams p = small_params();
  p.embd = 66;  // not a multiple of 4 heads
  EXPECT_EQ(write_test_model(p).code(), StatusCode::kInvalidArgument);
  p.embd = 12;  // head_dim 3 is odd
  EXPECT_EQ(write_test_model(p).code(), StatusCode::kInvalidArgument);
  p = small_params();
  p.layers = 0;
  EXPECT_EQ(write_test_model(p).code(), StatusCode::kInvalidArgument);
  p = small_params();
  p.out_path.clear();
  EXPECT_EQ(write_test_model(p).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(files_in_dir(), 0u);
}

TEST_F(TestModelTest, UnwritableOutPathFailsAndLeavesNothing) {
  TestModelParams p = small_params();
  p.out_path = (dir_ / "missing-dir" / "model.gguf").string();
  const Status s = write_test_model(p);
  EXPECT_EQ(s.code(), StatusCode::kInternal);
  EXPECT_NE(s.message().find("missing-dir/model.gguf"), std::string::npos) << s.message();
  EXPECT_EQ(files_in_dir(), 0u);
}

TEST_F(TestModelTest, FailedRenameLeavesNothing) {
  TestModelParams p = small_params();
  p.out_path = (dir_ / "a-directory").string();
  fs::create_directory(p.out_path);
  const Status s = write_test_model(p);
  EXPECT_EQ(s.code(), StatusCode::kInternal);
  EXPECT_NE(s.message().find("a-directory"), std::string::npos) << s.message();
  EXPECT_EQ(files_in_dir(), 1u);  // the directory itself, no .tmp
}

TEST_F(TestModelTest, DefaultFeedForward) {
  EXPECT_EQ(default_test_model_ff(256), 768);
  EXPECT_EQ(default_test_model_ff(768), 2048);
  EXPECT_EQ(default_test_model_ff(4096), 11008);
}

}  // namespace
}  // namespace tiergate
