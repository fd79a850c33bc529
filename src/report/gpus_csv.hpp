#pragma once
#include <string>

#include "core/run_summary.hpp"

namespace cumap {

// gpus.csv: the GPU x GPU table of a map across GPUs, one row per placement
// and row of PlacementResult::gpu_table, with the link between the two GPUs:
// placement,gpu_a,gpu_b,flags_on,link,cells,oneway_ns_median,p05_ns,p95_ns,min_ns,max_ns
// (a GPU with itself: "same GPU"). Only a header where no placement spans GPUs.
std::string gpus_csv(const RunSummary& summary);

}  // namespace cumap
