#pragma once
#include "cli/command_line.hpp"

namespace cumap::cli {

// `cumap summary DIR [--format md|csv|json]`: DIR/meta.json summarized on
// stdout, as a map run writes summary.md. Bad DIR: UsageError (exit 2).
int run_summary_command(const SummaryCommand& command);

}  // namespace cumap::cli
