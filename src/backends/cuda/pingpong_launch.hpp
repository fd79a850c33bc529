#pragma once
// Host-callable entry points of the ping-pong kernel (pingpong_kernel.cu);
// plain C++ declarations so that the rest of the backend compiles with the
// host compiler.
#include <cuda_runtime_api.h>

#include <cstddef>

#include "backends/cuda/launch_params.hpp"

namespace cumap::cuda {

inline constexpr int kPingPongThreads = 128;  // with --flush-cache: thread 0 plays, warps 1-3 flush

// Raises the kernels' dynamic shared memory limit to `smem_bytes`: asking for
// a whole SM's shared memory is what keeps every SM to one block.
void prepare_pingpong_kernels(std::size_t smem_bytes);

// Cooperative launch of the persistent ping-pong kernel, `blocks` = SM count.
void launch_pingpong(const PingPongParams& params, int blocks, std::size_t smem_bytes, cudaStream_t stream);

}  // namespace cumap::cuda
