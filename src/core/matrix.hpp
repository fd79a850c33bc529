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


// Reduces raw measurements to statistics, the parts' pairs one after
// another (a class comes from the backend in parts, and a class across two
// GPUs holds ~800 000 values: joining them first would cost a copy of each).
// Parallel over pairs (OpenMP). `home_class_of_tag` gives the class of a
// measurement's tag (the planner's label).
LatencyMap summarize_measurements(std::span<const std::vector<PairMeasurement>> parts, MapSpec spec,
                                  const std::function<int(int tag)>& home_class_of_tag,
                                  const std::function<int(int tag)>& pass_of_tag);

// What several maps over the same units show (the per-class maps of one
// placement), computed together in one pass over their pairs.
struct MapMatrices {
  std::vector<ValueMatrix> per_map;  // maps[m].oneway_ns()
  ValueMatrix combined;              // every map's pairs as one map's oneway_ns(): each map weighs the same
  ValueMatrix even_passes;           // the same from the even passes' lines only
  ValueMatrix odd_passes;            // and from the odd ones: two disjoint line sets
  ValueMatrix line_spread;           // every map's pairs as one map's line_spread_ns()
  // Per map, what a cell shows beside its value (report.html's details):
  // over every line of the cell in maps[m], the median of the lines' one-way
  // p05 and of their p95 (less each line's correction, as the value is), the
  // line spread (largest minus smallest line, as measured) and how many of
  // the lines timed out (0 where none did). A cell whose value is missing
  // for a timed-out line still has the details of the lines that finished.
  std::vector<ValueMatrix> per_map_p05;
  std::vector<ValueMatrix> per_map_p95;
  std::vector<ValueMatrix> per_map_line_spread;
  std::vector<ValueMatrix> per_map_timed_out_lines;
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
