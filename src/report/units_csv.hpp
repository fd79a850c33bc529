#pragma once
#include <string>

#include "cumap/result.hpp"

namespace cumap {

// units.csv: the units of a map rather than their latencies, one row each.
// unit,device,unit_index,side,group,display_index
//   unit           the id as pairs.csv's a and b and the matrices' first row
//                  and column name it ("5"; across devices "g1.5")
//   device         the device part of that id (pairs.csv's flags_on numbering;
//                  0 on a one-device run, whose GPU meta.json names)
//   unit_index     the unit's number on its device
//   side           the home class the unit is nearest (empty with --via dsm)
//   group          its topology group ("GPC3", a CPU package...; empty if none)
//   display_index  its row (and column) in the matrices and heatmaps, from 0
std::string units_csv(const MapResult& result);

}  // namespace cumap
