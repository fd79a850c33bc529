// meta.json: everything needed to reproduce or compare a run, beside the maps.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <limits>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "report/gpu_table.hpp"
#include "core/map_result.hpp"
#include "cumap/result.hpp"
#include "report/meta_json.hpp"
#include "core/topology_discovery.hpp"
#include "core/stats.hpp"
#include "core/units.hpp"
#include "report/json_number.hpp"

namespace cumap {
namespace {

nlohmann::json device_json(const DeviceInfo& d) {
  nlohmann::json j = {
      {"name", d.name},
      {"unit_name", d.unit_name},
      {"unit_count", d.unit_count},
      {"clock_source", d.clock_source},
      {"clock_hz", d.clock_hz},
      {"runtime_version", d.runtime_version},
      {"driver_version", d.driver_version},
  };
  if (d.extra.is_object())
    for (const auto& [key, value] : d.extra.items()) j[key] = value;
  // One GPU: its serial beside its other facts; several: in each one's entry.
  if (d.gpus.size() == 1) j["serial"] = d.gpus.front().serial;
  if (d.gpus.size() > 1 && j.contains("gpus"))
    for (std::size_t i = 0; i < d.gpus.size() && i < j["gpus"].size(); ++i) j["gpus"][i]["serial"] = d.gpus[i].serial;
  if (!d.links.empty()) {
    nlohmann::json links = nlohmann::json::array();
    for (const DeviceInfo::Link& l : d.links)
      links.push_back({{"gpu_a", l.gpu_a}, {"gpu_b", l.gpu_b}, {"link", l.link}, {"reason", l.reason}});
    j["links"] = links;
  }
  return j;
}

// Other compute processes on the run's GPUs: null without a GPU, an object
// for one GPU, a list by PCI bus id for several.
nlohmann::json neighbours_json(const std::vector<DeviceInfo::Neighbours>& neighbours) {
  if (neighbours.empty()) return nullptr;
  nlohmann::json per_gpu = nlohmann::json::array();
  for (const DeviceInfo::Neighbours& n : neighbours) {
    nlohmann::json pids = nlohmann::json::array();
    for (const auto& p : n.processes) pids.push_back({{"pid", p.pid}, {"used_memory_bytes", p.used_memory_bytes}});
    per_gpu.push_back({{"pci_bus_id", n.pci_bus_id}, {"known", n.known}, {"reason", n.reason}, {"processes", pids}});
  }
  if (per_gpu.size() == 1) {
    per_gpu.front().erase("pci_bus_id");
    return per_gpu.front();
  }
  return per_gpu;
}

nlohmann::json summary_json(const Summary& s) {
  return {{"median", number_or_null(s.median)}, {"min", number_or_null(s.min)}, {"max", number_or_null(s.max)},
          {"p05", number_or_null(s.p05)}, {"p95", number_or_null(s.p95)}};
}

nlohmann::json agreement_json(const Agreement& a) {
  return {{"n", a.n}, {"pearson_r", number_or_null(a.pearson_r)}, {"median_rel_diff", number_or_null(a.median_rel_diff)}};
}

// How many distinct (a, b) pairs `maps` hold, and how many of them have a
// value on at least one line. A headline has ~280 000 values of ~8 600
// pairs: they are counted on a grid of the map's units, each id found in a
// table; a std::set of pairs, or a binary search per id, would make meta.json
// the slowest output file.
struct PairCounts {
  std::size_t all = 0;
  std::size_t completed = 0;
};
PairCounts distinct_pairs(const std::vector<int>& spec_units, std::span<const LatencyMap> maps) {
  int top = 0;
  for (const LatencyMap& map : maps)
    for (const PairStats& p : map.pairs) top = std::max({top, p.a, p.b});
  for (int u : spec_units) top = std::max(top, u);
  // Ids are below (GPUs + 1) x kDeviceUnitStride: a table of them is small.
  std::vector<std::uint32_t> index(static_cast<std::size_t>(top) + 1, 0);  // 0: outside the spec
  std::uint32_t n = 1;
  for (int u : spec_units)
    if (u >= 0 && index[static_cast<std::size_t>(u)] == 0) index[static_cast<std::size_t>(u)] = n++;
  const auto at = [&](int u) { return u < 0 ? 0 : index[static_cast<std::size_t>(u)]; };
  std::vector<char> seen(std::size_t{n} * n, 0);  // 1: measured, 2: with a value
  PairCounts counts;
  for (const LatencyMap& map : maps)
    for (const PairStats& p : map.pairs) {
      char& cell = seen[std::size_t{at(p.a)} * n + at(p.b)];
      counts.all += cell == 0;
      if (cell < 2 && !p.timed_out && std::isfinite(p.oneway_median_ns())) {
        ++counts.completed;
        cell = 2;
      } else if (cell == 0) {
        cell = 1;
      }
    }
  return counts;
}

// A map's entry: `spec` says which, `maps` hold its pairs (one class, or
// every class for the headline), `oneway` its matrix.
nlohmann::json map_json(const MapSpec& spec, std::span<const LatencyMap> maps, const ValueMatrix& oneway) {
  std::vector<double> cycles;
  std::set<std::pair<int, int>> timed_out;  // few: a set is cheap
  nlohmann::json timed_out_json = nlohmann::json::array();
  std::size_t measurements = 0;
  for (const LatencyMap& map : maps) measurements += map.pairs.size();
  cycles.reserve(measurements);
  for (const LatencyMap& map : maps)
    for (const PairStats& p : map.pairs) {
      if (std::isfinite(p.cycles_median)) cycles.push_back(p.cycles_median);
      // A pair may time out on several lines; list it once.
      if (p.timed_out && timed_out.emplace(p.a, p.b).second) timed_out_json.push_back({p.a, p.b});
    }
  const PairCounts pairs = distinct_pairs(spec.units, maps);
  return {
      {"placement", to_string(spec.placement)},
      {"home_class", spec.home_class == MapSpec::kAllClasses ? nlohmann::json("all") : nlohmann::json(spec.home_class)},
      {"pair_count", pairs.all},
      // Pairs with a value on at least one of their lines (pair_count less
      // those that timed out on every line): 0 when no pair completed.
      {"completed_pairs", pairs.completed},
      {"measurements", measurements},
      {"oneway_ns", summary_json(summarize(oneway.values))},  // NaN cells are ignored
      {"rtt_cycles_median", number_or_null(summarize(cycles).median)},
      {"timed_out_pairs", timed_out_json},
  };
}

// `sides` is empty where the map has no homes (--via dsm): then the entry
// says nothing of home classes, flag lines or sides.
nlohmann::json placement_json(const PlacementResult& p, const Topology& sides, bool homes) {
  nlohmann::json classes = nlohmann::json::array();
  for (std::size_t c = 0; c < p.per_class.size(); ++c) {
    nlohmann::json j = map_json(p.per_class[c].spec, std::span(&p.per_class[c], 1), p.per_class_ns[c]);
    const AdditiveFit& fit = p.fits[c];
    j["additive_fit"] = {{"r2", number_or_null(fit.r2)}, {"constant_ns", number_or_null(fit.constant)}};
    classes.push_back(j);
  }
  nlohmann::json checks = nlohmann::json::array();
  for (const SelfCheck& c : p.checks)
    checks.push_back({{"pairs_per_round", c.pairs_per_round},
                      {"checked", c.pilot ? "pilot" : "map"},
                      {"passed", c.passed},
                      {"concurrent_vs_serial", agreement_json(c.agreement)},
                      {"serial_vs_serial", agreement_json(c.serial_repeat)},
                      {"bias", number_or_null(c.bias)},
                      {"bias_standard_error", number_or_null(c.bias_uncertainty)},
                      {"sampling_noise", number_or_null(c.sampling_noise)},
                      {"earlier_serial_vs_serial_median_rel_diff", number_or_null(c.earlier_serial_repeat)}});
  nlohmann::json j = map_json(p.headline, p.per_class, p.headline_ns);
  // Complete: every planned pair measured; false when a stop request ended
  // the placement early or any measurement timed out (also, then, when no
  // pair completed at all: completed_pairs 0).
  j["complete"] = p.complete && j["timed_out_pairs"].empty();
  j["pairs_per_round"] = p.pairs_per_round;
  // Wall seconds by what they went to; kernel: the device's share of
  // measuring, backend_host the backend's own host work around its launches
  // (the rest of measuring is the engine's, between the backend's calls).
  j["seconds"] = {{"measuring", p.seconds.measuring},
                  {"kernel", p.stats.device_seconds},
                  {"backend_host", p.stats.host_seconds},
                  {"checks", p.seconds.checks},
                  {"summaries", p.seconds.summaries}};
  j["serial_checks"] = checks;
  if (homes) {
    j["line_sets_agreement"] = agreement_json(p.line_sets);
    j["per_class"] = classes;
    const double ari = sides.groups.size() > 1 ? topology_agreement(p.headline_ns, sides) : kNaN;
    j["sides_agreement_ari"] = number_or_null(ari);
  } else {
    j.erase("home_class");
  }
  nlohmann::json extra = p.stats.extra;
  if (!p.stats.cluster_barrier.empty()) {
    nlohmann::json barrier = nlohmann::json::array();
    for (const ClusterBarrierRow& row : p.stats.cluster_barrier)
      barrier.push_back({{"cluster_size", row.cluster_size}, {"clusters", row.clusters},
                         {"median_cycles", row.median_cycles}, {"median_ns", row.median_ns}});
    extra["cluster_barrier"] = barrier;
  }
  j["stats"] = {{"device_seconds", p.stats.device_seconds}, {"launches", p.stats.launches},
                {"clock_hz", number_or_null(p.stats.clock_hz)}, {"extra", extra}};
  return j;
}

nlohmann::json device_homes_summary_json(const HomesResult& h) {
  return {{"device", h.device},
          {"class_count", h.classes.class_count},
          {"recheck_agreement", h.recheck_agreement},
          {"unreproduced_class_count", h.unreproduced_class_count},
          {"separation", number_or_null(h.classes.separation)},
          {"sides", to_json(home_sides({h}))["groups"]},
          {"lines_probed", h.table.lines.size()},
          {"arena_offset_bytes", h.arena.offset_bytes}};
}

// One device: its summary. Several: the same keys over all of them (the
// most classes, the weakest re-check and separation, every side), and each
// device's own summary under "devices".
nlohmann::json homes_summary_json(const RunHomes& homes) {
  if (homes.size() == 1) return device_homes_summary_json(homes.front());
  nlohmann::json j = {{"class_count", class_count(homes)}, {"sides", to_json(home_sides(homes))["groups"]}};
  double recheck = 1.0, separation = std::numeric_limits<double>::infinity();
  nlohmann::json devices = nlohmann::json::array();
  for (const HomesResult& h : homes) {
    recheck = std::min(recheck, h.recheck_agreement);
    separation = std::min(separation, h.classes.separation);
    devices.push_back(device_homes_summary_json(h));
  }
  j["recheck_agreement"] = recheck;
  j["separation"] = number_or_null(separation);
  if (!homes.empty()) {
    j["lines_probed"] = homes.front().table.lines.size();
    j["arena_offset_bytes"] = homes.front().arena.offset_bytes;
  }
  j["devices"] = devices;
  return j;
}

// What every meta.json says, a map's and that of `cumap homes`: the tool
// and the run, the device, the units and their homes.
nlohmann::json run_meta(const MapResult& r) {
  std::set<int> units(r.display_order.begin(), r.display_order.end());
  std::vector<int> unit_list(units.begin(), units.end());
  // Where the wall time went, in the order the phases ran.
  nlohmann::json phases = nlohmann::json::array();
  for (const auto& [name, seconds] : r.run.phase_seconds) phases.push_back({{"phase", name}, {"seconds", seconds}});
  return {
      {"tool", "cumap"},
      {"tool_version", r.run.tool_version},
      {"timestamp_utc", r.run.timestamp_utc},
      {"host", r.run.host_name},
      {"command_line", r.run.command_line},
      {"wall_seconds", r.run.wall_seconds},
      {"phase_seconds", phases},
      {"backend", r.device.backend},
      {"device", device_json(r.device)},
      {"topology", to_json(r.topology)},
      {"display_order", r.display_order},
      {"units", unit_list},
      {"homes", homes_summary_json(r.homes)},
  };
}

}  // namespace

Topology sides_as_topology(const std::vector<int>& units, const std::vector<int>& unit_side) {
  Topology t;
  t.source = "homes";
  for (std::size_t i = 0; i < units.size() && i < unit_side.size(); ++i) {
    const auto side = static_cast<std::size_t>(unit_side[i]);
    if (t.groups.size() <= side) t.groups.resize(side + 1);
    t.groups[side].units.push_back(units[i]);
  }
  for (std::size_t s = 0; s < t.groups.size(); ++s) t.groups[s].name = "side" + std::to_string(s);
  std::erase_if(t.groups, [](const UnitGroup& g) { return g.units.empty(); });
  return t;
}

Topology home_sides(const RunHomes& homes) {
  Topology all;
  all.source = "homes";
  for (const HomesResult& h : homes) {
    Topology t = sides_as_topology(h.unit_ids, h.classes.unit_side);
    for (UnitGroup& g : t.groups) {
      if (homes.size() > 1) g.name = fmt::format("g{} {}", h.device, g.name);
      all.groups.push_back(std::move(g));
    }
  }
  return all;
}

namespace {

nlohmann::json device_homes_json(const HomesResult& h) {
  const HomeClasses& c = h.classes;
  nlohmann::json classes = nlohmann::json::array();
  for (int k = 0; k < c.class_count; ++k) {
    nlohmann::json near_units = nlohmann::json::array();
    for (std::size_t u = 0; u < h.unit_ids.size(); ++u)
      if (c.unit_side[u] == k) near_units.push_back(h.unit_ids[u]);
    classes.push_back({{"class", k},
                       {"lines", std::count(c.line_class.begin(), c.line_class.end(), k)},
                       {"near_units", near_units},
                       {"median_ns_by_unit", c.class_unit_ns[static_cast<std::size_t>(k)]}});
  }
  nlohmann::json line_class = nlohmann::json::object();
  for (std::size_t l = 0; l < h.table.lines.size(); ++l) line_class[std::to_string(h.table.lines[l])] = c.line_class[l];
  return {{"device", h.device},
          {"arena", {{"bytes", h.arena.bytes}, {"offset_bytes", h.arena.offset_bytes}}},
          {"class_count", c.class_count},
          {"separation", number_or_null(c.separation)},
          {"units", h.unit_ids},
          {"unit_side", c.unit_side},
          {"classes", classes},
          {"line_class", line_class}};
}

}  // namespace

nlohmann::json homes_json(const RunHomes& homes) {
  if (homes.size() == 1) return device_homes_json(homes.front());
  nlohmann::json devices = nlohmann::json::array();
  for (const HomesResult& h : homes) devices.push_back(device_homes_json(h));
  return {{"devices", devices}};
}

std::string homes_csv(const RunHomes& homes) {
  std::vector<int> ids;
  for (const HomesResult& h : homes) ids.insert(ids.end(), h.unit_ids.begin(), h.unit_ids.end());
  const bool across = ids_span_devices(ids);
  // Across devices a row also says whose lines they are: a unit's own
  // device's, or (the remote table) another's, over the link.
  std::string out = across ? "unit,lines_on,line_offset,home_class,cycles,ns\n" : "unit,line_offset,home_class,cycles,ns\n";
  const auto rows = [&](const HomesResult& h, const LineLatencyTable& t) {
    for (std::size_t u = 0; u < t.units.size(); ++u)
      for (std::size_t l = 0; l < t.lines.size(); ++l) {
        const std::size_t i = u * t.lines.size() + l;
        const auto cell = [](double v) { return std::isfinite(v) ? fmt::format("{:.2f}", v) : std::string(); };
        out += format_unit_id(across ? unit_id(t.units[u]) : h.unit_ids[u], across) + ",";
        if (across) out += fmt::format("{},", h.device);
        out += fmt::format("{},{},{},{}\n", t.lines[l], h.classes.line_class[l],
                           cell(t.cycles.empty() ? kNaN : t.cycles[i]), cell(t.ns[i]));
      }
  };
  for (const HomesResult& h : homes) {
    rows(h, h.table);
    rows(h, h.remote);
  }
  return out;
}

nlohmann::json make_meta(const MapResult& r) {
  // Inside a cluster (--via dsm) the flags are in shared memory: a map there
  // has no flag lines, home classes or sides, and its meta.json names none.
  const bool homes = r.settings.has_homes();
  const Topology side_groups = home_sides(r.homes);
  nlohmann::json placements = nlohmann::json::array();
  for (const PlacementResult& p : r.placements) placements.push_back(placement_json(p, side_groups, homes));
  nlohmann::json structure = nlohmann::json::array();
  for (const StructureRow& row : r.structure)
    structure.push_back({{"relation", row.relation}, {"near_units", row.near_units}, {"median_ns", number_or_null(row.median_ns)},
                         {"p05_ns", number_or_null(row.p05_ns)}, {"p95_ns", number_or_null(row.p95_ns)}, {"cells", row.cells}});
  // The same rows per placement and home class (structure_table pools the
  // same-line classes): what summary.md's structure table shows.
  nlohmann::json by_class = nlohmann::json::array();
  for (const PlacementResult& p : r.placements)
    for (std::size_t c = 0; c < p.structure_by_class.size() && c < p.per_class.size(); ++c)
      for (const StructureRow& row : p.structure_by_class[c])
        by_class.push_back({{"placement", to_string(p.placement)}, {"home_class", p.per_class[c].spec.home_class},
                            {"relation", row.relation}, {"near_units", row.near_units},
                            {"median_ns", number_or_null(row.median_ns)}, {"p05_ns", number_or_null(row.p05_ns)},
                            {"p95_ns", number_or_null(row.p95_ns)}, {"cells", row.cells}});
  nlohmann::json caps = {{"max_pairs_per_round", r.capabilities.max_pairs_per_round},
                         {"l2_persist", r.capabilities.l2_persist}, {"dsm", r.capabilities.dsm}};
  nlohmann::json j = run_meta(r);
  j["interrupted"] = r.interrupted;
  j["other_compute_processes"] = neighbours_json(r.device.neighbours);
  j["capabilities"] = caps;
  j["options"] = r.settings.options;
  j["iters"] = r.settings.iters;  // as measured
  if (homes) {
    j["lines_per_class"] = r.settings.lines_per_class;
    if (ids_span_devices(r.display_order)) j["cross_lines"] = r.settings.cross_lines;
    j["structure"] = structure;
    j["structure_by_class"] = by_class;
  } else {
    j.erase("homes");
  }
  j["maps"] = placements;
  // The groups the heatmaps separate and name ("S0 GPC1"), in display order:
  // `cumap render --order` draws them from here.
  Topology display_groups = r.display_groups;
  display_groups.details = nlohmann::json::object();
  j["display_groups"] = to_json(display_groups);
  if (const nlohmann::json gpus = gpus_json(r); !gpus.empty())
    j["gpus"] = gpus;
  // Pairs between GPUs by flag GPU, home class and sides: summary.md's
  // "Across GPUs" reads it from here.
  if (const nlohmann::json cross = cross_gpu_structure_json(r); !cross.empty())
    j["cross_gpu_structure"] = cross;
  return j;
}

nlohmann::json make_homes_meta(const MapResult& r) {
  nlohmann::json j = run_meta(r);
  j["options"] = r.settings.options;
  return j;
}

std::string utc_timestamp_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

std::string host_name() {
  char buf[256] = {};
  // gethostname does not promise a terminating NUL when the name is truncated.
  if (::gethostname(buf, sizeof buf - 1) != 0) return "unknown";
  return buf;
}

}  // namespace cumap
