#pragma once
#include <optional>
#include <string>
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

// A display group's name taken apart again: "g1 S0 GPC3" is device 1, side
// 0, group "GPC3"; "S1 GPC2" has no device, "GPC2" neither device nor side.
// The heatmaps draw the device and side as bands around the groups' names.
struct DisplayGroupName {
  std::optional<int> device;
  std::optional<int> side;
  std::string group;  // the rest ("other" for units no group names); may be empty
};
DisplayGroupName split_display_group_name(const std::string& name);

}  // namespace cumap
