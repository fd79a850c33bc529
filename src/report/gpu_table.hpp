#pragma once
// The GPU x GPU table of a map across GPUs, as files: one row per placement
// and row of PlacementResult::gpu_table, with the link between the two GPUs.
#include <string>

#include <nlohmann/json.hpp>

#include "cumap/result.hpp"

namespace cumap {

// The link between GPUs a and b as the device reports it ("NV18"); "same
// GPU" for a GPU with itself, "unknown" where the device names none.
std::string gpu_link(const DeviceInfo& device, int a, int b);

// gpus.csv: placement,gpu_a,gpu_b,flags_on,link,cells,oneway_ns_median,
// p05_ns,p95_ns,min_ns,max_ns; a GPU with itself is "same GPU". Only a
// header where no placement spans GPUs.
std::string gpus_csv(const MapResult& result);
// The same rows for meta.json ("gpus"); empty on one GPU.
nlohmann::json gpus_json(const MapResult& result);
// meta.json's "cross_gpu_structure": every placement's
// PlacementResult::cross_gpu_structure, one object a row (placement, gpu_a,
// gpu_b, flags_on "g<gpu>", home_class, side_a, side_b, median_ns, p05_ns,
// p95_ns, cells); empty on one GPU.
nlohmann::json cross_gpu_structure_json(const MapResult& result);

}  // namespace cumap
