#include "tiergate/privacy/audit.h"

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include <array>
#include <nlohmann/json.hpp>

namespace tiergate {
namespace {

using nlohmann::json;

constexpr std::string_view kHex = "0123456789abcdef";

bool is_sha256_hex(const json& v) {
  if (!v.is_string()) return false;
  const std::string& s = v.get_ref<const std::string&>();
  return s.size() == 64 && s.find_first_not_of(kHex) == std::string::npos;
}

}  // namespace

std::string sha256_hex(std::string_view bytes) {
  std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), digest.data());
  // SHA256() leaves state in this thread (its error queue) that OpenSSL frees
  // only when the thread ends, and the gateway's connection threads end after
  // the server has seen them done: free it now, so that none of it outlives
  // the request (LeakSanitizer found it pending at exit).
  OPENSSL_thread_stop();
  std::string out;
  out.reserve(2 * digest.size());
  for (unsigned char b : digest) {
    out += kHex[b >> 4];
    out += kHex[b & 0xf];
  }
  return out;
}

StatusOr<AuditChain> AuditChain::resume(std::string_view last_line) {
  AuditChain chain;
  if (last_line.empty()) return chain;
  const json j = json::parse(last_line, nullptr, false);
  if (!j.is_object() || !j.contains("seq") || !j["seq"].is_number_unsigned()) {
    return invalid_argument("the audit log's last line is not an entry; run `tiergate audit verify` on it");
  }
  chain.seq_ = j["seq"].get<uint64_t>();
  chain.last_hash_ = sha256_hex(last_line);
  return chain;
}

std::string AuditChain::append(const EgressRecord& r) {
  // nlohmann's object keys are sorted, so a line's bytes depend only on its values.
  const json entry = {{"seq", ++seq_},
                      {"time_ms", r.time_ms},
                      {"request_id", r.request_id},
                      {"upstream", r.upstream},
                      {"action", privacy_action_name(r.action)},
                      {"types", r.types},
                      {"classes", r.classes},
                      {"sent_sha256", r.sent_sha256},
                      {"prev", last_hash_}};
  std::string line = entry.dump();
  last_hash_ = sha256_hex(line);
  return line;
}

StatusOr<AuditSummary> verify_audit_log(std::string_view content, std::string_view source) {
  AuditSummary summary;
  std::string expected_prev(64, '0');
  size_t line_no = 0;
  for (size_t at = 0; at < content.size();) {
    size_t end = content.find('\n', at);
    if (end == std::string_view::npos) end = content.size();
    const std::string_view line = content.substr(at, end - at);
    at = end + 1;
    ++line_no;
    auto fail = [&](const std::string& what) {
      return invalid_argument(std::string(source) + ":" + std::to_string(line_no) + ": " + what);
    };
    if (line.empty()) return fail("empty line (entries are never blank)");
    const json j = json::parse(line, nullptr, false);
    if (!j.is_object()) return fail("not a JSON object");
    for (const char* key : {"seq", "time_ms", "request_id", "upstream", "action", "types", "classes", "sent_sha256", "prev"}) {
      if (!j.contains(key)) return fail(std::string("entry without \"") + key + "\"");
    }
    if (!j["seq"].is_number_unsigned() || j["seq"].get<uint64_t>() != summary.entries + 1) {
      return fail("seq " + j["seq"].dump() + " where " + std::to_string(summary.entries + 1) +
                  " was due: an entry was removed, inserted or reordered");
    }
    if (!is_sha256_hex(j["prev"]) || j["prev"].get<std::string>() != expected_prev) {
      return fail("prev does not match the hash of the line before: an earlier entry was changed");
    }
    if (!is_sha256_hex(j["sent_sha256"])) return fail("sent_sha256 is not a SHA-256 hex digest");
    if (!j["upstream"].is_string() || !j["action"].is_string() || !j["types"].is_object() || !j["classes"].is_object()) {
      return fail("an entry field has the wrong type");
    }
    const auto action = parse_privacy_action(j["action"].get<std::string>());
    if (!action || *action == PrivacyAction::kLocalOnly) return fail("action must be allow or redact");
    expected_prev = sha256_hex(line);
    ++summary.entries;
    ++summary.by_upstream[j["upstream"].get<std::string>()];
    ++summary.by_action[j["action"].get<std::string>()];
  }
  return summary;
}

}  // namespace tiergate
