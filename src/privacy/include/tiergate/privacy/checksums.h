// The validity checks behind the structured detectors, usable on their own
// (e.g. by a policy that re-checks a value, or by tests). All are pure and
// allocation-free.
#pragma once

#include <string_view>

namespace tiergate {

// The Luhn (mod 10) check of a payment card number. `digits` holds ASCII
// digits only; false for anything else or for an empty string.
bool luhn_valid(std::string_view digits);

// Whether `digits` (ASCII digits, the whole card number) starts with an issuer
// range of a known scheme (Visa, Mastercard, American Express, Discover,
// Diners Club, JCB, UnionPay, Maestro, Mir, RuPay) and has a length that
// scheme issues. Does not check Luhn.
bool card_issuer_known(std::string_view digits);

// The IBAN length for a two-letter country code (either case), or 0 when the
// country does not issue IBANs (SWIFT registry, 2024).
int iban_length(char c0, char c1);

// A whole IBAN without spaces, either case: letters + two check digits +
// alphanumeric BBAN, the country's length, and the ISO 7064 mod 97-10 check
// (the rearranged number mod 97 == 1).
bool iban_valid(std::string_view compact);

}  // namespace tiergate
