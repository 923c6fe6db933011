// A request on its way out: what the scan found, and the request as it may
// be sent to one upstream under the policy (as it is, redacted, or not at
// all). Dispatch calls prepare_egress before every hop to a cloud upstream —
// the first try, a retry on another upstream, a fallback — so no hop skips
// the check.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tiergate/core/chat.h"
#include "tiergate/privacy/pii_tagger.h"
#include "tiergate/privacy/policy.h"
#include "tiergate/privacy/redaction.h"
#include "tiergate/privacy/scan_cache.h"
#include "tiergate/privacy/scan_stop.h"

namespace tiergate {

// One detected value: bytes [begin, end) of messages[message].content.
struct Finding {
  std::string type;  // data type, e.g. PERSON
  size_t message = 0;
  size_t begin = 0;
  size_t end = 0;
};

// The texts of a request besides its messages that go out with it, in this
// order: the `user` field (an end-user's id, often an e-mail address) and
// the stop sequences. PrivacyScan::field_findings index this list.
std::vector<std::string_view> request_fields(const ChatRequest& request);

// What scanning a request found, before any routing decision.
struct PrivacyScan {
  std::vector<Finding> findings;
  // Non-empty when the scan did not complete (a detector error, a timeout):
  // then nothing of the request may leave (fail closed).
  std::string failure;
  // Whether a ScanStop cut the scan short (the failure of a time limit).
  bool stopped = false;
  // The request's own restriction (the x-tiergate-privacy header): every
  // class at least this strict (PrivacyPolicy::restricted), never looser;
  // local_only keeps the whole request on the device, found data or not.
  PrivacyAction floor = PrivacyAction::kAllow;
  // Messages whose spans came from a ScanCache (seen in an earlier request).
  size_t cached_messages = 0;
  // In request_fields() (Finding::message is the field's index there):
  // the policy applies to them as to the messages.
  std::vector<Finding> field_findings;

  // The distinct types found (messages first, then fields), in order of
  // first appearance.
  std::vector<std::string> types() const;
  // Values found per type, in the messages and the fields.
  std::map<std::string, int> counts() const;
};

struct Egress {
  EgressDecision decision;  // kLocalOnly: nothing may be sent; `request` is empty
  ChatRequest request;      // what may be sent: redacted under kRedact
  // Set under kRedact: restores the answer (redaction.h).
  std::shared_ptr<const RedactionMap> redactions;
};

// Scans every message (system, user, assistant and tool turns alike) with
// the structured detectors (structured_pii.h) and, when given, the tagger
// for names, addresses and the other unstructured types (pii_tagger.h).
PrivacyScan scan_messages(const std::vector<ChatMessage>& messages, const PiiTagger* tagger = nullptr);
// The same through `cache` (its tagger): a message seen before in `scope`
// (ScanCache::find_pii) is not scanned again. `stop` is asked before each
// message and while one is scanned (scan_stop.h); a scan it cuts short
// fails (`stopped`).
PrivacyScan scan_messages(const std::vector<ChatMessage>& messages, ScanCache& cache, std::string_view scope = {},
                          const ScanStop& stop = {});

// The messages as above, then request_fields(): what the gateway scans.
PrivacyScan scan_request(const ChatRequest& request, ScanCache& cache, std::string_view scope = {},
                         const ScanStop& stop = {});

// The scan of one message: appends its spans to `out`.
using MessageScan = std::function<ScanOutcome(std::string_view text, std::vector<PiiSpan>& out)>;
// Every message through `scan_one`, in order, asking `stop` before each.
// It fails closed: a message kStopped, or `stop` answering true, fails the
// scan (`stopped`), and so does a detector that throws (`failure` says
// which exception, never the content). The overloads above call this one.
PrivacyScan scan_messages(const std::vector<ChatMessage>& messages, const MessageScan& scan_one,
                          const ScanStop& stop = {});
// find_pii() with `tagger` (null: the structured detectors alone), as a
// MessageScan.
MessageScan whole_scan(const PiiTagger* tagger);

// The request as it may go to an upstream trusted at `trust` (its fields
// redacted as its messages are). Values found in
// the messages listed in `redact_all_in` are redacted even where their class
// would allow them (cross-tier handoff of a conversation's earlier turns):
// stricter only, a local_only class still keeps the request on the device.
Egress prepare_egress(const PrivacyPolicy& policy, const PrivacyScan& scan, const ChatRequest& request, TrustLevel trust,
                      const std::vector<size_t>& redact_all_in = {});

}  // namespace tiergate
