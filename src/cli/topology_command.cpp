#include "cli/commands.hpp"
#include "cli/open_device.hpp"
#include "core/map_result.hpp"

#include <fmt/format.h>

#include "cumap/backend.hpp"
#include "cumap/error.hpp"
#include "run/home_discovery.hpp"
#include "report/meta_json.hpp"
#include "core/units.hpp"
#include "publish/json_file.hpp"
#include "report/topology_json.hpp"

namespace cumap::cli {

int run_topology(const TopologyCommand& command) {
  const Options& o = command.options;
  auto backend = open_checked_device(o, command.json_out);
  const DeviceInfo device = backend->device();
  const Topology topo = backend->topology();
  // The level above the groups: sides, the units near the same home class of
  // flag lines. They come from a measurement (home discovery), not from ids.
  const std::vector<int> units = backend->units();
  const RunHomes homes = discover_homes(*backend, units, o, {});
  const Topology sides = home_sides(homes);
  // The same shape as a map's topology.json.
  if (command.json_out) write_json_file(*command.json_out, topology_file_json(topo, homes));
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
  if (!topo.details.empty()) fmt::print("evidence: {}\n", topo.details.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  return kExitOk;
}

namespace {

// "cuda  device 1: NVIDIA H200 (132 SMs, PCI 0000:2a:00.0, serial 1652...)",
// or why it cannot be opened.
void print_device(BackendKind kind, int device, const Options& o) {
  try {
    auto backend = make_backend(DeviceSelection{kind, device, o.hip_unit});
    const DeviceInfo d = backend->device();
    std::string bus;
    for (const DeviceInfo::Gpu& gpu : d.gpus) {
      bus += ", PCI " + gpu.pci_bus_id;
      if (!gpu.serial.empty()) bus += ", serial " + gpu.serial;
    }
    fmt::print("{:<5} device {}: {} ({} {}s{})\n", to_string(kind), device, d.name, d.unit_count, d.unit_name, bus);
  } catch (const UsageError& e) {
    fmt::print("{:<5} device {} cannot be used: {}\n", to_string(kind), device, e.what());
  }
}

// "cuda  GPUs 0 and 1: a map across them works (peer access with native
// atomics both ways); link NV18", or why not: what `cumap --devices 0,1` needs.
void print_gpu_pair(BackendKind kind, int a, int b) {
  try {
    auto backend = make_backend(DeviceSelection{kind, a, HipUnit::Cu, 0, {a, b}});
    std::string link;
    for (const DeviceInfo::Link& l : backend->device().links) {
      link = "; link " + l.link;
      if (!l.reason.empty()) link += " (" + l.reason + ")";
    }
    fmt::print("{:<5} GPUs {} and {}: a map across them works (peer access with native atomics both ways){}\n",
               to_string(kind), a, b,
               link);
  } catch (const UsageError& e) {
    fmt::print("{:<5} GPUs {} and {}: no map across them: {}\n", to_string(kind), a, b, e.what());
  }
}

}  // namespace

int run_list_devices(const ListDevicesCommand& command) {
  const Options& o = command.options;
  for (BackendKind kind : unbuilt_gpu_backends())
    fmt::print("{:<5} not built into this cumap: {}\n", to_string(kind), how_to_build(kind));
  for (BackendKind kind : built_backends()) {
    int count = 0;
    try {
      count = device_count(kind);
    } catch (const UsageError&) {
    }
    if (count == 0) {
      // Opening it says why there is none.
      try {
        make_backend(DeviceSelection{kind, 0, o.hip_unit});
      } catch (const UsageError& e) {
        fmt::print("{:<5} no device: {}\n", to_string(kind), e.what());
      }
      continue;
    }
    if (command.only_device) {
      print_device(kind, o.device, o);
      continue;
    }
    for (int device = 0; device < count; ++device) print_device(kind, device, o);
    if (backend_facts(kind).spans_devices)
      for (int a = 0; a < count; ++a)
        for (int b = a + 1; b < count; ++b) print_gpu_pair(kind, a, b);
  }
  return kExitOk;
}

}  // namespace cumap::cli
