#pragma once
// Host-callable entry points of the kernels; plain C++ declarations so that
// the rest of the backend compiles with the host compiler.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "backends/cuda/launch_params.hpp"

namespace cumap::cuda {

inline constexpr int kPingPongThreads = 128;  // with --flush-cache: thread 0 plays, warps 1-3 flush

// Raises the kernels' dynamic shared memory limit to `smem_bytes`: asking for
// a whole SM's shared memory is what keeps every SM to one block.
void prepare_pingpong_kernels(std::size_t smem_bytes);

// Cooperative launch of the persistent ping-pong kernel, `blocks` = SM count.
void launch_pingpong(const PingPongParams& params, int blocks, std::size_t smem_bytes, cudaStream_t stream);

// One thread spins `settle_ns`, then writes clock64/%globaltimer marks (as
// PingPongParams::clock_marks) around a further `measure_ns`.
void launch_clock_calibration(std::uint64_t* marks, std::uint64_t settle_ns, std::uint64_t measure_ns,
                              cudaStream_t stream);

// Thread-block-cluster census for topology discovery: each block writes its
// %smid to out_sm[blockIdx.x]; blocks of one cluster are consecutive.
// Returns how many clusters of `cluster_size` fit at once (0: not supported).
int max_active_clusters(int cluster_size, std::size_t smem_bytes);
void launch_cluster_census(int* out_sm, int clusters, int cluster_size, std::size_t smem_bytes, cudaStream_t stream);

}  // namespace cumap::cuda
