#pragma once
// The summaries as meta.json holds them: to_json writes a summary's keys
// (meta_json.hpp puts them beside the rest of the file) and *_from_json
// reads them back, each the other's inverse (round-trip tested), so that
// `cumap summary DIR` prints exactly what the run wrote. The reading is
// lenient (read/json_fields.hpp): a key an older cumap did not write reads as
// missing.
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/run_header.hpp"
#include "core/run_summary.hpp"
#include "core/sync_summary.hpp"
#include "report/read/meta_json.hpp"
#include "report/read/sync_csv.hpp"

namespace cumap {

// The keys every command's meta.json has: tool ("cumap"), tool_version, timestamp_utc, host,
// command_line, wall_seconds, backend, device (name, unit_name,
// driver_version, runtime_version, serial or gpus[].serial), caveat where
// there is one, units, and homes' class_count and sides.
nlohmann::json to_json(const RunHeader& header);
// The header of any command's meta.json (a key missing reads as empty).
RunHeader run_header_from_json(const nlohmann::json& meta);

// A map's: its header's, interrupted, options (via, probe, samples,
// timeout_ms), iters, lines_per_class, cross_lines, structure,
// structure_by_class, maps (each map's headline numbers, timed-out pairs
// and cluster barrier), gpus, cross_gpu_structure and views (extreme pairs,
// unit terms, the units that stand out, block means: a set of an earlier
// cumap has none, and its summary says has_views false). Reading throws
// UsageError when `meta` is not a map's (not cumap's, or `cumap homes`'s,
// which holds no map); `source` names it in the message.
nlohmann::json to_json(const RunSummary& summary);
// One row of `structure` (the pooled classes; `structure_by_class` adds the
// placement and class), of `gpus` and of `cross_gpu_structure` (also `cumap summary
// --format json`'s and report.html's rows: one set of keys).
nlohmann::json structure_json(const StructureRow& row);
nlohmann::json gpu_pair_json(const std::string& placement, const RunSummary::GpuPair& pair);
nlohmann::json cross_gpu_json(const std::string& placement, const CrossGpuStructureRow& row);
RunSummary run_summary_from_json(const nlohmann::json& meta, const std::string& source = "meta.json");

// A map's views in lists, as meta.json's `views` and `cumap summary
// --format json` each hold them: the extreme pairs, the units that stand
// out and the block means. `unit_id` writes a unit (meta.json its number,
// the summary its id as pairs.csv names it), `pooled_class` the class of
// block means over every class.
struct ViewsLists {
  nlohmann::json extreme_pairs;
  nlohmann::json standing_out;
  nlohmann::json block_means;
};
ViewsLists views_lists(const RunSummary& summary, const std::function<nlohmann::json(int)>& unit_id,
                       const nlohmann::json& pooled_class);

// A barrier's or contention's: its header's, command, complete,
// interrupted, cases (planned, measured and the cases at every unit),
// settings, clock_hz, left_out and across_gpus. Reading throws UsageError
// when `meta` is not such a run's; from a set of an earlier cumap, whose
// meta.json holds no cases, it reads none.
nlohmann::json to_json(const SyncSummary& summary);
SyncSummary sync_summary_from_json(const nlohmann::json& meta);
// An earlier cumap's set: `meta` with the cases of its CSV (read/sync_csv.hpp).
SyncSummary sync_summary_from_json(const nlohmann::json& meta, const SyncCsv& csv);
// `cumap summary DIR` of a barrier or contention set: from meta.json, or
// for an earlier cumap's set with the CSV beside it. UsageError, one line,
// when that CSV is missing or bad.
SyncSummary read_sync_summary(const OutputMeta& meta);
// meta.json of `cumap barrier` or `cumap contention`: "tool": "cumap" and
// their "command".
bool is_sync_meta(const nlohmann::json& meta);

}  // namespace cumap
