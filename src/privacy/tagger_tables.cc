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
// about people, with another typed column or one of kPersonalHeaders.
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
    // A name's parts under short keys ({"first": "Evander", "last":
    // "Mwangi"}), which head ranks and times as often.
    {"first", PiiType::kPerson, true}, {"last", PiiType::kPerson, true}, {"given", PiiType::kPerson, true},
    {"family", PiiType::kPerson, true}, {"middle", PiiType::kPerson, true},
    // Who a ticket, a record or a document is for or by ("Assigned to:
    // Sunil Rao", taken for a place); a team so named becomes a name, the
    // safer reading.
    {"assignee", PiiType::kPerson}, {"assigned to", PiiType::kPerson}, {"reporter", PiiType::kPerson, true},
    {"reported by", PiiType::kPerson}, {"requested by", PiiType::kPerson}, {"requester", PiiType::kPerson, true},
    {"approved by", PiiType::kPerson}, {"reviewed by", PiiType::kPerson}, {"prepared by", PiiType::kPerson},
    {"submitted by", PiiType::kPerson}, {"signed by", PiiType::kPerson},
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
    // Dates of birth: the structured detectors' dates in such a column are
    // birth dates (type_table_cells() retypes them; it adds no cell).
    {"dob", PiiType::kDateOfBirth}, {"d.o.b", PiiType::kDateOfBirth}, {"date of birth", PiiType::kDateOfBirth},
    {"birth date", PiiType::kDateOfBirth}, {"birthdate", PiiType::kDateOfBirth}, {"birthday", PiiType::kDateOfBirth},
    {"fecha de nacimiento", PiiType::kDateOfBirth}, {"geburtsdatum", PiiType::kDateOfBirth},
    {"date de naissance", PiiType::kDateOfBirth}, {"data di nascita", PiiType::kDateOfBirth},
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

// Whether the typed headers or labels of a table or record, `strong` and
// `weak` ones (each counted once) and personal ones, say that it is about
// people: a strong one, two weak ones, or a weak one beside a personal one.
bool about_people(size_t strong, size_t weak, bool personal) {
  return strong > 0 || weak >= 2 || (weak > 0 && personal);
}

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

// The offset in `s` of its first byte that `in_set` holds, or npos: a loop
// over the bytes (std::string_view::find_first_of searches the set for each
// byte, a call each).
template <typename InSet>
size_t first_of(std::string_view s, InSet in_set) {
  for (size_t k = 0; k < s.size(); ++k) {
    if (in_set(s[k])) return k;
  }
  return std::string_view::npos;
}

// Whether the cells are a Markdown table's rule line ("---", ":--:").
bool rule_line(std::string_view text, const Row& row) {
  for (size_t c = 0; c < row.count; ++c) {
    const std::string_view cell = text.substr(row.cells[c].begin, row.cells[c].end - row.cells[c].begin);
    if (cell.empty() || first_of(cell, [](char b) { return b != '-' && b != ':' && b != ' '; }) != std::string_view::npos) {
      return false;
    }
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
bool plausible_value(PiiType type, std::string_view value) {
  if (value.empty() || value.size() > kMaxValue || no_value(value)) return false;
  auto has = [&](auto test) { return std::any_of(value.begin(), value.end(), test); };
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  switch (type) {
    case PiiType::kZipCode:
      return value.size() <= 12 && has(digit);
    case PiiType::kAge:
      return value.size() <= 3 && std::all_of(value.begin(), value.end(), digit);
    case PiiType::kDateOfBirth:
      return false;  // only the dates found before are retyped
    default:
      // A letter (ASCII, or of two bytes or more), and no e-mail address in
      // a column of names.
      return has([](char c) { return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || static_cast<unsigned char>(c) >= 0x80; }) &&
             (type != PiiType::kPerson || value.find('@') == std::string_view::npos);
  }
}

// Whether a labelled value of a name, place, organisation or address reads
// as one (a few words, no question, no description: "name: the user's
// name" in a docstring is none; an address has a number; in text with
// capitals, capitalised words), where a table's cells are values by their
// place.
bool form_value(PiiType type, std::string_view value, bool mixed) {
  // (An address's label may stand before a name, the address on the lines
  // after it: "billing address: Tracy Sukhorukova".)
  if (type == PiiType::kStreetAddress) {
    return first_of(value, [](char c) { return c >= '0' && c <= '9'; }) != std::string_view::npos;
  }
  if (type != PiiType::kPerson && type != PiiType::kLocation && type != PiiType::kOrganization) return true;
  static constexpr std::string_view kNoNameMarks = "?!()[]{}<>=:@";
  if (first_of(value, [](char c) { return kNoNameMarks.find(c) != std::string_view::npos; }) != std::string_view::npos) {
    return false;
  }
  if (std::count(value.begin(), value.end(), ' ') >= 6) return false;
  static constexpr std::array<std::string_view, 9> kDeterminers = {"the ", "a ", "an ", "your ", "my ", "his ",
                                                                   "her ", "their ", "our "};
  for (const std::string_view d : kDeterminers) {
    if (value.size() > d.size() && std::equal(d.begin(), d.end(), value.begin(), [](char x, char y) {
          return static_cast<char>(tagger_rules::kByteView[static_cast<unsigned char>(y)].lower) == x;
        })) {
      return false;
    }
  }
  // In text with capitals, a name's words of three letters or more open
  // with one ("Jane Doe", "Gustavo de la Vega"; not "str", "nginx", "Where
  // they live").
  for (size_t at = 0; mixed && at < value.size();) {
    const size_t blank = std::min(value.find(' ', at), value.size());
    const auto opening = static_cast<unsigned char>(value[at]);
    if (blank - at >= 3 && opening >= 'a' && opening <= 'z') return false;
    at = blank + 1;
  }
  return true;
}

// Whether `cell` is made of what header cells and labels are: letters,
// digits, blanks and "_", "-", ".", "/", "#" (not code: "f(a, b)").
bool header_words_only(std::string_view cell) {
  return first_of(cell, [](char c) {
           const auto b = static_cast<unsigned char>(c);
           return !(pii_tokens::is_word_byte(b) || b == ' ' || b == '_' || b == '-' || b == '.' || b == '/' || b == '#');
         }) == std::string_view::npos;
}

// The same of each cell of `row`.
bool header_words_only(std::string_view text, const Row& row) {
  for (size_t c = 0; c < row.count; ++c) {
    if (!header_words_only(text.substr(row.cells[c].begin, row.cells[c].end - row.cells[c].begin))) return false;
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

// kHeaders and kPersonalHeaders in a table by a hash of their names: most
// words asked are none of them, and are turned away by one or two probes.
// Slot: 0 empty, k + 1 kHeaders[k], 1000 + k + 1 kPersonalHeaders[k].
constexpr uint32_t name_hash(std::string_view name) {
  uint32_t h = 2166136261u;
  for (const char c : name) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return h;
}
struct LabelTable {
  std::array<uint16_t, 512> slot{};
  std::array<uint32_t, 512> hash{};
};
constexpr uint16_t kPersonalSlot = 1000;
consteval LabelTable label_table() {
  LabelTable t;
  auto put = [&](std::string_view name, uint16_t value) {
    const uint32_t h = name_hash(name);
    size_t k = h % t.slot.size();
    while (t.slot[k] != 0) k = (k + 1) % t.slot.size();
    t.slot[k] = value;
    t.hash[k] = h;
  };
  for (size_t k = 0; k < std::size(kHeaders); ++k) put(kHeaders[k].name, static_cast<uint16_t>(k + 1));
  for (size_t k = 0; k < std::size(kPersonalHeaders); ++k) {
    put(kPersonalHeaders[k], static_cast<uint16_t>(kPersonalSlot + k + 1));
  }
  return t;
}
constexpr LabelTable kLabels = label_table();

// What a header cell or label names: a typed column's header, or else
// whether it is one of kPersonalHeaders.
struct Label {
  const Header* header = nullptr;
  bool personal = false;
};
Label read_label(std::string_view cell) {
  std::array<char, kMaxHeaderCell> buffer{};
  const std::string_view key = normalised(cell, buffer);
  Label label;
  if (key.empty()) return label;
  const uint32_t h = name_hash(key);
  for (size_t k = h % kLabels.slot.size(); kLabels.slot[k] != 0; k = (k + 1) % kLabels.slot.size()) {
    if (kLabels.hash[k] != h) continue;
    const uint16_t v = kLabels.slot[k];
    if (v > kPersonalSlot) {
      label.personal = kPersonalHeaders[v - kPersonalSlot - 1] == key;
      if (label.personal) return label;
    } else if (kHeaders[v - 1].name == key) {
      label.header = &kHeaders[v - 1];
      return label;
    }
  }
  return label;
}

// The values of SQL inserts that open a line ("INSERT INTO users (name,
// email, city) VALUES ('Anna Berg', 'anna@example.com', 'Oslo'), (...);"),
// typed by their columns as a table's cells by its header, under the same
// rule for weak columns; a value in quotes or bare, up to a comma or the
// tuple's end ('O''Brien' escapes its quote). Case tells nothing in SQL
// (form_value() without capitals). Appends to `cells` the values that
// `found_before` does not refuse, in order.
template <class FoundBefore>
void type_sql_inserts(std::string_view text, std::span<const pii_tokens::Token> tokens,
                      std::span<const uint32_t> line_starts, const FoundBefore& found_before, std::vector<PiiSpan>& cells) {
  // Whether the token that opens at byte `at` is `word`, in any case.
  auto word_at = [&](size_t at, std::string_view word) {
    const size_t k = tagger_rules::first_token_from(tokens, static_cast<uint32_t>(at));
    return k < tokens.size() && tokens[k].begin == at && tagger_rules::token_is(text, tokens[k], word);
  };
  auto skip_blanks = [&](size_t at) {
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r')) ++at;
    return at;
  };
  auto read_insert = [&](size_t at) {
    at = skip_blanks(at + 6);
    if (!word_at(at, "into")) return;
    // (Searches with a reach: a text of many lines that open so reads each
    // once.)
    auto find_within = [&](char c, size_t from, size_t reach) {
      const size_t end = std::min(text.size(), from + reach);
      const void* found = from < end ? std::memchr(text.data() + from, c, end - from) : nullptr;
      return found == nullptr ? std::string_view::npos : static_cast<size_t>(static_cast<const char*>(found) - text.data());
    };
    const size_t open = find_within('(', at, 4 + 128);
    if (open == std::string_view::npos) return;
    const size_t close = find_within(')', open, 4096);
    if (close == std::string_view::npos || std::memchr(text.data() + open, ';', close - open) != nullptr) return;
    // The columns, without quotes or brackets around their names.
    std::array<const Header*, kMaxCells> columns{};
    size_t count = 0, strong = 0, weak = 0;
    bool personal = false;
    for (size_t from = open + 1; from <= close && count < kMaxCells; ++count) {
      size_t to = from;
      while (to < close && text[to] != ',') ++to;
      size_t b = from, e = to;
      while (b < e && (text[b] == ' ' || text[b] == '`' || text[b] == '"' || text[b] == '[')) ++b;
      while (e > b && (text[e - 1] == ' ' || text[e - 1] == '`' || text[e - 1] == '"' || text[e - 1] == ']')) --e;
      const Label label = read_label(text.substr(b, e - b));
      columns[count] = label.header;
      if (label.header != nullptr) ++(label.header->weak ? weak : strong);
      personal = personal || label.personal;
      from = to + 1;
    }
    if (!about_people(strong, weak, personal)) return;
    at = skip_blanks(close + 1);
    if (!word_at(at, "values")) return;
    at += 6;
    // The tuples, each value to its column.
    for (;;) {
      at = skip_blanks(at);
      if (at >= text.size() || text[at] != '(') return;
      ++at;
      for (size_t c = 0;; ++c) {
        at = skip_blanks(at);
        size_t value_begin = at, value_end = at;
        if (at < text.size() && text[at] == '\'') {
          value_begin = ++at;
          while (at < text.size() && !(text[at] == '\'' && (at + 1 >= text.size() || text[at + 1] != '\''))) {
            at += text[at] == '\'' ? 2 : 1;
          }
          if (at >= text.size()) return;
          value_end = at++;
        } else {
          while (at < text.size() && text[at] != ',' && text[at] != ')' && text[at] != '\n') ++at;
          value_end = at;
          while (value_end > value_begin && text[value_end - 1] == ' ') --value_end;
        }
        if (c < count && columns[c] != nullptr) {
          const PiiType type = columns[c]->type;
          const std::string_view value = text.substr(value_begin, value_end - value_begin);
          const Cell cell{static_cast<uint32_t>(value_begin), static_cast<uint32_t>(value_end)};
          if (plausible_value(type, value) && form_value(type, value, false) && !found_before(cell)) {
            cells.push_back({type, cell.begin, cell.end});
          }
        }
        at = skip_blanks(at);
        if (at >= text.size() || text[at] == ')') break;
        if (text[at] != ',') return;
        ++at;
      }
      at = skip_blanks(at + 1);
      if (at >= text.size() || text[at] != ',') return;
      ++at;
    }
  };
  // (A statement opens a line: its first token is looked at.)
  auto insert_at = [&](size_t k) {
    if (k < tokens.size() && tagger_rules::token_is(text, tokens[k], "insert")) {
      read_insert(tokens[k].begin);
    }
  };
  if (!tokens.empty() && !tokens[0].newline_before) insert_at(0);
  for (const uint32_t k : line_starts) insert_at(k);
}

}  // namespace

std::optional<PiiType> column_type(std::string_view header) {
  const Header* h = read_label(header).header;
  if (h == nullptr) return std::nullopt;
  return h->type;
}

void type_table_cells(std::string_view text, std::span<const pii_tokens::Token> tokens, std::span<const uint32_t> line_starts,
                      bool mixed, std::vector<PiiSpan>& out, size_t first) {
  if (tokens.empty()) return;
  // The typed cells found, and the typed header cells, whose tagger's spans
  // go: applied at the end, in order of begin.
  thread_local std::vector<PiiSpan> cells;
  thread_local std::vector<Cell> headers;
  cells.clear();
  headers.clear();
  std::array<std::optional<PiiType>, kMaxCells> columns;
  Row row, next_row;
  tagger_rules::SpansFoundBefore before(out, first);
  auto found_before = [&](const Cell& cell) { return before.overlap(cell.begin, cell.end); };
  // The first span found before tagging that ends after byte `at`
  // (out[0, first) is sorted and without overlaps), or first.
  auto first_found_after = [&](uint32_t at) {
    return static_cast<size_t>(std::partition_point(out.begin(), out.begin() + static_cast<ptrdiff_t>(first),
                                                    [&](const PiiSpan& span) { return span.end <= at; }) -
                               out.begin());
  };
  // Whether a span found before tagging but a URL's overlaps `cell`; asked
  // in any order.
  auto found_before_but_urls = [&](const Cell& cell) {
    for (size_t k = first_found_after(cell.begin); k < first && out[k].begin < cell.end; ++k) {
      if (out[k].type != PiiType::kDomainName) return true;
    }
    return false;
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
  // The delimiter after line l's first cell: "|" or "{" where it opens the
  // line (a Markdown table's row, a JSON object on one line, "[{" too),
  // else a delimiter (",", ";", tab, "|" of a table; ":" or "=" of a
  // labelled value) right after its first token, or after the second where
  // a blank, "_" or "-" joins them into one header cell or label ("Full
  // Name,", "first_name:"; a quote's mark opens "\"Name\"," and closes
  // it); 0 for none. One look at most lines, asked of every line of every
  // text.
  auto delimiter_at = [&](size_t at) -> char {
    const char c = at < text.size() ? text[at] : '\n';
    return c == ',' || c == ';' || c == '\t' || c == '|' || c == ':' || c == '=' ? c : 0;
  };
  auto first_delimiter = [&](size_t l) -> char {
    const size_t from = first_token(l);
    const pii_tokens::Token& t = tokens[from];
    const char opening = text[t.begin];
    if (opening == '|' || opening == '{') return opening;
    // An XML element's tag ("<name>", "</customer>").
    if (opening == '<' && t.end < text.size() &&
        (text[t.end] == '/' || ((text[t.end] | 0x20) >= 'a' && (text[t.end] | 0x20) <= 'z'))) {
      return '<';
    }
    if (opening == '[' && t.end < text.size() && text[t.end] == '{') return '{';
    if (const char d = delimiter_at(t.end)) return d;
    const size_t after = l + 1 < lines ? first_token(l + 1) : tokens.size();
    if (from + 1 >= after) return 0;
    const char joint = text[t.end];
    const pii_tokens::Token& next = tokens[from + 1];
    if (opening == '"' || opening == '-') return delimiter_at(next.end + (opening == '"' ? 1 : 0));
    if (joint != ' ' && joint != '_' && joint != '-') return 0;
    if (const char d = delimiter_at(next.end)) return d;
    return joint != ' ' && from + 2 < after ? delimiter_at(tokens[from + 2].end) : 0;
  };
  // The labelled values of the record being read (consecutive lines of
  // "label: value" or "label = value"), typed once it ends: a weak label's
  // only beside another typed or a personal one, as a table's columns.
  struct Labelled {
    const Header* header;
    Cell label, value;
    bool usable;  // a value of its type: a label that names one is evidence all the same
    // A URL's or a path's query value (read_query()): the tagger's spans
    // inside it give way, and so does a URL's span found before over it.
    bool in_a_url;
    // An XML element's text, whose ends the markup gives: the tagger's
    // spans inside it give way ("<address>12 Nevsky Prospekt</address>",
    // where the decoder stopped at the number).
    bool bounded;
  };
  thread_local std::vector<Labelled> record;
  record.clear();
  bool personal_record = false;
  size_t record_end = 0;  // the byte after the record's last line
  // Whether the tagging found `value` already: a span of its type inside it
  // ("3913 calle de oro" of "address: 3913 calle de oro, sadly"), or one
  // over it that runs past it, an address that goes on over the lines after
  // its label's ("Address: 81 Dikbas Road\nTrancoso"): the spans know the
  // value's ends better than the line.
  size_t tagged = first;  // in out[first...]: the first that may overlap a value
  auto tagged_already = [&](const Cell& value, PiiType type) {
    while (tagged < out.size() && out[tagged].end <= value.begin) ++tagged;
    for (size_t k = tagged; k < out.size() && out[k].begin < value.end; ++k) {
      if (out[k].type == type || out[k].begin < value.begin || out[k].end > value.end) return true;
    }
    return false;
  };
  auto end_record = [&] {
    // (Weak labels count once each: a YAML file's items each have a name.)
    size_t strong = 0, weak = 0;
    for (size_t k = 0; k < record.size(); ++k) {
      const Header* h = record[k].header;
      const bool again = std::any_of(record.begin(), record.begin() + static_cast<ptrdiff_t>(k),
                                     [&](const Labelled& v) { return v.header == h; });
      if (!again) ++(h->weak ? weak : strong);
    }
    if (about_people(strong, weak, personal_record)) {
      for (const Labelled& v : record) {
        if (!v.usable) continue;
        if (v.in_a_url ? found_before_but_urls(v.value)
                       : found_before(v.value) || (!v.bounded && tagged_already(v.value, v.header->type))) {
          continue;
        }
        cells.push_back({v.header->type, v.value.begin, v.value.end});
        headers.push_back(v.label);
      }
    }
    record.clear();
    personal_record = false;
  };
  // A value with its label into the record: a typed one, where it reads as
  // a value of its type (form_value(), `capitals` its `mixed`); a personal
  // label's only as evidence.
  auto add_labelled = [&](size_t label_begin, size_t label_end, size_t value_begin, size_t value_end, bool capitals,
                          bool in_a_url = false, bool bounded = false) {
    const Label read = read_label(text.substr(label_begin, label_end - label_begin));
    if (const Header* h = read.header) {
      const std::string_view value = text.substr(value_begin, value_end - value_begin);
      record.push_back({h, {static_cast<uint32_t>(label_begin), static_cast<uint32_t>(label_end)},
                        {static_cast<uint32_t>(value_begin), static_cast<uint32_t>(value_end)},
                        plausible_value(h->type, value) && form_value(h->type, value, capitals), in_a_url, bounded});
    } else {
      personal_record = personal_record || read.personal;
    }
  };
  // Ends the record where a blank line comes before the line at `begin`.
  auto end_record_at_a_blank_line = [&](size_t begin) {
    if ((!record.empty() || personal_record) &&
        std::memchr(text.data() + record_end + 1, '\n', begin - record_end - 1) != nullptr) {
      end_record();
    }
  };
  // Line l as "label: value" (or "label = value", a JSON member on a line
  // of its own, a YAML item "- label: value"), where its label is a few
  // words: into the record (a blank line or any other line ends one).
  auto read_labelled = [&](size_t begin, size_t end) {
    end_record_at_a_blank_line(begin);
    size_t label_begin = begin;
    if (text[label_begin] == '"' || text[label_begin] == '-') ++label_begin;
    const size_t reach = std::min(end, label_begin + kMaxHeaderCell + 2);
    const size_t separator = first_of(text.substr(label_begin, reach - label_begin), [](char c) { return c == ':' || c == '='; });
    if (separator == std::string_view::npos) return false;
    size_t label_end = label_begin + separator;
    while (label_end > label_begin && (text[label_end - 1] == ' ' || text[label_end - 1] == '"')) --label_end;
    while (label_begin < label_end && text[label_begin] == ' ') ++label_begin;
    if (label_end == label_begin || !header_words_only(text.substr(label_begin, label_end - label_begin))) return false;
    // The value: to the line's end, or within quotes; without the marks a
    // record's syntax puts after it.
    size_t value_begin = label_begin + separator + 1;
    while (value_begin < end && text[value_begin] == ' ') ++value_begin;
    size_t value_end = end;
    if (value_begin < end && text[value_begin] == '"') {
      ++value_begin;
      const size_t quote = text.substr(value_begin, end - value_begin).find('"');
      if (quote != std::string_view::npos) value_end = value_begin + quote;
    }
    while (value_end > value_begin && (text[value_end - 1] == ' ' || text[value_end - 1] == '\r' ||
                                       text[value_end - 1] == ',' || text[value_end - 1] == ';' ||
                                       text[value_end - 1] == '.' || text[value_end - 1] == '"')) {
      --value_end;
    }
    record_end = end;
    add_labelled(label_begin, label_end, value_begin, value_end, mixed);
    return true;
  };
  // The members of a JSON object on one line ({"name": "Anna", "address":
  // {"city": "Oslo"}, "age": 34}), nested or not, its keys and strings in
  // `quote`s (a Python dict's may be in single ones): one record, which
  // ends with the line where `ends_record`.
  auto read_json_members = [&](size_t begin, size_t end, char quote = '"', bool ends_record = true) {
    for (size_t at = begin; at < end;) {
      const size_t key = text.substr(at, end - at).find(quote);
      if (key == std::string_view::npos) break;
      const size_t key_begin = at + key + 1;
      const size_t key_end = text.substr(key_begin, end - key_begin).find(quote);
      if (key_end == std::string_view::npos) break;
      size_t k = key_begin + key_end + 1;
      while (k < end && text[k] == ' ') ++k;
      if (k >= end || text[k] != ':') {
        at = k;
        continue;
      }
      ++k;
      while (k < end && text[k] == ' ') ++k;
      size_t value_begin = k, value_end = k;
      if (k < end && text[k] == quote) {
        value_begin = k + 1;
        const size_t closing = text.substr(value_begin, end - value_begin).find(quote);
        value_end = closing == std::string_view::npos ? end : value_begin + closing;
        at = value_end + 1;
      } else {
        while (value_end < end && text[value_end] != ',' && text[value_end] != '}' && text[value_end] != ']' &&
               text[value_end] != '{' && text[value_end] != '[') {
          ++value_end;
        }
        while (value_end > value_begin && text[value_end - 1] == ' ') --value_end;
        at = std::max(value_end, k + 1);
      }
      add_labelled(key_begin, key_begin + key_end, value_begin, value_end, mixed);
    }
    if (ends_record) {
      end_record();
    } else {
      record_end = end;
    }
  };
  // The elements with a text of their own on a line of XML
  // ("<name>Henrik Aaltonen</name><street>Mannerheimintie 22</street>"):
  // each a labelled value, its tag the label, into the record that the
  // lines of XML around it make (an element that holds others,
  // "<customer>", is none, nor one with an attribute, a self-closing one
  // or a closing tag).
  auto read_xml_elements = [&](size_t begin, size_t end) {
    end_record_at_a_blank_line(begin);
    for (size_t at = begin; at < end;) {
      const size_t open = text.substr(at, end - at).find('<');
      if (open == std::string_view::npos) break;
      const size_t name_begin = at + open + 1;
      size_t name_end = name_begin;
      while (name_end < end && (pii_tokens::is_word_byte(static_cast<unsigned char>(text[name_end])) || text[name_end] == '_' ||
                                text[name_end] == '-')) {
        ++name_end;
      }
      if (name_end == name_begin || name_end >= end || text[name_end] != '>') {
        at = name_begin;
        continue;
      }
      const std::string_view name = text.substr(name_begin, name_end - name_begin);
      const size_t value_begin = name_end + 1;
      const size_t close = text.substr(value_begin, end - value_begin).find('<');
      if (close == std::string_view::npos) break;
      const size_t value_end = value_begin + close;
      const std::string_view closing = text.substr(value_end, end - value_end);
      if (closing.size() < name.size() + 3 || closing[1] != '/' || closing.substr(2, name.size()) != name ||
          closing[name.size() + 2] != '>') {
        at = value_end;  // an element that holds others: its first child's tag
        continue;
      }
      size_t b = value_begin, e = value_end;
      while (b < e && text[b] == ' ') ++b;
      while (e > b && text[e - 1] == ' ') --e;
      if (b < e) add_labelled(name_begin, name_end, b, e, mixed, false, true);
      at = value_end + name.size() + 3;
    }
    record_end = end;
  };
  // A JSON object or a dict that opens inside line l, after prose or a
  // label ("Fix this JSON: {\"name\": ...}", "user = {'name': ...}"): the
  // byte of its "{", followed by a quoted key and a colon, or npos. One
  // memchr() finds the next "{" of the text for many lines: most texts
  // have none.
  auto brace_from = [&](size_t from) -> size_t {
    const void* found = from < text.size() ? std::memchr(text.data() + from, '{', text.size() - from) : nullptr;
    return found == nullptr ? std::string_view::npos : static_cast<size_t>(static_cast<const char*>(found) - text.data());
  };
  size_t next_brace = brace_from(0);  // the first "{" not yet turned away
  auto object_in_line = [&](size_t l) -> size_t {
    const size_t line_begin = tokens[first_token(l)].begin;
    const size_t next_line = l + 1 < lines ? tokens[first_token(l + 1)].begin : text.size();
    if (next_brace < line_begin) next_brace = brace_from(line_begin);
    for (; next_brace < next_line; next_brace = brace_from(next_brace + 1)) {
      size_t k = next_brace + 1;
      while (k < next_line && text[k] == ' ') ++k;
      if (k >= next_line || (text[k] != '"' && text[k] != '\'')) continue;
      const char quote = text[k];
      const size_t reach = std::min(next_line, k + 1 + kMaxHeaderCell + 1);
      size_t close = k + 1;
      while (close < reach && text[close] != quote && text[close] != '\n') ++close;
      if (close >= reach || text[close] != quote) continue;
      size_t colon = close + 1;
      while (colon < next_line && text[colon] == ' ') ++colon;
      if (colon < next_line && text[colon] == ':') return next_brace;
    }
    return std::string_view::npos;
  };
  // The pairs of a query string from `begin` up to a blank, "#" or `end`:
  // one record. A line that is one (`in_a_url` false: "first_name=Chidi&
  // city=Lagos") has two pairs or more; a URL's query (after its "?":
  // "https://crm.example.com/c?first_name=Chidi&city=Lagos") also ends at a
  // quote or an angle bracket, and a sentence's marks after it are none of
  // its last value ("...&city=Lagos)."). Where it stopped, or npos where
  // it read none.
  auto read_query = [&](size_t begin, size_t end, bool in_a_url) -> size_t {
    size_t at = begin, stop = begin;
    while (stop < end && text[stop] != ' ' && text[stop] != '#' &&
           !(in_a_url && (text[stop] == '"' || text[stop] == '\'' || text[stop] == '<' || text[stop] == '>'))) {
      ++stop;
    }
    while (in_a_url && stop > begin && (text[stop - 1] == '.' || text[stop - 1] == ',' || text[stop - 1] == ';' ||
                                       text[stop - 1] == ')' || text[stop - 1] == '!' || text[stop - 1] == '\r')) {
      --stop;
    }
    if (!in_a_url && std::memchr(text.data() + at, '&', stop - at) == nullptr) return std::string_view::npos;
    if (!record.empty() || personal_record) end_record();
    while (at < stop) {
      size_t pair_end = at;
      while (pair_end < stop && text[pair_end] != '&') ++pair_end;
      const void* eq = std::memchr(text.data() + at, '=', pair_end - at);
      if (eq != nullptr) {
        const auto key_end = static_cast<size_t>(static_cast<const char*>(eq) - text.data());
        // (A URL's value is no sentence's words: its case tells nothing.)
        add_labelled(at, key_end, key_end + 1, pair_end, mixed && !in_a_url, in_a_url);
      }
      at = pair_end + 1;
    }
    end_record();
    return stop;
  };
  for (size_t l = 0; l < lines;) {
    const char delimiter = first_delimiter(l);
    // An object inside a line: its members join the labelled record being
    // read after a label ("Parse this: {...}"), or make one of their own.
    if (delimiter != '{' && next_brace != std::string_view::npos) {
      if (const size_t object = object_in_line(l); object != std::string_view::npos) {
        const bool labelled = delimiter == ':' || delimiter == '=';
        if (!labelled && (!record.empty() || personal_record)) end_record();
        const size_t end = line_bytes(l).second;
        size_t quote = object + 1;
        while (text[quote] == ' ') ++quote;
        read_json_members(object, end, text[quote], !labelled);
        ++l;
        continue;
      }
    }
    if (delimiter == ':' || delimiter == '=') {
      const auto [begin, end] = line_bytes(l);
      // (A query string is read pair by pair.)
      const bool query = delimiter == '=' && read_query(begin, end, false) != std::string_view::npos;
      if (!query && !read_labelled(begin, end)) end_record();
      ++l;
      continue;
    }
    if (delimiter == '<') {
      const auto [begin, end] = line_bytes(l);
      read_xml_elements(begin, end);
      ++l;
      continue;
    }
    if (!record.empty() || personal_record) end_record();
    if (delimiter == '{') {
      const auto [begin, end] = line_bytes(l);
      read_json_members(begin, end);
      ++l;
      continue;
    }
    if (delimiter == 0 || l + 1 == lines) {
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
      const size_t at =
          first_of(text.substr(begin, end - begin), [](char c) { return c == ',' || c == ';' || c == '\t' || c == '|'; });
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
        const Label label = read_label(text.substr(row.cells[c].begin, row.cells[c].end - row.cells[c].begin));
        found[c] = label.header;
        if (found[c] != nullptr) ++(found[c]->weak ? weak : strong);
        personal = personal || label.personal;
      }
      const bool people = about_people(strong, weak, personal);
      for (size_t c = 0; c < row.count; ++c) {
        columns[c] = found[c] != nullptr && people ? std::optional<PiiType>(found[c]->type) : std::nullopt;
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
        if (columns[c] == PiiType::kDateOfBirth) {
          for (size_t k = first_found_after(cell.begin); k < first && out[k].begin < cell.end; ++k) {
            if (out[k].type == PiiType::kDateTime) out[k].type = PiiType::kDateOfBirth;
          }
          continue;
        }
        if (!columns[c] || !plausible_value(*columns[c], text.substr(cell.begin, cell.end - cell.begin)) || found_before(cell)) {
          continue;
        }
        cells.push_back({*columns[c], cell.begin, cell.end});
      }
    }
    if (rows == 0) headers.resize(headers_before);  // no table: a line with commas
    l = rows == 0 ? l + 1 : r;
  }
  end_record();
  // The queries of URLs and paths ("https://crm.example.com/c?first_name=
  // Chidi&city=Lagos", "GET /users?name=Ann+Lee&email=..."): "?" after a
  // path's byte, a key and "=" right after it. A URL's span found before
  // tagging gives way to the values typed in its query and stays over the
  // rest of it: it is cut into pieces around them (its first piece stays
  // where it was, the others are cells), so that a policy that lets web
  // sites out lets the query's names out no more.
  // (Most texts have no "=": one memchr() for them.)
  const bool pairs = std::memchr(text.data(), '=', text.size()) != nullptr;
  size_t line_end = 0;  // the end of the line of the last "?" read (once per line: "?"s only go forward)
  for (size_t q = pairs ? text.find('?') : text.npos; q != std::string_view::npos; q = text.find('?', q + 1)) {
    if (q == 0 || text[q - 1] == ' ' || text[q - 1] == '\n' || q + 2 >= text.size()) continue;
    const size_t reach = std::min(text.size(), q + 1 + kMaxHeaderCell + 1);
    size_t eq = q + 1;
    while (eq < reach && (pii_tokens::is_word_byte(static_cast<unsigned char>(text[eq])) || text[eq] == '_' ||
                          text[eq] == '-' || text[eq] == '.')) {
      ++eq;
    }
    if (eq == q + 1 || eq == reach || text[eq] != '=') continue;
    const size_t typed_before = cells.size();
    if (q >= line_end) line_end = std::min(text.find('\n', q), text.size());
    const size_t stop = read_query(q + 1, line_end, true);
    const size_t url = first_found_after(static_cast<uint32_t>(q));
    if (cells.size() > typed_before && url < first && out[url].begin < q && out[url].type == PiiType::kDomainName) {
      const uint32_t url_end = out[url].end;
      bool cut = false;
      for (size_t c = typed_before, typed_after = cells.size(); c < typed_after; ++c) {
        const PiiSpan value = cells[c];
        if (value.end > url_end) break;
        if (!cut) {
          out[url].end = value.begin;
          cut = true;
        }
        const uint32_t piece_end = c + 1 < typed_after && cells[c + 1].end <= url_end ? cells[c + 1].begin : url_end;
        if (value.end < piece_end) cells.push_back({PiiType::kDomainName, value.end, piece_end});
      }
    }
    // (The next "?" is looked for past this query: one inside it is a
    // value's, and reading from each would take time in the square of a
    // line's length.)
    q = std::max(q, stop - 1);
  }
  // (A value found before tagging, an e-mail address or a phone number,
  // stays as it is.)
  type_sql_inserts(text, tokens, line_starts, [&](const Cell& cell) {
    const size_t k = first_found_after(cell.begin);
    return k < first && out[k].begin < cell.end;
  }, cells);
  if (cells.empty()) return;
  // (Found in the text's order, as the merge below needs them; sorted all
  // the same, as nothing else checks it.)
  std::sort(cells.begin(), cells.end(), [](const PiiSpan& a, const PiiSpan& b) { return a.begin < b.begin; });
  std::sort(headers.begin(), headers.end(), [](const Cell& a, const Cell& b) { return a.begin < b.begin; });
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
