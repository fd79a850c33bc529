#pragma once
#include "cli/command_line.hpp"

namespace cumap::cli {

// The default command: measure every pair for each placement, write the
// outputs, print a summary. Returns the exit code.
int run_map(const MapCommand& command);

}  // namespace cumap::cli
