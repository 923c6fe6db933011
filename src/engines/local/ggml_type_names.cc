#include "ggml_type_names.h"

#include <cctype>
#include <string>

namespace tiergate {

std::optional<ggml_type> storage_type_by_name(std::string_view name) {
  for (int i = 0; i < GGML_TYPE_COUNT; ++i) {
    const auto type = static_cast<ggml_type>(i);
    const char* type_name = ggml_type_name(type);
    if (type_name == nullptr || ggml_type_size(type) == 0 || ggml_blck_size(type) == 0) continue;
    std::string lower(type_name);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower != name) continue;
    const bool usable = type == GGML_TYPE_F32 || type == GGML_TYPE_F16 || type == GGML_TYPE_BF16 ||
                        ggml_get_type_traits(type)->is_quantized;
    if (usable) return type;
  }
  return std::nullopt;
}

}  // namespace tiergate
