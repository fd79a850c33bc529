#pragma once
// Device-side primitives of the HIP kernels (pingpong_kernels.hip and
// sync_kernels.hip; hipcc only): the hardware-id and clock registers, the
// --probe operations as on the CUDA and CPU backends, and the bounded wait.
#include <hip/hip_runtime.h>

#include <cstdint>

#include "cumap/protocol.hpp"

namespace cumap::hip_kernels {

__device__ inline std::uint32_t read_hw_id() {
  std::uint32_t id = 0;
#if defined(__HIP_DEVICE_COMPILE__)
#if defined(__GFX10__) || defined(__GFX11__)
  asm volatile("s_getreg_b32 %0, hwreg(HW_REG_HW_ID1)" : "=s"(id));
#else
  asm volatile("s_getreg_b32 %0, hwreg(HW_REG_HW_ID)" : "=s"(id));
#endif
#endif
  return id;
}

// XCC_ID (hwreg 20) exists from gfx940 (MI300) on: which XCD the wave runs
// on. The register number, not its name, so that assemblers that predate the
// name accept it. Elsewhere there is one XCD: 0.
__device__ inline std::uint32_t read_xcc_id() {
  std::uint32_t id = 0;
#if defined(__HIP_DEVICE_COMPILE__) && (defined(__gfx940__) || defined(__gfx941__) || defined(__gfx942__))
  asm volatile("s_getreg_b32 %0, hwreg(20)" : "=s"(id));
#endif
  return id;
}

// wall_clock64() is declared for device compilation only.
__device__ inline std::uint64_t wall_ticks() {
#if defined(__HIP_DEVICE_COMPILE__)
  return static_cast<std::uint64_t>(wall_clock64());
#else
  return 0;
#endif
}

__device__ inline std::uint64_t shader_cycles() { return static_cast<std::uint64_t>(clock64()); }

// The --probe operations, as on the CUDA and CPU backends.
__device__ inline std::uint32_t poll(std::uint32_t* flag, std::uint32_t k, std::uint32_t probe) {
  switch (probe) {
    case protocol::kExch:
      return __hip_atomic_load(flag, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    case protocol::kAcqRel:
      return __hip_atomic_load(flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
    case protocol::kVolatile:
      return *static_cast<volatile std::uint32_t*>(flag);
    default:  // Cas: a CAS that rewrites the value it expects, so every poll is an RMW at L2
      return atomicCAS(flag, k, k);
  }
}

__device__ inline void signal(std::uint32_t* flag, std::uint32_t k, std::uint32_t probe) {
  switch (probe) {
    case protocol::kExch:
      // Volatile, or LLVM turns a relaxed exchange whose old value is unused
      // into a plain store (no atomic swap at all). Volatile keeps the
      // non-returning swap, so the pinger does not wait for its reply either.
      __hip_atomic_exchange(static_cast<volatile std::uint32_t*>(flag), k, __ATOMIC_RELAXED,
                            __HIP_MEMORY_SCOPE_AGENT);
      break;
    case protocol::kAcqRel:
      __hip_atomic_store(flag, k, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
      break;
    case protocol::kVolatile:
      // No fence, as in the other backends' volatile probe: the CU's vector
      // L1 is write-through, so the store reaches L2 without one.
      *static_cast<volatile std::uint32_t*>(flag) = k;
      break;
    default:
      atomicCAS(flag, k - 1, k);
      break;
  }
}

// Spins until *flag == k; false when the budget ran out. The clock is read
// every 32 polls only, so that reading it barely delays seeing the flag.
// `Args`: a kernel's arguments, with its probe and wait budget in ticks.
template <class Args>
__device__ bool wait_for(std::uint32_t* flag, std::uint32_t k, const Args& a) {
  const std::uint64_t start = wall_ticks();
  for (std::uint32_t polls = 1; poll(flag, k, a.probe) != k; ++polls) {
    if (polls % 32 == 0 && wall_ticks() - start > a.wait_budget_ticks) return false;
  }
  return true;
}

}  // namespace cumap::hip_kernels
