// Characters that stand, in typeset or pasted text, for the ASCII the
// detectors read: a no-break space (U+00A0, U+202F narrow, U+2007 figure)
// for a space, a non-breaking hyphen (U+2011), a hyphen (U+2010) or an en
// dash (U+2013) for "-", full-width digits and "@" (U+FF10-FF19, U+FF20) for
// theirs; and invisible ones that split a value without showing (zero-width
// space, non-joiner and joiner U+200B-U+200D, word joiner U+2060, soft
// hyphen U+00AD, U+FEFF); and an "@" as a URL or HTML encodes it ("%40",
// "&#64;", "&#x40;", "&commat;"). Left as they are, "4111 1111 1111 1111"
// with no-break spaces was no card number, "06 12 34 56 78" no phone
// number, and a zero-width space or "jane%40example.com" hid an e-mail
// address. find_pii() scans the plain text and maps its spans back.
// Private to the privacy module.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tiergate::pii_scan {

// A text made plain, and where each of its bytes came from.
struct PlainText {
  std::string text;
  // offset[k]: the offset in the original text of byte k of `text`;
  // offset[text.size()]: the original text's size.
  std::vector<uint32_t> offset;
};

// `text` with those characters made plain (removed, or replaced by their
// ASCII), everything else as it is. Returns `text` itself, and leaves
// `plain` untouched, when it holds none of them (most texts: one pass over
// the bytes); otherwise `plain`'s text, with its offsets.
std::string_view plain_text(std::string_view text, PlainText& plain);

}  // namespace tiergate::pii_scan
