#include "cli/topology_command.hpp"

#include <fmt/format.h>

#include "cumap/backend.hpp"
#include "cumap/error.hpp"
#include "cumap/outputs.hpp"
#include "cumap/units.hpp"
#include "cli/json_file.hpp"

namespace cumap::cli {

int run_topology(const TopologyCommand& command) {
  auto backend = make_backend(command.options);
  const DeviceInfo device = backend->device();
  const Topology topo = backend->topology();
  if (command.json_out) write_json_file(*command.json_out, to_json(topo));
  std::size_t covered = 0;
  for (const auto& g : topo.groups) covered += g.units.size();
  fmt::print("{} ({}): {} {}s in {} groups, found by {}\n", device.name, device.backend, covered, device.unit_name,
             topo.groups.size(), topo.source);
  for (const auto& g : topo.groups)
    fmt::print("  {:<12} {:>3} {}s: {}\n", g.name, g.units.size(), device.unit_name, format_unit_list(g.units));
  if (!topo.details.empty()) fmt::print("evidence: {}\n", topo.details.dump());
  return kExitOk;
}

int run_list_devices(const ListDevicesCommand& command) {
  for (BackendKind kind : built_backends()) {
    Options o = command.options;
    o.backend = kind;
    try {
      auto backend = make_backend(o);
      const DeviceInfo d = backend->device();
      fmt::print("{:<5} device {}: {} ({} {}s)\n", to_string(kind), o.device, d.name, d.unit_count, d.unit_name);
    } catch (const UsageError& e) {
      fmt::print("{:<5} no device: {}\n", to_string(kind), e.what());
    }
  }
  return kExitOk;
}

}  // namespace cumap::cli
