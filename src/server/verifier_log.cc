#include "tiergate/server/verifier_log.h"

#include <nlohmann/json.hpp>

namespace tiergate {

StatusOr<std::unique_ptr<VerifierLog>> VerifierLog::open(const std::string& path) {
  std::unique_ptr<VerifierLog> log(new VerifierLog(path));
  log->out_.open(path, std::ios::app);
  if (!log->out_) {
    return failed_precondition(path + ": cannot open the verifier log for appending (speculative.log)");
  }
  return log;
}

Status VerifierLog::record(int64_t time_ms, const std::string& request_id, const std::string& answered_by,
                           const SpeculativeOutcome& outcome) {
  nlohmann::json row = {{"time_ms", time_ms},
                        {"request_id", request_id},
                        {"verdict", outcome.accepted ? "accepted" : "escalated"},
                        {"confidence", outcome.confidence},
                        {"threshold", outcome.threshold},
                        {"answered_by", answered_by},
                        {"features", nlohmann::json::parse(draft_features_json(outcome.features))}};
  const std::string line = row.dump() + "\n";
  std::lock_guard lock(mutex_);
  out_ << line;
  out_.flush();
  if (!out_) return failed_precondition(path_ + ": writing the verifier log failed");
  return Status::ok();
}

}  // namespace tiergate
