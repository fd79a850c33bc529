#pragma once
// Plain data shared by the host code (g++) and the cluster kernel (nvcc):
// what one launch of the distributed-shared-memory ping-pong reads and writes.
#include <cstddef>
#include <cstdint>

#include "cumap/protocol.hpp"

namespace cumap::cuda {

// The kernel keeps a cluster's task list in fixed shared-memory arrays.
inline constexpr int kDsmMaxClusterSize = 32;
inline constexpr int kDsmMaxTasksPerCluster = 512;
// Back-to-back cluster barriers each cluster times before its pairs.
inline constexpr int kDsmBarrierReps = 64;

// Bits of an entry's status word.
enum DsmPairStatus : int {
  kDsmPairOk = 0,
  kDsmPingTimedOut = 1,  // the pinger's wait for the answer ran past its budget
  kDsmPongTimedOut = 2,  // the answering side's wait for a signal did
};

struct DsmParams {
  // Wanted pairs still to measure, looked up by the two SMs a cluster got:
  // the entries of unordered SM pair {lo, hi} (lo < hi < sm_id_limit) are
  // key_entries[key_offsets[k] .. key_offsets[k + 1]) with k = lo * sm_id_limit + hi.
  const int* key_offsets;  // [sm_id_limit^2 + 1]
  const int* key_entries;
  int sm_id_limit;
  const int* entry_sms;    // [2 * entries]: SM a (pings first), SM b of every entry

  protocol::Counts counts;
  int probe;                         // protocol::ProbeCode
  std::uint64_t wait_budget_cycles;  // each wait for a signal
  int max_tasks;                     // pairs one cluster measures in this launch (<= kDsmMaxTasksPerCluster)
  int silent_sm = -1;                // fault injection for tests: this SM never signals

  // Per entry, kept across launches. An entry is measured by the one cluster
  // that claims it (0 -> 1), even if two clusters of a launch share SMs.
  unsigned* claimed;
  std::uint64_t* sample_cycles;  // [entries * samples]: cycles of `iters` round trips, both pingers added
  std::uint64_t* cold_cycles;    // [entries]: the first round trip alone
  int* status;                   // [entries]: DsmPairStatus bits

  // Per cluster of this launch (index %clusterid.x).
  int* cluster_sms;                  // [clusters * cluster_size]: %smid of each rank
  std::uint64_t* barrier_cycles;     // [clusters]: rank 0's cycles for kDsmBarrierReps cluster barriers
  int* cluster_tasks;                // [clusters]: pairs the cluster measured
};

}  // namespace cumap::cuda
