#include "tiergate/engines/local/backend_info.h"

#include <cstring>

#include "ggml-backend.h"

namespace tiergate {
namespace {

std::string device_type_name(enum ggml_backend_dev_type type) {
  switch (type) {
    case GGML_BACKEND_DEVICE_TYPE_CPU: return "cpu";
    case GGML_BACKEND_DEVICE_TYPE_GPU: return "gpu";
    case GGML_BACKEND_DEVICE_TYPE_IGPU: return "igpu";
    case GGML_BACKEND_DEVICE_TYPE_ACCEL: return "accel";
    case GGML_BACKEND_DEVICE_TYPE_META: return "meta";
  }
  return "unknown";  // a type added to ggml after this code was written
}

std::string or_empty(const char* text) { return text == nullptr ? std::string() : std::string(text); }

}  // namespace

GgmlBackendInfo ggml_backend_info() {
  GgmlBackendInfo info;
  for (size_t i = 0; i < ggml_backend_reg_count(); ++i) {
    info.backends.push_back(or_empty(ggml_backend_reg_name(ggml_backend_reg_get(i))));
  }
  for (size_t i = 0; i < ggml_backend_dev_count(); ++i) {
    ggml_backend_dev_t dev = ggml_backend_dev_get(i);
    GgmlDevice device;
    device.name = or_empty(ggml_backend_dev_name(dev));
    device.description = or_empty(ggml_backend_dev_description(dev));
    device.type = device_type_name(ggml_backend_dev_type(dev));
    size_t free = 0, total = 0;
    ggml_backend_dev_memory(dev, &free, &total);
    device.memory_free_bytes = free;
    device.memory_total_bytes = total;
    info.devices.push_back(std::move(device));
  }
  ggml_backend_dev_t cpu = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
  if (cpu != nullptr) {
    ggml_backend_reg_t reg = ggml_backend_dev_backend_reg(cpu);
    auto get_features = reinterpret_cast<ggml_backend_get_features_t>(
        ggml_backend_reg_get_proc_address(reg, "ggml_backend_get_features"));
    if (get_features != nullptr) {
      for (const ggml_backend_feature* f = get_features(reg); f != nullptr && f->name != nullptr; ++f) {
        if (f->value == nullptr || std::strcmp(f->value, "0") == 0) continue;
        std::string feature = f->name;
        if (std::strcmp(f->value, "1") != 0) feature.append("=").append(f->value);
        info.cpu_build_features.push_back(std::move(feature));
      }
    }
  }
  return info;
}

}  // namespace tiergate
