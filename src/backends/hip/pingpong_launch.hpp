#pragma once
// Host-side launchers compiled by hipcc together with the kernels
// (pingpong_kernels.hip), callable from g++-compiled code. Each returns the
// launch's hipError_t for the caller's CUMAP_HIP_CHECK.
#include <cstdint>

#include <hip/hip_runtime_api.h>

#include "backends/hip/kernel_abi.hpp"

namespace cumap::hip_kernels {

// Side b on `b_stream`, then side a on `a_stream` between start and stop.
hipError_t launch_ping_pong(const PingPongArgs& args, hipStream_t a_stream, hipStream_t b_stream,
                            hipEvent_t start, hipEvent_t stop);
// One wave on `stream` writes its HW_ID register and XCC_ID to out[0], out[1].
hipError_t launch_hw_id_probe(std::uint32_t* out, hipStream_t stream);
// One wave on `stream` times dependent atomics on each line.
hipError_t launch_line_probe(const LineProbeArgs& args, hipStream_t stream);
// s_icache_inv on every CU.
hipError_t launch_icache_flush(int cu_count, hipStream_t stream);

}  // namespace cumap::hip_kernels
