#pragma once
// What a launch of each thread-block-cluster kernel takes: the host entry
// points of cluster_census_kernel.cu (topology discovery) and dsm_kernel.cu
// (--via dsm), and the launch configuration both build their grids with.
// Plain C++ declarations, so that the host orchestration compiles with the
// host compiler.
#include <cuda_runtime_api.h>

#include <cstddef>

#include "backends/cuda/cluster/dsm_params.hpp"

namespace cumap::cuda {

// `blocks` blocks of `threads` threads in clusters of `cluster_size`;
// cluster_size 0 leaves the cluster shape unset (for occupancy queries that
// choose it). `attr` must outlive the returned configuration.
inline cudaLaunchConfig_t cluster_launch_config(unsigned blocks, unsigned threads, int cluster_size,
                                                std::size_t smem_bytes, cudaStream_t stream,
                                                cudaLaunchAttribute* attr) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(blocks);
  cfg.blockDim = dim3(threads);
  cfg.dynamicSmemBytes = smem_bytes;
  cfg.stream = stream;
  if (cluster_size > 0) {
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = static_cast<unsigned>(cluster_size);
    attr->val.clusterDim.y = 1;
    attr->val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
  }
  return cfg;
}

// The cluster census (cluster_census_kernel.cu).

// Allows clusters of non-portable sizes and `smem_bytes` of dynamic shared memory.
void prepare_cluster_census(std::size_t smem_bytes);

// Each block writes its %smid to out_sm[blockIdx.x]; blocks of one cluster
// are consecutive. max_active_clusters: how many clusters of `cluster_size`
// fit at once (0: not supported).
int max_active_clusters(int cluster_size, std::size_t smem_bytes);
void launch_cluster_census(int* out_sm, int clusters, int cluster_size, std::size_t smem_bytes, cudaStream_t stream);

// The dsm ping-pong (dsm_kernel.cu).

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
