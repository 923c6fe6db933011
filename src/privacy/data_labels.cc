#include "data_labels.h"

#include "tiergate/privacy/pii_dataset.h"

#include <algorithm>
#include <array>

namespace tiergate::pii_scan {
namespace {

// In small letters, sorted by their bytes (bisection).
constexpr std::array<std::string_view, 52> kDataLabels = {
    "account", "acct", "amex", "bic", "card", "cc", "cell", "cellphone", "correo", "courriel", "cvv",
    "discover", "dob", "e-mail", "email", "ether", "fax", "handy", "host", "hostname", "hwaddr", "iban",
    "inet", "inet6", "ip", "ipv4", "ipv6", "konto", "kontonummer", "mac", "maestro", "mail", "mastercard",
    "mob", "mobil", "mobile", "móvil", "passport", "phone", "ssn", "swift", "tel", "telefon", "telefone",
    "telefono", "telefoon", "telephone", "telepon", "teléfono", "téléphone", "visa", "whatsapp"
};
static_assert(std::is_sorted(kDataLabels.begin(), kDataLabels.end()), "kDataLabels is searched by bisection");

// Words between a label and its value: "Phone number: ...", "Mac address ...".
constexpr std::array<std::string_view, 6> kLabelNouns = {"addr", "address", "id", "no", "nr", "number"};

bool names_by_a_word(PiiType type) {
  return type == PiiType::kPerson || type == PiiType::kLocation || type == PiiType::kOrganization ||
         type == PiiType::kStreetAddress;
}

bool blank(char c) { return c == ' ' || c == '\t'; }

}  // namespace

bool data_label(std::string_view word) {
  return std::binary_search(kDataLabels.begin(), kDataLabels.end(), word);
}

void drop_data_labels(std::string_view text, std::vector<PiiSpan>& out, size_t first) {
  // Where the value after a label that ends at p may begin: past blanks,
  // one mark and blanks.
  auto past_blanks_and_a_mark = [&](size_t p) {
    while (p < text.size() && blank(text[p])) ++p;
    if (p < text.size() && (text[p] == ':' || text[p] == '#' || text[p] == '.')) ++p;
    while (p < text.size() && blank(text[p])) ++p;
    return p;
  };
  // (No label has more than 16 bytes: a longer span is not copied.)
  auto label_word = [&](const PiiSpan& span) {
    std::string_view word = text.substr(span.begin, span.end - span.begin);
    if (word.ends_with('.')) word.remove_suffix(1);
    return word.size() <= 16 && data_label(small_letters(word));
  };
  // Whether the value of out[s + 1] follows the label of out[s].
  auto value_follows = [&](size_t s) {
    if (s + 1 == out.size() || names_by_a_word(out[s + 1].type)) return false;
    const size_t value = out[s + 1].begin;
    size_t p = past_blanks_and_a_mark(out[s].end);
    if (p == value) return true;
    size_t noun_end = p;
    while (noun_end < value && (text[noun_end] | 0x20) >= 'a' && (text[noun_end] | 0x20) <= 'z') ++noun_end;
    const std::string noun = small_letters(text.substr(p, noun_end - p));
    return std::binary_search(kLabelNouns.begin(), kLabelNouns.end(), std::string_view(noun)) &&
           past_blanks_and_a_mark(noun_end) == value;
  };
  size_t kept = first;
  for (size_t s = first; s < out.size(); ++s) {
    if (!(names_by_a_word(out[s].type) && value_follows(s) && label_word(out[s]))) out[kept++] = out[s];
  }
  out.resize(kept);
}

}  // namespace tiergate::pii_scan
