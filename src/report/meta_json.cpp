// meta.json of a map, of `cumap homes`, and of barrier and contention
// (meta_json.hpp): the summary's keys with the rest beside them.
#include "report/meta_json.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <future>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/map_result.hpp"
#include "core/output_kind.hpp"
#include "core/stats.hpp"
#include "core/topology.hpp"
#include "core/topology_discovery.hpp"
#include "report/json_number.hpp"
#include "report/summary_json.hpp"

namespace cumap {
namespace {

// `from` written over `into`: objects key by key, arrays element by element,
// so that the summary's keys of a map's entry join the entry's other keys.
void merge_json(nlohmann::json& into, const nlohmann::json& from) {
  if (from.is_object() && (into.is_object() || into.is_null())) {
    for (const auto& [key, value] : from.items()) merge_json(into[key], value);
  } else if (from.is_array() && into.is_array()) {
    for (std::size_t i = 0; i < from.size(); ++i)
      if (i < into.size()) merge_json(into[i], from[i]);
      else into.push_back(from[i]);
  } else {
    into = from;
  }
}

nlohmann::json device_json(const DeviceInfo& d) {
  nlohmann::json j = {
      {"unit_count", d.unit_count},
      {"clock_source", d.clock_source},
      {"clock_hz", d.clock_hz},
  };
  if (d.extra.is_object())
    for (const auto& [key, value] : d.extra.items()) j[key] = value;
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

nlohmann::json stats_json(const Summary& s) {
  return {{"median", number_or_null(s.median)}, {"min", number_or_null(s.min)}, {"max", number_or_null(s.max)},
          {"p05", number_or_null(s.p05)}, {"p95", number_or_null(s.p95)}};
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

// What every meta.json says beside its header (RunHeader, summary_json.hpp):
// where the wall time went, the device's other facts, the topology, the
// display order and the homes' checks.
nlohmann::json run_meta(const MapResult& r) {
  // In the order the phases ran.
  nlohmann::json phases = nlohmann::json::array();
  for (const auto& [name, seconds] : r.run.phase_seconds) phases.push_back({{"phase", name}, {"seconds", seconds}});
  nlohmann::json homes = homes_summary_json(r.homes);
  for (const char* header_key : {"class_count", "sides"}) homes.erase(header_key);
  return {
      {"phase_seconds", phases},
      {"device", device_json(r.device)},
      {"topology", to_json(r.topology)},
      {"display_order", r.display_order},
      {"homes", homes},
  };
}

// A map of one class (every class for the headline, which the summary
// holds): `spec` says which, `maps` hold its pairs, `oneway` its matrix.
nlohmann::json class_map_json(const MapSpec& spec, const LatencyMap& map, const ValueMatrix& oneway) {
  std::vector<double> cycles;
  cycles.reserve(map.pairs.size());
  for (const PairStats& p : map.pairs)
    if (std::isfinite(p.cycles_median)) cycles.push_back(p.cycles_median);
  const std::span<const LatencyMap> maps(&map, 1);
  const PairCounts pairs = count_pairs(spec.units, maps);
  nlohmann::json late = nlohmann::json::array();
  for (const auto& [a, b] : timed_out_pairs(maps)) late.push_back({a, b});
  return {
      {"placement", to_string(spec.placement)},
      {"home_class", spec.home_class},
      {"pair_count", pairs.all},
      // Pairs with a value on at least one of their lines (pair_count less
      // those that timed out on every line): 0 when no pair completed.
      {"completed_pairs", pairs.completed},
      {"measurements", map.pairs.size()},
      {"oneway_ns", stats_json(summarize(oneway.values))},  // NaN cells are ignored
      {"rtt_cycles_median", number_or_null(median(std::move(cycles)))},
      {"timed_out_pairs", late},
  };
}

// A placement's entry beside its summary (RunSummary::Map): its checks,
// timings and per-class maps. `sides` is empty where the map has no homes
// (--via dsm): then the entry says nothing of home classes, flag lines or sides.
nlohmann::json placement_json(const PlacementResult& p, const Topology& sides, bool homes) {
  std::vector<double> cycles;
  std::size_t measurements = 0;
  for (const LatencyMap& map : p.per_class) {
    measurements += map.pairs.size();
    for (const PairStats& s : map.pairs)
      if (std::isfinite(s.cycles_median)) cycles.push_back(s.cycles_median);
  }
  nlohmann::json j = {{"measurements", measurements},
                      {"rtt_cycles_median", number_or_null(median(std::move(cycles)))},
                      // Wall seconds by what they went to; kernel: the device's share of
                      // measuring, backend_host the backend's own host work around its launches
                      // (the rest of measuring is the engine's, between the backend's calls).
                      {"seconds",
                       {{"measuring", p.seconds.measuring},
                        {"kernel", p.stats.device_seconds},
                        {"backend_host", p.stats.host_seconds},
                        {"checks", p.seconds.checks},
                        {"summaries", p.seconds.summaries}}},
                      {"stats",
                       {{"device_seconds", p.stats.device_seconds},
                        {"launches", p.stats.launches},
                        {"clock_hz", number_or_null(p.stats.clock_hz)},
                        {"extra", p.stats.extra}}}};
  if (homes) {
    nlohmann::json classes = nlohmann::json::array();
    for (std::size_t c = 0; c < p.per_class.size(); ++c) {
      nlohmann::json entry = class_map_json(p.per_class[c].spec, p.per_class[c], p.per_class_ns[c]);
      const AdditiveFit& fit = p.fits[c];
      entry["additive_fit"] = {{"r2", number_or_null(fit.r2)}, {"constant_ns", number_or_null(fit.constant)}};
      classes.push_back(entry);
    }
    j["home_class"] = "all";
    j["line_sets_agreement"] = agreement_json(p.line_sets);
    j["per_class"] = classes;
    const double ari = sides.groups.size() > 1 ? topology_agreement(p.headline_ns, sides) : kNaN;
    j["sides_agreement_ari"] = number_or_null(ari);
  }
  return j;
}

}  // namespace

nlohmann::json make_result_meta(const MapResult& r) {
  // Inside a cluster (--via dsm) the flags are in shared memory: a map there
  // has no flag lines, home classes or sides, and its meta.json names none.
  const bool homes = r.settings.has_homes();
  const Topology side_groups = home_sides(r.homes);
  // Each placement's entry on a thread of its own: across two GPUs each
  // counts and summarizes 1.6 million pair x line values.
  std::vector<std::future<nlohmann::json>> entries;
  for (const PlacementResult& p : r.placements)
    entries.push_back(std::async(std::launch::async, [&p, &side_groups, homes] { return placement_json(p, side_groups, homes); }));
  nlohmann::json placements = nlohmann::json::array();
  for (std::future<nlohmann::json>& entry : entries) placements.push_back(entry.get());
  nlohmann::json j = run_meta(r);
  if (!homes) j.erase("homes");
  j["other_compute_processes"] = neighbours_json(r.device.neighbours);
  j["capabilities"] = {{"max_pairs_per_round", r.capabilities.max_pairs_per_round},
                       {"l2_persist", r.capabilities.l2_persist},
                       {"dsm", r.capabilities.dsm}};
  j["options"] = r.settings.options;
  j["maps"] = placements;
  // The groups the heatmaps separate and name ("S0 GPC1"), in display order:
  // `cumap render --order` draws them from here.
  Topology display_groups = r.display_groups;
  display_groups.details = nlohmann::json::object();
  j["display_groups"] = to_json(display_groups);
  j["kind"] = to_string(OutputKind::Map);
  return j;
}

void add_summary_meta(nlohmann::json& meta, const RunSummary& summary) { merge_json(meta, to_json(summary)); }

nlohmann::json make_meta(const MapResult& r, const RunSummary& summary) {
  nlohmann::json j = make_result_meta(r);
  add_summary_meta(j, summary);
  return j;
}

nlohmann::json make_homes_meta(const MapResult& r) {
  nlohmann::json j = run_meta(r);
  j["options"] = r.settings.options;
  j["kind"] = to_string(OutputKind::Homes);
  merge_json(j, to_json(run_header(r)));
  return j;
}

nlohmann::json make_sync_meta(const SyncResult& r, const SyncSummary& summary) {
  nlohmann::json j = run_meta(r.discovery);
  j["options"] = r.settings.options;
  j["clock"] = {{"source", r.discovery.device.clock_source}};
  j["device_seconds"] = r.device_seconds;
  std::size_t timed_out = 0, unsupported = 0;
  for (const SyncCaseResult& c : r.cases) {
    timed_out += c.timed_out;
    unsupported += c.unsupported;
  }
  j["cases"] = {{"timed_out", timed_out}, {"unsupported", unsupported}, {"file", summary.csv_name()}};
  j["settings"] = {{"timeout_ms", r.settings.timeout_ms}};
  j["kind"] = to_string(summary.contention() ? OutputKind::Contention : OutputKind::Barrier);
  merge_json(j, to_json(summary));
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
