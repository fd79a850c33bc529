#pragma once
#include <vector>

#include "core/topology.hpp"
#include "cumap/plan.hpp"
#include "cumap/options.hpp"

namespace cumap {

// The display order that reads the same on every chip: by device (ids by
// unit_id()), by side (the home class of its device a unit is near), then by
// topology group, then by id; and the groups to draw as separators ("S0
// GPC1", "g1 S0 GPC1" across devices). Without sides or groups, what exists.
struct DisplayLayout {
  std::vector<int> order;
  Topology groups;
};
DisplayLayout side_group_layout(const Topology& topology, const std::vector<int>& units,
                                const std::vector<int>& unit_side, UnitOrder order);

}  // namespace cumap
