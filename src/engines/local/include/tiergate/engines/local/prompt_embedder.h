// The edge model's embedding of a request, for the router's optional
// embedding features (signals/complexity.h): the mean over the request's
// tokens of the model's last hidden layer (llama.cpp's mean pooling), scaled
// to unit length. One context, one request at a time: not thread-safe.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tiergate/core/status.h"

namespace tiergate {

struct PromptEmbedderParams {
  // The request's first max_tokens tokens are read (the rest costs nothing):
  // the opening of a request states its task.
  int max_tokens = 256;
  int threads = 1;  // the router's budget is one core
};

class PromptEmbedder {
 public:
  // Errors: those of a GGUF file check (kNotFound, kInvalidArgument) and
  // kInvalidArgument when llama.cpp cannot load the file; kResourceExhausted
  // when the context cannot be created.
  static StatusOr<std::unique_ptr<PromptEmbedder>> open(const std::string& path, const PromptEmbedderParams& params);
  ~PromptEmbedder();
  PromptEmbedder(const PromptEmbedder&) = delete;
  PromptEmbedder& operator=(const PromptEmbedder&) = delete;

  int dimension() const;
  // Names the model so that an artifact trained on one edge model refuses
  // another: its description (architecture, size, type), embedding width and
  // parameter count.
  const std::string& fingerprint() const;

  // Writes dimension() values into `out` (resized). An empty text embeds as
  // zeros. Errors: kInternal when llama.cpp fails to decode.
  Status embed(std::string_view text, std::vector<float>& out);

 private:
  struct State;
  explicit PromptEmbedder(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace tiergate
