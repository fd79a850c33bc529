#include "core/map_result.hpp"

#include "core/homes.hpp"
#include "core/matrix.hpp"

#include <algorithm>
#include <utility>

namespace cumap {

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

void summarize_placement(PlacementResult& p, MapSpec headline_spec) {
  MapMatrices m = map_matrices(p.per_class, headline_spec.units, headline_spec.ordered);
  p.per_class_ns = std::move(m.per_map);
  p.headline_ns = std::move(m.combined);
  p.line_spread_ns = std::move(m.line_spread);
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
