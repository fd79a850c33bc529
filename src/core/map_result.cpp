#include "core/map_result.hpp"

#include "core/homes.hpp"
#include "core/matrix.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace cumap {
namespace {

// One device's sides as a topology: "side0", ...
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

}  // namespace

int class_count(const RunHomes& homes) {
  int most = 1;
  for (const HomesResult& h : homes) most = std::max(most, h.classes.class_count);
  return most;
}

UnitSides unit_sides(const RunHomes& homes) {
  UnitSides s;
  for (const HomesResult& h : homes) {
    s.units.insert(s.units.end(), h.unit_ids.begin(), h.unit_ids.end());
    s.sides.insert(s.sides.end(), h.classes.unit_side.begin(), h.classes.unit_side.end());
  }
  return s;
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

void summarize_placement(PlacementResult& p, MapSpec headline_spec) {
  MapMatrices m = map_matrices(p.per_class, headline_spec.units, headline_spec.ordered);
  p.per_class_ns = std::move(m.per_map);
  p.headline_ns = std::move(m.combined);
  p.line_spread_ns = std::move(m.line_spread);
  p.per_class_p05_ns = std::move(m.per_map_p05);
  p.per_class_p95_ns = std::move(m.per_map_p95);
  p.per_class_line_spread_ns = std::move(m.per_map_line_spread);
  p.per_class_timed_out_lines = std::move(m.per_map_timed_out_lines);
  p.flags_on_ns = std::move(m.per_flag_device);
  p.per_class_flags_on_ns = std::move(m.per_map_flag_device);
  p.fits.clear();
  for (const ValueMatrix& c : p.per_class_ns) p.fits.push_back(fit_additive(c));
  // Even passes against odd passes: two disjoint sets of lines per pair.
  const bool one_line = std::all_of(p.per_class.begin(), p.per_class.end(), [](const LatencyMap& c) {
    return std::all_of(c.pairs.begin(), c.pairs.end(), [](const PairStats& s) { return s.pass % 2 == 0; });
  });
  p.line_sets = one_line ? Agreement{} : agreement(m.even_passes, m.odd_passes);
  p.headline = std::move(headline_spec);
  p.gpu_table = make_gpu_table(p);
}

bool no_pair_completed(const PlacementResult& p) {
  const auto any_value = [](const ValueMatrix& m) {
    return std::any_of(m.values.begin(), m.values.end(), [](double v) { return std::isfinite(v); });
  };
  return !any_value(p.headline_ns) && std::none_of(p.per_class_ns.begin(), p.per_class_ns.end(), any_value);
}

bool no_pair_completed(const MapResult& r) {
  return std::all_of(r.placements.begin(), r.placements.end(),
                     [](const PlacementResult& p) { return no_pair_completed(p); });
}

// A headline has ~280 000 values of ~8 600 pairs on one GPU, 1.6 million
// across two: they are counted on a grid of the map's units, each id found in
// a table, on every core (meta.json and the summary each count them while
// the other files are written; on one core that took a tenth of a second).
PairCounts count_pairs(const std::vector<int>& spec_units, std::span<const LatencyMap> maps) {
  int top = 0;
  for (const LatencyMap& map : maps) {
    const auto count = static_cast<std::ptrdiff_t>(map.pairs.size());
#pragma omp parallel for schedule(static) reduction(max : top)
    for (std::ptrdiff_t i = 0; i < count; ++i) {
      const PairStats& p = map.pairs[static_cast<std::size_t>(i)];
      top = std::max({top, p.a, p.b});
    }
  }
  for (int u : spec_units) top = std::max(top, u);
  // Ids are below (GPUs + 1) x kDeviceUnitStride: a table of them is small.
  std::vector<std::uint32_t> index(static_cast<std::size_t>(top) + 1, 0);  // 0: outside the spec
  std::uint32_t n = 1;
  for (int u : spec_units)
    if (u >= 0 && index[static_cast<std::size_t>(u)] == 0) index[static_cast<std::size_t>(u)] = n++;
  const auto at = [&](int u) { return u < 0 ? 0 : index[static_cast<std::size_t>(u)]; };
  constexpr unsigned char kMeasured = 1, kWithValue = 2;
  std::vector<unsigned char> seen(std::size_t{n} * n, 0);
  for (const LatencyMap& map : maps) {
    const auto count = static_cast<std::ptrdiff_t>(map.pairs.size());
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < count; ++i) {
      const PairStats& p = map.pairs[static_cast<std::size_t>(i)];
      const bool value = !p.timed_out && std::isfinite(p.oneway_median_ns());
      std::atomic_ref(seen[std::size_t{at(p.a)} * n + at(p.b)])
          .fetch_or(static_cast<unsigned char>(value ? kMeasured | kWithValue : kMeasured), std::memory_order_relaxed);
    }
  }
  PairCounts counts;
  for (const unsigned char cell : seen) {
    counts.all += cell != 0;
    counts.completed += (cell & kWithValue) != 0;
  }
  return counts;
}

std::vector<std::pair<int, int>> timed_out_pairs(std::span<const LatencyMap> maps) {
  // Mostly none: found out on every core before they are collected in order.
  bool any = false;
  for (const LatencyMap& map : maps) {
    const auto count = static_cast<std::ptrdiff_t>(map.pairs.size());
#pragma omp parallel for schedule(static) reduction(|| : any)
    for (std::ptrdiff_t i = 0; i < count; ++i) any = any || map.pairs[static_cast<std::size_t>(i)].timed_out;
  }
  std::vector<std::pair<int, int>> out;
  if (!any) return out;
  std::set<std::pair<int, int>> seen;  // few: a set is cheap
  for (const LatencyMap& map : maps)
    for (const PairStats& p : map.pairs)
      if (p.timed_out && seen.emplace(p.a, p.b).second) out.emplace_back(p.a, p.b);
  return out;
}

std::vector<PairStats> PlacementResult::timed_out() const {
  std::vector<PairStats> out;
  for (const LatencyMap& m : per_class)
    for (const PairStats& s : m.timed_out()) out.push_back(s);
  return out;
}

std::vector<PairStats> MapResult::timed_out() const {
  std::vector<PairStats> out;
  for (const PlacementResult& p : placements)
    for (const PairStats& s : p.timed_out()) out.push_back(s);
  return out;
}

}  // namespace cumap
