#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace cumap {

// User input quoted in an error message, made safe for a one-line message:
// control characters (line breaks, NUL, CR, escape sequences, C1 controls,
// U+2028/U+2029) and bytes that are not UTF-8 are written as escapes (\n,
// \x00, \u2028), and text longer than `max_chars` code points is cut there
// and ends in "…". Valid UTF-8 otherwise passes through unchanged, a
// backslash included: applying it twice changes nothing more.
std::string printable_excerpt(std::string_view text, std::size_t max_chars = 40);

}  // namespace cumap
