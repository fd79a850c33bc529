#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "cumap/backend.hpp"
#include "cumap/matrix.hpp"
#include "cumap/options.hpp"
#include "cumap/stats.hpp"
#include "cumap/topology.hpp"

namespace cumap::cli {

// Everything one `cumap` run learned, ready to be written.
struct MapReport {
  DeviceInfo device;
  Topology topology;            // restricted to the measured units
  std::vector<int> display_order;
  std::vector<LatencyMap> maps;  // one per placement
  nlohmann::json meta;
};

// Writes matrix-<placement>.csv, pairs.csv, meta.json, heatmap-<placement>.png
// and, with two placements, heatmap.png into options.out_dir. Each file
// appears whole or not at all.
void write_map_outputs(const Options& options, const MapReport& report);

// "NVIDIA H100 - same-line - one-way median 402.1 ns (range 301.0-611.3)",
// from the summary of the map's one-way cells.
std::string heatmap_title(const DeviceInfo& device, Placement placement, const Summary& cells);

}  // namespace cumap::cli
