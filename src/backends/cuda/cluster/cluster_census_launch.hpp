#pragma once
// Host entry points of the thread-block-cluster census (cluster_census_kernel.cu)
// that topology discovery uses.
#include <cuda_runtime_api.h>

#include <cstddef>

namespace cumap::cuda {

// Allows clusters of non-portable sizes and `smem_bytes` of dynamic shared memory.
void prepare_cluster_census(std::size_t smem_bytes);

// Each block writes its %smid to out_sm[blockIdx.x]; blocks of one cluster
// are consecutive. max_active_clusters: how many clusters of `cluster_size`
// fit at once (0: not supported).
int max_active_clusters(int cluster_size, std::size_t smem_bytes);
void launch_cluster_census(int* out_sm, int clusters, int cluster_size, std::size_t smem_bytes, cudaStream_t stream);

}  // namespace cumap::cuda
