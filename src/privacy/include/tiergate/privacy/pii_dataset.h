// The labelled PII data format (../shared/data/README.md, section pii): one
// JSON object per line,
//   {"text": "...", "spans": [{"type": "CREDIT_CARD", "start": 27, "end": 43}]}
// with offsets in code points, end exclusive. Rows are read into byte offsets
// (what the detectors produce). Nothing throws; every error names the source
// and the line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tiergate/core/status.h"
#include "tiergate/privacy/pii_types.h"

namespace tiergate {

struct PiiExample {
  std::string text;
  std::vector<PiiSpan> spans;  // byte offsets, in the file's order
};

// Parses JSONL `content`; `source` (a file name) prefixes error messages as
// "source:LINE: ...". Blank lines are skipped; a row without "spans" has none
// (so the same reader takes unlabelled {"text": ...} input).
// Errors (kInvalidArgument): a line that is not a JSON object, "text" missing
// or not a string, "spans" not an array, a span without a known "type"
// (parse_pii_type) or without integer "start" < "end" within the text.
StatusOr<std::vector<PiiExample>> parse_pii_jsonl(std::string_view content, std::string_view source);

// Reads and parses the file at `path`. kNotFound when it cannot be opened,
// kUnavailable when reading it fails; otherwise as parse_pii_jsonl.
StatusOr<std::vector<PiiExample>> load_pii_jsonl(const std::string& path);

// `text` in small letters as the labelled data writes its rows without
// capitals (Python's str.lower()): each capital of ASCII, Latin-1, the Latin
// Extended blocks (latin_extended_case()), Greek or Cyrillic becomes its
// small letter. Only where the small letter takes as many UTF-8 bytes (not
// "İ", nor "ẞ"), so a row's labels still fit the text; other bytes, invalid
// UTF-8 included, stay as they are.
std::string small_letters(std::string_view text);

// `text` in capitals, the converse of small_letters(): each small letter
// whose capital small_letters() maps to it becomes that capital ("ς" "Σ"),
// at the same offsets; "ß" and other letters without one stay.
std::string capital_letters(std::string_view text);

}  // namespace tiergate
