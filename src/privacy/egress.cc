#include "tiergate/privacy/egress.h"

#include <algorithm>
#include <exception>
#include <string>
#include <string_view>

namespace tiergate {

namespace {

// Field k of request_fields(request), to redact it in place: the one place
// besides request_fields() that knows their order.
std::string& request_field(ChatRequest& request, size_t k) {
  return k == 0 ? request.user : request.sampling.stop[k - 1];
}

// Whether finding `f` lies outside `texts` (a detector bug).
bool outside(const Finding& f, const std::vector<std::string_view>& texts) {
  return f.message >= texts.size() || f.begin > f.end || f.end > texts[f.message].size();
}

}  // namespace

std::vector<std::string_view> request_fields(const ChatRequest& request) {
  std::vector<std::string_view> out = {request.user};
  for (const std::string& stop : request.sampling.stop) out.push_back(stop);
  return out;
}

std::vector<std::string> PrivacyScan::types() const {
  std::vector<std::string> out;
  for (const auto* list : {&findings, &field_findings}) {
    for (const Finding& f : *list) {
      if (std::find(out.begin(), out.end(), f.type) == out.end()) out.push_back(f.type);
    }
  }
  return out;
}

std::map<std::string, int> PrivacyScan::counts() const {
  std::map<std::string, int> out;
  for (const Finding& f : findings) ++out[f.type];
  for (const Finding& f : field_findings) ++out[f.type];
  return out;
}

PrivacyScan scan_messages(const std::vector<ChatMessage>& messages, const MessageScan& scan_one,
                          const ScanStop& stop) {
  PrivacyScan scan;
  std::vector<PiiSpan> spans;
  for (size_t m = 0; m < messages.size(); ++m) {
    spans.clear();
    ScanOutcome outcome = ScanOutcome::kStopped;
    if (!(stop && stop())) {
      try {
        outcome = scan_one(messages[m].content, spans);
      } catch (const std::exception& e) {
        scan.failure = std::string("a detector failed on message ") + std::to_string(m) + ": " + e.what();
      } catch (...) {
        scan.failure = "a detector failed on message " + std::to_string(m);
      }
      if (!scan.failure.empty()) return scan;
    }
    if (outcome == ScanOutcome::kStopped) {
      scan.stopped = true;
      scan.failure = "stopped after " + std::to_string(m) + " of " + std::to_string(messages.size()) + " messages";
      return scan;
    }
    if (outcome == ScanOutcome::kCached) ++scan.cached_messages;
    for (const PiiSpan& s : spans) scan.findings.push_back({std::string(pii_type_name(s.type)), m, s.begin, s.end});
  }
  return scan;
}

MessageScan whole_scan(const PiiTagger* tagger) {
  return [tagger](std::string_view text, std::vector<PiiSpan>& spans) {
    find_pii(text, tagger, spans);
    return ScanOutcome::kScanned;
  };
}

PrivacyScan scan_messages(const std::vector<ChatMessage>& messages, const PiiTagger* tagger) {
  return scan_messages(messages, whole_scan(tagger));
}

PrivacyScan scan_messages(const std::vector<ChatMessage>& messages, ScanCache& cache, std::string_view scope,
                          const ScanStop& stop) {
  const ScanCache::Scope scoped = cache.scope(scope);
  return scan_messages(
      messages,
      [&cache, &scoped, &stop](std::string_view text, std::vector<PiiSpan>& spans) {
        return cache.scan(text, spans, scoped, stop);
      },
      stop);
}

PrivacyScan scan_request(const ChatRequest& request, ScanCache& cache, std::string_view scope,
                         const ScanStop& stop) {
  PrivacyScan scan = scan_messages(request.messages, cache, scope, stop);
  if (!scan.failure.empty()) return scan;
  std::vector<ChatMessage> fields;
  for (std::string_view field : request_fields(request)) fields.push_back({Role::kUser, std::string(field)});
  // (An empty field, as most requests' user field, holds nothing to keep.)
  const ScanCache::Scope scoped = cache.scope(scope);
  PrivacyScan of_fields = scan_messages(
      fields,
      [&](std::string_view text, std::vector<PiiSpan>& spans) {
        return text.empty() ? ScanOutcome::kScanned : cache.scan(text, spans, scoped, stop);
      },
      stop);
  if (!of_fields.failure.empty()) {
    scan.failure = "in the user field or the stop sequences: " + of_fields.failure;
    scan.stopped = of_fields.stopped;
    return scan;
  }
  scan.field_findings = std::move(of_fields.findings);
  return scan;
}

Egress prepare_egress(const PrivacyPolicy& policy, const PrivacyScan& scan, const ChatRequest& request,
                      TrustLevel trust, const std::vector<size_t>& redact_all_in) {
  Egress out;
  if (!scan.failure.empty()) {
    out.decision.action = PrivacyAction::kLocalOnly;
    out.decision.reason = "the privacy scan did not complete (" + scan.failure + "): local_only";
    return out;
  }
  if (scan.floor == PrivacyAction::kLocalOnly) {
    out.decision.action = PrivacyAction::kLocalOnly;
    out.decision.reason = "the request asked to stay on the device (x-tiergate-privacy: local_only)";
    return out;
  }
  std::vector<std::string_view> contents;
  for (const ChatMessage& m : request.messages) contents.push_back(m.content);
  const std::vector<std::string_view> fields = request_fields(request);
  const bool any_outside =
      std::any_of(scan.findings.begin(), scan.findings.end(), [&](const Finding& f) { return outside(f, contents); }) ||
      std::any_of(scan.field_findings.begin(), scan.field_findings.end(),
                  [&](const Finding& f) { return outside(f, fields); });
  if (any_outside) {
    out.decision.action = PrivacyAction::kLocalOnly;
    out.decision.reason = "a finding lies outside the request (a detector bug): local_only";
    return out;
  }
  out.decision = scan.floor == PrivacyAction::kAllow ? policy.decide(scan.types(), trust)
                                                     : policy.restricted(scan.floor).decide(scan.types(), trust);
  auto forced = [&](const Finding& f) {
    return std::find(redact_all_in.begin(), redact_all_in.end(), f.message) != redact_all_in.end();
  };
  const bool any_forced = std::any_of(scan.findings.begin(), scan.findings.end(), forced);
  switch (out.decision.action) {
    case PrivacyAction::kLocalOnly:
      return out;
    case PrivacyAction::kAllow:
      if (!any_forced) {
        out.request = request;
        return out;
      }
      out.decision.action = PrivacyAction::kRedact;
      break;
    case PrivacyAction::kRedact:
      break;
  }
  auto map = std::make_shared<RedactionMap>();
  for (const ChatMessage& m : request.messages) map->reserve(m.content);
  for (std::string_view field : fields) map->reserve(field);
  auto redacted = [&](const Finding& f) {
    return std::find(out.decision.redact_types.begin(), out.decision.redact_types.end(), f.type) !=
           out.decision.redact_types.end();
  };
  // The spans of text `index` to redact, of `found`.
  auto spans_of = [&](const std::vector<Finding>& found, size_t index, bool with_forced) {
    std::vector<RedactionSpan> spans;
    for (const Finding& f : found) {
      if (f.message == index && (redacted(f) || (with_forced && forced(f)))) spans.push_back({f.type, f.begin, f.end});
    }
    return spans;
  };
  out.request = request;
  for (size_t m = 0; m < request.messages.size(); ++m) {
    std::vector<RedactionSpan> spans = spans_of(scan.findings, m, true);
    if (!spans.empty()) out.request.messages[m].content = map->redact(request.messages[m].content, std::move(spans));
  }
  // The fields: the user field, then the stop sequences (request_fields()).
  for (size_t k = 0; k < fields.size(); ++k) {
    std::vector<RedactionSpan> spans = spans_of(scan.field_findings, k, false);
    if (spans.empty()) continue;
    request_field(out.request, k) = map->redact(fields[k], std::move(spans));
  }
  out.redactions = std::move(map);
  return out;
}

}  // namespace tiergate
