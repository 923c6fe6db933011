// Tables and forms of personal data pasted into a prompt (CSV, TSV,
// semicolon separated, Markdown; "Name: ..." lines, JSON objects, YAML
// items, URLs' queries, SQL inserts): a header or a label names what a
// value is, which the words of the value alone often do not tell ("Liam
// Byrne", "Cork" on a row of their own, "fenella okafor" after
// "customer_name:"). The PII tagger's last pass (pii_tagger.cc). Private
// to the privacy module.
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
//
// So are the values of a record of labelled values in `text`: consecutive
// lines (no blank line between) of "label: value" or "label = value" (a
// JSON member on a line of its own, a YAML item "- label: value"), the
// members of a JSON object on one line ("{" or "[{" opens it), or the
// pairs of a line that is a query string ("first_name=Chidi&city=Lagos")
// or of a URL's or a path's query ("...?first_name=chidi&city=Lagos", any
// case), whose label
// is a column_type() header, under the same rule for weak labels; a value
// of a name, place or organisation reads as one (a few words, no question
// or description, in text with capitals (`mixed`) its words capitalised),
// an address holds a number; where the tagger found the value already (a
// span of its type inside it, or one over it that runs past it: an address
// on the lines after its label's), its spans stay. A query's values
// replace the tagger's spans inside them, and a URL's span found before
// tagging (out[0, first)) gives way to them: it ends before the first and
// the rest of the query, between and after them, becomes cells of the
// URL's type, so that a policy that lets web sites out does not let the
// names in their queries out. So are the values of SQL inserts that open
// a line ("INSERT INTO users (name, city) VALUES ('Anna Berg', 'Oslo')"),
// by their columns as a table's by its header, in any case.
void type_table_cells(std::string_view text, std::span<const pii_tokens::Token> tokens, std::span<const uint32_t> line_starts,
                      bool mixed, std::vector<PiiSpan>& out, size_t first);

}  // namespace tiergate::tagger_tables
