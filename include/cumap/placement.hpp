#pragma once
#include <string_view>

namespace cumap {

// Where the two signalling flags live. Both placements run the same protocol
// (each side signals on its own flag and polls the partner's); only the
// distance between the two flags changes.
enum class Placement {
  SameLine,   // both flags in one cache line (adjacent words)
  SplitLine,  // the flags in different lines of the same home class
  CrossHome,  // the flags in lines of two different home classes (--cross-home)
};

std::string_view to_string(Placement p);  // "same-line" / "split-line" / "cross-home"
// The inverse; throws UsageError for any other word.
Placement placement_from_string(std::string_view name);

}  // namespace cumap
