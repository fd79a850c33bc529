#pragma once
// What a run derives from what it measured (cumap/result.hpp holds the
// results): a run's classes and sides, and a placement's maps, line sets,
// fits and GPU table, computed once from its per-class maps.
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "cumap/result.hpp"

namespace cumap {

// The most classes any device has (1 without homes): per-class maps go up to it.
int class_count(const RunHomes& homes);

// Every unit of `homes` with its side, device by device.
UnitSides unit_sides(const RunHomes& homes);

// The sides (units grouped by the home class they are near) of the units
// home discovery probed, as a topology: "side0", ...; across devices
// "g0 side0", ... (sides are a device's own).
Topology home_sides(const RunHomes& homes);

// Fills what a placement derives from its per-class maps: the headline spec,
// the one-way matrices, line_sets, fits and the GPU table.
void summarize_placement(PlacementResult& placement, MapSpec headline_spec);

// The GPU x GPU rows of a placement's headline over units named by
// unit_id(); none when its units are on one GPU.
std::vector<GpuPairRow> make_gpu_table(const PlacementResult& placement);

// No pair of the placement (of any placement of the run) has a value: every
// measurement timed out.
bool no_pair_completed(const PlacementResult& placement);
bool no_pair_completed(const MapResult& result);

// How many distinct (a, b) pairs of `units` `maps` hold, and how many of them
// have a value on at least one line (the rest timed out on every line).
struct PairCounts {
  std::size_t all = 0;
  std::size_t completed = 0;
};
PairCounts count_pairs(const std::vector<int>& units, std::span<const LatencyMap> maps);
// The pairs of `maps` that timed out on a line, each once, in the order met.
std::vector<std::pair<int, int>> timed_out_pairs(std::span<const LatencyMap> maps);

}  // namespace cumap
