#pragma once
// The dsm path (--via dsm): SM-to-SM synchronization through distributed
// shared memory inside thread-block clusters (compute capability 9.0+).
// The CUDA backend calls measure_dsm for a plan whose path is Path::Dsm.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "backends/cuda/cluster/dsm_plan.hpp"
#include "cumap/backend.hpp"
#include "cumap/plan.hpp"

namespace cumap::cuda {

// What the dsm path needs from the backend; all of it the backend already knows.
struct DsmContext {
  int device = 0;                 // CUDA ordinal, current on this thread; also UnitRef::device of the plan
  cudaStream_t stream = nullptr;
  int cc_major = 0;
  int cc_minor = 0;
  std::vector<int> sm_ids;        // the %smid values of the device, ascending (the backend's census)
  double max_sm_clock_hz = 0.0;   // turns --timeout-ms into a cycle budget
  double cycles_per_ns = 0.0;     // the SM clock measured by the backend: converts cycles to ns
  std::size_t smem_bytes = 0;     // dynamic shared memory per block: more than half an SM's, so one block per SM
  DsmBudget budget;               // when to stop launching clusters
  int max_clusters_per_launch = 0;  // 0: as many as fit; 1: one cluster measures at a time
  int silent_sm = -1;             // fault injection for tests: this SM never signals
};

// Measures the plan's pairs whose SMs the hardware puts in one cluster, by
// launching clusters until every such pair is measured or ctx.budget runs
// out. Returns those pairs in plan order (timed-out ones with timed_out set);
// pairs never seen in one cluster are left out. RunStats.extra holds
// "coverage" (ClusterCoverage::to_json), "launches" (per launch: cluster size,
// clusters, pairs measured, newly coverable pairs), "stop_reason" and "clusters_at_once";
// RunStats::cluster_barrier the barrier latency by cluster size.
// Throws UsageError below compute capability 9.0 or for a plan this path
// cannot run (check_dsm_plan), RuntimeFailure when CUDA fails.
// `progress(measured, wanted)` after every launch, (wanted, wanted) at the end.
Measurements measure_dsm(const MeasurementPlan& plan, const DsmContext& ctx, const ProgressFn& progress);

}  // namespace cumap::cuda
