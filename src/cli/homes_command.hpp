#pragma once
#include "cli/command_line.hpp"

namespace cumap::cli {

// `cumap homes`: home discovery alone (the first step of every map). Writes
// homes.csv, homes.json, heatmap-homes.png and meta.json into --out and
// prints one summary line. Returns the exit code.
int run_homes(const HomesCommand& command);

}  // namespace cumap::cli
