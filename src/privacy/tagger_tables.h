// Tables of personal data pasted into a prompt (CSV, TSV, semicolon
// separated, Markdown): a header names what each column holds, which the
// words of a cell alone often do not tell ("Liam Byrne", "Cork" on a row
// of their own). The PII tagger's last pass (pii_tagger.cc). Private to the
// privacy module.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "tiergate/privacy/structured_pii.h"

#include "tagger_tokens.h"

namespace tiergate::tagger_tables {

// The type of personal data a column holds by its header cell, in any case,
// with "_", "-" and "." read as blanks ("Full name", "first_name",
// "ZIP code", "City"); nullopt for a header no type is named by ("id",
// "notes", "email": the structured detectors find such values by their
// shape).
std::optional<PiiType> column_type(std::string_view header);

// For each table in `text` (its `tokens` and `line_starts`, as
// pii_tokens::tokenize() gives them): a line of two to 32 header cells, one of them
// column_type() (a weak one, such as "name", "state" or "company", only
// beside another such cell or a header of personal data such as "email" or
// "phone"), then the rows right after it that split into as many cells (a
// Markdown table's rule line skipped), each non-empty cell of a typed
// column is a span of that type: the tagger's spans (out[first...])
// that overlap it give way, and a cell a span found before tagging overlaps
// (an e-mail address, a phone number) is left as it is. The tagger's spans
// over the typed header cells themselves go ("Name", "City"). A value that
// says there is none ("n/a", "-", "null") is no value; nor, in a column of
// names, places or organisations, one without a letter; nor a postcode
// without a digit, an age but of one to three digits. Precondition and
// postcondition: out[first...] sorted by begin.
void type_table_cells(std::string_view text, std::span<const pii_tokens::Token> tokens, std::span<const uint32_t> line_starts,
                      std::vector<PiiSpan>& out, size_t first);

}  // namespace tiergate::tagger_tables
