#pragma once
#include <vector>

#include "cumap/result.hpp"
#include "report/pending_files.hpp"
#include "render/render.hpp"

namespace cumap {

// The files of home discovery, from every map run and from `cumap homes`,
// each whole or not at all:
//   homes.csv, homes.json   the unit x line table and the classes (meta_json.hpp)
//   heatmap-homes.png       that table drawn (homes_heatmap_table); across
//                           devices heatmap-homes-g<d>.png, one per device
// Reads result.device, .homes, .display_order and .display_groups, which
// must outlive `files`.
void add_homes_outputs(const MapResult& result, PendingFiles& files);

// One device's unit x line table as a picture: rows are its units in display order
// (side, then topology group, then id) with those groups as separators;
// columns are the lines grouped by home class, then by offset, labelled with
// their byte offsets in the flag arena. Cells are ns per dependent atomic.
HeatmapTable homes_heatmap_table(const HomesResult& homes, const std::vector<int>& display_order,
                                 const Topology& display_groups, const std::string& unit_name);

}  // namespace cumap
