#pragma once
// A finished run's output directory read back for `cumap compare` and
// `cumap query`: which command wrote it, its summary (read back by
// summary_json.hpp from meta.json), its layout, and its matrix files and
// cases on demand, each through the reader of that file (matrix_csv.hpp,
// pairs_csv.hpp, sync_csv.hpp).
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/run_summary.hpp"
#include "core/sync_summary.hpp"
#include "cumap/latency_map.hpp"
#include "cumap/topology.hpp"
#include "cumap/values.hpp"

namespace cumap {

struct SavedRun {
  std::filesystem::path dir;  // the output directory
  std::string shown;          // the path as given, printable, for messages
  nlohmann::json meta;
  std::optional<RunSummary> map;   // a map's summary
  std::optional<SyncSummary> sync; // a barrier's or contention's
  Topology topology;               // the discovered groups (meta.json "topology"); none if it has none
  Topology display_groups;         // side x group as the pictures draw them; none if it has none
  std::vector<int> display_order;  // the matrices' rows

  const RunHeader& header() const { return map ? map->run : sync->run; }
  // "map", "barrier" or "contention".
  std::string kind() const { return map ? "map" : sync->command; }
  // Its units are the host's CPU cores (its backend's fact; false for a
  // backend this cumap does not know).
  bool host_cores() const;
};

// The run in `path` (its output directory, or its meta.json). UsageError,
// one line beginning with `command` ("compare: ..."), for a path that does
// not exist, holds no meta.json, or is not a map, barrier or contention run
// (`cumap homes` writes no map).
SavedRun read_saved_run(const std::filesystem::path& path, std::string_view command);

// Each unit's side: the number its side's name carries ("side1", across GPUs
// "g0 side1"), else the side's place in the list.
std::map<int, int> unit_side_numbers(const RunHeader& header);

// A map's views (core/map_views.hpp) made from its matrix CSVs, for a set
// whose meta.json was written before it held them: each map's headline and
// per-class matrices, their additive fits, the groups the pictures draw.
// Leaves `summary` as it is where a map's matrix is missing.
void add_views_from_files(RunSummary& summary, const SavedRun& run);

// The matrix files the run holds (matrix-*.csv, line-spread-*.csv), by name.
std::vector<std::string> matrix_files(const SavedRun& run);
// One of them, read (UsageError naming the file when it is bad).
ValueMatrix read_run_matrix(const SavedRun& run, const std::string& name);
// Whether the run holds a file of that name.
bool run_has_file(const SavedRun& run, const std::string& name);

// A barrier's or contention's every case, from its CSV.
std::vector<SyncCaseResult> read_run_cases(const SavedRun& run);

// The rows of pairs.csv for the pair {a, b} (either order), every placement,
// class and line; none when the run has no pairs.csv.
struct PairRow {
  Placement placement = Placement::SameLine;
  PairStats stats;
};
std::vector<PairRow> read_pair_rows(const SavedRun& run, int a, int b);

}  // namespace cumap
