// Unit groups: display order, restriction to the measured units, JSON form.
#include <algorithm>
#include <limits>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "cumap/error.hpp"
#include "core/printable.hpp"
#include "core/topology.hpp"

namespace cumap {

std::vector<int> topology_order(const Topology& topo, const std::vector<int>& units) {
  const std::set<int> wanted(units.begin(), units.end());
  std::set<int> placed;
  std::vector<int> order;
  order.reserve(wanted.size());
  for (const UnitGroup& g : topo.groups) {
    for (int u : g.units) {
      if (wanted.contains(u) && placed.insert(u).second) order.push_back(u);
    }
  }
  for (int u : wanted) {  // std::set iterates ascending
    if (!placed.contains(u)) order.push_back(u);
  }
  return order;
}

Topology restrict_topology(const Topology& topo, const std::vector<int>& units) {
  const std::unordered_set<int> wanted(units.begin(), units.end());
  Topology out;
  out.source = topo.source;
  out.details = topo.details;
  for (const UnitGroup& g : topo.groups) {
    UnitGroup kept{g.name, {}};
    for (int u : g.units)
      if (wanted.contains(u)) kept.units.push_back(u);
    if (!kept.units.empty()) out.groups.push_back(std::move(kept));
  }
  return out;
}

nlohmann::json to_json(const Topology& topo) {
  nlohmann::json groups = nlohmann::json::array();
  for (const UnitGroup& g : topo.groups) groups.push_back({{"name", g.name}, {"units", g.units}});
  nlohmann::json j = {{"source", topo.source}, {"groups", std::move(groups)}};
  if (!topo.details.empty()) j["details"] = topo.details;
  return j;
}

Topology topology_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw UsageError("topology: expected a JSON object with a \"groups\" array");
  if (!j.contains("groups") || !j["groups"].is_array())
    throw UsageError("topology: \"groups\" must be an array");

  Topology topo;
  // Hand-written order files often omit the source; they came from a file.
  topo.source = "file";
  if (j.contains("source")) {
    if (!j["source"].is_string()) throw UsageError("topology: \"source\" must be a string");
    topo.source = j["source"].get<std::string>();
  }
  if (j.contains("details") && j["details"].is_object()) topo.details = j["details"];

  std::set<int> seen;
  const nlohmann::json& groups = j["groups"];
  for (std::size_t gi = 0; gi < groups.size(); ++gi) {
    const nlohmann::json& g = groups[gi];
    if (!g.is_object() || !g.contains("name") || !g["name"].is_string())
      throw UsageError(fmt::format("topology: group {} needs a string \"name\"", gi));
    UnitGroup group{g["name"].get<std::string>(), {}};
    if (!g.contains("units") || !g["units"].is_array())
      throw UsageError(fmt::format("topology: group '{}' needs a \"units\" array", printable_excerpt(group.name)));
    for (const nlohmann::json& u : g["units"]) {
      if (!u.is_number_integer() || u.get<long long>() < 0 || u.get<long long>() > std::numeric_limits<int>::max())
        throw UsageError(fmt::format("topology: group '{}' has a unit that is not a non-negative integer: {}",
                                     printable_excerpt(group.name), printable_excerpt(u.dump())));
      const int id = u.get<int>();
      if (!seen.insert(id).second)
        throw UsageError(fmt::format("topology: unit {} appears more than once (again in group '{}')", id,
                                     printable_excerpt(group.name)));
      group.units.push_back(id);
    }
    topo.groups.push_back(std::move(group));
  }
  return topo;
}

}  // namespace cumap
