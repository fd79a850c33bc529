#pragma once
// report.html of `cumap barrier` and `cumap contention`: the run in one
// self-contained page that opens offline, in the look of a map's page
// (report_style.css): the device and command line, whether it is complete,
// the table at k = every unit of each set, the plot, two-level against the
// flag barrier, what was left out. Plain HTML, no script: the plot is the
// run's PNG, embedded as a data: address.
#include <string>

#include "core/sync_summary.hpp"

namespace cumap {

// `png`: barrier.png or contention.png as written (empty: the run has no
// case, so no plot).
std::string sync_report_html(const SyncSummary& summary, const std::string& png);

}  // namespace cumap
