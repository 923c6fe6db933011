// The inputs of the privacy scan's diagnostics on this CPU (pii_profile,
// pii_call_cost): the texts of a JSONL file of {"text": ...} lines, in
// order, and a tagger file from `tiergate pii train`.
#pragma once

#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tiergate/privacy/pii_dataset.h"
#include "tiergate/privacy/pii_tagger.h"

namespace tiergate::bench {

struct PiiBenchInputs {
  std::vector<std::string> texts;
  size_t bytes = 0;  // of all the texts
  PiiTagger tagger;
};

// The inputs, or none after saying on stderr, under `program`'s name, what
// was wrong (a bad line, a damaged tagger, a file without texts).
inline std::optional<PiiBenchInputs> load_pii_bench_inputs(const std::string& data, const std::string& tagger_path,
                                                           std::string_view program) {
  StatusOr<std::vector<PiiExample>> rows = load_pii_jsonl(data);
  if (!rows.is_ok()) {
    std::cerr << program << ": " << rows.status().message() << "\n";
    return std::nullopt;
  }
  StatusOr<PiiTagger> tagger = load_pii_tagger(tagger_path);
  if (!tagger.is_ok()) {
    std::cerr << program << ": " << tagger.status().message() << "\n";
    return std::nullopt;
  }
  PiiBenchInputs inputs{{}, 0, std::move(tagger).value()};
  for (PiiExample& row : *rows) {
    inputs.bytes += row.text.size();
    inputs.texts.push_back(std::move(row.text));
  }
  if (inputs.texts.empty()) {
    std::cerr << program << ": " << data << " holds no texts\n";
    return std::nullopt;
  }
  return inputs;
}

}  // namespace tiergate::bench
