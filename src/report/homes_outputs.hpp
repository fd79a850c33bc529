#pragma once
#include "cumap/result.hpp"
#include "publish/pending_files.hpp"

namespace cumap {

// The files of home discovery, from every map run and from `cumap homes`,
// each whole or not at all:
//   homes.csv, homes.json   the unit x line table and the classes (homes_csv.hpp, homes_json.hpp)
//   heatmap-homes.png       that table drawn (heatmap_png.hpp); across
//                           devices heatmap-homes-g<d>.png, one per device
// Reads result.device, .homes, .display_order and .display_groups, which
// must outlive `files`.
void add_homes_outputs(const MapResult& result, PendingFiles& files);

}  // namespace cumap
