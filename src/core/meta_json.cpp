// meta.json: everything needed to reproduce or compare a run, beside the maps.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <set>
#include <string>
#include <vector>

#include "cumap/outputs.hpp"
#include "cumap/stats.hpp"

namespace cumap {
namespace {

// JSON has no NaN; a missing number is null.
nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

std::string_view hip_unit_name(HipUnit u) { return u == HipUnit::Wgp ? "wgp" : "cu"; }

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
  return j;
}

nlohmann::json options_json(const Options& o) {
  nlohmann::json placements = nlohmann::json::array();
  for (Placement p : o.placements) placements.push_back(to_string(p));
  return {
      {"placements", placements},
      {"backend", to_string(o.backend)},
      {"device", o.device},
      {"units_spec", o.units_spec},
      {"iters", o.iters},
      {"samples", o.samples},
      {"warmup", o.warmup},
      {"timeout_ms", o.timeout_ms},
      {"ordered", o.ordered},
      {"out_dir", o.out_dir.string()},
      {"quiet", o.quiet},
      {"flush_cache", o.flush_cache},
      {"rotating_count", o.rotating_count},
      {"schedule", to_string(o.schedule)},
      {"concurrency", o.concurrency},
      {"check_pairs", o.check_pairs},
      {"check_max_rel_diff", o.check_max_rel_diff},
      {"via", to_string(o.via)},
      {"cross_home", o.cross_home},
      {"home_lines", o.home_lines},
      {"flag_offset", o.flag_offset},
      {"l2_persist", o.l2_persist},
      {"probe", to_string(o.probe)},
      {"order", to_string(o.order)},
      {"colormap", o.colormap},
      {"hip_unit", hip_unit_name(o.hip_unit)},
  };
}

nlohmann::json map_json(const LatencyMap& map) {
  const ValueMatrix oneway = map.oneway_ns();
  const Summary cells = summarize(oneway.values);  // NaN cells are ignored

  std::vector<double> cycles;
  std::set<std::pair<int, int>> pairs;
  std::set<std::pair<int, int>> timed_out;
  nlohmann::json timed_out_json = nlohmann::json::array();
  for (const PairStats& p : map.pairs) {
    pairs.emplace(p.a, p.b);
    if (std::isfinite(p.cycles_median)) cycles.push_back(p.cycles_median);
    // A pair may time out on several lines; list it once.
    if (p.timed_out && timed_out.emplace(p.a, p.b).second) timed_out_json.push_back({p.a, p.b});
  }
  return {
      {"placement", to_string(map.placement())},
      {"home_class", map.spec.home_class == MapSpec::kAllClasses ? nlohmann::json("all") : nlohmann::json(map.spec.home_class)},
      {"ordered", map.spec.ordered},
      {"iters", map.spec.iters},
      {"pair_count", pairs.size()},
      {"oneway_ns",
       {{"median", number_or_null(cells.median)},
        {"min", number_or_null(cells.min)},
        {"max", number_or_null(cells.max)},
        {"p05", number_or_null(cells.p05)},
        {"p95", number_or_null(cells.p95)}}},
      {"rtt_cycles_median", number_or_null(summarize(cycles).median)},
      {"timed_out_pairs", timed_out_json},
  };
}

}  // namespace

nlohmann::json make_meta(const Options& options, const DeviceInfo& device, const Topology& topology,
                         const std::vector<LatencyMap>& maps, const RunInfo& run) {
  std::set<int> units;
  nlohmann::json maps_json = nlohmann::json::array();
  for (const LatencyMap& map : maps) {
    units.insert(map.units().begin(), map.units().end());
    maps_json.push_back(map_json(map));
  }
  return {
      {"tool", "cumap"},
      {"tool_version", run.tool_version},
      {"timestamp_utc", run.timestamp_utc},
      {"host", run.host_name},
      {"command_line", run.command_line},
      {"wall_seconds", run.wall_seconds},
      {"backend", device.backend},
      {"device", device_json(device)},
      {"options", options_json(options)},
      {"topology", to_json(topology)},
      {"units", std::vector<int>(units.begin(), units.end())},
      {"maps", maps_json},
  };
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
