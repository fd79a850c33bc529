#include "cli/topology_command.hpp"

#include <fmt/format.h>

#include "cumap/backend.hpp"
#include "cumap/error.hpp"
#include "cumap/map_run.hpp"
#include "cumap/outputs.hpp"
#include "cumap/units.hpp"
#include "cli/json_file.hpp"

namespace cumap::cli {

int run_topology(const TopologyCommand& command) {
  const Options& o = command.options;
  auto backend = make_backend(DeviceSelection{o.backend, o.device, o.hip_unit});
  const DeviceInfo device = backend->device();
  const Topology topo = backend->topology();
  // The level above the groups: sides, the units near the same home class of
  // flag lines. They come from a measurement (home discovery), not from ids.
  const std::vector<int> units = backend->units();
  const RunHomes homes = discover_homes(*backend, units, o, {});
  const Topology sides = home_sides(homes);
  if (command.json_out) {
    nlohmann::json j = to_json(topo);
    j["sides"] = to_json(sides)["groups"];
    j["home_classes"] = class_count(homes);
    write_json_file(*command.json_out, j);
  }
  std::size_t covered = 0;
  for (const auto& g : topo.groups) covered += g.units.size();
  fmt::print("{} ({}): {} {}s in {} groups, found by {}\n", device.name, device.backend, covered, device.unit_name,
             topo.groups.size(), topo.source);
  for (const auto& g : topo.groups)
    fmt::print("  {:<12} {:>3} {}s: {}\n", g.name, g.units.size(), device.unit_name, format_unit_list(g.units));
  fmt::print("{} home class(es) of flag lines (separation {:.1f}); sides: units nearest each class\n",
             class_count(homes), homes.front().classes.separation);
  for (const auto& g : sides.groups)
    fmt::print("  {:<12} {:>3} {}s: {}\n", g.name, g.units.size(), device.unit_name, format_unit_list(g.units));
  if (!topo.details.empty()) fmt::print("evidence: {}\n", topo.details.dump());
  return kExitOk;
}

int run_list_devices(const ListDevicesCommand& command) {
  for (BackendKind kind : built_backends()) {
    const Options& o = command.options;
    try {
      auto backend = make_backend(DeviceSelection{kind, o.device, o.hip_unit});
      const DeviceInfo d = backend->device();
      fmt::print("{:<5} device {}: {} ({} {}s)\n", to_string(kind), o.device, d.name, d.unit_count, d.unit_name);
    } catch (const UsageError& e) {
      fmt::print("{:<5} no device: {}\n", to_string(kind), e.what());
    }
  }
  return kExitOk;
}

}  // namespace cumap::cli
