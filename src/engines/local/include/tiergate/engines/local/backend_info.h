// What the linked ggml can run on: its registered backends and devices, and
// the CPU instruction sets its CPU backend was compiled for. For the device
// profile (fleet/device_profile.h); fleet/ may not include ggml headers, so
// the facts cross the module edge as plain strings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tiergate {

// One ggml device (ggml_backend_dev_*).
struct GgmlDevice {
  std::string name;         // e.g. "CPU", "CUDA0"
  std::string description;  // e.g. the CPU or GPU model
  std::string type;         // "cpu", "gpu", "igpu", "accel" or "meta"
  uint64_t memory_free_bytes = 0;   // as the backend reports it (0 = not reported)
  uint64_t memory_total_bytes = 0;
};

struct GgmlBackendInfo {
  // Registered backend names in registry order (ggml_backend_reg_name), e.g.
  // {"CPU"} or {"CUDA", "CPU"}: the backends this build of Tiergate can use.
  std::vector<std::string> backends;
  std::vector<GgmlDevice> devices;
  // Feature names the CPU backend reports through its
  // "ggml_backend_get_features" entry point with a value other than "0"
  // (e.g. "AVX2", "FMA", "NEON", "DOTPROD"; a value other than "1" is kept
  // as "NAME=value", e.g. "SVE_CNT=32"): the instruction sets ggml was built
  // to use and its build options (e.g. "LLAMAFILE", "OPENMP"). Empty when the CPU backend does not export the entry point.
  std::vector<std::string> cpu_build_features;
};

// Reads the ggml registry. Thread-safe; cheap after the first call (ggml
// builds its registry once). Dynamically loadable backends are not loaded
// here, because the edge engine does not load them either: the list is what
// LocalEngine would run on.
GgmlBackendInfo ggml_backend_info();

}  // namespace tiergate
