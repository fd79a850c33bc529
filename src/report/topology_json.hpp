#pragma once
#include <nlohmann/json.hpp>

#include "cumap/result.hpp"

namespace cumap {

// topology.json of a map run, and `cumap topology --json`: {"source",
// "groups", "details"} of the topology (`cumap render --order` reads it),
// "sides" (units grouped by the home class they are nearest) and
// "home_classes"; without homes (--via dsm) neither of the last two.
nlohmann::json topology_file_json(const Topology& topology, const RunHomes& homes);

}  // namespace cumap
