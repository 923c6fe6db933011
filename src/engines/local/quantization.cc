#include "tiergate/engines/local/quantization.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>

#include "gguf.h"
#include "llama.h"
#include "ggml_type_names.h"
#include "llama_runtime.h"

namespace tiergate {

namespace {

struct BaseType {
  std::string_view name;
  llama_ftype ftype;
};

// llama.cpp file types a variant may be built from. The iq types below 4 bits
// are left out: without an importance matrix llama.cpp refuses them, and with
// one they are slower to build than this pipeline's budget search is to beat.
constexpr std::array<BaseType, 18> kBaseTypes = {{
    {"q8_0", LLAMA_FTYPE_MOSTLY_Q8_0},     {"q6_k", LLAMA_FTYPE_MOSTLY_Q6_K},
    {"q5_k_m", LLAMA_FTYPE_MOSTLY_Q5_K_M}, {"q5_k_s", LLAMA_FTYPE_MOSTLY_Q5_K_S},
    {"q5_1", LLAMA_FTYPE_MOSTLY_Q5_1},     {"q5_0", LLAMA_FTYPE_MOSTLY_Q5_0},
    {"q4_k_m", LLAMA_FTYPE_MOSTLY_Q4_K_M}, {"q4_k_s", LLAMA_FTYPE_MOSTLY_Q4_K_S},
    {"q4_1", LLAMA_FTYPE_MOSTLY_Q4_1},     {"q4_0", LLAMA_FTYPE_MOSTLY_Q4_0},
    {"q3_k_l", LLAMA_FTYPE_MOSTLY_Q3_K_L}, {"q3_k_m", LLAMA_FTYPE_MOSTLY_Q3_K_M},
    {"q3_k_s", LLAMA_FTYPE_MOSTLY_Q3_K_S}, {"q2_k", LLAMA_FTYPE_MOSTLY_Q2_K},
    {"iq4_xs", LLAMA_FTYPE_MOSTLY_IQ4_XS}, {"iq4_nl", LLAMA_FTYPE_MOSTLY_IQ4_NL},
    {"bf16", LLAMA_FTYPE_MOSTLY_BF16},     {"f16", LLAMA_FTYPE_MOSTLY_F16},
}};

struct TensorGroup {
  std::string_view name;
  std::string_view pattern;  // regex over tensor names, as llama.cpp matches them
};

// embd and output are set through their own quantization parameters.
constexpr std::array<TensorGroup, 11> kGroups = {{
    {"embd", ""},
    {"output", ""},
    {"attn", R"(\.attn_(q|k|v|output)\.weight$)"},
    {"attn_q", R"(\.attn_q\.weight$)"},
    {"attn_k", R"(\.attn_k\.weight$)"},
    {"attn_v", R"(\.attn_v\.weight$)"},
    {"attn_output", R"(\.attn_output\.weight$)"},
    {"ffn", R"(\.ffn_(gate|up|down)\.weight$)"},
    {"ffn_gate", R"(\.ffn_gate\.weight$)"},
    {"ffn_up", R"(\.ffn_up\.weight$)"},
    {"ffn_down", R"(\.ffn_down\.weight$)"},
}};

// Shorthands users can name in --tiers; each is a string of the grammar.
const std::vector<std::pair<std::string, std::string>>& named_recipe_table() {
  static const std::vector<std::pair<std::string, std::string>> table = {
      // Attention at 8 bits, the feed-forward at 4: attention matrices are
      // small and errors in them spread to every later token.
      {"mix_q4_attn_q8", "q4_k_m+attn=q8_0"},
      // The 3-bit mixture with embeddings and output at 6 bits, which decide
      // the next-token distribution directly.
      {"mix_q3_io_q6", "q3_k_m+embd=q6_k+output=q6_k"},
  };
  return table;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out;
}

std::vector<std::string> usable_type_names() {
  std::vector<std::string> names;
  for (std::string_view n : {"f16", "bf16", "q8_0", "q6_k", "q5_k", "q5_0", "q5_1", "q4_k", "q4_0", "q4_1",
                             "q3_k", "q2_k", "iq4_xs", "iq4_nl"}) {
    names.emplace_back(n);
  }
  return names;
}

const BaseType* base_type(std::string_view name) {
  for (const BaseType& b : kBaseTypes) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

const TensorGroup* group(std::string_view name) {
  for (const TensorGroup& g : kGroups) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

std::string escape_regex(std::string_view name) {
  std::string out = "^";
  for (char c : name) {
    if (std::string_view(".^$|()[]{}*+?\\").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  out += '$';
  return out;
}

// llama.cpp reports progress and errors through its log; one quantization at a
// time follows it through these.
struct QuantizeLog {
  const QuantizeParams* params = nullptr;
  std::string errors;
  std::string line;  // the current INFO line, assembled from pieces
};

void parse_progress_line(QuantizeLog& log) {
  // "[  12/  75] blk.1.attn_q.weight  - [  768,   768,     1,     1], type = ..."
  int done = 0, total = 0;
  char name[256] = {};
  if (std::sscanf(log.line.c_str(), "[%d/%d] %255s", &done, &total, name) == 3 && log.params->on_progress) {
    log.params->on_progress(QuantizeProgress{done, total, name});
  }
}

void quantize_log_sink(ggml_log_level level, const char* text, void* user) {
  auto* log = static_cast<QuantizeLog*>(user);
  if (level == GGML_LOG_LEVEL_ERROR) {
    log->errors += text;
    return;
  }
  if (level == GGML_LOG_LEVEL_CONT) {
    log->line += text;
  } else {
    log->line = text;
  }
  if (!log->line.empty() && log->line.front() == '[') parse_progress_line(*log);
}

}  // namespace

StatusOr<QuantizationRecipe> parse_recipe(std::string_view tier) {
  std::string spec = lower(tier);
  std::string name = spec;
  for (const auto& [named, expansion] : named_recipe_table()) {
    if (spec == named) spec = expansion;
  }
  QuantizationRecipe recipe;
  recipe.name = name;
  size_t plus = spec.find('+');
  recipe.ftype = spec.substr(0, plus);
  if (base_type(recipe.ftype) == nullptr) {
    std::vector<std::string> named;
    for (const auto& [n, e] : named_recipe_table()) named.push_back(n);
    return invalid_argument("unknown tier '" + std::string(tier) + "': its base '" + recipe.ftype +
                            "' is not one of " + join(known_base_types()) + " (or a named recipe: " + join(named) +
                            ")");
  }
  while (plus != std::string::npos) {
    const size_t next = spec.find('+', plus + 1);
    const std::string part = spec.substr(plus + 1, next == std::string::npos ? std::string::npos : next - plus - 1);
    const size_t eq = part.find('=');
    if (eq == std::string::npos) {
      return invalid_argument("tier '" + std::string(tier) + "': '" + part + "' is not GROUP=TYPE");
    }
    const std::string g = part.substr(0, eq);
    const std::string t = part.substr(eq + 1);
    if (group(g) == nullptr) {
      std::vector<std::string> groups;
      for (const TensorGroup& known : kGroups) groups.emplace_back(known.name);
      return invalid_argument("tier '" + std::string(tier) + "': unknown tensor group '" + g + "' (known: " +
                              join(groups) + ")");
    }
    if (!storage_type_by_name(t)) {
      return invalid_argument("tier '" + std::string(tier) + "': unknown tensor type '" + t + "' (e.g. " +
                              join(usable_type_names()) + ")");
    }
    recipe.tensor_types[g] = t;
    plus = next;
  }
  return recipe;
}

std::vector<std::string> known_base_types() {
  std::vector<std::string> names;
  for (const BaseType& b : kBaseTypes) names.emplace_back(b.name);
  return names;
}

std::vector<std::pair<std::string, std::string>> named_recipes() { return named_recipe_table(); }

bool recipe_requires_importance(const QuantizationRecipe& recipe) {
  for (const auto& [target, type] : recipe.tensor_types) {
    if (auto t = storage_type_by_name(type); t && ggml_quantize_requires_imatrix(*t)) return true;
  }
  return false;
}

double type_bits_per_weight(std::string_view type) {
  const auto t = storage_type_by_name(lower(type));
  if (!t) return 0;
  return 8.0 * static_cast<double>(ggml_type_size(*t)) / static_cast<double>(ggml_blck_size(*t));
}

int64_t CheckpointInfo::kv_cache_bytes(int tokens) const {
  if (heads <= 0) return 0;
  const int64_t kv_embd = int64_t{embd} * heads_kv / heads;
  return int64_t{2} /*K and V*/ * layers * kv_embd * tokens * 2 /*f16*/;
}

StatusOr<CheckpointInfo> read_checkpoint_info(const std::string& path) {
  if (Status s = check_gguf_file(path, "checkpoint", ""); !s.is_ok()) return s;
  ggml_context* meta = nullptr;
  gguf_context* gguf = gguf_init_from_file(path.c_str(), gguf_init_params{/*no_alloc=*/true, &meta});
  if (gguf == nullptr) return invalid_argument("checkpoint " + path + " is not a readable GGUF file (truncated or corrupt?)");
  auto text = [&](const std::string& key) {
    const int64_t id = gguf_find_key(gguf, key.c_str());
    return id >= 0 && gguf_get_kv_type(gguf, id) == GGUF_TYPE_STRING ? std::string(gguf_get_val_str(gguf, id))
                                                                      : std::string();
  };
  auto number = [&](const std::string& key) -> int {
    const int64_t id = gguf_find_key(gguf, key.c_str());
    if (id < 0) return 0;
    switch (gguf_get_kv_type(gguf, id)) {
      case GGUF_TYPE_UINT32: return static_cast<int>(gguf_get_val_u32(gguf, id));
      case GGUF_TYPE_INT32: return gguf_get_val_i32(gguf, id);
      case GGUF_TYPE_UINT64: return static_cast<int>(gguf_get_val_u64(gguf, id));
      case GGUF_TYPE_INT64: return static_cast<int>(gguf_get_val_i64(gguf, id));
      case GGUF_TYPE_UINT8: case GGUF_TYPE_INT8: case GGUF_TYPE_UINT16: case GGUF_TYPE_INT16:
      case GGUF_TYPE_FLOAT32: case GGUF_TYPE_BOOL: case GGUF_TYPE_STRING: case GGUF_TYPE_ARRAY:
      case GGUF_TYPE_FLOAT64: case GGUF_TYPE_COUNT: return 0;
    }
    return 0;
  };
  CheckpointInfo info;
  info.architecture = text("general.architecture");
  info.name = text("general.name");
  if (info.name.empty()) info.name = std::filesystem::path(path).stem().string();
  info.layers = number(info.architecture + ".block_count");
  info.embd = number(info.architecture + ".embedding_length");
  info.heads = number(info.architecture + ".attention.head_count");
  info.heads_kv = number(info.architecture + ".attention.head_count_kv");
  if (info.heads_kv == 0) info.heads_kv = info.heads;
  for (ggml_tensor* t = ggml_get_first_tensor(meta); t != nullptr; t = ggml_get_next_tensor(meta, t)) {
    info.parameters += ggml_nelements(t);
    if (info.weight_type.empty() && ggml_n_dims(t) == 2) info.weight_type = lower(ggml_type_name(t->type));
  }
  gguf_free(gguf);
  ggml_free(meta);
  return info;
}

Status quantize_checkpoint(const std::string& checkpoint, const std::string& output, const QuantizationRecipe& recipe,
                           const QuantizeParams& params) {
  if (Status s = check_gguf_file(checkpoint, "checkpoint", ""); !s.is_ok()) return s;
  const BaseType* base = base_type(recipe.ftype);
  if (base == nullptr) return invalid_argument("recipe " + recipe.name + ": unknown base type " + recipe.ftype);
  if (recipe_requires_importance(recipe) && params.importance == nullptr) {
    return failed_precondition("recipe " + recipe.name +
                               " uses a type that needs an importance matrix: give --queries");
  }

  llama_model_quantize_params qp = llama_model_quantize_default_params();
  qp.nthread = resolve_threads(params.threads);
  qp.ftype = base->ftype;

  // Patterns and types outlive the call; regexes are anchored exact names or
  // the group patterns.
  std::vector<std::string> patterns;
  std::vector<llama_model_tensor_override> overrides;
  patterns.reserve(recipe.tensor_types.size());
  for (const auto& [target, type_name] : recipe.tensor_types) {
    const auto type = storage_type_by_name(type_name);
    if (!type) return invalid_argument("recipe " + recipe.name + ": unknown tensor type " + type_name);
    if (target == "embd" || target == "token_embd.weight") {
      qp.token_embedding_type = *type;
    } else if (target == "output" || target == "output.weight") {
      qp.output_tensor_type = *type;
    } else if (const TensorGroup* g = group(target)) {
      patterns.emplace_back(g->pattern);
      overrides.push_back({nullptr, *type});
    } else {
      patterns.push_back(escape_regex(target));
      overrides.push_back({nullptr, *type});
    }
  }
  for (size_t i = 0; i < overrides.size(); ++i) overrides[i].pattern = patterns[i].c_str();
  overrides.push_back({nullptr, GGML_TYPE_COUNT});
  if (overrides.size() > 1) qp.tt_overrides = overrides.data();

  std::vector<llama_model_imatrix_data> imatrix;
  if (params.importance != nullptr) {
    for (const auto& [name, values] : params.importance->columns) {
      imatrix.push_back({name.c_str(), values.data(), values.size()});
    }
    imatrix.push_back({nullptr, nullptr, 0});
    qp.imatrix = imatrix.data();
  }

  const std::string temporary = output + ".tmp";
  QuantizeLog log;
  log.params = &params;
  uint32_t rc = 0;
  {
    ScopedLlamaLog redirect(quantize_log_sink, &log);
    rc = llama_model_quantize(checkpoint.c_str(), temporary.c_str(), &qp);
  }
  std::error_code ec;
  if (rc != 0) {
    std::filesystem::remove(temporary, ec);
    const auto dir = std::filesystem::absolute(output, ec).parent_path();
    const auto space = std::filesystem::space(dir, ec);
    std::string detail = log.errors.empty() ? "llama_model_quantize failed" : log.errors;
    while (!detail.empty() && (detail.back() == '\n' || detail.back() == ' ')) detail.pop_back();
    // llama.cpp writes with exceptions on failbit, so a full disk or a file
    // size limit surfaces as an iostream error.
    const bool disk_full = !ec && space.available < (1u << 20);
    if (disk_full || detail.find("iostream error") != std::string::npos) {
      return resource_exhausted("writing " + output + " failed: " +
                                (disk_full ? "no space left on the device" : "disk full or file size limit reached") +
                                "; nothing was kept (" + detail + ")");
    }
    if (detail.find("failed to read") != std::string::npos || detail.find("load") != std::string::npos) {
      return invalid_argument("llama.cpp could not read the checkpoint " + checkpoint + ": " + detail);
    }
    return internal_error("quantizing " + checkpoint + " as " + recipe.name + " failed: " + detail);
  }
  std::filesystem::rename(temporary, output, ec);
  if (ec) {
    std::filesystem::remove(temporary, ec);
    return internal_error("could not rename " + temporary + " to " + output + ": " + ec.message());
  }
  return Status::ok();
}

}  // namespace tiergate
