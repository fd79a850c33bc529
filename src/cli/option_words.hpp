#pragma once
// Values the command line reads as words and converts itself: numbers in
// decimal only, byte offsets, --k's participant counts, lists of names.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/printable.hpp"
#include "core/sync_options.hpp"
#include "cumap/error.hpp"

namespace cumap::cli {

// Why `text` is not a decimal number (whole, or with `fractional` a decimal
// point and exponent too); empty when it is one. CLI11 alone would read
// "0x10" as 16, "010" as 8 and " 5" as 5, hex floats for doubles, and take
// an empty value as 0.
std::string decimal_number_problem(const std::string& text, bool fractional);

// --flag-offset BYTES: a plain non-negative integer (no sign, no exponent),
// a multiple of a cache line, at most 1 GiB; UsageError quoting the text.
std::uint64_t parse_flag_offset(const std::string& text);

// --k: whole numbers of at least 1, and "all".
KSweep parse_k(const std::string& text);

// A list option's words as values of the enum, each named once; UsageError
// naming `flag` for a word named twice or an empty list.
template <typename Enum>
std::vector<Enum> distinct_names(const std::vector<std::string>& words, std::string_view flag) {
  std::vector<Enum> out;
  for (const std::string& w : words) {
    const Enum e = names_of<Enum>().parse(w);
    if (std::find(out.begin(), out.end(), e) != out.end())
      throw UsageError(fmt::format("{}: {} is named twice", flag, printable_excerpt(w)));
    out.push_back(e);
  }
  if (out.empty()) throw UsageError(fmt::format("{}: the list is empty", flag));
  return out;
}

}  // namespace cumap::cli
