// Escapes for blanks written out in prompt text: the two characters "\n",
// "\t" and "\r" that JSON and C strings hold for a line break, a tab and a
// carriage return, pasted into a prompt as they are (a log line, a
// program's output, a JSON document). Read as letters, the escape's letter
// would join the word or number after it: "\n4111 1111 1111 1111" would be
// no card number (one starts apart from letters), "\nKyle" one word
// "nKyle" that opens with no capital, so the name would be lost, and in
// text without capitals "\nprint" an unknown word. find_pii() scans the
// text through without_blank_escapes(). Private to the privacy module.
#pragma once

#include <string>
#include <string_view>

namespace tiergate::pii_scan {

// `text` with each such escape turned into blanks of its length: "\n" into
// a space and a line feed (lines stay lines), "\t" and "\r" into two spaces.
// An escaped backslash ("\\") stays as it is, with the letter after it
// ("C:\\new": the folder "new"). Every other byte and every offset stay the
// same, so spans found in the result fit `text`. Returns `text` itself when
// it holds no backslash; otherwise the result is written into `buffer`.
std::string_view without_blank_escapes(std::string_view text, std::string& buffer);

}  // namespace tiergate::pii_scan
