// `tiergate pii scan|eval`: the privacy detectors over a labelled or
// unlabelled PII JSONL file, and `tiergate audit verify`: the egress audit
// log's chain (docs/privacy.md). Wiring: the work is in privacy/.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <numeric>
#include <random>
#include <iterator>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "default_tagger.h"
#include "tiergate/core/file_output.h"
#include "tiergate/privacy/audit.h"
#include "tiergate/privacy/pii_dataset.h"
#include "tiergate/privacy/pii_eval.h"
#include "tiergate/privacy/pii_tagger.h"
#include "tiergate/privacy/utf8_offsets.h"

namespace tiergate::cli {
namespace {

using nlohmann::json;

// Every detector the gateway runs before routing, on one text, with the
// labelled datasets' types (as_dataset_type(): a date of birth is their
// DATE_TIME), which `pii scan` writes and `pii eval` and `pii cv` score.
std::vector<PiiSpan> detect(std::string_view text, const PiiTagger* tagger) {
  std::vector<PiiSpan> spans;
  find_pii(text, tagger, spans);
  for (PiiSpan& s : spans) s.type = as_dataset_type(s.type);
  return spans;
}

// Which tagger `pii scan` and `pii eval` run after the structured
// detectors: --tagger FILE; none with --no-tagger; else default_tagger().
// Without a tagger no names, street addresses, places or organisations are
// found, which stderr says.
struct TaggerChoice {
  std::string tagger;  // --tagger
  bool none = false;   // --no-tagger
};

// The chosen tagger, or none; `command` names the command in what it
// prints.
StatusOr<std::unique_ptr<PiiTagger>> load_tagger(const TaggerChoice& choice, std::string_view command) {
  if (choice.none) return std::unique_ptr<PiiTagger>();
  std::string path = choice.tagger;
  if (path.empty()) {
    const DefaultTagger found = default_tagger();
    path = found.path;
    if (path.empty()) {
      std::cerr << "[" << command << "] no tagger: only the structured detectors run, so no names, street addresses, "
                   "places or organisations are found. Pass --tagger FILE (from `tiergate pii train`), set "
                   "TIERGATE_PII_TAGGER, or build with ../shared/data/pii and scripts/setup.sh's word lists in place "
                   "for the default tagger; --no-tagger says this is meant.\n";
      return std::unique_ptr<PiiTagger>();
    }
    std::cerr << "[" << command << "] tagger: " << path << " (" << found.source << "; --tagger FILE or --no-tagger to change)\n";
  }
  StatusOr<PiiTagger> tagger = load_pii_tagger(path);
  if (!tagger.is_ok()) return tagger.status();
  return std::make_unique<PiiTagger>(std::move(tagger).value());
}

StatusOr<std::vector<PiiExample>> load_all(const std::vector<std::string>& files) {
  std::vector<PiiExample> all;
  for (const std::string& f : files) {
    auto rows = load_pii_jsonl(f);
    if (!rows.is_ok()) return rows.status();
    all.insert(all.end(), std::make_move_iterator(rows->begin()), std::make_move_iterator(rows->end()));
  }
  return all;
}

// One line of `pii scan`'s output: {"spans": [{"type", "start", "end"}]},
// offsets in code points (detector spans begin and end on code point
// boundaries, structured_pii.h).
json spans_line(std::string_view text, const std::vector<PiiSpan>& found) {
  const Utf8OffsetMap offsets(text);
  json spans = json::array();
  for (const PiiSpan& s : found) {
    spans.push_back({{"type", pii_type_name(s.type)},
                     {"start", offsets.code_point_offset(s.begin).value_or(0)},
                     {"end", offsets.code_point_offset(s.end).value_or(0)}});
  }
  return json{{"spans", spans}};
}

struct ScanArgs {
  std::string data, out;
  TaggerChoice tagger;
};

int run_scan(const ScanArgs& args) {
  auto rows = load_pii_jsonl(args.data);
  if (!rows.is_ok()) return fail("pii scan", rows.status().message());
  auto tagger = load_tagger(args.tagger, "pii scan");
  if (!tagger.is_ok()) return fail("pii scan", tagger.status().message());
  std::ofstream out(args.out, std::ios::trunc);
  if (!out) return fail("pii scan", args.out + ": cannot write (check the directory exists and is writable)");
  size_t found = 0;
  for (const PiiExample& row : *rows) {
    const json line = spans_line(row.text, detect(row.text, tagger->get()));
    found += line["spans"].size();
    out << line.dump() << "\n";
  }
  if (!out.flush()) return fail("pii scan", args.out + ": write failed (disk full?)");
  std::cerr << json{{"rows", rows->size()}, {"spans", found}, {"out", args.out}}.dump() << "\n";
  return 0;
}

struct EvalArgs {
  std::string data;
  TaggerChoice tagger;
};

int run_eval(const EvalArgs& args) {
  auto rows = load_pii_jsonl(args.data);
  if (!rows.is_ok()) return fail("pii eval", rows.status().message());
  auto tagger = load_tagger(args.tagger, "pii eval");
  if (!tagger.is_ok()) return fail("pii eval", tagger.status().message());
  PiiScorer scorer;
  for (const PiiExample& row : *rows) scorer.add(row.text, row.spans, detect(row.text, tagger->get()));
  std::cout << pii_eval_json(scorer) << "\n";
  return 0;
}

// The tagger options of `pii train` and `pii cv`: the flags, and the
// directories of word lists to read into options.gazetteers.
struct TaggerArgs {
  TaggerOptions options;
  std::vector<std::string> gazetteer_dirs;
};

// args.options with the lists of every directory; a category found in two
// directories gets the entries of both.
StatusOr<TaggerOptions> tagger_options(const TaggerArgs& args) {
  TaggerOptions options = args.options;
  for (const std::string& dir : args.gazetteer_dirs) {
    auto lists = load_gazetteer_dir(dir);
    if (!lists.is_ok()) return lists.status();
    for (GazetteerList& list : *lists) {
      auto same = std::find_if(options.gazetteers.begin(), options.gazetteers.end(),
                               [&](const GazetteerList& l) { return l.category == list.category; });
      if (same == options.gazetteers.end()) {
        options.gazetteers.push_back(std::move(list));
      } else {
        same->entries.insert(same->entries.end(), list.entries.begin(), list.entries.end());
      }
    }
  }
  if (options.gazetteers.size() > Gazetteer::kMaxCategories) {
    return invalid_argument(std::to_string(options.gazetteers.size()) + " gazetteer categories in all; at most " +
                            std::to_string(Gazetteer::kMaxCategories) + " are supported");
  }
  return options;
}

struct TrainArgs {
  std::vector<std::string> data;
  std::string out;
  TaggerArgs tagger;
};

int run_train(const TrainArgs& args) {
  auto rows = load_all(args.data);
  if (!rows.is_ok()) return fail("pii train", rows.status().message());
  auto options = tagger_options(args.tagger);
  if (!options.is_ok()) return fail("pii train", options.status().message());
  const auto start = std::chrono::steady_clock::now();
  std::cerr << "[pii train] " << rows->size() << " rows, " << options->epochs << " epochs, "
            << options->gazetteers.size() << " gazetteer categories\n";
  if (options->gazetteers.empty()) {
    std::cerr << "[pii train] no --gazetteers: the tagger will find fewer names and places in sentences unlike its "
                 "training rows (scripts/setup.sh installs third_party/gazetteers; docs/privacy.md)\n";
  }
  const PiiTagger tagger = PiiTagger::train(*rows, *options);
  if (tagger.empty()) return fail("pii train", "the data labels none of the types the tagger learns (PERSON, STREET_ADDRESS, ...)");
  // Written atomically, so a failed write leaves no partial tagger.
  if (Status written = write_file_atomically(args.out, tagger.serialize()); !written.is_ok()) {
    return fail("pii train", written.message());
  }
  json types = json::array();
  for (PiiType t : tagger.types()) types.push_back(pii_type_name(t));
  std::cerr << json{{"out", args.out}, {"rows", rows->size()}, {"types", types},
                    {"seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()}}
                   .dump()
            << "\n";
  return 0;
}

struct CvArgs {
  std::vector<std::string> data;
  int folds = 5;
  bool by_template = false;
  bool lower_case_held_out = false;
  bool upper_case_held_out = false;
  std::string spans_out;
  TaggerArgs tagger;
};

// `text` with its ASCII capitals in small letters: the same bytes at the
// same offsets otherwise, so a row's labels still fit it.
std::string ascii_lower_case(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](char c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; });
  return text;
}

// The text with each labelled value replaced by its type: rows made from one
// template share it.
std::string template_of(const PiiExample& e) {
  std::string out;
  size_t at = 0;
  std::vector<PiiSpan> spans = e.spans;
  std::sort(spans.begin(), spans.end(), [](const PiiSpan& a, const PiiSpan& b) { return a.begin < b.begin; });
  for (const PiiSpan& s : spans) {
    if (s.begin < at) continue;
    out.append(e.text, at, s.begin - at);
    out += "<" + std::string(pii_type_name(s.type)) + ">";
    at = s.end;
  }
  out.append(e.text, at);
  return ascii_lower_case(std::move(out));
}

int run_cv(const CvArgs& args) {
  auto rows = load_all(args.data);
  if (!rows.is_ok()) return fail("pii cv", rows.status().message());
  if (args.folds < 2 || static_cast<size_t>(args.folds) > rows->size()) return fail("pii cv", "--folds must be 2..rows");
  auto options = tagger_options(args.tagger);
  if (!options.is_ok()) return fail("pii cv", options.status().message());
  // Fold of each row: by row, or by template so that no test template was
  // seen in training (the held-out sets use other templates).
  std::vector<int> fold(rows->size());
  std::mt19937_64 rng(options->seed);
  if (args.by_template) {
    std::map<std::string, int> of_template;
    std::vector<std::string> keys;
    for (const PiiExample& e : *rows) {
      if (of_template.emplace(template_of(e), 0).second) keys.push_back(template_of(e));
    }
    std::shuffle(keys.begin(), keys.end(), rng);
    for (size_t k = 0; k < keys.size(); ++k) of_template[keys[k]] = static_cast<int>(k % static_cast<size_t>(args.folds));
    for (size_t i = 0; i < rows->size(); ++i) fold[i] = of_template[template_of((*rows)[i])];
  } else {
    std::vector<size_t> order(rows->size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t k = 0; k < order.size(); ++k) fold[order[k]] = static_cast<int>(k % static_cast<size_t>(args.folds));
  }
  PiiScorer scorer;
  // The texts the held-out folds are scanned as: as labelled, without
  // capitals (--lower-case-held-out) or in capitals throughout
  // (--upper-case-held-out); training still reads them as labelled.
  std::vector<std::string> scanned;
  for (const PiiExample& e : *rows) {
    scanned.push_back(args.lower_case_held_out   ? small_letters(e.text)
                      : args.upper_case_held_out ? capital_letters(e.text)
                                                 : e.text);
  }
  std::vector<std::vector<PiiSpan>> found(rows->size());
  for (int f = 0; f < args.folds; ++f) {
    std::vector<PiiExample> train;
    for (size_t i = 0; i < rows->size(); ++i) {
      if (fold[i] != f) train.push_back((*rows)[i]);
    }
    const PiiTagger tagger = PiiTagger::train(train, *options);
    for (size_t i = 0; i < rows->size(); ++i) {
      if (fold[i] != f) continue;
      found[i] = detect(scanned[i], &tagger);
      scorer.add(scanned[i], (*rows)[i].spans, found[i]);
    }
    std::cerr << "[pii cv] fold " << f + 1 << "/" << args.folds << "\n";
  }
  if (!args.spans_out.empty()) {
    std::string lines;
    for (size_t i = 0; i < rows->size(); ++i) lines += spans_line(scanned[i], found[i]).dump() + "\n";
    if (Status written = write_file_atomically(args.spans_out, lines); !written.is_ok()) {
      return fail("pii cv", written.message());
    }
  }
  std::cout << pii_eval_json(scorer) << "\n";
  return 0;
}

struct VerifyArgs {
  std::string log;
};

int run_verify(const VerifyArgs& args) {
  std::ifstream in(args.log, std::ios::binary);
  if (!in) return fail("audit verify", args.log + ": cannot read");
  const std::string content{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  StatusOr<AuditSummary> summary = verify_audit_log(content, args.log);
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

// --tagger and --no-tagger of `pii scan` and `pii eval` (TaggerChoice).
void add_tagger_file_option(CLI::App& command, TaggerChoice& choice) {
  CLI::Option* file = command
                          .add_option("--tagger", choice.tagger,
                                      "a tagger from `tiergate pii train` (names, addresses, ...); default: "
                                      "$TIERGATE_PII_TAGGER, else the one the build trained "
                                      "(share/tiergate/pii-tagger.bin beside bin/), if any")
                          ->check(CLI::ExistingFile);
  command.add_flag("--no-tagger", choice.none, "the structured detectors only (emails, cards, phones, ...)")
      ->excludes(file);
}

// The tagger's training options, shared by `pii train` and `pii cv`.
void add_tagger_options(CLI::App& command, TaggerArgs& args) {
  TaggerOptions& options = args.options;
  command.add_option("--epochs", options.epochs, "passes over the data")->capture_default_str()->check(CLI::Range(1, 100));
  command.add_option("--buckets", options.buckets, "hashed feature slots (a power of two)")
      ->capture_default_str()
      ->check(CLI::Range(64u, 1u << 24));
  command.add_option("--context-dropout", options.context_dropout,
                     "share of training tokens that learn without their neighbouring words (0 = none)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 0.95));
  command.add_option("--seed", options.seed, "seed of the row order in training (and of the folds of `pii cv`)")
      ->capture_default_str();
  command.add_option("--members", options.members,
                     "perceptrons averaged into the tagger, each with its own row order (1 = a single one)")
      ->capture_default_str()
      ->check(CLI::Range(1, 50));
  command.add_option("--gazetteers", args.gazetteer_dirs,
                     "directories of word lists (*.txt, one entry per line; the file name is the category), e.g. "
                     "third_party/gazetteers from scripts/setup.sh")
      ->check(CLI::ExistingDirectory);
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
  add_tagger_file_option(*s, scan->tagger);
  runs[s] = [scan] { return run_scan(*scan); };

  auto eval = std::make_shared<EvalArgs>();
  CLI::App* e = pii->add_subcommand(
      "eval", "Precision, recall and F2 per type and overall against labelled spans, as JSON (the matching rule: "
              "same type, overlapping by at least half the longer span), and the same per token under \"tokens\" "
              "(docs/privacy.md).");
  e->add_option("--data", eval->data, "labelled JSONL: {\"text\", \"spans\": [{\"type\", \"start\", \"end\"}]}")
      ->required()
      ->check(CLI::ExistingFile);
  add_tagger_file_option(*e, eval->tagger);
  runs[e] = [eval] { return run_eval(*eval); };

  auto train = std::make_shared<TrainArgs>();
  CLI::App* t = pii->add_subcommand("train", "Train the tagger for names, addresses and the other unstructured types "
                                             "from labelled rows.");
  t->add_option("--data", train->data, "labelled JSONL files")->required()->check(CLI::ExistingFile);
  t->add_option("-o,--out", train->out, "tagger file to write")->required();
  add_tagger_options(*t, train->tagger);
  runs[t] = [train] { return run_train(*train); };

  auto cv = std::make_shared<CvArgs>();
  CLI::App* c = pii->add_subcommand("cv", "K-fold cross-validated precision, recall and F2 of the detectors with a "
                                          "tagger trained on the other folds, as JSON.");
  c->add_option("--data", cv->data, "labelled JSONL files")->required()->check(CLI::ExistingFile);
  c->add_option("--folds", cv->folds, "folds")->capture_default_str();
  c->add_flag("--by-template", cv->by_template,
              "keep rows of one template (the text with its values taken out) in one fold: scores on unseen templates");
  CLI::Option* lower = c->add_flag("--lower-case-held-out", cv->lower_case_held_out,
                                   "scan each held-out row with its capitals in small letters, as the data writes its "
                                   "rows without capitals (the labels' offsets stay): scores on text without "
                                   "capitals, from a tagger trained on the rows as labelled");
  c->add_flag("--upper-case-held-out", cv->upper_case_held_out,
              "scan each held-out row with its small letters in capitals (the labels' offsets stay): scores on text "
              "in capitals throughout, from a tagger trained on the rows as labelled")
      ->excludes(lower);
  c->add_option("--spans-out", cv->spans_out,
                "also write each row's cross-validated detections, one line per input row in `pii scan`'s format "
                "(for error analysis)");
  add_tagger_options(*c, cv->tagger);
  runs[c] = [cv] { return run_cv(*cv); };

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
