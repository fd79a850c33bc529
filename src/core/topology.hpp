#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cumap/topology.hpp"

namespace cumap {


// The display order of `units`: group by group as listed, then any unit no
// group names, ascending. Units outside `units` are dropped.
std::vector<int> topology_order(const Topology& topo, const std::vector<int>& units);

// The same topology restricted to `units` (empty groups removed).
Topology restrict_topology(const Topology& topo, const std::vector<int>& units);

// JSON form, also the format of `cumap render --order FILE`:
// {"source": "...", "groups": [{"name": "GPC0", "units": [0, 1, ...]}, ...]}
nlohmann::json to_json(const Topology& topo);
Topology topology_from_json(const nlohmann::json& j);  // throws UsageError

}  // namespace cumap
