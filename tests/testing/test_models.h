// Models for tests: synthetic ones written by the project's own generator
// (always available), and the real stories260K model from ../shared when present.
#pragma once

#include <string>

namespace tiergate::testing {

// A small synthetic llama model with llama.cpp's SentencePiece test vocab,
// written once per test process into a temp dir. Parameters are fixed so
// results are deterministic.
const std::string& synthetic_model();
// A second, different synthetic model (another seed and size), e.g. for the
// cloud-side llama-server.
const std::string& synthetic_upstream_model();
// An F16 checkpoint for quantization tests: dimensions k-quants accept
// (multiples of 256) and norm weights with outlier channels (norm_spread 2).
const std::string& synthetic_checkpoint();
// ../shared/models/stories260K.gguf beside the repository, or "" when absent.
std::string stories_model();
// A fresh temporary directory, removed with its contents when the test
// process exits normally (ctest runs each test in a process of its own, so
// without this every run leaves its synthetic models behind).
std::string make_temp_dir(const std::string& prefix);

}  // namespace tiergate::testing
