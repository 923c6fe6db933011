// Where the tagger for names, addresses and the other unstructured types
// comes from when none is configured: `tiergate pii scan|eval` without
// --tagger, `tiergate serve` without privacy.tagger.
#pragma once

#include <string>
#include <string_view>

namespace tiergate::cli {

struct DefaultTagger {
  std::string path;         // empty when there is none
  std::string_view source;  // where the path came from, for what the commands print
};

// The file $TIERGATE_PII_TAGGER names; else the tagger the build trains
// where the labelled dev rows and the word lists are there
// (share/tiergate/pii-tagger.bin beside this executable's bin/, as
// src/cli/CMakeLists.txt writes it); else none.
DefaultTagger default_tagger();

}  // namespace tiergate::cli
