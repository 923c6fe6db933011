#include "tiergate/engines/local/test_model.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "ggml.h"
#include "gguf.h"

namespace tiergate {
namespace {

constexpr float kWeightStd = 0.02f;
constexpr float kRmsEpsilon = 1e-5f;
constexpr uint32_t kFileTypeAllF32 = 0;     // LLAMA_FTYPE_ALL_F32
constexpr uint32_t kFileTypeMostlyF16 = 1;  // LLAMA_FTYPE_MOSTLY_F16
constexpr size_t kChunkElements = size_t{1} << 16;  // weights generated per write
constexpr std::string_view kTokenizerPrefix = "tokenizer.";

struct GgufFree {
  void operator()(gguf_context* ctx) const { gguf_free(ctx); }
};
struct GgmlFree {
  void operator()(ggml_context* ctx) const { ggml_free(ctx); }
};
using GgufPtr = std::unique_ptr<gguf_context, GgufFree>;
using GgmlPtr = std::unique_ptr<ggml_context, GgmlFree>;

std::string errno_text(int err) { return std::generic_category().message(err); }

// The output file under its temporary name. Unless commit() succeeds, the
// destructor closes and removes it, so a failure never leaves a partial file.
class TempOutput {
 public:
  explicit TempOutput(std::string final_path)
      : final_path_(std::move(final_path)), path_(final_path_ + ".tmp") {}
  TempOutput(const TempOutput&) = delete;
  TempOutput& operator=(const TempOutput&) = delete;
  ~TempOutput() {
    if (file_ != nullptr) std::fclose(file_);
    if (opened_ && !committed_) std::remove(path_.c_str());
  }

  Status open() {
    file_ = std::fopen(path_.c_str(), "wb");
    if (file_ == nullptr) return internal_error("cannot create " + path_ + ": " + errno_text(errno));
    opened_ = true;
    return Status::ok();
  }

  Status write(const void* data, size_t size) {
    if (size != 0 && std::fwrite(data, 1, size, file_) != size) {
      return internal_error("cannot write " + path_ + ": " + errno_text(errno));
    }
    written_ += size;
    return Status::ok();
  }

  // Writes zero bytes until the size is a multiple of alignment.
  Status pad_to(size_t alignment) {
    const std::vector<char> zeros((alignment - written_ % alignment) % alignment, 0);
    return write(zeros.data(), zeros.size());
  }

  size_t written() const { return written_; }

  // Flushes, closes and renames the file to its final path.
  Status commit() {
    const bool flushed = std::fflush(file_) == 0;
    const int flush_err = errno;
    const bool closed = std::fclose(file_) == 0;
    const int close_err = errno;
    file_ = nullptr;
    if (!flushed) return internal_error("cannot write " + path_ + ": " + errno_text(flush_err));
    if (!closed) return internal_error("cannot close " + path_ + ": " + errno_text(close_err));
    if (std::rename(path_.c_str(), final_path_.c_str()) != 0) {
      return internal_error("cannot rename " + path_ + " to " + final_path_ + ": " + errno_text(errno));
    }
    committed_ = true;
    return Status::ok();
  }

 private:
  std::string final_path_;
  std::string path_;
  FILE* file_ = nullptr;
  bool opened_ = false;
  bool committed_ = false;
  size_t written_ = 0;
};

std::string range_error(const char* name, int value, int lo, int hi) {
  return std::string(name) + " must be in " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " +
         std::to_string(value);
}

Status validate(const TestModelParams& p) {
  if (p.out_path.empty()) return invalid_argument("out_path is empty");
  if (p.layers < 1 || p.layers > kMaxTestModelLayers) {
    return invalid_argument(range_error("layers", p.layers, 1, kMaxTestModelLayers));
  }
  if (p.embd < 2 || p.embd > kMaxTestModelEmbd) {
    return invalid_argument(range_error("embd", p.embd, 2, kMaxTestModelEmbd));
  }
  if (p.heads < 1 || p.heads > p.embd) return invalid_argument(range_error("heads", p.heads, 1, p.embd));
  if (p.embd % p.heads != 0 || (p.embd / p.heads) % 2 != 0) {
    return invalid_argument("embd (" + std::to_string(p.embd) + ") must be a multiple of heads (" +
                            std::to_string(p.heads) + ") with an even head dimension");
  }
  if (p.ff < 0 || p.ff > kMaxTestModelFf) return invalid_argument(range_error("ff", p.ff, 0, kMaxTestModelFf));
  if (p.context < 1 || p.context > kMaxTestModelContext) {
    return invalid_argument(range_error("context", p.context, 1, kMaxTestModelContext));
  }
  if (!(p.norm_spread >= 0 && p.norm_spread <= 100)) {
    return invalid_argument("norm_spread must be in 0..100, got " + std::to_string(p.norm_spread));
  }
  return Status::ok();
}

// Reads the tokenizer.* keys of the vocab file into a context of their own and
// sets n_vocab to the number of tokens.
Status read_tokenizer(const std::string& path, GgufPtr& out, int64_t& n_vocab) {
  FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return not_found("cannot open vocab file " + path + ": " + errno_text(errno));
  GgufPtr vocab(gguf_init_from_file_ptr(file, gguf_init_params{/*no_alloc=*/true, /*ctx=*/nullptr}));
  std::fclose(file);
  if (!vocab) return invalid_argument("vocab file " + path + " is not a readable GGUF file");

  const int64_t model_key = gguf_find_key(vocab.get(), "tokenizer.ggml.model");
  if (model_key < 0 || gguf_get_kv_type(vocab.get(), model_key) != GGUF_TYPE_STRING) {
    return invalid_argument("vocab file " + path + " has no tokenizer: missing string key tokenizer.ggml.model");
  }
  const int64_t tokens_key = gguf_find_key(vocab.get(), "tokenizer.ggml.tokens");
  if (tokens_key < 0 || gguf_get_kv_type(vocab.get(), tokens_key) != GGUF_TYPE_ARRAY ||
      gguf_get_arr_type(vocab.get(), tokens_key) != GGUF_TYPE_STRING || gguf_get_arr_n(vocab.get(), tokens_key) == 0 ||
      gguf_get_arr_n(vocab.get(), tokens_key) > size_t{INT32_MAX}) {
    return invalid_argument("vocab file " + path +
                            " has no tokenizer: missing non-empty string array tokenizer.ggml.tokens");
  }
  n_vocab = static_cast<int64_t>(gguf_get_arr_n(vocab.get(), tokens_key));

  // Copy everything, then drop what is not tokenizer.* (general.*, <arch>.*).
  out.reset(gguf_init_empty());
  gguf_set_kv(out.get(), vocab.get());
  for (int64_t i = gguf_get_n_kv(out.get()) - 1; i >= 0; --i) {
    const std::string key = gguf_get_key(out.get(), i);
    if (!key.starts_with(kTokenizerPrefix)) gguf_remove_key(out.get(), key.c_str());
  }
  return Status::ok();
}

void set_hyperparameters(gguf_context* ctx, const TestModelParams& p, int ff, int64_t n_vocab) {
  const std::string name = "tiergate-synthetic-L" + std::to_string(p.layers) + "-E" + std::to_string(p.embd);
  const bool f16 = p.weight_type == TestModelParams::WeightType::kF16;
  gguf_set_val_str(ctx, "general.architecture", "llama");
  gguf_set_val_str(ctx, "general.name", name.c_str());
  gguf_set_val_u32(ctx, "general.file_type", f16 ? kFileTypeMostlyF16 : kFileTypeAllF32);
  gguf_set_val_u32(ctx, "llama.block_count", static_cast<uint32_t>(p.layers));
  gguf_set_val_u32(ctx, "llama.context_length", static_cast<uint32_t>(p.context));
  gguf_set_val_u32(ctx, "llama.embedding_length", static_cast<uint32_t>(p.embd));
  gguf_set_val_u32(ctx, "llama.feed_forward_length", static_cast<uint32_t>(ff));
  gguf_set_val_u32(ctx, "llama.attention.head_count", static_cast<uint32_t>(p.heads));
  gguf_set_val_u32(ctx, "llama.attention.head_count_kv", static_cast<uint32_t>(p.heads));
  gguf_set_val_u32(ctx, "llama.rope.dimension_count", static_cast<uint32_t>(p.embd / p.heads));
  gguf_set_val_f32(ctx, "llama.attention.layer_norm_rms_epsilon", kRmsEpsilon);
  gguf_set_val_u32(ctx, "llama.vocab_size", static_cast<uint32_t>(n_vocab));
}

struct TensorSpec {
  std::string name;
  int64_t ne0;
  int64_t ne1;  // 0 for a 1-D (norm) tensor
};

// llama.cpp's tensor names and shapes (ne0 first), in file order.
std::vector<TensorSpec> tensor_specs(const TestModelParams& p, int64_t ff, int64_t n_vocab) {
  const int64_t e = p.embd;
  std::vector<TensorSpec> specs = {
      {"token_embd.weight", e, n_vocab}, {"output_norm.weight", e, 0}, {"output.weight", e, n_vocab}};
  for (int i = 0; i < p.layers; ++i) {
    const std::string b = "blk." + std::to_string(i) + ".";
    specs.push_back({b + "attn_norm.weight", e, 0});
    specs.push_back({b + "attn_q.weight", e, e});
    specs.push_back({b + "attn_k.weight", e, e});
    specs.push_back({b + "attn_v.weight", e, e});
    specs.push_back({b + "attn_output.weight", e, e});
    specs.push_back({b + "ffn_norm.weight", e, 0});
    specs.push_back({b + "ffn_gate.weight", e, ff});
    specs.push_back({b + "ffn_up.weight", e, ff});
    specs.push_back({b + "ffn_down.weight", ff, e});
  }
  return specs;
}

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

uint64_t fnv1a(std::string_view s) {
  uint64_t h = 0xCBF29CE484222325ULL;
  for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001B3ULL;
  return h;
}

// Irwin-Hall sum of four 16-bit uniforms from one splitmix64 draw: mean 0,
// std kWeightStd, within +-sqrt(12) * kWeightStd. Integer math and one float
// multiply, so the value is the same on every platform.
float next_weight(uint64_t& state) {
  constexpr float kScale = kWeightStd / 37837.23f;  // 1 / std of the sum (2 * 65536 / sqrt(12))
  const uint64_t r = splitmix64(state);
  const int64_t sum = static_cast<int64_t>((r & 0xFFFF) + ((r >> 16) & 0xFFFF) + ((r >> 32) & 0xFFFF) + (r >> 48));
  return static_cast<float>(sum - 131070) * kScale;
}

// Generates one tensor's values chunk by chunk and appends them to out.
// Basic float operations only, so the value is the same on every platform.
float norm_weight(uint64_t& state, float spread) {
  if (spread == 0) return 1.0f;
  const float g = next_weight(state) / kWeightStd;
  return 1.0f + spread * g * g;
}

Status write_tensor_data(TempOutput& out, const TensorSpec& spec, ggml_type type, uint64_t seed, float norm_spread) {
  const bool is_norm = spec.ne1 == 0;
  uint64_t state = seed ^ fnv1a(spec.name);
  splitmix64(state);
  std::vector<float> values(kChunkElements);
  std::vector<ggml_fp16_t> halves(type == GGML_TYPE_F16 ? kChunkElements : 0);
  const int64_t total = spec.ne0 * (is_norm ? 1 : spec.ne1);
  for (int64_t done = 0; done < total;) {
    const size_t n = static_cast<size_t>(std::min<int64_t>(total - done, kChunkElements));
    for (size_t i = 0; i < n; ++i) values[i] = is_norm ? norm_weight(state, norm_spread) : next_weight(state);
    Status s;
    if (type == GGML_TYPE_F16) {
      ggml_fp32_to_fp16_row(values.data(), halves.data(), static_cast<int64_t>(n));
      s = out.write(halves.data(), n * sizeof(ggml_fp16_t));
    } else {
      s = out.write(values.data(), n * sizeof(float));
    }
    if (!s.is_ok()) return s;
    done += static_cast<int64_t>(n);
  }
  return Status::ok();
}

}  // namespace

TestModelParams test_model_default_params() { return TestModelParams{}; }

int default_test_model_ff(int embd) {
  constexpr int kMultiple = 256;
  return (8 * embd + 3 * kMultiple - 1) / (3 * kMultiple) * kMultiple;
}

Status write_test_model(const TestModelParams& params) {
  if (Status s = validate(params); !s.is_ok()) return s;
  const int ff = params.ff == 0 ? default_test_model_ff(params.embd) : params.ff;

  GgufPtr tokenizer;
  int64_t n_vocab = 0;
  if (Status s = read_tokenizer(params.vocab_path, tokenizer, n_vocab); !s.is_ok()) return s;

  GgufPtr gguf(gguf_init_empty());
  set_hyperparameters(gguf.get(), params, ff, n_vocab);
  gguf_set_kv(gguf.get(), tokenizer.get());
  tokenizer.reset();

  // Tensor metadata only (no_alloc); the data is streamed below.
  const std::vector<TensorSpec> specs = tensor_specs(params, ff, n_vocab);
  GgmlPtr ggml(ggml_init(ggml_init_params{specs.size() * ggml_tensor_overhead(), nullptr, /*no_alloc=*/true}));
  if (!ggml) return internal_error("ggml_init failed");
  const ggml_type matrix_type = params.weight_type == TestModelParams::WeightType::kF16 ? GGML_TYPE_F16 : GGML_TYPE_F32;
  for (const TensorSpec& spec : specs) {
    ggml_tensor* t = spec.ne1 == 0 ? ggml_new_tensor_1d(ggml.get(), GGML_TYPE_F32, spec.ne0)
                                   : ggml_new_tensor_2d(ggml.get(), matrix_type, spec.ne0, spec.ne1);
    ggml_set_name(t, spec.name.c_str());
    gguf_add_tensor(gguf.get(), t);
  }

  std::vector<uint8_t> meta(gguf_get_meta_size(gguf.get()));
  gguf_get_meta_data(gguf.get(), meta.data());

  TempOutput out(params.out_path);
  if (Status s = out.open(); !s.is_ok()) return s;
  if (Status s = out.write(meta.data(), meta.size()); !s.is_ok()) return s;
  meta = {};

  // Data section: each tensor at data start + its offset, padded to alignment.
  const size_t alignment = gguf_get_alignment(gguf.get());
  const size_t data_start = out.written();
  for (size_t i = 0; i < specs.size(); ++i) {
    if (out.written() - data_start != gguf_get_tensor_offset(gguf.get(), static_cast<int64_t>(i))) {
      return internal_error("tensor offset mismatch for " + specs[i].name);
    }
    const ggml_type type = gguf_get_tensor_type(gguf.get(), static_cast<int64_t>(i));
    if (Status s = write_tensor_data(out, specs[i], type, params.seed, params.norm_spread); !s.is_ok()) return s;
    if (Status s = out.pad_to(alignment); !s.is_ok()) return s;
  }
  return out.commit();
}

}  // namespace tiergate
