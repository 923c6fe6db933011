#include "tagger_tables.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

#include "tagger_rules.h"

namespace tiergate::tagger_tables {
namespace {

constexpr size_t kMaxCells = 32;
// A header cell is a few words ("Customer name", "Address line 1").
constexpr size_t kMaxHeaderCell = 40;
constexpr size_t kMaxHeaderWords = 4;
// A value longer than this is prose in a cell, not one person's data.
constexpr size_t kMaxValue = 200;

// A header cell as column_type() reads it (small letters, words one blank
// apart), the type its column holds, and whether the header alone is
// enough: a weak one ("name", "state", "region") may head a column of
// products, statuses or cloud regions, and types its column only in a table
// about people, with another typed column or one of personal_header().
struct Header {
  std::string_view name;
  PiiType type;
  bool weak = false;
};
constexpr Header kHeaders[] = {
    // Names.
    {"name", PiiType::kPerson, true}, {"full name", PiiType::kPerson}, {"fullname", PiiType::kPerson},
    {"first name", PiiType::kPerson}, {"firstname", PiiType::kPerson}, {"given name", PiiType::kPerson},
    {"forename", PiiType::kPerson}, {"middle name", PiiType::kPerson}, {"last name", PiiType::kPerson},
    {"lastname", PiiType::kPerson}, {"surname", PiiType::kPerson}, {"family name", PiiType::kPerson},
    {"customer", PiiType::kPerson, true}, {"customer name", PiiType::kPerson}, {"client", PiiType::kPerson, true},
    {"client name", PiiType::kPerson}, {"contact", PiiType::kPerson, true}, {"contact name", PiiType::kPerson},
    {"contact person", PiiType::kPerson}, {"employee", PiiType::kPerson, true}, {"employee name", PiiType::kPerson},
    {"patient", PiiType::kPerson, true}, {"patient name", PiiType::kPerson}, {"person", PiiType::kPerson, true},
    {"owner", PiiType::kPerson, true}, {"student", PiiType::kPerson, true}, {"student name", PiiType::kPerson},
    {"member", PiiType::kPerson, true}, {"member name", PiiType::kPerson}, {"recipient", PiiType::kPerson, true},
    {"sender", PiiType::kPerson, true}, {"author", PiiType::kPerson, true}, {"manager", PiiType::kPerson, true},
    {"guest", PiiType::kPerson, true}, {"passenger", PiiType::kPerson, true}, {"applicant", PiiType::kPerson, true},
    {"tenant", PiiType::kPerson, true}, {"attendee", PiiType::kPerson, true}, {"participant", PiiType::kPerson, true},
    {"nombre", PiiType::kPerson, true}, {"apellido", PiiType::kPerson}, {"apellidos", PiiType::kPerson},
    {"nom", PiiType::kPerson, true}, {"prénom", PiiType::kPerson}, {"prenom", PiiType::kPerson},
    {"vorname", PiiType::kPerson}, {"nachname", PiiType::kPerson}, {"nome", PiiType::kPerson, true},
    {"cognome", PiiType::kPerson},
    // Places.
    {"city", PiiType::kLocation}, {"town", PiiType::kLocation}, {"country", PiiType::kLocation, true},
    {"state", PiiType::kLocation, true}, {"province", PiiType::kLocation, true}, {"region", PiiType::kLocation, true},
    {"county", PiiType::kLocation, true}, {"location", PiiType::kLocation, true}, {"birthplace", PiiType::kLocation},
    {"place of birth", PiiType::kLocation}, {"hometown", PiiType::kLocation}, {"ciudad", PiiType::kLocation},
    {"ville", PiiType::kLocation}, {"stadt", PiiType::kLocation}, {"città", PiiType::kLocation},
    // Addresses.
    {"address", PiiType::kStreetAddress}, {"street", PiiType::kStreetAddress},
    {"street address", PiiType::kStreetAddress}, {"address line 1", PiiType::kStreetAddress},
    {"address line 2", PiiType::kStreetAddress}, {"address1", PiiType::kStreetAddress},
    {"address2", PiiType::kStreetAddress}, {"home address", PiiType::kStreetAddress},
    {"mailing address", PiiType::kStreetAddress}, {"shipping address", PiiType::kStreetAddress},
    {"billing address", PiiType::kStreetAddress}, {"adresse", PiiType::kStreetAddress},
    {"anschrift", PiiType::kStreetAddress}, {"dirección", PiiType::kStreetAddress},
    {"direccion", PiiType::kStreetAddress}, {"indirizzo", PiiType::kStreetAddress},
    // Organisations.
    {"company", PiiType::kOrganization, true}, {"company name", PiiType::kOrganization, true},
    {"organization", PiiType::kOrganization, true}, {"organisation", PiiType::kOrganization, true},
    {"employer", PiiType::kOrganization}, {"empresa", PiiType::kOrganization, true},
    // Postcodes, ages, groups.
    {"zip", PiiType::kZipCode}, {"zip code", PiiType::kZipCode}, {"zipcode", PiiType::kZipCode},
    {"postcode", PiiType::kZipCode}, {"postal code", PiiType::kZipCode}, {"age", PiiType::kAge, true},
    {"nationality", PiiType::kNrp}, {"religion", PiiType::kNrp},
};

// Headers of columns of personal data that the structured detectors find
// by their shape, which tell that a table is about people.
constexpr std::string_view kPersonalHeaders[] = {
    "email", "e mail", "email address", "mail", "phone", "phone number", "telephone", "tel", "mobile", "cell",
    "dob", "date of birth", "birthday", "birth date", "birthdate", "ssn", "social security number", "iban",
    "passport", "gender", "sex"};

struct Cell {
  uint32_t begin, end;  // the value, without blanks and quotes around it
};
struct Row {
  std::array<Cell, kMaxCells> cells;
  size_t count = 0;
};

// Where a table's lines split: the delimiter, and whether the lines are
// Markdown's ("| a | b |").
struct Layout {
  char delimiter = 0;
  bool markdown = false;
};

bool pad(char c, char delimiter) { return c == ' ' || c == '\r' || (c == '\t' && delimiter != '\t'); }

// Splits text[begin, end), one line, into the cells of `layout`. False where
// it holds more than kMaxCells, a quote left open, or (with `max_cell`) a
// cell longer than max_cell bytes: what no table row or header is.
bool split(std::string_view text, size_t begin, size_t end, Layout layout, size_t max_cell, Row& row) {
  const char d = layout.delimiter;
  row.count = 0;
  if (layout.markdown) {
    while (begin < end && pad(text[begin], d)) ++begin;
    while (end > begin && pad(text[end - 1], d)) --end;
    if (begin == end || text[begin] != '|') return false;
    ++begin;
    if (end > begin && text[end - 1] == '|') --end;
  }
  for (size_t at = begin;;) {
    if (row.count == kMaxCells) return false;
    size_t from = at;
    while (from < end && pad(text[from], d)) ++from;
    size_t value_begin = from, value_end = from, next = from;
    if (from < end && text[from] == '"') {
      // A quoted value, "" inside it a quote ("Smith, John").
      size_t q = from + 1;
      while (q < end && !(text[q] == '"' && (q + 1 >= end || text[q + 1] != '"'))) q += text[q] == '"' ? 2 : 1;
      if (q >= end) return false;
      value_begin = from + 1;
      value_end = q;
      next = q + 1;
      while (next < end && text[next] != d) ++next;
    } else {
      const void* found = std::memchr(text.data() + from, d, end - from);
      next = found == nullptr ? end : static_cast<size_t>(static_cast<const char*>(found) - text.data());
      value_begin = from;
      value_end = next;
      while (value_end > value_begin && pad(text[value_end - 1], d)) --value_end;
    }
    if (max_cell != 0 && next - at > max_cell) return false;
    row.cells[row.count++] = {static_cast<uint32_t>(value_begin), static_cast<uint32_t>(value_end)};
    if (next >= end) return true;
    at = next + 1;
  }
}

// Whether the cells are a Markdown table's rule line ("---", ":--:").
bool rule_line(std::string_view text, const Row& row) {
  for (size_t c = 0; c < row.count; ++c) {
    const std::string_view cell = text.substr(row.cells[c].begin, row.cells[c].end - row.cells[c].begin);
    if (cell.empty() || cell.find_first_not_of("-: ") != std::string_view::npos) return false;
  }
  return row.count > 0;
}

// Whether `value` says there is none.
bool no_value(std::string_view value) {
  static constexpr std::array<std::string_view, 11> kNone = {"n/a", "na", "-", "--", "null", "none", "nil",
                                                             "unknown", "tbd", "?", "\xe2\x80\x94"};
  if (value.size() > 7) return false;
  std::array<char, 8> lower{};
  for (size_t k = 0; k < value.size(); ++k) lower[k] = static_cast<char>(tagger_rules::kByteView[static_cast<unsigned char>(value[k])].lower);
  const std::string_view v(lower.data(), value.size());
  return std::find(kNone.begin(), kNone.end(), v) != kNone.end();
}

// Whether `value` may be a value of a column of `type`.
bool plausible(PiiType type, std::string_view value) {
  if (value.empty() || value.size() > kMaxValue || no_value(value)) return false;
  auto has = [&](auto test) { return std::any_of(value.begin(), value.end(), test); };
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  switch (type) {
    case PiiType::kZipCode:
      return value.size() <= 12 && has(digit);
    case PiiType::kAge:
      return value.size() <= 3 && std::all_of(value.begin(), value.end(), digit);
    default:
      // A letter (ASCII, or of two bytes or more), and no e-mail address in
      // a column of names.
      return has([](char c) { return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || static_cast<unsigned char>(c) >= 0x80; }) &&
             (type != PiiType::kPerson || value.find('@') == std::string_view::npos);
  }
}

// Whether every cell of `row` is made of what header cells are: letters,
// digits, blanks and "_", "-", ".", "/", "#" (not code: "f(a, b)").
bool header_words_only(std::string_view text, const Row& row) {
  for (size_t c = 0; c < row.count; ++c) {
    for (uint32_t k = row.cells[c].begin; k < row.cells[c].end; ++k) {
      const auto b = static_cast<unsigned char>(text[k]);
      if (!(pii_tokens::is_word_byte(b) || b == ' ' || b == '_' || b == '-' || b == '.' || b == '/' || b == '#')) {
        return false;
      }
    }
  }
  return true;
}

// A header cell in small letters, its words one blank apart ("_", "-", "."
// read as blanks); empty where it is longer than kMaxHeaderCell bytes or
// holds more than kMaxHeaderWords words.
std::string_view normalised(std::string_view header, std::array<char, kMaxHeaderCell>& buffer) {
  if (header.empty() || header.size() > kMaxHeaderCell) return {};
  size_t n = 0, words = 0;
  bool blank = true;
  for (const char c : header) {
    if (c == ' ' || c == '_' || c == '-' || c == '.' || c == '\t') {
      blank = true;
      continue;
    }
    if (blank && n > 0) buffer[n++] = ' ';
    if (blank) ++words;
    blank = false;
    buffer[n++] = static_cast<char>(tagger_rules::kByteView[static_cast<unsigned char>(c)].lower);
  }
  if (words > kMaxHeaderWords) return {};
  return {buffer.data(), n};
}

const Header* find_header(std::string_view header) {
  std::array<char, kMaxHeaderCell> buffer{};
  const std::string_view key = normalised(header, buffer);
  if (key.empty()) return nullptr;
  for (const Header& h : kHeaders) {
    if (h.name == key) return &h;
  }
  return nullptr;
}

bool personal_header(std::string_view header) {
  std::array<char, kMaxHeaderCell> buffer{};
  const std::string_view key = normalised(header, buffer);
  return !key.empty() && std::find(std::begin(kPersonalHeaders), std::end(kPersonalHeaders), key) != std::end(kPersonalHeaders);
}

}  // namespace

std::optional<PiiType> column_type(std::string_view header) {
  const Header* h = find_header(header);
  if (h == nullptr) return std::nullopt;
  return h->type;
}

void type_table_cells(std::string_view text, std::span<const pii_tokens::Token> tokens, std::span<const uint32_t> line_starts,
                      std::vector<PiiSpan>& out, size_t first) {
  if (tokens.empty()) return;
  // The typed cells found, and the typed header cells, whose tagger's spans
  // go: applied at the end, in order of begin.
  thread_local std::vector<PiiSpan> cells;
  thread_local std::vector<Cell> headers;
  cells.clear();
  headers.clear();
  std::array<std::optional<PiiType>, kMaxCells> columns;
  Row row, next_row;
  size_t before = 0;  // in out[0, first): the first span that may overlap a cell
  auto found_before = [&](const Cell& cell) {
    while (before < first && out[before].end <= cell.begin) ++before;
    return before < first && out[before].begin < cell.end;
  };
  // Line l (0 the text's first; l >= 1 opens at token line_starts[l - 1]):
  // its first token, and its bytes from that token to its line feed.
  const size_t lines = line_starts.size() + (tokens[0].newline_before ? 0 : 1);
  auto first_token = [&](size_t l) -> size_t {
    return tokens[0].newline_before ? line_starts[l] : l == 0 ? 0 : line_starts[l - 1];
  };
  auto line_bytes = [&](size_t l) {
    const size_t after = l + 1 < lines ? first_token(l + 1) : tokens.size();
    size_t end = tokens[after - 1].end;
    while (end < text.size() && text[end] != '\n') ++end;  // (blanks: a TSV line's empty last cells)
    return std::pair<size_t, size_t>{tokens[first_token(l)].begin, end};
  };
  // Whether line l may split: "|" opens it, or a delimiter follows its
  // first token, or the second where a blank, "_" or "-" joins them to one
  // header cell ("Full Name,", "first_name,"; a quote's mark opens "\"Name\","
  // and closes it). One look at most lines, asked of every line of every
  // text.
  auto delimiter_at = [&](size_t at) {
    const char c = at < text.size() ? text[at] : '\n';
    return c == ',' || c == ';' || c == '\t' || c == '|';
  };
  auto may_split = [&](size_t l) {
    const size_t from = first_token(l);
    const pii_tokens::Token& t = tokens[from];
    const char opening = text[t.begin];
    if (opening == '|' || delimiter_at(t.end)) return true;
    const size_t after = l + 1 < lines ? first_token(l + 1) : tokens.size();
    if (from + 1 >= after) return false;
    const char joint = text[t.end];
    const pii_tokens::Token& next = tokens[from + 1];
    if (opening == '"') return delimiter_at(next.end + 1);
    if (joint != ' ' && joint != '_' && joint != '-') return false;
    return delimiter_at(next.end) || (joint != ' ' && from + 2 < after && delimiter_at(tokens[from + 2].end));
  };
  for (size_t l = 0; l + 1 < lines;) {
    if (!may_split(l)) {
      ++l;
      continue;
    }
    const auto [begin, end] = line_bytes(l);
    const auto [next_begin, next_end] = line_bytes(l + 1);
    // The layout: Markdown where the line opens with "|", else its first
    // delimiter.
    Layout layout;
    if (text[begin] == '|') {
      layout = {'|', true};
    } else {
      const size_t at = text.substr(begin, end - begin).find_first_of(",;\t|");
      if (at != std::string_view::npos) layout = {text[begin + at], false};
    }
    // A header: two cells or more, each a few words, and a row after it of
    // as many cells (most lines with a comma near their start are neither),
    // one of them typed.
    bool typed = false;
    if (layout.delimiter != 0 && split(text, begin, end, layout, kMaxHeaderCell + 2, row) && row.count >= 2 &&
        header_words_only(text, row) && split(text, next_begin, next_end, layout, 0, next_row) &&
        (next_row.count == row.count || layout.markdown)) {
      std::array<const Header*, kMaxCells> found{};
      size_t strong = 0, weak = 0;
      bool personal = false;
      for (size_t c = 0; c < row.count; ++c) {
        const std::string_view cell = text.substr(row.cells[c].begin, row.cells[c].end - row.cells[c].begin);
        found[c] = find_header(cell);
        if (found[c] != nullptr) ++(found[c]->weak ? weak : strong);
        personal = personal || (found[c] == nullptr && personal_header(cell));
      }
      // (A weak header with a second typed column or a personal one.)
      const bool about_people = strong > 0 || personal || weak >= 2;
      for (size_t c = 0; c < row.count; ++c) {
        columns[c] = found[c] != nullptr && about_people ? std::optional<PiiType>(found[c]->type) : std::nullopt;
        typed = typed || columns[c].has_value();
      }
    }
    if (!typed) {
      ++l;
      continue;
    }
    const size_t width = row.count;
    const size_t headers_before = headers.size();
    for (size_t c = 0; c < width; ++c) {
      if (columns[c]) headers.push_back(row.cells[c]);
    }
    size_t r = l + 1, rows = 0;
    for (size_t above = end; r < lines; ++r) {
      const auto [row_begin, row_end] = line_bytes(r);
      // (A blank line ends the table.)
      if (std::memchr(text.data() + above + 1, '\n', row_begin - above - 1) != nullptr) break;
      above = row_end;
      if (!split(text, row_begin, row_end, layout, 0, row) || row.count != width) break;
      if (layout.markdown && rows == 0 && rule_line(text, row)) continue;
      ++rows;
      for (size_t c = 0; c < width; ++c) {
        const Cell& cell = row.cells[c];
        if (!columns[c] || !plausible(*columns[c], text.substr(cell.begin, cell.end - cell.begin)) || found_before(cell)) {
          continue;
        }
        cells.push_back({*columns[c], cell.begin, cell.end});
      }
    }
    if (rows == 0) headers.resize(headers_before);  // no table: a line with commas
    l = rows == 0 ? l + 1 : r;
  }
  if (cells.empty()) return;
  // The tagger's spans that overlap a typed cell, or lie in a typed header
  // cell, go; the cells come in.
  size_t c = 0, h = 0, kept = first;
  for (size_t s = first; s < out.size(); ++s) {
    const PiiSpan& span = out[s];
    while (c < cells.size() && cells[c].end <= span.begin) ++c;
    while (h < headers.size() && headers[h].end <= span.begin) ++h;
    const bool over_a_cell = c < cells.size() && cells[c].begin < span.end;
    const bool in_a_header = h < headers.size() && headers[h].begin <= span.begin && span.end <= headers[h].end;
    if (!over_a_cell && !in_a_header) out[kept++] = span;
  }
  out.resize(kept);
  out.insert(out.end(), cells.begin(), cells.end());
  tagger_rules::sort_by_begin(out, first);
}

}  // namespace tiergate::tagger_tables
