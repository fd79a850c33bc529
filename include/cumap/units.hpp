#pragma once
#include <string_view>
#include <vector>

namespace cumap {

// Parses "0-7,16,32-47" into sorted, unique unit ids, each in [0, unit_count).
// Throws UsageError naming the offending token.
std::vector<int> parse_unit_list(std::string_view spec, int unit_count);

// The inverse, compressed into ranges: {0,1,2,5} -> "0-2,5".
std::string format_unit_list(const std::vector<int>& units);

}  // namespace cumap
