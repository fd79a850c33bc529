#pragma once
// What a run derives from what it measured (cumap/result.hpp holds the
// results): a run's classes and sides, and a placement's maps, line sets,
// fits and GPU table, computed once from its per-class maps.
#include <vector>

#include "cumap/result.hpp"

namespace cumap {

// The most classes any device has (1 without homes): per-class maps go up to it.
int class_count(const RunHomes& homes);

// Every unit of `homes` with its side, device by device.
UnitSides unit_sides(const RunHomes& homes);

// Fills what a placement derives from its per-class maps: the headline spec,
// the one-way matrices, line_sets, fits and the GPU table.
void summarize_placement(PlacementResult& placement, MapSpec headline_spec);

// The GPU x GPU rows of a placement's headline over units named by
// unit_id(); none when its units are on one GPU.
std::vector<GpuPairRow> make_gpu_table(const PlacementResult& placement);

}  // namespace cumap
