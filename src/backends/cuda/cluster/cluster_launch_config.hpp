#pragma once
// The launch configuration of a 1-D grid of thread-block clusters, shared by
// the cluster census (topology) and the dsm path.
#include <cuda_runtime_api.h>

#include <cstddef>

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

}  // namespace cumap::cuda
