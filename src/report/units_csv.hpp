#pragma once
#include <map>
#include <string>
#include <vector>

#include "core/run_summary.hpp"
#include "cumap/result.hpp"
#include "cumap/topology.hpp"

namespace cumap {

// units.csv: the units of a map rather than their latencies, one row each.
// unit,device,unit_index,side,group,display_index,fit_term_ns
//   unit           the id as pairs.csv's a and b and the matrices' first row
//                  and column name it ("5"; across devices "g1.5")
//   device         the device part of that id (pairs.csv's flags_on numbering;
//                  0 on a one-device run, whose GPU meta.json names)
//   unit_index     the unit's number on its device
//   side           the home class the unit is nearest (empty with --via dsm)
//   group          its topology group ("GPC3", a CPU package...; empty if none)
//   display_index  its row (and column) in the matrices and heatmaps, from 0
//   fit_term_ns    its own one-way term u in the additive fit oneway(a, b) =
//                  u(a) + u(b) + c of the first map's per-class maps, averaged
//                  over the classes (RunSummary::unit_terms; the terms sum to 0);
//                  empty where it has none
std::string units_csv(const MapResult& result, const RunSummary& summary);

// The same from what a run's meta.json records (its display order, sides and
// topology) and its summary: `cumap summary DIR --file units.csv`.
struct UnitsTable {
  std::vector<int> display_order;
  std::map<int, int> side;
  Topology topology;
};
std::string units_csv(const UnitsTable& table, const RunSummary& summary);

}  // namespace cumap
