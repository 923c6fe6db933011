// The gateway's egress audit log (docs/privacy.md): every request body that
// leaves the device for a cloud upstream gets a chained entry (privacy/audit.h),
// appended to the configured file and kept in memory (the most recent ones)
// for GET /admin/audit. Metadata only: never prompt or answer content.
#pragma once

#include <cstdint>
#include <deque>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "tiergate/core/status.h"
#include "tiergate/privacy/audit.h"

namespace tiergate {

class EgressAudit {
 public:
  // `path` empty: memory only. An existing file is continued (its chain is
  // resumed from its last line). kFailedPrecondition when the file cannot
  // be opened for appending or its last line is not an entry.
  static StatusOr<std::unique_ptr<EgressAudit>> open(const std::string& path, size_t keep_in_memory = 1000);

  // Thread-safe. Appends and flushes the entry; Status when the file write
  // failed (the entry is still kept in memory).
  Status record(const EgressRecord& record);

  // The most recent entries, oldest first, at most `limit`.
  std::vector<std::string> recent(size_t limit) const;
  uint64_t entries() const;
  const std::string& path() const { return path_; }

 private:
  EgressAudit(std::string path, size_t keep) : path_(std::move(path)), keep_(keep) {}

  const std::string path_;
  const size_t keep_;
  mutable std::mutex mu_;
  AuditChain chain_;
  std::ofstream file_;
  std::deque<std::string> recent_;
};

}  // namespace tiergate
