#pragma once
// Device-side primitives of the barriers and contention (sync_kernel.cu),
// beside the ping-pong's (device_ops.cuh), whose signal and poll they use.
#include <cstdint>

#include "backends/cuda/device_ops.cuh"

namespace cumap::cuda::dev {

// Spins until *counter >= target. wait_for's equality would not do: a
// participant that left episode e may already have added its arrival at
// e + 1 before a slower one sees k * e. False once `budget` cycles passed.
template <int P, int S = kGpuScope>
__device__ __forceinline__ bool wait_to_reach(unsigned* counter, unsigned target, std::uint64_t budget) {
  return wait_for<P, S>(counter, target, budget, AtLeast{});
}

// atomicAdd at scope S: returns the value before.
template <int S = kGpuScope>
__device__ __forceinline__ unsigned fetch_add(unsigned* p, unsigned v) {
  if constexpr (S == kSystemScope) return atomicAdd_system(p, v);
  else return atomicAdd(p, v);
}

}  // namespace cumap::cuda::dev
