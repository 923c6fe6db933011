#include "edge_embeddings.h"

#include <chrono>
#include <iostream>
#include <memory>
#include <mutex>
#include <utility>

#include "tiergate/engines/local/prompt_embedder.h"
#include "tiergate/signals/intent.h"

namespace tiergate {
namespace {

// The embedder of `edge_model`; with `required_fingerprint`, one of another
// model is refused (kFailedPrecondition), naming both.
StatusOr<std::unique_ptr<PromptEmbedder>> open_embedder(const std::string& edge_model,
                                                        const std::string& required_fingerprint) {
  auto embedder = PromptEmbedder::open(edge_model, PromptEmbedderParams{});
  if (!embedder.is_ok()) return embedder.status();
  if (!required_fingerprint.empty() && (*embedder)->fingerprint() != required_fingerprint) {
    return failed_precondition("the router was trained on the embeddings of another edge model (" +
                               required_fingerprint + "), not " + edge_model + " (" + (*embedder)->fingerprint() +
                               ")");
  }
  return embedder;
}

}  // namespace

StatusOr<EdgeEmbeddings> embed_rows(const std::string& edge_model, std::vector<RoutingRow>& rows,
                                    const std::string& command, const std::string& required_fingerprint) {
  auto embedder = open_embedder(edge_model, required_fingerprint);
  if (!embedder.is_ok()) return embedder.status();
  EdgeEmbeddings result;
  result.fingerprint = (*embedder)->fingerprint();
  std::cerr << "[" << command << "] embedding " << rows.size() << " rows with the edge model (" << result.fingerprint
            << ")\n";
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < rows.size(); ++i) {
    if (Status s = (*embedder)->embed(task_text(rows[i].messages), rows[i].embedding); !s.is_ok()) {
      return Status(s.code(), "row " + rows[i].id + ": " + s.message());
    }
    if ((i + 1) % 2000 == 0 || i + 1 == rows.size()) {
      std::cerr << "[" << command << "] embedded " << (i + 1) << "/" << rows.size() << " rows\n";
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.seconds_per_request = rows.empty() ? 0.0 : seconds / static_cast<double>(rows.size());
  return result;
}

RequestEmbedder edge_request_embedder(const RouterArtifact* router, const Config& config, std::string& unused) {
  unused.clear();
  if (router == nullptr || router->complexity.embedding().empty()) return {};
  const std::string& trained_on = router->complexity.embedding().edge_model;
  if (!config.has_edge()) {
    unused = "the embedding part (" + trained_on + ") stays unused: no edge model is configured";
    return {};
  }
  auto embedder = open_embedder(config.edge.model, trained_on);
  if (!embedder.is_ok()) {
    unused = "the embedding part stays unused: " + embedder.status().message();
    return {};
  }
  auto shared = std::make_shared<std::pair<std::mutex, std::unique_ptr<PromptEmbedder>>>();
  shared->second = std::move(*embedder);
  return [shared](const std::vector<ChatMessage>& messages, std::vector<float>& out) {
    std::lock_guard<std::mutex> lock(shared->first);
    return shared->second->embed(task_text(messages), out).is_ok();
  };
}

}  // namespace tiergate
