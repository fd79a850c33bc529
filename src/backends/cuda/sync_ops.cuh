#pragma once
// Device-side primitives of the barriers and contention (sync_kernel.cu),
// beside the ping-pong's (device_ops.cuh), whose operations they poll and
// signal with.
#include <cstdint>

#include "backends/cuda/device_ops.cuh"

namespace cumap::cuda::dev {

// One poll of a counter that only grows, with the probe's operation: cas
// rewrites the value it expects (an RMW at the line's home, as the
// ping-pong's cas polls), the others load it. S: the scope (device_ops.cuh).
template <int P, int S = kGpuScope>
__device__ __forceinline__ unsigned poll_counter(unsigned* counter, unsigned expected) {
  if constexpr (P == kCas) return cas<S>(counter, expected, expected);
  else if constexpr (P == kExch) return ld_relaxed<S>(counter);
  else if constexpr (P == kAcqRel) return ld_acquire<S>(counter);
  else return ld_volatile(counter);
}

// Spins until *counter >= target. wait_for's equality would not do: a
// participant that left episode e may already have added its arrival at
// e + 1 before a slower one sees k * e. False once `budget` cycles passed.
template <int P, int S = kGpuScope>
__device__ __forceinline__ bool wait_to_reach(unsigned* counter, unsigned target, std::uint64_t budget) {
  const long long start = clock64();
  for (;;) {
#pragma unroll
    for (int i = 0; i < 16; ++i)
      if (poll_counter<P, S>(counter, target) >= target) return true;
    if (static_cast<std::uint64_t>(clock64() - start) > budget) return false;
  }
}

// atomicAdd at scope S: returns the value before.
template <int S = kGpuScope>
__device__ __forceinline__ unsigned fetch_add(unsigned* p, unsigned v) {
  if constexpr (S == kSystemScope) return atomicAdd_system(p, v);
  else return atomicAdd(p, v);
}

}  // namespace cumap::cuda::dev
