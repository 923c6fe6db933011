// ggml tensor types by the names recipes use: ggml's own, lower-cased
// ("q4_k", "q8_0", "f16"). Internal to engines/local.
#pragma once

#include <optional>
#include <string_view>

#include "ggml.h"

namespace tiergate {

// A type a tensor may be stored as: F32, F16, BF16 or any quantized type.
// nullopt for anything else, or an unknown name.
std::optional<ggml_type> storage_type_by_name(std::string_view name);

}  // namespace tiergate
