#pragma once
// The host entry points of sync_kernel.cu: plain C++ declarations, so that
// the runtime compiles with the host compiler.
#include <cuda_runtime_api.h>

#include <cstddef>

#include "backends/cuda/sync_params.hpp"

namespace cumap::cuda {

// Raises the kernels' dynamic shared memory limit to `smem_bytes`, a whole
// SM's: one block per SM, as for the ping-pong.
void prepare_sync_kernels(std::size_t smem_bytes);

// Cooperative launch of one case, `blocks` = SM count (grid.sync() needs
// the launch cooperative; the others need every SM's block resident at once).
void launch_sync(const SyncParams& params, int blocks, std::size_t smem_bytes, cudaStream_t stream);

}  // namespace cumap::cuda
