#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <vector>

#include "cumap/backend.hpp"
#include "cumap/latency_map.hpp"
#include "core/stats.hpp"

namespace cumap {


// Reduces raw measurements to statistics. Parallel over pairs (OpenMP).
// `home_class_of_tag` gives the class of a measurement's tag (the planner's label).
LatencyMap summarize_measurements(const std::vector<PairMeasurement>& raw, MapSpec spec,
                                  const std::function<int(int tag)>& home_class_of_tag,
                                  const std::function<int(int tag)>& pass_of_tag);

// The pairs of several maps as one (the headline over every home class).
LatencyMap merge_maps(const std::vector<LatencyMap>& maps, MapSpec spec);

// What several maps over the same units show (the per-class maps of one
// placement), computed together in one pass over their pairs.
struct MapMatrices {
  std::vector<ValueMatrix> per_map;  // maps[m].oneway_ns()
  ValueMatrix combined;              // merge_maps(maps).oneway_ns(): each map weighs the same
  ValueMatrix even_passes;           // the same from the even passes' lines only
  ValueMatrix odd_passes;            // and from the odd ones: two disjoint line sets
  ValueMatrix line_spread;           // merge_maps(maps).line_spread_ns()
  // Where flags were on several devices (pairs across GPUs): `combined` from
  // the lines of one flag device only, by device; empty otherwise.
  std::map<int, ValueMatrix> per_flag_device;
  // The same split of `per_map`: by flag device, maps[m] from that device's
  // lines only (the per-class maps of each GPU holding flags); empty where
  // per_flag_device is.
  std::map<int, std::vector<ValueMatrix>> per_map_flag_device;
};
MapMatrices map_matrices(std::span<const LatencyMap> maps, const std::vector<int>& units, bool ordered);

}  // namespace cumap
