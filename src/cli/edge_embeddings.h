// The edge model's embeddings of routing rows, for `router train|cv|eval
// --edge-model` (signals/complexity.h: EmbeddingPart).
#pragma once

#include <string>
#include <vector>

#include "tiergate/config/config.h"
#include "tiergate/core/status.h"
#include "tiergate/signals/dataset.h"
#include "tiergate/signals/router_artifact.h"
#include "tiergate/signals/signals.h"

namespace tiergate {

struct EdgeEmbeddings {
  std::string fingerprint;         // PromptEmbedder::fingerprint()
  double seconds_per_request = 0;  // mean time to embed one row, on one thread
};

// Sets each row's embedding to the edge model's embedding of its task turn
// (signals/intent.h task_text), reporting progress on stderr as "[command] ...".
// With `required_fingerprint`, a model of another fingerprint is refused
// before any row is embedded. Errors: those of PromptEmbedder::open and
// embed; kFailedPrecondition for another model.
StatusOr<EdgeEmbeddings> embed_rows(const std::string& edge_model, std::vector<RoutingRow>& rows,
                                    const std::string& command, const std::string& required_fingerprint = "");

// The edge model's embedding of each "auto" request (`tiergate serve`,
// `tiergate route`), when the router has an embedding part and the config's
// edge model is the one it was trained on; otherwise none, `unused` says why
// (empty when the router has no embedding part), and the part counts every
// request as an average one. One embedding at a time (one context), behind a
// mutex.
RequestEmbedder edge_request_embedder(const RouterArtifact* router, const Config& config, std::string& unused);

}  // namespace tiergate
