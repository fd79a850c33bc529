// Which SMs share a thread block cluster: the evidence GPC discovery merges.
#include "backends/cuda/cluster/cluster_launches.hpp"
#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/device_ops.cuh"

namespace cumap::cuda {
namespace {

__global__ void cluster_census_kernel(int* out_sm) {
  extern __shared__ unsigned char one_block_per_sm[];
  (void)one_block_per_sm;
  if (threadIdx.x == 0) {
    out_sm[blockIdx.x] = static_cast<int>(dev::smid());
    // Stay resident a while so that every cluster of the launch is on the
    // chip at once and the scheduler has to spread them over all GPCs.
    const long long start = clock64();
    while (clock64() - start < 200000) {
    }
  }
}

// Census blocks are one warp each, in clusters of `cluster_size`.
cudaLaunchConfig_t cluster_config(int clusters, int cluster_size, std::size_t smem_bytes, cudaStream_t stream,
                                  cudaLaunchAttribute* attr) {
  return cluster_launch_config(static_cast<unsigned>(clusters * cluster_size), 32, cluster_size, smem_bytes, stream,
                               attr);
}

}  // namespace

void prepare_cluster_census(std::size_t smem_bytes) {
  CUMAP_CUDA_CHECK(cudaFuncSetAttribute(cluster_census_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(smem_bytes)));
  CUMAP_CUDA_CHECK(cudaFuncSetAttribute(cluster_census_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
}

int max_active_clusters(int cluster_size, std::size_t smem_bytes) {
  cudaLaunchAttribute attr{};
  cudaLaunchConfig_t cfg = cluster_config(1, cluster_size, smem_bytes, nullptr, &attr);
  int n = 0;
  // An unsupported size is an answer here, not a failure.
  if (cudaOccupancyMaxActiveClusters(&n, cluster_census_kernel, &cfg) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

void launch_cluster_census(int* out_sm, int clusters, int cluster_size, std::size_t smem_bytes, cudaStream_t stream) {
  cudaLaunchAttribute attr{};
  cudaLaunchConfig_t cfg = cluster_config(clusters, cluster_size, smem_bytes, stream, &attr);
  CUMAP_CUDA_CHECK(cudaLaunchKernelEx(&cfg, cluster_census_kernel, out_sm));
}

}  // namespace cumap::cuda
