#include "cli/map_command.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "cli/map_outputs.hpp"
#include "cli/progress.hpp"
#include "cumap/backend.hpp"
#include "cumap/error.hpp"
#include "cumap/outputs.hpp"
#include "cumap/topology_discovery.hpp"
#include "cumap/units.hpp"

namespace cumap::cli {
namespace {

// Removes an output directory this run created if the run fails before
// writing anything into it: a failed run leaves nothing behind.
class CreatedDirGuard {
 public:
  explicit CreatedDirGuard(std::filesystem::path dir) : dir_(std::move(dir)), existed_(std::filesystem::exists(dir_)) {}
  ~CreatedDirGuard() {
    std::error_code ec;
    if (!kept_ && !existed_ && std::filesystem::is_empty(dir_, ec)) std::filesystem::remove(dir_, ec);
  }
  void keep() { kept_ = true; }

 private:
  std::filesystem::path dir_;
  bool existed_;
  bool kept_ = false;
};

std::vector<int> display_order(const Options& o, const Topology& topo, const std::vector<int>& units) {
  if (o.order == UnitOrder::Topology && topo.groups.size() > 1) return topology_order(topo, units);
  return units;
}

void report_timeouts(const LatencyMap& map, const std::string& unit_name) {
  const auto late = map.timed_out();
  if (late.empty()) return;
  std::string list;
  for (std::size_t i = 0; i < late.size() && i < 20; ++i) list += fmt::format(" {}-{}", late[i].a, late[i].b);
  if (late.size() > 20) list += fmt::format(" (and {} more)", late.size() - 20);
  fmt::print(stderr, "cumap: {}: {} {} pair(s) timed out:{} (see meta.json)\n", to_string(map.placement),
             late.size(), unit_name, list);
}

void print_summary(const MapReport& r, const Options& o, const nlohmann::json& meta) {
  fmt::print("{} ({}), {} {}s", r.device.name, r.device.backend, r.display_order.size(), r.device.unit_name);
  for (const auto& m : meta["maps"]) {
    const auto& ow = m["oneway_ns"];
    if (ow["median"].is_number())
      fmt::print("; {} one-way median {:.1f} ns (min {:.1f}, max {:.1f})", m["placement"].get<std::string>(),
                 ow["median"].get<double>(), ow["min"].get<double>(), ow["max"].get<double>());
    if (m.contains("topology_agreement_ari") && m["topology_agreement_ari"].is_number())
      fmt::print(", topology ARI {:.2f}", m["topology_agreement_ari"].get<double>());
  }
  fmt::print("; written to {}\n", o.out_dir.string());
}

}  // namespace

std::vector<int> resolve_units(const std::string& spec, const std::vector<int>& available,
                               const std::string& unit_name) {
  if (spec.empty()) return available;
  const int limit = available.empty() ? 0 : *std::max_element(available.begin(), available.end()) + 1;
  std::vector<int> chosen = parse_unit_list(spec, limit);
  for (int u : chosen)
    if (!std::binary_search(available.begin(), available.end(), u))
      throw UsageError(fmt::format("--units: {} {} is not available (available: {})", unit_name, u,
                                   format_unit_list(available)));
  return chosen;
}

int run_map(const MapCommand& command) {
  const Options& o = command.options;
  const auto started = std::chrono::steady_clock::now();
  auto backend = make_backend(o);
  const DeviceInfo device = backend->device();
  std::vector<int> available = backend->units();
  std::sort(available.begin(), available.end());
  const std::vector<int> units = resolve_units(o.units_spec, available, device.unit_name);
  const Schedule schedule = make_schedule(units, o.ordered);

  CreatedDirGuard dir_guard(o.out_dir);
  ensure_writable_dir(o.out_dir);

  MapReport report;
  report.device = device;
  report.topology = restrict_topology(backend->topology(), units);
  report.display_order = display_order(o, report.topology, units);

  for (Placement p : o.placements) {
    const MeasureSpec spec = measure_spec(o, p);
    Progress progress(std::string(to_string(p)), o.quiet);
    auto raw = backend->measure(schedule, spec, [&](std::size_t d, std::size_t t) { progress.update(d, t); });
    progress.finish();
    report.maps.push_back(summarize_measurements(raw, schedule, spec));
  }

  RunInfo run;
  run.tool_version = CUMAP_VERSION;
  run.timestamp_utc = utc_timestamp_now();
  run.host_name = host_name();
  run.command_line = command.command_line;
  run.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  report.meta = make_meta(o, backend->device(), report.topology, report.maps, run);
  report.meta["display_order"] = o.order == UnitOrder::Topology && report.topology.groups.size() > 1 ? "topology" : "index";
  for (std::size_t i = 0; i < report.maps.size(); ++i) {
    const double ari = topology_agreement(report.maps[i].oneway_ns(), report.topology);
    report.meta["maps"][i]["topology_agreement_ari"] = std::isfinite(ari) ? nlohmann::json(ari) : nlohmann::json();
  }

  write_map_outputs(o, report);
  dir_guard.keep();

  bool any_timeout = false;
  for (const auto& m : report.maps) {
    report_timeouts(m, device.unit_name);
    any_timeout = any_timeout || !m.timed_out().empty();
  }
  if (!o.quiet) print_summary(report, o, report.meta);
  return any_timeout ? kExitTimedOut : kExitOk;
}

}  // namespace cumap::cli
