#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/topology.hpp"
#include "cumap/result.hpp"

namespace cumap {

nlohmann::json make_meta(const MapResult& result);
// meta.json of `cumap homes`, whose result holds no maps: what a map's
// meta.json says about the run, device, units and homes, and the options
// home discovery reads.
nlohmann::json make_homes_meta(const MapResult& result);

// homes.json: the arena, every line's class, every unit's side, per-class
// latencies by unit; across devices {"devices": [that, per device]}.
// homes.csv: the unit x line table, long form (unit,line_offset,home_class,
// cycles,ns); a line is in the arena of the unit's device. Across devices a
// column lines_on (after unit) names the device whose lines they are, and
// each device's remote table follows its own.
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
