#pragma once
// Host entry points of the line-probe kernel (line_probe_kernel.cu).
#include <cuda_runtime_api.h>

#include <cstddef>

#include "backends/cuda/launch_params.hpp"

namespace cumap::cuda {

// Whole-SM shared memory per block, as for the ping-pong: one block per SM.
void prepare_line_probe_kernel(std::size_t smem_bytes);

// Cooperative launch, `blocks` = SM count: the SMs named in
// params.turn_of_sm probe one after another, the others only check in.
void launch_line_probe(const LineProbeParams& params, int blocks, std::size_t smem_bytes, cudaStream_t stream);

}  // namespace cumap::cuda
