// The chip-independent summary of maps measured per home class: one-way
// latency by whether the two units are on the same side and by how many of
// them are near the flag's home. On an H100 this is the whole story in four
// rows; on a chip with eight sides or on a CPU (one side) it reads the same.
#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/homes.hpp"
#include "core/stats.hpp"

namespace cumap {

namespace {

// (same side?, near units) -> one-way values.
using StructureGroups = std::map<std::pair<bool, int>, std::vector<double>>;

std::unordered_map<int, int> sides_by_unit(const std::vector<int>& units, const std::vector<int>& unit_side) {
  if (units.size() != unit_side.size())
    throw std::invalid_argument("structure_table: one side per unit is needed");
  std::unordered_map<int, int> side_of;
  for (std::size_t i = 0; i < units.size(); ++i) side_of[units[i]] = unit_side[i];
  return side_of;
}

// The cells of `m`, measured with flags in class `cls`, into their groups.
void add_class_map(StructureGroups& groups, const ValueMatrix& m, int cls,
                   const std::unordered_map<int, int>& side_of) {
  std::vector<int> side(m.size());
  for (std::size_t i = 0; i < m.size(); ++i) {
    const auto it = side_of.find(m.units[i]);
    if (it == side_of.end())
      throw std::invalid_argument("structure_table: a map has unit " + std::to_string(m.units[i]) +
                                  ", which has no side");
    side[i] = it->second;
  }
  const auto add = [&](std::size_t r, std::size_t c, double v) {
    const bool same = side[r] == side[c];
    const int near = (side[r] == cls ? 1 : 0) + (side[c] == cls ? 1 : 0);
    groups[{same, near}].push_back(v);
  };
  // A pair counts once when its map is mirrored (unordered), and once per
  // direction when the two directions differ (ordered maps). Sides and
  // classes are a device's own: pairs across devices (ids by unit_id())
  // are the GPU x GPU table's, not this one's.
  for (std::size_t r = 0; r < m.size(); ++r)
    for (std::size_t c = r + 1; c < m.size(); ++c) {
      if (device_of_id(m.units[r]) != device_of_id(m.units[c])) continue;
      const double x = m.at(r, c), y = m.at(c, r);
      if (std::isfinite(x)) add(r, c, x);
      if (std::isfinite(y) && !(std::isfinite(x) && x == y)) add(r, c, y);
    }
}

std::vector<StructureRow> rows_of(const StructureGroups& groups) {
  std::vector<StructureRow> rows;
  for (const auto& [key, values] : groups) {
    const Summary s = summarize(values);
    rows.push_back({key.first ? "same-side" : "other-side", key.second, s.median, s.p05, s.p95, values.size()});
  }
  std::sort(rows.begin(), rows.end(), [](const StructureRow& a, const StructureRow& b) {
    if (a.relation != b.relation) return a.relation == "same-side";
    return a.near_units > b.near_units;
  });
  return rows;
}

}  // namespace

std::vector<StructureRow> structure_table(const std::vector<ValueMatrix>& per_class, const std::vector<int>& units,
                                          const std::vector<int>& unit_side) {
  const std::unordered_map<int, int> side_of = sides_by_unit(units, unit_side);
  StructureGroups groups;
  for (std::size_t cls = 0; cls < per_class.size(); ++cls)
    add_class_map(groups, per_class[cls], static_cast<int>(cls), side_of);
  return rows_of(groups);
}

std::vector<StructureRow> class_structure_table(const ValueMatrix& oneway, int home_class,
                                                const std::vector<int>& units, const std::vector<int>& unit_side) {
  StructureGroups groups;
  add_class_map(groups, oneway, home_class, sides_by_unit(units, unit_side));
  return rows_of(groups);
}

}  // namespace cumap
