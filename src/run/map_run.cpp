#include "run/map_run.hpp"
#include "core/map_result.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "core/printable.hpp"
#include "core/units.hpp"
#include "cumap/error.hpp"
#include "core/display_layout.hpp"
#include "run/home_discovery.hpp"
#include "core/homes.hpp"
#include "core/topology.hpp"
#include "core/cross_gpu_structure.hpp"

namespace cumap {
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

// Options only some backends take, which the one opened would silently
// ignore (--backend auto may open another one than the user thought of).
void check_backend_options(const Options& o, const DeviceInfo& device) {
  const BackendFacts facts = backend_facts(backend_kind_from_string(device.backend));
  if (o.max_streams != 0 && !facts.stream_budget)
    throw UsageError(fmt::format("--max-streams applies to the hip backend only; the {} backend has no hardware queues "
                                 "to budget",
                                 device.backend));
  if (o.hip_unit == HipUnit::Wgp && !facts.unit_choice)
    throw UsageError(fmt::format("--unit wgp applies to the hip backend only, not to {}", device.backend));
}

// The concurrency to start from: what the user asked for, within what the
// backend can run.
int starting_pairs_per_round(const Options& o, const Capabilities& caps) {
  // Clusters run their pairs one at a time; the dsm path schedules itself.
  if (o.schedule == ScheduleKind::Serial || o.via == Path::Dsm) return 1;
  const int most = std::max(caps.max_pairs_per_round, 1);
  return o.concurrency > 0 ? std::min(o.concurrency, most) : most;
}

// --cross-home puts a pair's two flags in lines of two home classes: a
// device whose home discovery found one class has none to pair, which is
// known before any pair is measured.
void check_cross_home(const MapSettings& settings, const RunHomes& homes, const DeviceInfo& device) {
  if (std::find(settings.placements.begin(), settings.placements.end(), Placement::CrossHome) ==
      settings.placements.end())
    return;
  for (const HomesResult& h : homes) {
    if (h.classes.class_count >= 2) continue;
    const std::string where = homes.size() > 1 ? fmt::format("GPU {} ({})", h.device, device.name) : device.name;
    throw UsageError(fmt::format("--cross-home needs flag lines of two home classes, but home discovery found one "
                                 "class on {}; nothing was measured (leave out --cross-home)",
                                 where));
  }
}

// Per placement and home class, by sides and the flag's home; across GPUs
// also by flag GPU and both units' sides.
void fill_class_structure(std::vector<PlacementResult>& placements, const UnitSides& sides) {
  for (PlacementResult& p : placements) {
    p.structure_by_class.clear();
    std::vector<int> home_class_of_map;
    for (std::size_t c = 0; c < p.per_class_ns.size() && c < p.per_class.size(); ++c) {
      p.structure_by_class.push_back(
          class_structure_table(p.per_class_ns[c], p.per_class[c].spec.home_class, sides.units, sides.sides));
      home_class_of_map.push_back(p.per_class[c].spec.home_class);
    }
    p.cross_gpu_structure =
        cross_gpu_structure(p.per_class_flags_on_ns, home_class_of_map, sides.units, sides.sides);
  }
}

// By sides and home classes: every placement's per-class rows, then the
// same-line table over the classes; nothing on the dsm path, which has neither.
std::vector<StructureRow> structure_of(std::vector<PlacementResult>& placements, const RunHomes& homes) {
  if (homes.empty()) return {};
  const UnitSides sides = unit_sides(homes);
  fill_class_structure(placements, sides);
  for (const PlacementResult& p : placements)
    if (p.placement == Placement::SameLine) return structure_table(p.per_class_ns, sides.units, sides.sides);
  return {};
}

// Where each unit is drawn: the units' topology and the display order by
// device, side (the home class a unit is near), group and id.
struct ChipLayout {
  Topology topology;               // as discovered, restricted to `units`
  Topology display_groups;         // separators and labels, in display order
  std::vector<int> display_order;
};
ChipLayout chip_layout(Backend& backend, const std::vector<int>& units, const RunHomes& homes, UnitOrder order) {
  ChipLayout layout;
  layout.topology = restrict_topology(backend.topology(), units);
  const UnitSides sides = unit_sides(homes);
  // Sides in the order of `units` (no sides on the dsm path).
  std::vector<int> side_of_unit;
  if (!sides.units.empty()) {
    std::map<int, int> side;
    for (std::size_t i = 0; i < sides.units.size(); ++i) side[sides.units[i]] = sides.sides[i];
    for (int u : units) side_of_unit.push_back(side.at(u));
  }
  DisplayLayout display = side_group_layout(layout.topology, units, side_of_unit, order);
  layout.display_order = std::move(display.order);
  layout.display_groups = std::move(display.groups);
  return layout;
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
  // A map across devices is the backend's that spans them; asking another
  // for --devices lists its devices the same way (the cpu backend has one).
  BackendKind kind = o.backend;
  if (kind == BackendKind::Auto)
    for (BackendKind built : built_backends())
      if (backend_facts(built).spans_devices) kind = built;
  if (kind == BackendKind::Auto)
    throw UsageError("--devices: this cumap has no backend that maps across devices (the cuda backend)");
  // Refused whatever the list says: `--devices all` and `--devices 0` would
  // otherwise pass on a backend of one device where `--devices 0,1` does not.
  if (!backend_facts(kind).spans_devices)
    throw UsageError(fmt::format("--devices: the {} backend does not map across devices; leave out --devices",
                                 to_string(kind)));
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

OpenedBackend open_backend(const Options& o, std::size_t min_units) {
  const std::vector<int> devices = resolve_devices(o);
  DeviceSelection selection{o.backend, o.device, o.hip_unit, o.max_streams, {}};
  if (devices.size() == 1) {
    // One GPU: the run is exactly --device's (plain unit ids, no link).
    selection.device = devices.front();
    if (o.flag_on != FlagOn::Both)
      throw UsageError("--flag-on chooses where the flags of pairs across GPUs are; --devices names one GPU");
  } else if (devices.size() > 1) {
    selection.devices = devices;
    if (o.via == Path::Dsm)
      throw UsageError("--via dsm measures inside one GPU's thread-block clusters; it cannot map across GPUs (--devices)");
  }
  OpenedBackend opened;
  opened.backend = make_backend(selection, &opened.backend_choice);
  opened.device_index = selection.device;
  opened.device = opened.backend->device();
  opened.capabilities = opened.backend->capabilities();
  check_backend_options(o, opened.device);
  std::vector<int> available = opened.backend->units();
  std::sort(available.begin(), available.end());
  opened.units = resolve_units(o.units_spec, available, opened.device.unit_name);
  if (opened.units.size() < min_units)
    throw UsageError(fmt::format("a map needs at least two units; --units names {}", opened.units.size()));
  return opened;
}

MapSettings discovery_settings(const Options& options, nlohmann::json recorded) {
  MapSettings s;
  s.placements.clear();
  s.colormap = options.colormap;
  s.out_dir = options.out_dir;
  s.options = std::move(recorded);
  return s;
}

MapSettings map_settings(const Options& o, const DeviceInfo& device, const Capabilities& caps) {
  check_backend_can(o, device, caps);
  MapSettings s;
  s.via = o.via;
  s.probe = o.probe;
  // Through distributed shared memory each flag is in its poller's own shared
  // memory: there is one placement, whatever --same-line/--split-line say.
  s.placements = o.via == Path::Dsm ? std::vector<Placement>{Placement::SameLine} : o.placements;
  s.lines_per_class = o.lines_per_class.value_or(caps.default_lines_per_class);
  // Pairs across GPUs: a cell there varies less from line to line than one
  // on a chip (bench/RESULTS.md, "Lines across GPUs"); never more lines than
  // the map's own unless asked.
  s.cross_lines = o.cross_lines.value_or(std::min(caps.default_cross_lines_per_class, s.lines_per_class));
  s.cross_samples = o.cross_samples.value_or(caps.default_cross_samples.value_or(o.samples));
  s.cross_warmup = o.cross_warmup.value_or(caps.default_cross_warmup.value_or(o.warmup));
  // The backend's round trips per sample go with its lines per class; the
  // dsm path has no lines and keeps the plain default.
  s.iters = o.iters.value_or(o.via == Path::Dsm ? Options::kDefaultIters : caps.default_iters);
  s.ordered = o.ordered;
  s.colormap = o.colormap;
  s.pairs_csv = o.pairs_csv;
  s.out_dir = o.out_dir;
  s.options = to_json(o);
  return s;
}


MapResult measure_map(Backend& backend, const std::vector<int>& units, const MapSettings& settings,
                      const Options& options, const MapObserver& observer, const StopFn& stop,
                      const MeasuredPairs& already_measured) {
  const auto progress_of = [&](const std::string& phase) {
    return observer.progress ? observer.progress(phase) : ProgressFn{};
  };
  const auto done = [&](const std::string& phase) {
    if (observer.phase_done) observer.phase_done(phase);
  };
  MapResult r;
  r.settings = settings;
  r.device = backend.device();
  r.capabilities = backend.capabilities();
  // Through distributed shared memory each flag is in its poller's own
  // shared memory: no flag line, so no homes and no sides.
  if (settings.has_homes()) {
    r.homes = discover_homes(backend, units, options, progress_of("homes"));
    done("homes");
    check_cross_home(settings, r.homes, r.device);
    if (observer.homes_found) observer.homes_found(r.homes);
  }
  ChipLayout layout = chip_layout(backend, units, r.homes, options.order);
  r.topology = std::move(layout.topology);
  r.display_groups = std::move(layout.display_groups);
  r.display_order = std::move(layout.display_order);
  done("topology");

  PlacementRequest request;
  request.units = units;
  request.homes = &r.homes;
  request.lines_per_class = settings.lines_per_class;
  request.cross_lines = settings.cross_lines;
  request.cross_samples = settings.cross_samples;
  request.cross_warmup = settings.cross_warmup;
  request.iters = settings.iters;
  request.pairs_per_round = starting_pairs_per_round(options, r.capabilities);
  request.exclusive_key = r.capabilities.exclusive_key;
  request.measures_on_host_cores = r.capabilities.measures_on_host_cores;
  request.options = &options;
  request.class_maps_made = observer.class_maps_made;
  // Each placement's maps are summarized while the next one is measured.
  std::vector<PendingPlacement> pending;
  for (Placement p : settings.placements) {
    if (stop && stop()) break;
    const std::string phase(to_string(p));
    request.placement = p;
    const auto earlier = already_measured.find(p);
    request.already_measured = earlier == already_measured.end() ? std::vector<PairStats>{} : earlier->second;
    pending.push_back(start_placement(backend, request, progress_of(phase), stop));
    const PlacementResult& placement = pending.back().measured();
    // Auto settles the concurrency on the first placement; the others are
    // measured there (a pilot each cost 0.1-0.2 s across two GPUs, and told
    // what this placement's own check already had), their checks judged
    // against this one's serial repeats too.
    request.pairs_per_round = placement.pairs_per_round;
    request.concurrency_settled =
        placement.complete && (placement.checks.empty() || placement.checks.back().passed);
    for (const SelfCheck& c : placement.checks)
      request.earlier_serial_repeat = std::max(request.earlier_serial_repeat, c.serial_repeat.median_rel_diff);
    if (observer.placement_done) observer.placement_done(placement);
    done(phase);
  }
  for (PendingPlacement& p : pending) r.placements.push_back(std::move(p).finish());
  r.structure = structure_of(r.placements, r.homes);
  r.interrupted = stop && stop();
  return r;
}

}  // namespace cumap
