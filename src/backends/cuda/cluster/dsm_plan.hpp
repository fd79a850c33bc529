#pragma once
// Host-side arithmetic of the distributed-shared-memory path (--via dsm),
// free of CUDA calls so that it is unit-tested without a GPU: the checks of
// a plan, the pair lookup table the kernel reads, which cluster size each
// launch uses, when to stop launching, and how records become measurements.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cumap/backend.hpp"
#include "plan/cluster_coverage.hpp"
#include "cumap/plan.hpp"

namespace cumap::cuda {

// UsageError "--via dsm needs compute capability 9.0 or newer (this GPU: X.Y)" below 9.0.
void require_dsm_capability(int cc_major, int cc_minor);

// UsageError for a plan this path cannot run: another path, units the device
// lacks, options that mean nothing in shared memory (--flush-cache, --l2-persist).
void check_dsm_plan(const MeasurementPlan& plan, int device, const std::vector<int>& sm_ids);

// The plan's pairs in plan order, one entry each, with the round they came from.
struct PlanEntries {
  std::vector<WantedPair> wanted;
  std::vector<const PlannedPair*> planned;
  std::vector<int> round;
};
PlanEntries plan_entries(const MeasurementPlan& plan);

// The kernel's lookup of pending entries by unordered SM pair (DsmParams).
struct DsmPairTable {
  int sm_id_limit = 0;
  std::vector<int> key_offsets;  // sm_id_limit^2 + 1
  std::vector<int> key_entries;
};
// Entries of `pending` whose SMs are both below sm_id_limit; others cannot be found by a cluster.
DsmPairTable build_pair_table(const std::vector<WantedPair>& wanted, const std::vector<std::size_t>& pending,
                              int sm_id_limit);

// Cluster sizes to rotate through: the largest the device allows, then the
// powers of two below it down to 2 (16 -> 16, 8, 4, 2; 12 -> 12, 8, 4, 2).
// Large clusters measure many pairs per launch; small ones reach SMs that
// large ones never include (the odd TPCs of a GPC).
std::vector<int> dsm_cluster_sizes(int max_cluster_size);

// Clusters to launch: every other rotation twice as many as fit at once, so
// that the second wave lands wherever the first one frees SMs and the pairs
// seen together vary; `cap` > 0 limits clusters (and so pairs) measuring at once.
int clusters_for_launch(int fit, int rotation, int cap);

// When to stop launching clusters.
struct DsmBudget {
  int max_launches = 512;
  double max_seconds = 300.0;
  // Launches in a row that reveal no new wanted pair sharing a cluster, with
  // every pair that did already measured: placement has settled.
  int stale_launches = 32;
};
enum class DsmStop { Continue, AllMeasured, Settled, LaunchBudget, TimeBudget };
DsmStop dsm_next_step(const ClusterCoverage& coverage, int launches, int stale_launches, double seconds,
                      const DsmBudget& budget);
std::string to_string(DsmStop s);

// One measured entry from the records: rtt per sample = sample cycles / iters,
// in ns through `cycles_per_ns`. Timed-out entries carry no samples.
PairMeasurement decode_dsm_entry(const PlannedPair& planned, int round, const std::uint64_t* sample_cycles,
                                 std::uint64_t cold_cycles, int status, const protocol::Counts& counts,
                                 double cycles_per_ns);

// Cycles per cluster barrier, by cluster size -> RunStats::cluster_barrier,
// ascending size; sizes that measured nothing are left out.
std::vector<ClusterBarrierRow> cluster_barrier_table(const std::map<int, std::vector<double>>& cycles_by_size, double cycles_per_ns);

}  // namespace cumap::cuda
