#pragma once
// `cumap summary DIR --format csv|json` of a barrier or contention run
// (summary.md is sync_summary_md.hpp's).
#include <string>

#include <nlohmann/json.hpp>

#include "core/sync_summary.hpp"

namespace cumap {

// The CSV's header and its rows at k = every unit of each set, every column
// as barrier.csv (contention.csv) has it: what a script reads of the table.
std::string sync_summary_csv(const SyncSummary& summary);
// The run, the device, complete, the table's rows (missing numbers null),
// the two-level verdicts, across GPUs the cheapest constructions, and what
// was left out.
nlohmann::json sync_summary_fields_json(const SyncSummary& summary);

}  // namespace cumap
