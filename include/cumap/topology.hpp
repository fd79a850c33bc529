#pragma once
// The discovered layout of a device's units: named groups that share
// hardware (GPCs, shader arrays, CPU packages).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cumap {

// A named set of units that share hardware (a GPC, a shader array, a CPU die).
struct UnitGroup {
  std::string name;
  std::vector<int> units;
  bool operator==(const UnitGroup&) const = default;
};

// The discovered layout. Groups are listed in display order; a unit appears in
// at most one group. `source` says how it was found ("clusters", "hw_id",
// "sysfs", "file", or "none"), `details` how much evidence backs it.
struct Topology {
  std::string source = "none";
  std::vector<UnitGroup> groups;
  nlohmann::json details = nlohmann::json::object();
};

}  // namespace cumap
