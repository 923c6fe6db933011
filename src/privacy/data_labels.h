// Words that label a field of personal data ("Telefon:", "IBAN", "MAC",
// "Mastercard") written right before the value a structured detector found.
// The tagger reads such a capitalised word before a value as a name, place
// or address ("Telefon: +49 30 1234567" gave the name "Telefon"); it names
// no one. Private to the privacy module.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "tiergate/privacy/structured_pii.h"

namespace tiergate::pii_scan {

// Whether `word`, in small letters, labels a field of personal data: a
// phone, bank, card, network, mail or identity number's ("telefon",
// "téléphone", "iban", "mastercard", "mac", "e-mail", "ssn").
bool data_label(std::string_view word);

// Drops each span of out[first...] that names a person, place,
// organisation or address and is one data_label() word, where the next
// span holds a value of another type (a structured detector's) that begins
// past blanks, a colon, "#" or a stop, and at most one of "number", "no",
// "nr", "address", "addr" or "id" with its own mark ("Mac address
// 00:1A:2B:3C:4D:5E", "Telefon: +49 30 1234567"). The same word elsewhere
// stays ("Visa announced"). Precondition: out[first...] sorted by begin and
// without overlaps (resolve_pii_overlaps()); it stays so.
void drop_data_labels(std::string_view text, std::vector<PiiSpan>& out, size_t first);

}  // namespace tiergate::pii_scan
