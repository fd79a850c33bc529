#pragma once
#include <cstddef>
#include <vector>

#include <cuda_runtime_api.h>

#include "core/topology.hpp"

namespace cumap::cuda {

// GPC membership from thread block clusters: a cluster never spans GPCs, so
// SMs seen together in one cluster share a GPC. Launches clusters of 16, 8, 4
// and 2 (the sizes the device accepts) many times and merges with union-find.
// Devices before compute capability 9.0 have no clusters: one group, source "none".
Topology discover_gpcs(int cc_major, std::size_t smem_bytes, const std::vector<int>& sm_ids, cudaStream_t stream);

}  // namespace cumap::cuda
