#pragma once
// A map run seen from further out, computed once into its summary
// (RunSummary's extremes, unit_terms, standing_out and blocks): the slowest
// and fastest pairs, each unit's own term in the additive fit and the units
// whose term stands out, and side x side and group x group means per class.
// run_summary() makes them from the result; `cumap summary DIR` of a set
// written before they existed makes them from its matrix CSVs
// (report/saved_run.hpp), with the same function.
#include <string>
#include <utility>
#include <vector>

#include "core/run_summary.hpp"
#include "cumap/homes.hpp"
#include "cumap/topology.hpp"
#include "cumap/values.hpp"

namespace cumap {

// One placement's maps: the headline (every class together) and each
// class's, with the additive fit of each class's map (fit_additive).
struct PlacementMatrices {
  std::string placement;  // as summary.md names the map ("same-line", "dsm")
  ValueMatrix headline_ns;
  std::vector<std::pair<int, ValueMatrix>> per_class_ns;  // home class, its map; none with one class
  std::vector<AdditiveFit> fits;                          // per class (one for a run of one class)
};

// Sets `summary`'s views from `maps`; `groups` are the groups the pictures
// draw (side, then topology group: "S0 GPC3"), the sides are the summary's.
void add_map_views(RunSummary& summary, const std::vector<PlacementMatrices>& maps, const Topology& groups);

// How many pairs each end of the list of extremes holds.
inline constexpr std::size_t kExtremePairs = 10;
// A unit stands out when its term is further from the median term than
// this many robust standard deviations (1.4826 x the median absolute
// deviation) and than kStandOutShare of the map's median one-way value.
inline constexpr double kStandOutDeviations = 4.0;
inline constexpr double kStandOutShare = 0.01;
inline constexpr std::size_t kStandOutMost = 10;

}  // namespace cumap
