#include "handoff.h"

#include <algorithm>
#include <cstdint>
#include <functional>

namespace tiergate {
namespace {

constexpr char kSummaryInstruction[] =
    "Summarise the conversation below for another assistant who will continue it. In a few sentences, keep the "
    "facts, decisions and open questions; write nothing else.";
constexpr char kSummaryPreface[] = "Summary of the conversation so far (written by the on-device model): ";

bool is_history_role(Role r) { return r == Role::kUser || r == Role::kAssistant || r == Role::kTool; }

// Collects the edge's summary; passes on whether the client left.
class SummarySink final : public TokenSink {
 public:
  explicit SummarySink(TokenSink& client) : client_(client) {}
  bool on_delta(const Delta& d) override {
    text += d.text;
    return !client_.cancelled();
  }
  bool cancelled() override { return client_.cancelled(); }
  std::string text;

 private:
  TokenSink& client_;
};

std::optional<std::string> summarise(Engine& edge, const ChatRequest& request, const std::vector<size_t>& history,
                                     int max_tokens, TokenSink& client) {
  std::string transcript;
  for (size_t i : history) {
    transcript += std::string(role_name(request.messages[i].role)) + ": " + request.messages[i].content + "\n";
  }
  ChatRequest ask;
  ask.model = "edge";
  ask.messages = {{Role::kSystem, kSummaryInstruction}, {Role::kUser, transcript}};
  ask.sampling.max_tokens = max_tokens;
  ask.sampling.temperature = 0.0;
  SummarySink sink(client);
  StatusOr<Completion> done = edge.generate(ask, "", sink);
  if (!done.is_ok() || done->text.empty()) return std::nullopt;
  return done->text;
}

}  // namespace

HandedOff hand_off(const HandoffConfig& config, const ChatRequest& request, const PrivacyScan* scan, Engine* edge,
                   ConversationStore& conversations, const MessageScan& scan_summary, TokenSink& client,
                   SteadyTime now) {
  HandedOff out;
  out.request = request;
  size_t latest = request.messages.size();
  for (size_t i = request.messages.size(); i-- > 0;) {
    if (request.messages[i].role == Role::kUser) {
      latest = i;
      break;
    }
  }
  std::vector<size_t> history;
  for (size_t i = 0; i < latest && i < request.messages.size(); ++i) {
    if (is_history_role(request.messages[i].role)) history.push_back(i);
  }
  if (history.empty()) return out;

  HistoryHandoff mode = config.history;
  if (mode == HistoryHandoff::kAuto) {
    const bool found = scan != nullptr && (!scan->failure.empty() ||
                                           std::any_of(scan->findings.begin(), scan->findings.end(), [&](const Finding& f) {
                                             return std::find(history.begin(), history.end(), f.message) != history.end();
                                           }));
    mode = found ? HistoryHandoff::kSummary : HistoryHandoff::kRaw;
  }
  switch (mode) {
    case HistoryHandoff::kAuto:
    case HistoryHandoff::kRaw:
      out.mode = "raw";
      return out;
    case HistoryHandoff::kRedacted:
      out.mode = "redacted";
      out.redact_all_in = history;
      return out;
    case HistoryHandoff::kSummary:
      break;
  }

  std::string key;
  for (size_t i : history) key += std::string(role_name(request.messages[i].role)) + '\x1f' + request.messages[i].content + '\x1e';
  const uint64_t history_hash = std::hash<std::string>{}(key);
  std::optional<std::string> summary = conversations.summary(request.conversation, history_hash, now);
  if (!summary && edge != nullptr) {
    summary = summarise(*edge, request, history, config.summary_max_tokens, client);
    if (summary) conversations.set_summary(request.conversation, history_hash, *summary, now);
  }
  if (!summary) {
    // No summary to be had: the strict alternative, never the raw history.
    out.mode = "redacted";
    out.redact_all_in = history;
    return out;
  }
  // The messages sent: the summary in the history's place (history is not
  // empty), the others as they were, request message i as sent_at[i].
  constexpr size_t kNotSent = SIZE_MAX;
  std::vector<ChatMessage> messages;
  std::vector<size_t> sent_at(request.messages.size(), kNotSent);
  size_t summary_at = kNotSent;
  for (size_t i = 0; i < request.messages.size(); ++i) {
    const bool in_history = std::find(history.begin(), history.end(), i) != history.end();
    if (in_history) {
      if (summary_at == kNotSent) {
        summary_at = messages.size();
        messages.push_back({Role::kSystem, kSummaryPreface + *summary});
      }
      continue;
    }
    sent_at[i] = messages.size();
    messages.push_back(request.messages[i]);
  }
  out.request.messages = std::move(messages);
  out.mode = "summary";
  if (scan != nullptr) {
    // Only the summary is new text: the other messages are the request's
    // own, whose findings move with them to their new places (in message
    // order, as a scan of the messages lists them).
    PrivacyScan rescanned;
    for (const Finding& f : scan->findings) {
      if (f.message < sent_at.size() && sent_at[f.message] != kNotSent) {
        rescanned.findings.push_back({f.type, sent_at[f.message], f.begin, f.end});
      }
    }
    PrivacyScan of_summary = scan_messages({out.request.messages[summary_at]}, scan_summary);
    for (Finding f : of_summary.findings) {
      f.message = summary_at;
      rescanned.findings.push_back(std::move(f));
    }
    std::stable_sort(rescanned.findings.begin(), rescanned.findings.end(),
                     [](const Finding& a, const Finding& b) { return a.message < b.message; });
    rescanned.field_findings = scan->field_findings;  // the user field and stop sequences go as they were
    rescanned.floor = scan->floor;
    // A failed scan of the summary fails the request's, as any scan does.
    rescanned.failure = !scan->failure.empty()        ? scan->failure
                        : !of_summary.failure.empty() ? "the summary's scan: " + of_summary.failure
                                                      : std::string();
    out.scan = std::move(rescanned);
  }
  return out;
}

}  // namespace tiergate
