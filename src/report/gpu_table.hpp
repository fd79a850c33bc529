#pragma once
// The GPU x GPU table of a map across GPUs, as files: one row per placement
// and row of PlacementResult::gpu_table, with the link between the two GPUs.
#include <string>

#include <nlohmann/json.hpp>

#include "cumap/result.hpp"

namespace cumap {

// gpus.csv: placement,gpu_a,gpu_b,flags_on,link,cells,oneway_ns_median,
// p05_ns,p95_ns,min_ns,max_ns; a GPU with itself is "same GPU". Only a
// header where no placement spans GPUs.
std::string gpus_csv(const MapResult& result);
// The same rows for meta.json ("gpus"); empty on one GPU.
nlohmann::json gpus_json(const MapResult& result);

}  // namespace cumap
