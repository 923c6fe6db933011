#include "test_models.h"

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "tiergate/engines/local/test_model.h"

namespace tiergate::testing {

namespace fs = std::filesystem;

namespace {

// The directories make_temp_dir made, removed when the process exits.
class TempDirs {
 public:
  TempDirs() = default;
  TempDirs(const TempDirs&) = delete;
  TempDirs& operator=(const TempDirs&) = delete;
  ~TempDirs() {
    for (const std::string& dir : dirs_) {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  }
  void add(std::string dir) {
    std::lock_guard<std::mutex> lock(mu_);
    dirs_.push_back(std::move(dir));
  }

 private:
  std::mutex mu_;
  std::vector<std::string> dirs_;
};

TempDirs& temp_dirs() {
  static TempDirs dirs;
  return dirs;
}

}  // namespace

std::string make_temp_dir(const std::string& prefix) {
  std::string tmpl = (fs::temp_directory_path() / (prefix + "XXXXXX")).string();
  if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  temp_dirs().add(tmpl);
  return tmpl;
}

namespace {

std::string write_model(const std::string& name, int layers, int embd, uint64_t seed, float norm_spread = 0) {
  static std::string dir = make_temp_dir("tiergate-models-");
  TestModelParams p = test_model_default_params();
  p.out_path = dir + "/" + name;
  p.vocab_path = std::string(TIERGATE_LLAMA_SOURCE_DIR) + "/models/ggml-vocab-llama-spm.gguf";
  p.layers = layers;
  p.embd = embd;
  p.heads = 4;
  p.context = 4096;
  p.seed = seed;
  p.norm_spread = norm_spread;
  Status s = write_test_model(p);
  if (!s.is_ok()) throw std::runtime_error("cannot write synthetic model: " + s.message());
  return p.out_path;
}

}  // namespace

const std::string& synthetic_model() {
  static std::once_flag once;
  static std::string path;
  std::call_once(once, [] { path = write_model("edge.gguf", 2, 128, 7); });
  return path;
}

const std::string& synthetic_upstream_model() {
  static std::once_flag once;
  static std::string path;
  std::call_once(once, [] { path = write_model("cloud.gguf", 2, 256, 11); });
  return path;
}

const std::string& synthetic_checkpoint() {
  static std::once_flag once;
  static std::string path;
  std::call_once(once, [] { path = write_model("checkpoint.gguf", 2, 256, 23, 2.0f); });
  return path;
}

std::string stories_model() {
  fs::path p = fs::path(TIERGATE_SOURCE_DIR) / ".." / "shared" / "models" / "stories260K.gguf";
  std::error_code ec;
  return fs::exists(p, ec) ? fs::weakly_canonical(p).string() : std::string();
}

}  // namespace tiergate::testing
