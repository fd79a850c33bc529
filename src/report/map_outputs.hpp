#pragma once
#include <string>

#include "cumap/result.hpp"
#include "report/output_set.hpp"
#include "core/stats.hpp"

namespace cumap {

// Writes into options.out_dir, each file whole or not at all:
//   matrix-<placement>.csv, heatmap-<placement>.png   the headline map (every home class)
//   matrix-<placement>-home<c>.csv, heatmap-...png   flags in home class c (with several classes)
//   line-spread-<placement>.csv                       largest minus smallest per-line value (several lines)
//   heatmap.png                                       every placement's headline on one scale
//   pairs.csv, meta.json
//   gpus.csv                                          across GPUs: the GPU x GPU table (gpu_table.hpp)
//   homes.csv, homes.json, heatmap-homes.png          home discovery (homes_outputs.hpp; not with --via dsm)
//   units.csv, topology.json, summary.md              the units, their topology and sides, the run in a page (unit_files.hpp)
void write_map_outputs(const MapResult& result, OutputSet& out);

// "NVIDIA H100 - same-line, cas, all home classes - one-way median 402.1 ns (range 301.0-611.3)";
// `flags` says where the flags were ("all home classes", "flags in home class 1", ...).
// How the display order sorts the units, for axis titles: "side, then
// group", "GPU, side, then group", "group"; empty in id order.
std::string display_order_words(const MapResult& result);

std::string heatmap_title(const DeviceInfo& device, Placement placement, Probe probe, const std::string& flags,
                          const Summary& cells);

}  // namespace cumap
