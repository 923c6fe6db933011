// Cross-tier context handoff (docs/dispatch.md): what a cloud upstream
// receives of a conversation's earlier turns when the conversation was being
// served on the edge. The latest user turn, system and developer messages
// and anything after the latest user turn are sent as they are, subject to
// the privacy policy like every request; only the earlier user, assistant
// and tool turns (the history) change:
//   raw       as they are;
//   redacted  every value the scan found in them replaced by a placeholder
//             (prepare_egress's redact_all_in), whatever their class allows;
//   summary   replaced by one system message holding a summary the edge
//             model writes of them, which is scanned like any outgoing
//             text (the other messages keep the request's findings).
//             Cached per conversation and history. When the
//             edge cannot write one, the history is sent redacted instead.
//   auto      summary when the scan found anything in the history (or did
//             not complete), else raw.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tiergate/config/config.h"
#include "tiergate/dispatch/conversation_store.h"
#include "tiergate/engines/engine.h"
#include "tiergate/privacy/egress.h"

namespace tiergate {

struct HandedOff {
  ChatRequest request;                // what to send (before the privacy policy)
  std::optional<PrivacyScan> scan;    // a new scan when the messages changed (summary)
  std::vector<size_t> redact_all_in;  // messages whose every value is redacted
  std::string mode;                   // "raw", "redacted" or "summary"; "" = no earlier turns to hand off
};

// `scan` is the request's scan (null without a privacy policy); `edge` may
// be null; `scan_summary` scans a summary (a scan of it that fails fails
// HandedOff::scan); `client` tells whether the client left while the edge
// summarises.
HandedOff hand_off(const HandoffConfig& config, const ChatRequest& request, const PrivacyScan* scan, Engine* edge,
                   ConversationStore& conversations, const MessageScan& scan_summary, TokenSink& client,
                   SteadyTime now);

}  // namespace tiergate
