#pragma once
#include <string>

#include "core/run_summary.hpp"

namespace cumap {

// summary.md: a map run in a page, GitHub markdown pasteable as it is: the
// device and how it was measured, the findings, each map's headline, the
// structure table, across GPUs the GPU x GPU table and its structure, the
// dsm cluster barrier, the timed-out pairs, and how to load the files.
std::string summary_markdown(const RunSummary& summary);

}  // namespace cumap
