#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cumap {

// A named set of units that share hardware (a GPC, a shader array, a CPU die).
struct UnitGroup {
  std::string name;
  std::vector<int> units;
};

// The discovered layout. Groups are listed in display order; a unit appears in
// at most one group. `source` says how it was found ("clusters", "hw_id",
// "sysfs", "file", or "none"), `details` how much evidence backs it.
struct Topology {
  std::string source = "none";
  std::vector<UnitGroup> groups;
  nlohmann::json details = nlohmann::json::object();
};

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
