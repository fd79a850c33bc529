#pragma once
#include <string>
#include <vector>

#include "cumap/backend.hpp"

namespace cumap {

// cluster-barrier.csv of a --via dsm run: cluster_size,clusters,
// median_cycles,median_ns, the latency of one barrier.cluster
// (cluster.sync()) by cluster size.
std::string cluster_barrier_csv(const std::vector<ClusterBarrierRow>& table);

}  // namespace cumap
