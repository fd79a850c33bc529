#pragma once
#include <vector>

#include "cli/command_line.hpp"

namespace cumap::cli {

// The default command: measure every pair for each placement, write the
// outputs, print a summary. Returns the exit code.
int run_map(const MapCommand& command);

// The units to map: all of `available`, or the --units subset of it.
std::vector<int> resolve_units(const std::string& spec, const std::vector<int>& available,
                               const std::string& unit_name);

}  // namespace cumap::cli
