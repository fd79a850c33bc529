#pragma once
// summary.md of a `cumap barrier` or `cumap contention` run, and the words
// and table it shares with the run's report.html (sync_report_html.hpp): how
// it measured, whether it is complete, the table at k = every unit of each
// set, two-level against the flag barrier it replaces, what was left out.
#include <string>
#include <vector>

#include "core/sync_summary.hpp"

namespace cumap {

// The table at k = every unit of each set as both pages show it: column
// titles, which columns are numbers (right-aligned), the cells; a row per
// case of SyncSummary::at_every_unit.
struct SyncTable {
  std::vector<std::string> header;
  std::vector<bool> numeric;
  std::vector<std::vector<std::string>> rows;
};
SyncTable sync_table(const SyncSummary& summary);

// The sentences both pages show: how the run measured ("cuda backend, 132
// SMs measured, ..."), whether it is complete, what the table's numbers are.
std::string sync_measured_line(const SyncSummary& summary);
std::string sync_completeness(const SyncSummary& summary);
std::string sync_table_note(const SyncSummary& summary);

// GitHub markdown, pasteable as it is.
std::string sync_summary_markdown(const SyncSummary& summary);

}  // namespace cumap
