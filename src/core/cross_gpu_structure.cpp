// Pairs between GPUs by flag GPU, home class and the two units' sides
// (cross_gpu_structure.hpp), from the per-class maps of each GPU's lines.
#include "core/cross_gpu_structure.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "core/stats.hpp"
#include "cumap/plan.hpp"

namespace cumap {

std::vector<CrossGpuStructureRow> cross_gpu_structure(
    const std::map<int, std::vector<ValueMatrix>>& per_class_by_flag_gpu, const std::vector<int>& home_class_of_map,
    const std::vector<int>& units, const std::vector<int>& unit_side) {
  if (units.size() != unit_side.size())
    throw std::invalid_argument("cross_gpu_structure: one side per unit is needed");
  std::unordered_map<int, int> side_of;
  for (std::size_t i = 0; i < units.size(); ++i) side_of[units[i]] = unit_side[i];
  // (gpu_a, gpu_b, flags_on, class, side_a, side_b) -> one-way values.
  using Key = std::tuple<int, int, int, int, int, int>;
  std::map<Key, std::vector<double>> groups;
  for (const auto& [flags_on, per_class] : per_class_by_flag_gpu)
    for (std::size_t m = 0; m < per_class.size() && m < home_class_of_map.size(); ++m) {
      const ValueMatrix& map = per_class[m];
      std::vector<int> gpu(map.size()), side(map.size(), -1);
      for (std::size_t i = 0; i < map.size(); ++i) {
        gpu[i] = device_of_id(map.units[i]);
        if (const auto it = side_of.find(map.units[i]); it != side_of.end()) side[i] = it->second;
      }
      // A pair counts once where its map is mirrored (unordered) and once
      // per direction where the directions differ (ordered), as in the
      // structure table.
      for (std::size_t r = 0; r < map.size(); ++r)
        for (std::size_t c = r + 1; c < map.size(); ++c) {
          if (gpu[r] == gpu[c] || side[r] < 0 || side[c] < 0) continue;
          if (flags_on != gpu[r] && flags_on != gpu[c]) continue;
          const bool r_first = gpu[r] < gpu[c];
          const std::size_t a = r_first ? r : c, b = r_first ? c : r;
          auto& values = groups[{gpu[a], gpu[b], flags_on, home_class_of_map[m], side[a], side[b]}];
          const double x = map.at(r, c), y = map.at(c, r);
          if (std::isfinite(x)) values.push_back(x);
          if (std::isfinite(y) && !(std::isfinite(x) && x == y)) values.push_back(y);
        }
    }
  std::vector<CrossGpuStructureRow> rows;
  for (const auto& [key, values] : groups) {
    if (values.empty()) continue;
    const Summary s = summarize(values);
    const auto [gpu_a, gpu_b, flags_on, home_class, side_a, side_b] = key;
    rows.push_back({gpu_a, gpu_b, flags_on, home_class, side_a, side_b, s.median, s.p05, s.p95, values.size()});
  }
  return rows;
}

}  // namespace cumap
