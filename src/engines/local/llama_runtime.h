// What every piece of this module that runs llama.cpp shares: process-wide
// backend set-up, the checks before a file reaches llama.cpp, and the
// persistent compute thread pool. Internal to engines/local.
#pragma once

#include <string>
#include <string_view>

#include "llama.h"
#include "tiergate/core/status.h"

namespace tiergate {

// Sets llama.cpp's log filter (warnings and errors only) and initialises the
// backends, once per process. Thread-safe.
void init_llama_backend_once();

// Routes llama.cpp's log to `sink` until the returned guard is destroyed, then
// restores the filter above. One guard at a time per process: callers are
// one-shot tools (quantization), never the serving engine.
using LlamaLogSink = void (*)(ggml_log_level level, const char* text, void* user);
class ScopedLlamaLog {
 public:
  ScopedLlamaLog(LlamaLogSink sink, void* user);
  ~ScopedLlamaLog();
  ScopedLlamaLog(const ScopedLlamaLog&) = delete;
  ScopedLlamaLog& operator=(const ScopedLlamaLog&) = delete;
};

// Checks that `path` exists and starts with the GGUF magic, for errors that
// say what to fix. `what` names the file in messages ("edge model file",
// "checkpoint"); `hint` is appended to the not-found message.
// Errors: kNotFound (missing), kInvalidArgument (unreadable, empty, not GGUF).
Status check_gguf_file(const std::string& path, std::string_view what, std::string_view hint);

// `requested` when positive, else the hardware's thread count (at least 1).
int resolve_threads(int requested);

// One persistent pool of compute threads attached to a context, as llama-server
// and llama-bench use: without it ggml starts and joins threads for every
// llama_decode call, which costs most per generated token. When the CPU
// backend does not export the pool functions, decoding works as before, on
// per-call threads. Free the context before the pool.
class CpuThreadpool {
 public:
  CpuThreadpool() = default;
  ~CpuThreadpool();
  CpuThreadpool(const CpuThreadpool&) = delete;
  CpuThreadpool& operator=(const CpuThreadpool&) = delete;

  void attach(llama_context* ctx, int threads);
  void release();

 private:
  ggml_threadpool* pool_ = nullptr;
  void (*free_pool_)(ggml_threadpool*) = nullptr;
};

}  // namespace tiergate
