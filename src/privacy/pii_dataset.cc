#include "tiergate/privacy/pii_dataset.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tagger_tokens.h"
#include "tiergate/privacy/utf8_offsets.h"

namespace tiergate {
namespace {

using nlohmann::json;

Status row_error(std::string_view source, size_t line, const std::string& message) {
  return invalid_argument(std::string(source) + ":" + std::to_string(line) + ": " + message);
}

bool is_blank(std::string_view s) {
  for (char c : s) {
    if (c != ' ' && c != '\t' && c != '\r') return false;
  }
  return true;
}

// One row into `out`; an error message (without the location) or "".
std::string parse_row(std::string_view line, PiiExample& out) {
  json row = json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
  if (row.is_discarded()) return "not valid JSON";
  if (!row.is_object()) return "a row must be a JSON object";
  auto text = row.find("text");
  if (text == row.end() || !text->is_string()) return "`text` must be a string";
  out.text = text->get<std::string>();
  auto spans = row.find("spans");
  if (spans == row.end() || spans->is_null()) return "";
  if (!spans->is_array()) return "`spans` must be an array";
  const Utf8OffsetMap offsets(out.text);
  size_t index = 0;
  for (const json& span : *spans) {
    const std::string where = "spans[" + std::to_string(index++) + "]: ";
    if (!span.is_object()) return where + "must be an object";
    auto type = span.find("type");
    if (type == span.end() || !type->is_string()) return where + "`type` must be a string";
    const std::optional<PiiType> parsed = parse_pii_type(type->get<std::string>());
    if (!parsed) return where + "unknown type '" + type->get<std::string>() + "'";
    auto start = span.find("start");
    auto end = span.find("end");
    if (start == span.end() || end == span.end() || !start->is_number_integer() || !end->is_number_integer()) {
      return where + "`start` and `end` must be integers";
    }
    const int64_t s = start->get<int64_t>(), e = end->get<int64_t>();
    if (s < 0 || e <= s) return where + "needs 0 <= start < end";
    const std::optional<uint32_t> b = offsets.byte_offset(static_cast<size_t>(s));
    const std::optional<uint32_t> f = offsets.byte_offset(static_cast<size_t>(e));
    if (!b || !f) {
      return where + "span [" + std::to_string(s) + ", " + std::to_string(e) + ") is past the text's " +
             std::to_string(offsets.code_points()) + " characters";
    }
    out.spans.push_back({*parsed, *b, *f});
  }
  return "";
}

}  // namespace

StatusOr<std::vector<PiiExample>> parse_pii_jsonl(std::string_view content, std::string_view source) {
  std::vector<PiiExample> rows;
  size_t line_no = 0;
  size_t pos = 0;
  while (pos < content.size()) {
    size_t eol = content.find('\n', pos);
    if (eol == std::string_view::npos) eol = content.size();
    const std::string_view line = content.substr(pos, eol - pos);
    pos = eol + 1;
    ++line_no;
    if (is_blank(line)) continue;
    PiiExample example;
    const std::string error = parse_row(line, example);
    if (!error.empty()) return row_error(source, line_no, error);
    rows.push_back(std::move(example));
  }
  return rows;
}

StatusOr<std::vector<PiiExample>> load_pii_jsonl(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return not_found("cannot open " + path);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return unavailable("cannot read " + path);
  return parse_pii_jsonl(buffer.str(), path);
}

namespace {

// The small letter of capital `cp` when it has one of as many UTF-8 bytes
// (0x80-0x7ff stay two bytes, 0x800-0xffff three); cp otherwise.
uint32_t small_letter_of(uint32_t cp) {
  if ((cp >= 'A' && cp <= 'Z') || (cp >= 0xc0 && cp <= 0xde && cp != 0xd7)) return cp + 0x20;
  if (cp == 0x130 || cp == 0x1e9e) return cp;  // "İ" is "i̇", "ẞ" is "ß": other lengths
  if (cp == 0x178) return 0xff;                // "Ÿ"
  if (pii_tokens::latin_extended_case(cp) == pii_tokens::LatinExtendedCase::kCapital) return cp + 1;
  if (cp == 0x386) return 0x3ac;                                 // "Ά"
  if (cp >= 0x388 && cp <= 0x38a) return cp + 0x25;              // "Έ" to "Ί"
  if (cp == 0x38c) return 0x3cc;                                 // "Ό"
  if (cp == 0x38e || cp == 0x38f) return cp + 0x3f;              // "Ύ", "Ώ"
  if (cp >= 0x391 && cp <= 0x3ab && cp != 0x3a2) return cp + 0x20;  // "Α" to "Ϋ"
  if (cp >= 0x400 && cp <= 0x40f) return cp + 0x50;              // "Ѐ" to "Џ"
  if (cp >= 0x410 && cp <= 0x42f) return cp + 0x20;              // "А" to "Я"
  return cp;
}

// The capital of small letter `cp` that small_letter_of() maps to it
// ("ς" to "Σ" too); cp otherwise.
uint32_t capital_letter_of(uint32_t cp) {
  if ((cp >= 'a' && cp <= 'z') || (cp >= 0xe0 && cp <= 0xfe && cp != 0xf7)) return cp - 0x20;
  if (cp == 0xff) return 0x178;  // "ÿ"
  if (pii_tokens::latin_extended_case(cp) == pii_tokens::LatinExtendedCase::kSmall &&
      small_letter_of(cp - 1) == cp) {
    return cp - 1;
  }
  if (cp == 0x3ac) return 0x386;                                 // "ά"
  if (cp >= 0x3ad && cp <= 0x3af) return cp - 0x25;              // "έ" to "ί"
  if (cp == 0x3cc) return 0x38c;                                 // "ό"
  if (cp == 0x3cd || cp == 0x3ce) return cp - 0x3f;              // "ύ", "ώ"
  if (cp == 0x3c2) return 0x3a3;                                 // "ς"
  if (cp >= 0x3b1 && cp <= 0x3cb) return cp - 0x20;              // "α" to "ϋ"
  if (cp >= 0x450 && cp <= 0x45f) return cp - 0x50;              // "ѐ" to "џ"
  if (cp >= 0x430 && cp <= 0x44f) return cp - 0x20;              // "а" to "я"
  return cp;
}

// `text` with each letter of two or three UTF-8 bytes, and each ASCII
// letter, mapped by `letter_of` to a code point of as many bytes; other
// bytes, invalid UTF-8 included, stay as they are.
template <typename LetterOf>
std::string map_letters(std::string_view text, LetterOf letter_of) {
  std::string out(text);
  auto* s = reinterpret_cast<unsigned char*>(out.data());
  for (size_t k = 0; k < out.size(); ++k) {
    const unsigned char c = s[k];
    if (c < 0x80) {
      s[k] = static_cast<unsigned char>(letter_of(c));
      continue;
    }
    // Two bytes (U+0080-U+07FF) or three (U+0800-U+FFFF), whole.
    const size_t n = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : 0;
    if (n == 0 || k + n > out.size() || (s[k + 1] & 0xc0) != 0x80 || (n == 3 && (s[k + 2] & 0xc0) != 0x80)) continue;
    const uint32_t cp = n == 2 ? (uint32_t{c} & 0x1f) << 6 | (s[k + 1] & 0x3fu)
                               : (uint32_t{c} & 0x0f) << 12 | (s[k + 1] & 0x3fu) << 6 | (s[k + 2] & 0x3fu);
    const uint32_t mapped = letter_of(cp);
    if (n == 2) {
      s[k] = static_cast<unsigned char>(0xc0 | mapped >> 6);
      s[k + 1] = static_cast<unsigned char>(0x80 | (mapped & 0x3f));
    } else {
      s[k] = static_cast<unsigned char>(0xe0 | mapped >> 12);
      s[k + 1] = static_cast<unsigned char>(0x80 | ((mapped >> 6) & 0x3f));
      s[k + 2] = static_cast<unsigned char>(0x80 | (mapped & 0x3f));
    }
    k += n - 1;
  }
  return out;
}

}  // namespace

std::string small_letters(std::string_view text) { return map_letters(text, small_letter_of); }

std::string capital_letters(std::string_view text) { return map_letters(text, capital_letter_of); }

}  // namespace tiergate
