#pragma once
// Host-side launchers of sync_kernels.hip, compiled by hipcc with the
// kernels and callable from g++-compiled code. Each returns the launch's
// hipError_t for the caller's CUMAP_HIP_CHECK.
#include <cstdint>

#include <hip/hip_runtime_api.h>

#include "backends/hip/sync_kernel_abi.hpp"

namespace cumap::hip_kernels {

// Participant `index` as one wave on `stream`.
hipError_t launch_sync_participant(const SyncArgs& args, std::uint32_t index, hipStream_t stream);
// The platform barrier: a cooperative launch of `blocks` one-wave blocks
// synchronizing with grid sync, between `start` and `stop`.
hipError_t launch_platform_barrier(const SyncArgs& args, int blocks, hipEvent_t start, hipEvent_t stop);

}  // namespace cumap::hip_kernels
