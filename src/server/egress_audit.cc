#include "tiergate/server/egress_audit.h"

#include <filesystem>
#include <fstream>

namespace tiergate {
namespace {

// The last non-empty line of a file ("" for an empty or absent file).
std::string last_line_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string line, last;
  while (std::getline(in, line)) {
    if (!line.empty()) last = line;
  }
  return last;
}

}  // namespace

StatusOr<std::unique_ptr<EgressAudit>> EgressAudit::open(const std::string& path, size_t keep_in_memory) {
  std::unique_ptr<EgressAudit> audit(new EgressAudit(path, keep_in_memory));
  if (path.empty()) return audit;
  StatusOr<AuditChain> chain = AuditChain::resume(last_line_of(path));
  if (!chain.is_ok()) return failed_precondition("privacy.audit_log " + path + ": " + chain.status().message());
  audit->chain_ = std::move(chain).value();
  audit->file_.open(path, std::ios::binary | std::ios::app);
  if (!audit->file_) {
    return failed_precondition("privacy.audit_log " + path +
                               ": cannot open it for appending (check that the directory exists and is writable)");
  }
  return audit;
}

Status EgressAudit::record(const EgressRecord& record) {
  std::lock_guard lock(mu_);
  std::string line = chain_.append(record);
  Status status;
  if (file_.is_open()) {
    file_ << line << '\n';
    file_.flush();
    if (!file_) status = unavailable("privacy.audit_log " + path_ + ": write failed (disk full?)");
  }
  recent_.push_back(std::move(line));
  while (recent_.size() > keep_) recent_.pop_front();
  return status;
}

std::vector<std::string> EgressAudit::recent(size_t limit) const {
  std::lock_guard lock(mu_);
  const size_t n = std::min(limit, recent_.size());
  return {recent_.end() - static_cast<std::ptrdiff_t>(n), recent_.end()};
}

uint64_t EgressAudit::entries() const {
  std::lock_guard lock(mu_);
  return chain_.entries();
}

}  // namespace tiergate
