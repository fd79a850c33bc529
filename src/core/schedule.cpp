// Which pairs a run measures, and in what order.
#include <algorithm>
#include <vector>

#include "cumap/error.hpp"
#include "cumap/schedule.hpp"

namespace cumap {

Schedule make_schedule(std::vector<int> units, bool ordered) {
  std::sort(units.begin(), units.end());
  units.erase(std::unique(units.begin(), units.end()), units.end());
  if (units.size() < 2) throw UsageError("need at least two units to form a pair");

  Schedule s;
  s.ordered = ordered;
  const std::size_t n = units.size();
  s.pairs.reserve(ordered ? n * (n - 1) : n * (n - 1) / 2);
  for (std::size_t i = 0; i < n; ++i) {
    // Ordered schedules walk the whole row (both sides of the diagonal);
    // unordered ones only the upper triangle.
    for (std::size_t j = ordered ? 0 : i + 1; j < n; ++j) {
      if (j != i) s.pairs.push_back(Pair{units[i], units[j]});
    }
  }
  s.units = std::move(units);
  return s;
}

}  // namespace cumap
