#pragma once
// The GPU x GPU summary of a map across GPUs: what a user who signals from
// one GPU to another (all-reduce flags, pipeline stages) reads first. One row
// per pair of GPUs (a GPU with itself too) and per GPU holding the flags.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cumap/result.hpp"
#include "core/stats.hpp"

namespace cumap {

struct GpuPairRow {
  int gpu_a = 0;  // the row unit's GPU: the pinger's with --ordered; gpu_a <= gpu_b otherwise
  int gpu_b = 0;
  // Where the flags were: one GPU ("g0"), or "both" for the map's own cells
  // across GPUs (each side's lines weighing the same). A GPU with itself: its own.
  std::string flags_on;
  std::size_t cells = 0;  // unit pairs (each direction once with --ordered)
  Summary oneway_ns;
};

// The rows of one placement's headline over units named by unit_id(); none
// when its units are on one GPU.
std::vector<GpuPairRow> gpu_table(const PlacementResult& placement);

// gpus.csv: placement,gpu_a,gpu_b,flags_on,link,cells,oneway_ns_median,
// p05_ns,p95_ns,min_ns,max_ns. `links` is DeviceInfo::extra["links"]
// ([{"gpu_a", "gpu_b", "link"}, ...]); a GPU with itself is "same GPU".
std::string gpus_csv(const std::vector<PlacementResult>& placements, const nlohmann::json& links);
nlohmann::json gpus_json(const std::vector<PlacementResult>& placements, const nlohmann::json& links);

}  // namespace cumap
