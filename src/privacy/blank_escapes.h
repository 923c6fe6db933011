// Escapes for blanks written out in prompt text: the two characters "\n",
// "\t" and "\r" that JSON and C strings hold for a line break, a tab and a
// carriage return, pasted into a prompt as they are (a log line, a
// program's output, a JSON document). The tagger reads words as runs of
// letters, so "\nKyle" would be one word "nKyle", which opens with no
// capital: the name after the escape would be lost, and in text without
// capitals "\nprint" would read as an unknown word "nprint". Private to the
// privacy module.
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
