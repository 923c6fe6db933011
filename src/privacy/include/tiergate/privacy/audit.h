// The egress audit (issue 4): one entry per request body that left the
// device for a cloud upstream — metadata only, never content — in a chained
// JSON Lines log, so that `tiergate audit verify` can show that no entry was
// edited, removed or reordered since it was written.
//
// Each line is a JSON object:
//   {"seq": 1, "time_ms": ..., "request_id": "...", "upstream": "...",
//    "action": "allow" | "redact", "types": {"EMAIL_ADDRESS": 1},
//    "classes": {"pii": 1}, "sent_sha256": "<hex of the exact body bytes sent>",
//    "prev": "<sha256 hex of the previous line, or 64 zeros>"}
// The chain: `prev` is the SHA-256 of the previous line's bytes (without
// its newline); `seq` counts from 1.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "tiergate/config/config.h"
#include "tiergate/core/status.h"

namespace tiergate {

// Lower-case hex SHA-256 of `bytes`.
std::string sha256_hex(std::string_view bytes);

struct EgressRecord {
  int64_t time_ms = 0;  // Unix time
  std::string request_id;
  std::string upstream;
  PrivacyAction action = PrivacyAction::kAllow;  // what left: as found, or redacted
  std::map<std::string, int> types;              // data type -> values found in the request
  std::map<std::string, int> classes;            // sensitivity class -> values found
  std::string sent_sha256;                       // of the exact request body sent
};

// Builds the chained lines. Not thread-safe: the writer serialises appends.
class AuditChain {
 public:
  AuditChain() = default;
  // Continues a log whose last line is `last_line` (seq and hash taken from it).
  static StatusOr<AuditChain> resume(std::string_view last_line);

  // The next line (no newline) for `record`.
  std::string append(const EgressRecord& record);
  uint64_t entries() const { return seq_; }

 private:
  uint64_t seq_ = 0;
  std::string last_hash_ = std::string(64, '0');
};

struct AuditSummary {
  uint64_t entries = 0;
  std::map<std::string, uint64_t> by_upstream;
  std::map<std::string, uint64_t> by_action;
};

// Checks every line of a log: well-formed, seq consecutive from 1, each
// `prev` the hash of the line before. kInvalidArgument naming the source and
// line of the first break.
StatusOr<AuditSummary> verify_audit_log(std::string_view content, std::string_view source);

}  // namespace tiergate
