#pragma once
// `cumap summary DIR --format csv|json` of a map: its summary as a table
// and as the summary's fields (summary.md is summary_md.hpp's).
#include <string>

#include <nlohmann/json.hpp>

#include "core/run_summary.hpp"

namespace cumap {

// The structure table, tidy: one row per placement, home class and relation
// (home_class "all": classes pooled; relation "all": the map's headline;
// across GPUs also "gpu-pair" for the GPU x GPU table and "across-gpus" for
// the pairs between GPUs, `where` naming GPUs, flags and sides):
//   placement,home_class,relation,near_units,where,median_ns,p05_ns,p95_ns,cells
std::string summary_csv(const RunSummary& summary);
// Every field of the summary, in words where the page has words (missing
// numbers are null).
nlohmann::json summary_fields_json(const RunSummary& summary);
// Its "views": the slowest and fastest pairs, the units that stand out
// and the block means (unit ids as the files write them), as report.html
// draws them; null where the summary has none.
nlohmann::json views_fields_json(const RunSummary& summary);
// Its "across_gpus": the GPU x GPU table, the pairs between GPUs and their
// sentences, as report.html shows them too.
nlohmann::json across_gpus_fields_json(const RunSummary& summary);
// The fields every command's summary opens with (a map's, a barrier's and
// contention's): tool_version, timestamp_utc, host, command_line,
// wall_seconds, device (name, backend, unit_name, driver_version,
// runtime_version, serials), units (how many), class_count.
nlohmann::json header_fields_json(const RunHeader& run);

}  // namespace cumap
