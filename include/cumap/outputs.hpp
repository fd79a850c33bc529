#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cumap/backend.hpp"
#include "cumap/map_result.hpp"
#include "cumap/matrix.hpp"
#include "cumap/options.hpp"
#include "cumap/topology.hpp"

namespace cumap {

// Writes to a temporary file beside `path`, then renames it over `path`, so
// that readers never see half a file. Throws RuntimeFailure on I/O errors.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);

// Creates `dir` if needed and checks that files can be made in it; throws
// UsageError naming the directory otherwise, and then leaves nothing behind.
// On success the created directories stay; see OutputDirectory
// (output_directory.hpp) to remove them again if the run fails later.
void ensure_writable_dir(const std::filesystem::path& dir);

// NxN matrix CSV: header row "unit,<id>,<id>...", then one row per unit with
// its id first; empty cells for NaN. RFC 4180, numbers with 3 decimals.
std::string matrix_csv(const ValueMatrix& m);
// Reads a matrix CSV (cumap's, or one a spreadsheet saved back). Throws
// UsageError with the line number on ragged rows, non-numeric or non-square input.
ValueMatrix parse_matrix_csv(std::string_view text);
ValueMatrix read_matrix_csv(const std::filesystem::path& path);

// Long form, one row per pair, placement and flag line:
// a,b,via,placement,home_class,pass,first_flag,second_flag,flags_on,oneway_ns_median,line_correction_ns,
// rtt_ns_median,p05_ns,p95_ns,min_ns,cycles_median,cold_ns,samples,iters,timed_out
std::string pairs_csv(const std::vector<const LatencyMap*>& maps, Path via = Path::Global);
// Reads pairs.csv back (--resume). Throws UsageError naming the line on
// anything this cumap would not have written.
struct PlacedPairStats {
  Placement placement = Placement::SameLine;
  PairStats stats;
};
std::vector<PlacedPairStats> parse_pairs_csv(std::string_view text);

nlohmann::json make_meta(const Options& options, const MapResult& result);
// meta.json of `cumap homes`, whose result holds no maps: what a map's
// meta.json says about the run, device, units and homes, and the options
// home discovery reads.
nlohmann::json make_homes_meta(const Options& options, const MapResult& result);

// homes.json: the arena, every line's class, every unit's side, per-class
// latencies by unit; across devices {"devices": [that, per device]}.
// homes.csv: the unit x line table, long form (unit,line_offset,home_class,
// cycles,ns); a line is in the arena of the unit's device.
nlohmann::json homes_json(const RunHomes& homes);
std::string homes_csv(const RunHomes& homes);

// The sides (units grouped by the home class they are near) as a topology.
Topology sides_as_topology(const std::vector<int>& units, const std::vector<int>& unit_side);
// The same for the units home discovery probed: "side0", ...; across
// devices "g0 side0", ... (sides are a device's own).
Topology home_sides(const RunHomes& homes);

std::string utc_timestamp_now();
std::string host_name();

}  // namespace cumap
