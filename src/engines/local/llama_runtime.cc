#include "llama_runtime.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

namespace tiergate {

namespace {

// llama.cpp logs a lot at load time; keep warnings and errors only.
void llama_log_filter(ggml_log_level level, const char* text, void* /*user*/) {
  if (level == GGML_LOG_LEVEL_ERROR || level == GGML_LOG_LEVEL_WARN) std::fputs(text, stderr);
}

}  // namespace

void init_llama_backend_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    llama_log_set(llama_log_filter, nullptr);
    llama_backend_init();
  });
}

ScopedLlamaLog::ScopedLlamaLog(LlamaLogSink sink, void* user) {
  init_llama_backend_once();
  llama_log_set(sink, user);
}

ScopedLlamaLog::~ScopedLlamaLog() { llama_log_set(llama_log_filter, nullptr); }

Status check_gguf_file(const std::string& path, std::string_view what, std::string_view hint) {
  std::error_code ec;
  std::string w(what);
  if (!std::filesystem::exists(path, ec)) {
    std::string message = w + " not found: " + path;
    if (!hint.empty()) message.append(" ").append(hint);
    return not_found(std::move(message));
  }
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  if (!in.read(magic, 4)) return invalid_argument(w + " is unreadable or empty: " + path);
  if (std::string_view(magic, 4) != "GGUF") return invalid_argument(w + " is not a GGUF file (bad magic): " + path);
  return Status::ok();
}

int resolve_threads(int requested) {
  return requested > 0 ? requested : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

CpuThreadpool::~CpuThreadpool() { release(); }

void CpuThreadpool::attach(llama_context* ctx, int threads) {
  release();
  ggml_backend_dev_t cpu = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
  if (cpu == nullptr) return;
  ggml_backend_reg_t reg = ggml_backend_dev_backend_reg(cpu);
  using NewPool = ggml_threadpool* (*)(ggml_threadpool_params*);
  using FreePool = void (*)(ggml_threadpool*);
  auto new_pool = reinterpret_cast<NewPool>(ggml_backend_reg_get_proc_address(reg, "ggml_threadpool_new"));
  auto free_pool = reinterpret_cast<FreePool>(ggml_backend_reg_get_proc_address(reg, "ggml_threadpool_free"));
  if (new_pool == nullptr || free_pool == nullptr) return;
  ggml_threadpool_params tpp = ggml_threadpool_params_default(threads);
  pool_ = new_pool(&tpp);
  if (pool_ == nullptr) return;
  free_pool_ = free_pool;
  llama_attach_threadpool(ctx, pool_, pool_);
}

void CpuThreadpool::release() {
  if (pool_ != nullptr) free_pool_(pool_);
  pool_ = nullptr;
  free_pool_ = nullptr;
}

}  // namespace tiergate
