#pragma once
// Device-side primitives of the barriers and contention (sync_kernel.cu),
// beside the ping-pong's (device_ops.cuh), whose operations they poll and
// signal with.
#include <cstdint>

#include "backends/cuda/device_ops.cuh"

namespace cumap::cuda::dev {

// One poll of a counter that only grows, with the probe's operation: cas
// rewrites the value it expects (an RMW at the line's home, as the
// ping-pong's cas polls), the others load it.
template <int P>
__device__ __forceinline__ unsigned poll_counter(unsigned* counter, unsigned expected) {
  if constexpr (P == kCas) return cas(counter, expected, expected);
  else if constexpr (P == kExch) return ld_relaxed(counter);
  else if constexpr (P == kAcqRel) return ld_acquire(counter);
  else return ld_volatile(counter);
}

// Spins until *counter >= target. wait_for's equality would not do: a
// participant that left episode e may already have added its arrival at
// e + 1 before a slower one sees k * e. False once `budget` cycles passed.
template <int P>
__device__ __forceinline__ bool wait_to_reach(unsigned* counter, unsigned target, std::uint64_t budget) {
  const long long start = clock64();
  for (;;) {
#pragma unroll
    for (int i = 0; i < 16; ++i)
      if (poll_counter<P>(counter, target) >= target) return true;
    if (static_cast<std::uint64_t>(clock64() - start) > budget) return false;
  }
}

}  // namespace cumap::cuda::dev
