// Structured personal data and secrets in free text: one pass over the bytes,
// with validation (checksums, ranges, context), not bare patterns.
//
// Found: EMAIL_ADDRESS, PHONE_NUMBER, CREDIT_CARD (Luhn + issuer ranges),
// IBAN_CODE (per-country length + mod 97), US_SSN, IP_ADDRESS (IPv4, IPv6),
// MAC_ADDRESS, DATE_TIME (DATE_OF_BIRTH after words of birth: "DOB", "born
// on"), DOMAIN_NAME (hosts and URLs), US_DRIVER_LICENSE, US_PASSPORT and
// MEDICAL_RECORD_NUMBER (after their keywords; an NHS number also by its
// mod-11 check digit), API_KEY (provider prefixes, JWTs,
// key=value secrets, high-entropy tokens), PRIVATE_KEY (PEM blocks) and
// PASSWORD (the value in password=... forms); AGE, ZIP_CODE and STREET_ADDRESS
// units where the words around a number say so ("aged 45", "zip code 94103",
// "Apt. 217"), and NRP where the words around a group word describe someone
// ("I am Catholic"). Nothing depends on letter case, since prompts may be
// lower-cased. Not found here: a bare postal code (only an address part; the
// tagger's STREET_ADDRESS covers it), and the unstructured types (the learned
// tagger's; resolve_pii_overlaps merges its spans with these). Each matcher's
// file documents its rules and what it deliberately leaves out.
//
// Why hand-written scanning instead of RE2/vectorscan: every type needs work
// a regular expression cannot do (Luhn and mod-97 checksums, numeric ranges,
// per-country IBAN lengths, a TLD table, keyword context before or after a
// number, entropy), so a regex engine would only find candidates that still
// need re-parsing, and a multi-pattern scan with ~20 patterns costs more than
// this one: SIMD bit masks (SSE2, AVX2 or AVX-512 where present) find the few bytes
// where a type can start (digits and a handful of marks), and only there a
// matcher runs. Matchers read a bounded number of bytes (no backtracking);
// a private key block, the one unbounded match, is skipped once found. So a
// scan is linear in the text, also for adversarial input (megabytes of
// digits or of BEGIN lines).
#pragma once

#include <string_view>
#include <vector>

#include "tiergate/privacy/pii_types.h"

namespace tiergate {

// Appends to `out` the structured spans found in `text`, in byte offsets,
// sorted by begin and non-overlapping (among themselves; spans already in
// `out` are left as they are and not considered). Overlaps between candidates
// are resolved by pii_type_rank, as resolve_pii_overlaps documents, except
// that a generic high-entropy token ranks below every other structured type
// (a provider-prefixed key ranks as API_KEY).
//
// Spans begin and end on ASCII bytes, so they are code point boundaries also
// when `text` is not valid UTF-8 (invalid bytes are treated as separators).
// Precondition: text.size() < 2^32 (offsets are 32-bit; prompts are bounded
// far below that by the server's body limit).
// Thread-safety: pure; safe to call concurrently. Allocates only when it finds
// something (and `out` grows).
void find_structured_pii(std::string_view text, std::vector<PiiSpan>& out);

// How specific a type's evidence is; the higher rank wins an overlap.
// PRIVATE_KEY > CREDIT_CARD = IBAN_CODE (checksums) > API_KEY = PASSWORD
// (explicit prefixes or key=value) > EMAIL_ADDRESS (contains a domain) >
// US_SSN = US_DRIVER_LICENSE = US_PASSPORT = MEDICAL_RECORD_NUMBER (keyword
// or strict shape) >
// IP_ADDRESS = MAC_ADDRESS > DATE_TIME = DATE_OF_BIRTH > PHONE_NUMBER (the loosest numeric
// shape) > ZIP_CODE > DOMAIN_NAME > the unstructured types (STREET_ADDRESS >
// PERSON = ORGANIZATION > LOCATION = NRP = AGE > TITLE = PREFIX).
int pii_type_rank(PiiType type);

// Makes `spans` non-overlapping and sorted by begin: spans are taken in order
// of rank (higher first), then length (longer first), then begin (earlier
// first), and a span is kept when it overlaps none kept before it. Meant for
// merging the structured scan with other detectors (the learned tagger).
// O(n log n). An unstructured span (ranked below DOMAIN_NAME) that a better
// one overlaps keeps what comes before that one: an address that runs on
// into a phone number keeps its lines above it. One that begins inside a
// better span goes. (find_structured_pii cuts URLs the same way: one whose
// path holds a better span is cut before it, so the host stays covered.)
void resolve_pii_overlaps(std::vector<PiiSpan>& spans);

}  // namespace tiergate
