#include "tiergate/engines/local/mixed_precision.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <thread>

#include "gguf.h"
#include "ggml_type_names.h"
#include "llama_runtime.h"

namespace tiergate {

namespace {

struct GgufFile {
  gguf_context* gguf = nullptr;
  ggml_context* data = nullptr;
  ~GgufFile() {
    if (gguf != nullptr) gguf_free(gguf);
    if (data != nullptr) ggml_free(data);
  }
};

bool is_weight_matrix(const ggml_tensor* t) {
  const std::string_view name(t->name);
  return ggml_n_dims(t) == 2 && t->ne[1] > 1 && name.ends_with(".weight");
}

// Rows [evenly spaced] of t as floats.
std::vector<float> sample_rows(const ggml_tensor* t, int64_t sampled, int64_t step) {
  const int64_t cols = t->ne[0];
  std::vector<float> out(static_cast<size_t>(sampled * cols));
  const auto* traits = ggml_get_type_traits(t->type);
  for (int64_t r = 0; r < sampled; ++r) {
    const char* row = static_cast<const char*>(t->data) + r * step * t->nb[1];
    float* dst = out.data() + r * cols;
    if (t->type == GGML_TYPE_F32) {
      std::memcpy(dst, row, static_cast<size_t>(cols) * sizeof(float));
    } else {
      traits->to_float(row, dst, cols);
    }
  }
  return out;
}

TensorCost measure_tensor(const ggml_tensor* t, const std::vector<ggml_type>& types,
                          const std::vector<std::string>& type_names, const std::vector<float>* importance,
                          int max_rows) {
  TensorCost cost;
  cost.name = t->name;
  cost.cols = t->ne[0];
  cost.rows = t->ne[1];
  const int64_t step = std::max<int64_t>(1, cost.rows / max_rows);
  const int64_t sampled = (cost.rows + step - 1) / step;
  const std::vector<float> rows = sample_rows(t, sampled, step);
  const float* imp = importance != nullptr ? importance->data() : nullptr;

  double energy = 0;
  for (int64_t r = 0; r < sampled; ++r) {
    for (int64_t j = 0; j < cost.cols; ++j) {
      const double w = rows[static_cast<size_t>(r * cost.cols + j)];
      energy += (imp ? imp[j] : 1.0) * w * w;
    }
  }
  std::vector<char> packed;
  std::vector<float> restored(static_cast<size_t>(cost.cols));
  for (size_t k = 0; k < types.size(); ++k) {
    const ggml_type type = types[k];
    if (cost.cols % ggml_blck_size(type) != 0) continue;  // this shape does not allow the type
    const size_t row_size = ggml_row_size(type, cost.cols);
    packed.resize(row_size * static_cast<size_t>(sampled));
    ggml_quantize_chunk(type, rows.data(), packed.data(), 0, sampled, cost.cols, imp);
    double error = 0;
    for (int64_t r = 0; r < sampled; ++r) {
      ggml_get_type_traits(type)->to_float(packed.data() + static_cast<size_t>(r) * row_size, restored.data(),
                                           cost.cols);
      const float* original = rows.data() + r * cost.cols;
      for (int64_t j = 0; j < cost.cols; ++j) {
        const double d = double(original[j]) - restored[static_cast<size_t>(j)];
        error += (imp ? imp[j] : 1.0) * d * d;
      }
    }
    cost.options.push_back({type_names[k], static_cast<int64_t>(row_size) * cost.rows,
                            energy > 0 ? error / energy : 0.0});
  }
  std::sort(cost.options.begin(), cost.options.end(),
            [](const TypeCost& a, const TypeCost& b) { return a.bytes < b.bytes; });
  return cost;
}

// "61.2 MiB (64172851 bytes)"
std::string mib_text(int64_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f MiB (%lld bytes)", double(bytes) / (1024.0 * 1024.0),
                static_cast<long long>(bytes));
  return buf;
}

}  // namespace

StatusOr<CheckpointCosts> measure_tensor_costs(const std::string& checkpoint, const ImportanceMatrix* importance,
                                               const CostParams& params) {
  if (Status s = check_gguf_file(checkpoint, "checkpoint", ""); !s.is_ok()) return s;
  std::vector<ggml_type> types;
  for (const std::string& name : params.types) {
    auto t = storage_type_by_name(name);
    if (!t || !ggml_get_type_traits(*t)->is_quantized) return invalid_argument("unknown quantization type for the budget search: " + name);
    types.push_back(*t);
  }
  init_llama_backend_once();
  GgufFile file;
  file.gguf = gguf_init_from_file(checkpoint.c_str(), gguf_init_params{/*no_alloc=*/false, &file.data});
  if (file.gguf == nullptr || file.data == nullptr) {
    return invalid_argument("checkpoint " + checkpoint + " is not a readable GGUF file (truncated or corrupt?)");
  }
  std::vector<const ggml_tensor*> matrices;
  int64_t matrix_bytes = 0;
  for (ggml_tensor* t = ggml_get_first_tensor(file.data); t != nullptr; t = ggml_get_next_tensor(file.data, t)) {
    if (!is_weight_matrix(t)) continue;
    if (t->type != GGML_TYPE_F32 && ggml_get_type_traits(t->type)->to_float == nullptr) continue;
    matrices.push_back(t);
    matrix_bytes += static_cast<int64_t>(ggml_nbytes(t));
  }
  if (matrices.empty()) return invalid_argument("checkpoint " + checkpoint + " has no weight matrices to quantize");

  CheckpointCosts costs;
  costs.tensors.resize(matrices.size());
  std::atomic<size_t> next{0};
  std::atomic<int> done{0};
  std::mutex progress_mu;
  auto work = [&] {
    for (size_t i = next++; i < matrices.size(); i = next++) {
      const std::vector<float>* imp = nullptr;
      if (importance != nullptr) {
        auto it = importance->columns.find(matrices[i]->name);
        if (it != importance->columns.end() && static_cast<int64_t>(it->second.size()) == matrices[i]->ne[0]) {
          imp = &it->second;
        }
      }
      costs.tensors[i] = measure_tensor(matrices[i], types, params.types, imp, std::max(1, params.max_rows));
      const int finished = ++done;
      if (params.on_progress) {
        std::lock_guard lock(progress_mu);
        params.on_progress(finished, static_cast<int>(matrices.size()));
      }
    }
  };
  std::vector<std::thread> workers;
  const int threads = std::min<int>(resolve_threads(params.threads), static_cast<int>(matrices.size()));
  for (int i = 1; i < threads; ++i) workers.emplace_back(work);
  work();
  for (auto& w : workers) w.join();

  std::error_code ec;
  const auto file_bytes = static_cast<int64_t>(std::filesystem::file_size(checkpoint, ec));
  costs.fixed_bytes = std::max<int64_t>(0, file_bytes - matrix_bytes);
  for (const TensorCost& t : costs.tensors) {
    if (t.options.empty()) {
      return invalid_argument("tensor " + t.name + " (" + std::to_string(t.cols) +
                              " columns) allows none of the budget search's types");
    }
  }
  return costs;
}

int64_t minimum_bytes(const CheckpointCosts& costs) {
  int64_t bytes = costs.fixed_bytes;
  for (const TensorCost& t : costs.tensors) bytes += t.options.front().bytes;
  return bytes;
}

StatusOr<BudgetAllocation> allocate_budget(const CheckpointCosts& costs, int64_t budget_bytes) {
  const int64_t floor = minimum_bytes(costs);
  if (budget_bytes < floor) {
    return invalid_argument("no recipe meets a budget of " + mib_text(budget_bytes) +
                            ": the smallest mixture of the candidate types is " + mib_text(floor));
  }
  std::vector<size_t> choice(costs.tensors.size(), 0);
  BudgetAllocation result;
  result.bytes = floor;
  for (const TensorCost& t : costs.tensors) result.error += t.options.front().error;

  for (;;) {
    size_t best_tensor = costs.tensors.size();
    size_t best_option = 0;
    double best_gain = 0;
    for (size_t i = 0; i < costs.tensors.size(); ++i) {
      const auto& options = costs.tensors[i].options;
      const TypeCost& now = options[choice[i]];
      for (size_t k = choice[i] + 1; k < options.size(); ++k) {
        const int64_t added = options[k].bytes - now.bytes;
        const double removed = now.error - options[k].error;
        if (added <= 0 || removed <= 0 || result.bytes + added > budget_bytes) continue;
        const double gain = removed / double(added);
        if (gain > best_gain) {
          best_gain = gain;
          best_tensor = i;
          best_option = k;
        }
      }
    }
    if (best_tensor == costs.tensors.size()) break;
    const TensorCost& t = costs.tensors[best_tensor];
    const TypeCost& from = t.options[choice[best_tensor]];
    const TypeCost& to = t.options[best_option];
    result.bytes += to.bytes - from.bytes;
    result.error -= from.error - to.error;
    result.path.push_back({t.name, from.type, to.type, result.bytes, result.error});
    choice[best_tensor] = best_option;
  }

  char name[64];
  std::snprintf(name, sizeof name, "budget-%.1fMiB", double(budget_bytes) / (1024.0 * 1024.0));
  result.recipe.name = name;
  result.recipe.ftype = "q8_0";  // every matrix is pinned below; the base only names the file type
  for (size_t i = 0; i < costs.tensors.size(); ++i) {
    result.recipe.tensor_types[costs.tensors[i].name] = costs.tensors[i].options[choice[i]].type;
  }
  return result;
}

}  // namespace tiergate
