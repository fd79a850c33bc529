#include "report/topology_json.hpp"

#include "core/map_result.hpp"
#include "core/topology.hpp"

namespace cumap {

nlohmann::json topology_file_json(const Topology& topology, const RunHomes& homes) {
  nlohmann::json j = to_json(topology);
  if (!homes.empty()) {
    j["sides"] = to_json(home_sides(homes))["groups"];
    j["home_classes"] = class_count(homes);
  }
  return j;
}

}  // namespace cumap
