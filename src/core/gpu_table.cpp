// The GPU x GPU table of a map across GPUs, from the matrices a placement
// already holds: the headline (both sides of every pair across GPUs) and one
// matrix per GPU that held flags (PlacementResult::flags_on_ns).
#include <cmath>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "core/stats.hpp"
#include "core/map_result.hpp"
#include "core/units.hpp"
#include "cumap/result.hpp"

namespace cumap {
namespace {

// Values of `m` by (row GPU, column GPU): every cell once (r < c) for an
// unordered map, every direction for an ordered one.
std::map<std::pair<int, int>, std::vector<double>> cells_by_gpu_pair(const ValueMatrix& m, bool ordered) {
  std::map<std::pair<int, int>, std::vector<double>> out;
  for (std::size_t r = 0; r < m.size(); ++r)
    for (std::size_t c = 0; c < m.size(); ++c) {
      if (r == c || (!ordered && c < r)) continue;
      const double v = m.at(r, c);
      if (!std::isfinite(v)) continue;
      int ga = device_of_id(m.units[r]), gb = device_of_id(m.units[c]);
      if (!ordered && gb < ga) std::swap(ga, gb);
      out[{ga, gb}].push_back(v);
    }
  return out;
}

}  // namespace

std::vector<GpuPairRow> make_gpu_table(const PlacementResult& p) {
  const ValueMatrix& m = p.headline_ns;
  if (!ids_span_devices(m.units)) return {};
  const bool ordered = p.headline.ordered;
  // Each side holding the flags, from its own lines only: its matrix split
  // by GPU pair once, not once per pair.
  std::map<int, std::map<std::pair<int, int>, std::vector<double>>> by_flags_device;
  for (const auto& [device, side] : p.flags_on_ns) by_flags_device[device] = cells_by_gpu_pair(side, ordered);
  std::vector<GpuPairRow> rows;
  for (auto& [gpus, values] : cells_by_gpu_pair(m, ordered)) {
    const auto [a, b] = gpus;
    rows.push_back({a, b, a == b ? fmt::format("g{}", a) : "both", values.size(), summarize(values)});
    if (a == b) continue;
    for (const auto& [device, cells] : by_flags_device) {
      if (device != a && device != b) continue;
      const auto it = cells.find(gpus);
      if (it == cells.end()) continue;
      rows.push_back({a, b, fmt::format("g{}", device), it->second.size(), summarize(it->second)});
    }
  }
  return rows;
}

}  // namespace cumap
