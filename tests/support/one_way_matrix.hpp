#pragma once
// A one-way latency matrix straight from raw pair measurements (no home
// classes, no line correction): what a cluster-bound map's cells are.
#include <cmath>
#include <cstddef>
#include <map>
#include <utility>
#include <vector>

#include "core/stats.hpp"
#include "cumap/backend.hpp"
#include "cumap/values.hpp"

namespace cumap::test {

// The one-way latency matrix (ns, median round trip / 2) over `units`, with
// cells only for measured pairs: NaN on the diagonal, for pairs never
// measured, for timed-out pairs and for units outside `units`. A pair
// measured more than once gets the median of its medians. Unordered maps are
// mirrored; ordered maps fill only (a, b).
inline ValueMatrix one_way_matrix(const std::vector<int>& units, const std::vector<PairMeasurement>& pairs,
                                  bool ordered) {
  std::map<int, std::size_t> index;
  for (std::size_t i = 0; i < units.size(); ++i) index[units[i]] = i;
  // Per cell, the median round trip of every measurement of the pair.
  std::map<std::pair<std::size_t, std::size_t>, std::vector<double>> medians;
  for (const PairMeasurement& p : pairs) {
    if (p.timed_out || p.rtt_ns.empty()) continue;
    const auto ia = index.find(p.a.unit);
    const auto ib = index.find(p.b.unit);
    if (ia == index.end() || ib == index.end() || ia->second == ib->second) continue;
    const double med = summarize(p.rtt_ns).median;
    if (!std::isfinite(med)) continue;
    medians[{ia->second, ib->second}].push_back(med);
    if (!ordered) medians[{ib->second, ia->second}].push_back(med);
  }
  ValueMatrix m = ValueMatrix::filled(units, kNaN);
  for (const auto& [cell, values] : medians) m.at(cell.first, cell.second) = summarize(values).median / 2.0;
  return m;
}

}  // namespace cumap::test
