#pragma once
// Across GPUs, the structure table's counterpart: what a pair between two
// GPUs costs by the GPU whose memory holds its flags, the home class of the
// flag's line (a class of that GPU) and the side of each unit on its own
// GPU. On one chip the side near the flag's home decides the cost; across
// GPUs the unit reaching over the link plays its own part, so both sides
// are kept apart rather than folded into "near" and "far".
#include <cstddef>
#include <map>
#include <vector>

#include "cumap/result.hpp"

namespace cumap {


// The rows of one placement from its per-class maps split by the GPU that
// held the flags (MapMatrices::per_map_flag_device): `per_class_by_flag_gpu`
// [f][i] is the map of home class `home_class_of_map[i]` from lines on GPU f.
// `units` / `unit_side` give every unit's side (ids by unit_id()). Only
// cells between two GPUs count; ordered maps count each direction. Sorted
// by GPU pair, flag GPU, class, side on a, side on b; empty on one GPU.
std::vector<CrossGpuStructureRow> cross_gpu_structure(
    const std::map<int, std::vector<ValueMatrix>>& per_class_by_flag_gpu, const std::vector<int>& home_class_of_map,
    const std::vector<int>& units, const std::vector<int>& unit_side);

}  // namespace cumap
