// The verifier log (speculative.log, docs/dispatch.md): one JSONL row per
// verified edge draft, with its features, the verifier's confidence and
// verdict, and the tier that answered. Metadata only: never prompt or answer
// text. Label each row with "good": true|false (e.g. by comparing the draft
// with the cloud's answer offline) and feed the file to
// `tiergate verifier calibrate`.
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>

#include "tiergate/core/status.h"
#include "tiergate/dispatch/dispatcher.h"

namespace tiergate {

class VerifierLog {
 public:
  // Appends to `path` (created when absent). kFailedPrecondition when it
  // cannot be opened for appending.
  static StatusOr<std::unique_ptr<VerifierLog>> open(const std::string& path);

  // Thread-safe; a failed write is returned, the request goes on.
  Status record(int64_t time_ms, const std::string& request_id, const std::string& answered_by,
                const SpeculativeOutcome& outcome);

 private:
  explicit VerifierLog(std::string path) : path_(std::move(path)) {}
  const std::string path_;
  std::mutex mutex_;
  std::ofstream out_;
};

}  // namespace tiergate
