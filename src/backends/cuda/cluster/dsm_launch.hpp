#pragma once
// Host-callable entry points of the dsm cluster kernel; plain C++
// declarations so that the host orchestration compiles with the host compiler.
#include <cuda_runtime_api.h>

#include <cstddef>

#include "backends/cuda/cluster/dsm_params.hpp"

namespace cumap::cuda {

// Raises the limits of every probe's kernel: `smem_bytes` of dynamic shared
// memory (most of an SM's, so that no SM holds two blocks) and cluster sizes
// beyond the portable 8.
void prepare_dsm_kernels(std::size_t smem_bytes);

// The largest cluster the device can run with `smem_bytes` per block (0: none).
int dsm_max_cluster_size(int probe, std::size_t smem_bytes);

// Clusters of `cluster_size` that fit on the device at once (0: that size is not supported).
int dsm_max_active_clusters(int probe, int cluster_size, std::size_t smem_bytes);

// `clusters` clusters of `cluster_size` one-thread blocks.
void launch_dsm_pingpong(const DsmParams& params, int clusters, int cluster_size, std::size_t smem_bytes,
                         cudaStream_t stream);

}  // namespace cumap::cuda
