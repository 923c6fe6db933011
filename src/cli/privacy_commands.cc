// `tiergate pii scan|eval`: the privacy detectors over a labelled or
// unlabelled PII JSONL file, and `tiergate audit verify`: the egress audit
// log's chain (docs/privacy.md). Wiring: the work is in privacy/.
#include <fstream>
#include <iostream>
#include <sstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "tiergate/privacy/audit.h"
#include "tiergate/privacy/pii_dataset.h"
#include "tiergate/privacy/pii_eval.h"
#include "tiergate/privacy/structured_pii.h"
#include "tiergate/privacy/utf8_offsets.h"

namespace tiergate::cli {
namespace {

using nlohmann::json;

int fail(const std::string& command, const std::string& message) {
  std::cerr << "tiergate " << command << ": " << message << "\n";
  return 1;
}

// Every detector the gateway runs before routing, on one text.
std::vector<PiiSpan> detect(std::string_view text) {
  std::vector<PiiSpan> spans;
  find_structured_pii(text, spans);
  return spans;
}

struct ScanArgs {
  std::string data, out;
};

int run_scan(const ScanArgs& args) {
  auto rows = load_pii_jsonl(args.data);
  if (!rows.is_ok()) return fail("pii scan", rows.status().message());
  std::ofstream out(args.out, std::ios::trunc);
  if (!out) return fail("pii scan", args.out + ": cannot write (check the directory exists and is writable)");
  size_t found = 0;
  for (const PiiExample& row : *rows) {
    const Utf8OffsetMap offsets(row.text);
    json spans = json::array();
    for (const PiiSpan& s : detect(row.text)) {
      // Detector spans begin and end on code point boundaries (structured_pii.h).
      spans.push_back({{"type", pii_type_name(s.type)},
                       {"start", offsets.code_point_offset(s.begin).value_or(0)},
                       {"end", offsets.code_point_offset(s.end).value_or(0)}});
    }
    found += spans.size();
    out << json{{"spans", spans}}.dump() << "\n";
  }
  if (!out.flush()) return fail("pii scan", args.out + ": write failed (disk full?)");
  std::cerr << json{{"rows", rows->size()}, {"spans", found}, {"out", args.out}}.dump() << "\n";
  return 0;
}

struct EvalArgs {
  std::string data;
};

int run_eval(const EvalArgs& args) {
  auto rows = load_pii_jsonl(args.data);
  if (!rows.is_ok()) return fail("pii eval", rows.status().message());
  PiiScorer scorer;
  for (const PiiExample& row : *rows) scorer.add(row.spans, detect(row.text));
  std::cout << pii_eval_json(scorer) << "\n";
  return 0;
}

struct VerifyArgs {
  std::string log;
};

int run_verify(const VerifyArgs& args) {
  std::ifstream in(args.log, std::ios::binary);
  if (!in) return fail("audit verify", args.log + ": cannot read");
  std::stringstream content;
  content << in.rdbuf();
  StatusOr<AuditSummary> summary = verify_audit_log(content.str(), args.log);
  if (!summary.is_ok()) return fail("audit verify", summary.status().message());
  std::cout << json{{"log", args.log},
                    {"entries", summary->entries},
                    {"chain", "intact"},
                    {"by_upstream", summary->by_upstream},
                    {"by_action", summary->by_action}}
                   .dump()
            << "\n";
  return 0;
}

}  // namespace

void add_privacy_commands(CLI::App& app, Runs& runs) {
  CLI::App* pii = app.add_subcommand("pii", "Find personal data and secrets in text, and measure the detectors.");
  pii->require_subcommand(1);

  auto scan = std::make_shared<ScanArgs>();
  CLI::App* s = pii->add_subcommand(
      "scan", "Write the detected spans of each input line ({\"text\": ...}) as {\"spans\": [{\"type\", \"start\", "
              "\"end\"}]}, one line per input line, offsets in code points.");
  s->add_option("--data", scan->data, "JSONL with a \"text\" per line (\"spans\" are ignored)")
      ->required()
      ->check(CLI::ExistingFile);
  s->add_option("-o,--out", scan->out, "JSONL to write")->required();
  runs[s] = [scan] { return run_scan(*scan); };

  auto eval = std::make_shared<EvalArgs>();
  CLI::App* e = pii->add_subcommand(
      "eval", "Precision, recall and F2 per type and overall against labelled spans, as JSON (the matching rule: "
              "same type, overlapping by at least half the longer span; docs/privacy.md).");
  e->add_option("--data", eval->data, "labelled JSONL: {\"text\", \"spans\": [{\"type\", \"start\", \"end\"}]}")
      ->required()
      ->check(CLI::ExistingFile);
  runs[e] = [eval] { return run_eval(*eval); };

  CLI::App* audit = app.add_subcommand("audit", "The egress audit log (privacy.audit_log).");
  audit->require_subcommand(1);
  auto verify = std::make_shared<VerifyArgs>();
  CLI::App* v = audit->add_subcommand(
      "verify", "Check that no entry of an egress audit log was edited, removed or reordered; prints a summary as "
                "JSON, or the first broken line and exits 1.");
  v->add_option("--log", verify->log, "the audit log (JSON Lines)")->required()->check(CLI::ExistingFile);
  runs[v] = [verify] { return run_verify(*verify); };
}

}  // namespace tiergate::cli
