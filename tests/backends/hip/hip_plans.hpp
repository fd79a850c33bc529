#pragma once
// Small measurement plans for the HIP tests (the planner proper is core's).
#include <algorithm>
#include <vector>

#include "cumap/plan.hpp"

namespace cumap::testing {

// Every pair of `units` (a < b; with `ordered` also b, a), one pair a round,
// all on the same flag words.
inline MeasurementPlan serial_plan(const std::vector<int>& units, bool ordered, FlagSite flags = {}) {
  MeasurementPlan plan;
  for (int u : units) plan.units.push_back({0, u});
  plan.counts.ordered = ordered;
  for (std::size_t i = 0; i < units.size(); ++i)
    for (std::size_t j = i + 1; j < units.size(); ++j) {
      plan.rounds.push_back(Round{{{{0, units[i]}, {0, units[j]}, flags, 0}}});
      if (ordered) plan.rounds.push_back(Round{{{{0, units[j]}, {0, units[i]}, flags, 0}}});
    }
  return plan;
}

// Round-robin (circle method) rounds of disjoint pairs over units 0..n-1
// (n even), pair p of a round on the line at 256 * p.
inline MeasurementPlan concurrent_plan(int n) {
  MeasurementPlan plan;
  for (int u = 0; u < n; ++u) plan.units.push_back({0, u});
  plan.arena.bytes = static_cast<std::uint64_t>(256 * n);
  std::vector<int> ring(static_cast<std::size_t>(n));
  for (int u = 0; u < n; ++u) ring[static_cast<std::size_t>(u)] = u;
  for (int r = 0; r < n - 1; ++r) {
    Round round;
    for (int p = 0; p < n / 2; ++p) {
      const auto first = static_cast<std::uint64_t>(256 * p);
      round.pairs.push_back({{0, ring[static_cast<std::size_t>(p)]},
                             {0, ring[static_cast<std::size_t>(n - 1 - p)]},
                             {first, first + 4},
                             r});
    }
    plan.rounds.push_back(round);
    std::rotate(ring.begin() + 1, ring.end() - 1, ring.end());
  }
  return plan;
}

}  // namespace cumap::testing
