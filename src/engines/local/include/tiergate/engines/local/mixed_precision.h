// Mixed precision under a size budget: one quantization type per weight
// tensor, chosen so the whole file fits the budget with the least estimated
// damage to the model's outputs on the user's queries.
//
// The estimate, per tensor and type: quantize a sample of the tensor's rows,
// dequantize them, and take the squared error weighted by the importance
// matrix (the mean squared activation of each input column on the query log),
// relative to the tensor's own weighted energy:
//
//   error(W, type) = sum_ij imp_j (W_ij - Q(W)_ij)^2 / sum_ij imp_j W_ij^2
//
// i.e. the share of each matrix product's output that quantization turns into
// noise on these queries. Without an importance matrix imp_j = 1. The search
// then spends bytes greedily where they remove the most error per byte.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tiergate/core/status.h"
#include "tiergate/engines/local/importance.h"
#include "tiergate/engines/local/quantization.h"

namespace tiergate {

struct TypeCost {
  std::string type;   // ggml type name, lower case
  int64_t bytes = 0;  // of the whole tensor at this type
  double error = 0;   // as defined above
};

struct TensorCost {
  std::string name;
  int64_t rows = 0;
  int64_t cols = 0;
  std::vector<TypeCost> options;  // the types this tensor's shape allows, by bytes ascending
};

struct CheckpointCosts {
  std::vector<TensorCost> tensors;  // the 2-D weight matrices
  int64_t fixed_bytes = 0;          // everything else in the file: metadata, norms
};

struct CostParams {
  std::vector<std::string> types = {"q2_k", "q3_k", "q4_k", "q5_k", "q6_k", "q8_0"};
  int max_rows = 256;  // rows sampled per tensor (evenly spaced)
  int threads = 0;     // 0 = all hardware threads
  std::function<void(int tensors_done, int tensors_total)> on_progress;  // may be empty
};

// Errors: kNotFound / kInvalidArgument for a missing or unreadable checkpoint
// or an unknown type name.
StatusOr<CheckpointCosts> measure_tensor_costs(const std::string& checkpoint, const ImportanceMatrix* importance,
                                               const CostParams& params);

struct SearchStep {
  std::string tensor;
  std::string from;
  std::string to;
  int64_t bytes = 0;  // file size after the step
  double error = 0;   // summed error after the step
};

struct BudgetAllocation {
  QuantizationRecipe recipe;  // one type per tensor, named "budget-61.2MiB"
  int64_t bytes = 0;   // estimated file size
  double error = 0;    // summed estimated error
  std::vector<SearchStep> path;  // from all-smallest up to the budget
};

// The smallest file the candidate types allow.
int64_t minimum_bytes(const CheckpointCosts& costs);

// Greedy: every tensor starts at its smallest type; then, while the budget
// allows, the upgrade (to any larger type of one tensor) that removes the most
// error per added byte is taken. Pure and deterministic (ties: lower tensor
// index, then the smaller type). Errors: kInvalidArgument when the budget is
// below minimum_bytes (the message gives that size).
StatusOr<BudgetAllocation> allocate_budget(const CheckpointCosts& costs, int64_t budget_bytes);

}  // namespace tiergate
