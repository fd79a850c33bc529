#include "cli/map_command.hpp"
#include "cli/commands.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "backends/cuda/gpu_nvml_facts.hpp"
#include "report/map_outputs.hpp"
#include "report/map_summary.hpp"
#include "cli/resumed_run.hpp"
#include "cli/run_clock.hpp"
#include "cli/progress.hpp"
#include "cumap/backend.hpp"
#include "run/home_discovery.hpp"
#include "run/measure_placement.hpp"
#include "run/display_layout.hpp"
#include "cumap/error.hpp"
#include "cli/interrupt.hpp"
#include "report/output_directory.hpp"
#include "core/topology_discovery.hpp"
#include "core/printable.hpp"
#include "core/units.hpp"

namespace cumap::cli {
namespace {

// Options the backend lacks are bad input, refused before anything is
// measured or printed (the backends check again when they get a plan).
void check_backend_can(const Options& o, const DeviceInfo& device, const Capabilities& caps) {
  if (o.l2_persist && !caps.l2_persist)
    throw UsageError(fmt::format("--l2-persist needs the cuda backend ({} has no persisting-cache window)", device.backend));
  if (o.via == Path::Dsm && !caps.dsm)
    throw UsageError(fmt::format("--via dsm needs thread-block clusters (cuda, compute capability 9.0+); {} has none",
                                 device.name));
  if (o.probe == Probe::Mbarrier && o.via != Path::Dsm)
    throw UsageError("--probe mbarrier exists only with --via dsm");
}

// More lines per pair than were probed would only repeat lines.
void check_rotating_count(const Options& o) {
  if (o.rotating_count && *o.rotating_count > o.home_lines)
    throw UsageError(fmt::format("--rotating-count {} asks for more lines per class than the {} lines probed "
                                 "(--home-lines)", *o.rotating_count, o.home_lines));
}

void report_timeouts(const MapResult& r) {
  for (const PlacementResult& p : r.placements) {
    const auto late = p.timed_out();
    if (late.empty()) continue;
    std::string list;
    for (std::size_t i = 0; i < late.size() && i < 20; ++i) list += fmt::format(" {}-{}", late[i].a, late[i].b);
    if (late.size() > 20) list += fmt::format(" (and {} more)", late.size() - 20);
    fmt::print(stderr, "cumap: {}: {} measurement(s) of {} pairs timed out:{} (see meta.json)\n",
               to_string(p.placement), late.size(), r.device.unit_name, list);
  }
}

void report_checks(const PlacementResult& placement) {
  for (const SelfCheck& c : placement.checks)
    fmt::print(stderr,
               "cumap: {}: {} pairs per round; serial check of {} pairs{}: shift {:+.2f} ± {:.2f} %, median difference "
               "{:.2f} % (serial before against after {:.2f} %), r {:.3f}{}\n",
               to_string(placement.placement), c.pairs_per_round, c.agreement.n, c.pilot ? " (pilot)" : "",
               100 * c.bias, 100 * c.bias_uncertainty,
               100 * c.agreement.median_rel_diff, 100 * c.serial_repeat.median_rel_diff, c.agreement.pearson_r,
               c.passed ? "" : " (over the limit)");
}

// The concurrency to start from: what the user asked for, within what the
// backend can run.
int starting_pairs_per_round(const Options& o, const Capabilities& caps) {
  // Clusters run their pairs one at a time; the dsm path schedules itself.
  if (o.schedule == ScheduleKind::Serial || o.via == Path::Dsm) return 1;
  const int most = std::max(caps.max_pairs_per_round, 1);
  return o.concurrency > 0 ? std::min(o.concurrency, most) : most;
}

// By sides and home classes: nothing on the dsm path, which has neither.
std::vector<StructureRow> structure_of(const MapResult& r, const Options& o) {
  if (o.via == Path::Dsm) return {};
  const UnitSides sides = unit_sides(r.homes);
  for (const PlacementResult& p : r.placements)
    if (p.placement == Placement::SameLine) return structure_table(p.per_class_ns, sides.units, sides.sides);
  return {};
}

}  // namespace

std::vector<int> resolve_units(const std::string& spec, const std::vector<int>& available,
                               const std::string& unit_name) {
  if (spec.empty()) return available;
  const bool across = ids_span_devices(available);
  // The available units of each device, as --units names them (one device
  // unless the map spans GPUs).
  std::map<int, std::vector<int>> by_device;
  for (int id : available) {
    const UnitRef u = unit_ref(id, 0);
    by_device[u.device].push_back(u.unit);
  }
  std::vector<int> chosen;
  if (across) {
    // Across GPUs (ids by unit_id()): a plain token for every GPU, g<d>. for one.
    std::map<int, int> count_by_device;
    for (const auto& [device, ids] : by_device) count_by_device[device] = *std::max_element(ids.begin(), ids.end()) + 1;
    chosen = parse_device_unit_list(spec, count_by_device);
  } else {
    const int limit = available.empty() ? 0 : *std::max_element(available.begin(), available.end()) + 1;
    chosen = parse_unit_list(spec, limit);
  }
  for (int u : chosen) {
    if (std::binary_search(available.begin(), available.end(), u)) continue;
    std::string list;
    for (const auto& [device, ids] : by_device)
      list += (list.empty() ? "" : ", ") + (across ? fmt::format("g{}.", device) : "") + format_unit_list(ids);
    throw UsageError(fmt::format("--units: {} {} is not available (available: {})", unit_name,
                                 format_unit_id(u, across), list));
  }
  return chosen;
}

std::vector<int> resolve_devices(const Options& o) {
  if (o.devices_spec.empty()) return {};
  // A map across GPUs is the cuda backend's; asking another for --devices
  // lists its devices the same way (the cpu backend has one).
  const BackendKind kind = o.backend == BackendKind::Auto ? BackendKind::Cuda : o.backend;
  const int count = device_count(kind);
  if (count == 0)
    throw UsageError(fmt::format("--devices {}: the {} backend sees no device", printable_excerpt(o.devices_spec),
                                 to_string(kind)));
  const std::string_view spec = o.devices_spec;
  if (spec == "all") {
    std::vector<int> all(static_cast<std::size_t>(count));
    for (int d = 0; d < count; ++d) all[static_cast<std::size_t>(d)] = d;
    return all;
  }
  return parse_unit_list(spec, count, ListWords{"--devices", "GPU", "this machine"});
}

std::unique_ptr<Backend> open_backend(Options& o, MapResult& r, std::vector<int>& units) {
  const std::vector<int> devices = resolve_devices(o);
  DeviceSelection selection{o.backend, o.device, o.hip_unit, o.max_streams, {}};
  if (devices.size() == 1) {
    // One GPU: the run is exactly --device's (plain unit ids, no link).
    o.device = selection.device = devices.front();
    if (o.flag_on != FlagOn::Both)
      throw UsageError("--flag-on chooses where the flags of pairs across GPUs are; --devices names one GPU");
  } else if (devices.size() > 1) {
    selection.devices = devices;
    if (o.via == Path::Dsm)
      throw UsageError("--via dsm measures inside one GPU's thread-block clusters; it cannot map across GPUs (--devices)");
  }
  auto backend = make_backend(selection);
  r.device = backend->device();
  cuda::add_serials_and_links(r.device);
  r.capabilities = backend->capabilities();
  std::vector<int> available = backend->units();
  std::sort(available.begin(), available.end());
  units = resolve_units(o.units_spec, available, r.device.unit_name);
  return backend;
}

void find_homes_and_layout(Backend& backend, const std::vector<int>& units, const Options& o, MapResult& r,
                           RunClock& clock) {
  // Through distributed shared memory each flag is in its poller's own
  // shared memory: no flag line, so no homes and no sides.
  if (o.via != Path::Dsm) {
    Progress progress("homes", "units", o.quiet);
    r.homes = discover_homes(backend, units, o, [&](std::size_t d, std::size_t t) { progress.update(d, t); });
    progress.finish();
    clock.end_phase("homes");
  }
  r.topology = restrict_topology(backend.topology(), units);
  const UnitSides sides = unit_sides(r.homes);
  // Sides in the order of `units` (no sides on the dsm path).
  std::vector<int> side_of_unit;
  if (!sides.units.empty()) {
    std::map<int, int> side;
    for (std::size_t i = 0; i < sides.units.size(); ++i) side[sides.units[i]] = sides.sides[i];
    for (int u : units) side_of_unit.push_back(side.at(u));
  }
  const DisplayLayout layout = side_group_layout(r.topology, units, side_of_unit, o.order);
  r.display_order = layout.order;
  r.display_groups = layout.groups;
  clock.end_phase("topology");
}

void measure_map(Backend& backend, const std::vector<int>& units, const Options& o, MapResult& r, RunClock& clock,
                 const StopFn& stop, const ResumedRun* resumed) {
  r.lines_per_class = o.rotating_count.value_or(r.capabilities.default_lines_per_class);
  // The backend's round trips per sample go with its lines per class; the
  // dsm path has no lines and keeps the plain default.
  r.iters = o.iters.value_or(o.via == Path::Dsm ? Options::kDefaultIters : r.capabilities.default_iters);

  PlacementRequest request;
  request.units = units;
  request.homes = &r.homes;
  request.lines_per_class = r.lines_per_class;
  request.iters = r.iters;
  request.pairs_per_round = starting_pairs_per_round(o, r.capabilities);
  request.exclusive_key = r.capabilities.exclusive_key;
  request.options = &o;
  // Through distributed shared memory each flag is in its poller's own shared
  // memory: there is one placement, whatever --same-line/--split-line say.
  const std::vector<Placement> placements =
      o.via == Path::Dsm ? std::vector<Placement>{Placement::SameLine} : o.placements;
  for (Placement p : placements) {
    if (stop && stop()) break;
    request.placement = p;
    request.already_measured = resumed ? resumed->completed(p) : std::vector<PairStats>{};
    Progress progress(std::string(to_string(p)), "rounds", o.quiet);
    PlacementResult placement = measure_placement_scheduled(
        backend, request, [&](std::size_t d, std::size_t t) { progress.update(d, t); }, stop);
    progress.finish();
    // Auto settles the concurrency on the first placement; the others start there.
    request.pairs_per_round = placement.pairs_per_round;
    if (!o.quiet) report_checks(placement);
    r.placements.push_back(std::move(placement));
    clock.end_phase(std::string(to_string(p)));
  }
  r.structure = structure_of(r, o);
}

int run_map(const MapCommand& command) {
  Options o = command.options;
  std::optional<ResumedRun> resumed;
  if (!o.resume_dir.empty()) {
    resumed = load_resumed_run(o);
    o.out_dir = o.resume_dir;  // a resumed run completes the files where they are
  }
  check_rotating_count(o);
  MapResult r;
  RunClock clock(r.run);
  std::vector<int> units;
  auto backend = open_backend(o, r, units);
  if (units.size() < 2)
    throw UsageError(fmt::format("a map needs at least two units; --units names {}", units.size()));
  check_backend_can(o, r.device, r.capabilities);

  OutputDirectory out(o.out_dir);
  r.other_processes = cuda::other_processes(r.device, o.quiet);
  // From here the first Ctrl-C (or SIGTERM, SIGHUP) ends the run at the next
  // pass and writes what it has; a second one leaves at once.
  InterruptHandler interrupt;
  const StopFn stop = [&] { return interrupt.stop_requested(); };
  clock.end_phase("open");

  find_homes_and_layout(*backend, units, o, r, clock);
  if (resumed) check_same_homes(*resumed, r.homes);
  measure_map(*backend, units, o, r, clock, stop, resumed ? &*resumed : nullptr);
  r.interrupted = interrupt.stop_requested();

  clock.stamp(command.command_line);

  write_map_outputs(o, r, out);
  out.keep();

  if (r.interrupted) {
    fmt::print(stderr, "cumap: interrupted: what was measured is in {} (complete it with --resume {} and the same options)\n",
               o.out_dir.string(), o.out_dir.string());
    return InterruptHandler::kExitInterrupted;
  }
  report_timeouts(r);
  if (!o.quiet) fmt::print("{}\n", map_summary_line(r, o));
  return r.timed_out().empty() ? kExitOk : kExitTimedOut;
}

}  // namespace cumap::cli
