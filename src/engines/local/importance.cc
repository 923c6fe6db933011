#include "tiergate/engines/local/importance.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "eval_model.h"
#include "tiergate/core/file_output.h"

namespace tiergate {

namespace {

constexpr std::string_view kFormat = "tiergate-importance";
constexpr int kVersion = 1;

// Sums of x_j² per weight tensor, filled from ggml's graph callback.
struct Collector {
  struct Sums {
    std::vector<double> squares;
    int64_t rows = 0;
  };
  std::map<std::string, Sums> tensors;
  std::vector<float> staging;  // activations copied off a non-host buffer
};

// The weight a matrix multiplication reads: "blk.0.attn_q.weight", without
// the suffixes ggml adds to views (" (reshaped)").
std::string weight_name(const ggml_tensor* w) {
  std::string_view name(w->name);
  if (const size_t cut = name.find(" ("); cut != std::string_view::npos) name = name.substr(0, cut);
  return std::string(name);
}

bool wants(const ggml_tensor* t) {
  if (t->op != GGML_OP_MUL_MAT) return false;
  const ggml_tensor* w = t->src[0];
  const ggml_tensor* x = t->src[1];
  if (w == nullptr || x == nullptr || x->type != GGML_TYPE_F32) return false;
  const std::string name = weight_name(w);
  return name.size() > 7 && name.ends_with(".weight");
}

// ggml calls this twice per graph node: with ask = true to learn whether the
// node's data is wanted, then (if so) with ask = false once it is computed.
// Returning false in the second call would stop the computation.
bool observe(ggml_tensor* t, bool ask, void* user) {
  if (ask) return wants(t);
  auto* collector = static_cast<Collector*>(user);
  const ggml_tensor* x = t->src[1];
  const int64_t cols = x->ne[0];
  Collector::Sums& sums = collector->tensors[weight_name(t->src[0])];
  if (sums.squares.empty()) sums.squares.assign(static_cast<size_t>(cols), 0.0);
  if (static_cast<int64_t>(sums.squares.size()) != cols) return true;  // shape changed: ignore
  const bool host = x->buffer == nullptr || ggml_backend_buffer_is_host(x->buffer);
  const char* base = static_cast<const char*>(x->data);
  if (!host) {
    collector->staging.resize(ggml_nbytes(x) / sizeof(float) + 1);
    ggml_backend_tensor_get(x, collector->staging.data(), 0, ggml_nbytes(x));
    base = reinterpret_cast<const char*>(collector->staging.data());
  }
  for (int64_t i3 = 0; i3 < x->ne[3]; ++i3) {
    for (int64_t i2 = 0; i2 < x->ne[2]; ++i2) {
      for (int64_t i1 = 0; i1 < x->ne[1]; ++i1) {
        const auto* row = reinterpret_cast<const float*>(base + i1 * x->nb[1] + i2 * x->nb[2] + i3 * x->nb[3]);
        for (int64_t j = 0; j < cols; ++j) sums.squares[static_cast<size_t>(j)] += double(row[j]) * row[j];
        ++sums.rows;
      }
    }
  }
  return true;
}

}  // namespace

StatusOr<ImportanceMatrix> compute_importance(const std::string& checkpoint,
                                              const std::vector<std::vector<ChatMessage>>& conversations,
                                              const ImportanceParams& params) {
  Collector collector;
  EvalModelParams mp;
  mp.context = params.context;
  mp.threads = params.threads;
  mp.observer = observe;
  mp.observer_data = &collector;
  auto model = EvalModel::open(checkpoint, "checkpoint", mp);
  if (!model.is_ok()) return model.status();
  auto chunks = token_chunks(**model, conversations, params.context, params.max_tokens);
  if (!chunks.is_ok()) return chunks.status();

  ImportanceMatrix matrix;
  const int total = static_cast<int>(chunks->size());
  for (int i = 0; i < total; ++i) {
    // Logits for every position, so the output matrix sees every token too.
    if (Status s = (*model)->decode_fresh((*chunks)[static_cast<size_t>(i)], /*all_logits=*/true); !s.is_ok()) {
      return s;
    }
    matrix.tokens += static_cast<int64_t>((*chunks)[static_cast<size_t>(i)].size());
    ++matrix.chunks;
    if (params.on_progress) params.on_progress(i + 1, total);
  }
  for (auto& [name, sums] : collector.tensors) {
    if (sums.rows == 0) continue;
    std::vector<float> mean(sums.squares.size());
    for (size_t j = 0; j < mean.size(); ++j) mean[j] = static_cast<float>(sums.squares[j] / double(sums.rows));
    matrix.columns.emplace(name, std::move(mean));
  }
  if (matrix.columns.empty()) {
    return internal_error("no matrix multiplication was observed while running " + checkpoint);
  }
  return matrix;
}

Status save_importance(const std::string& path, const ImportanceMatrix& matrix) {
  nlohmann::json columns = nlohmann::json::object();
  for (const auto& [name, values] : matrix.columns) columns[name] = values;
  const nlohmann::json doc = {{"format", kFormat},         {"version", kVersion}, {"tokens", matrix.tokens},
                              {"chunks", matrix.chunks},   {"columns", std::move(columns)}};
  return write_file_atomically(path, doc.dump());
}

StatusOr<ImportanceMatrix> load_importance(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return not_found("importance matrix not found: " + path);
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || doc.value("format", "") != kFormat || !doc.contains("version") ||
      !doc["version"].is_number_integer() || doc["version"].get<int>() != kVersion) {
    return invalid_argument(path + ": not a tiergate-importance file of version " + std::to_string(kVersion));
  }
  ImportanceMatrix matrix;
  if (!doc.contains("columns") || !doc["columns"].is_object()) return invalid_argument(path + ": no \"columns\" object");
  for (const auto& [name, values] : doc["columns"].items()) {
    if (!values.is_array()) return invalid_argument(path + ": columns of " + name + " is not an array");
    std::vector<float> v;
    v.reserve(values.size());
    for (const auto& x : values) {
      if (!x.is_number() || !std::isfinite(x.get<double>())) {
        return invalid_argument(path + ": columns of " + name + " holds a non-number");
      }
      v.push_back(x.get<float>());
    }
    matrix.columns.emplace(name, std::move(v));
  }
  matrix.tokens = doc.value("tokens", int64_t{0});
  matrix.chunks = doc.value("chunks", 0);
  return matrix;
}

}  // namespace tiergate
