// The device side of the HIP backend: the ping/pong pair, the HW_ID probe and
// the instruction-cache flush. Built by hipcc only (see CMakeLists.txt).
//
// Clocks: wall_clock64() (s_memrealtime, a constant-rate counter) times the
// round trips in ns and bounds every wait; clock64() (s_memtime, the shader
// clock, which follows DVFS) gives the same samples in cycles.
#include <hip/hip_ext.h>
#include <hip/hip_runtime.h>

#include "backends/hip/pingpong_launch.hpp"

namespace cumap::hip_kernels {
namespace {

__device__ std::uint32_t read_hw_id() {
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

// wall_clock64() is declared for device compilation only.
__device__ std::uint64_t wall_ticks() {
#if defined(__HIP_DEVICE_COMPILE__)
  return static_cast<std::uint64_t>(wall_clock64());
#else
  return 0;
#endif
}

__device__ std::uint64_t shader_cycles() { return static_cast<std::uint64_t>(clock64()); }

__device__ std::uint32_t poll(std::uint32_t* flag, std::uint32_t k, std::uint32_t probe) {
  switch (probe) {
    case kProbeAcqRel:
      return __hip_atomic_load(flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
    case kProbeVolatile:
      return *static_cast<volatile std::uint32_t*>(flag);
    default:  // Cas, Exch: a CAS that never changes the value is an atomic read at L2
      return atomicCAS(flag, k, k);
  }
}

__device__ void signal(std::uint32_t* flag, std::uint32_t k, std::uint32_t probe) {
  switch (probe) {
    case kProbeExch:
      atomicExch(flag, k);
      break;
    case kProbeAcqRel:
      __hip_atomic_store(flag, k, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
      break;
    case kProbeVolatile:
      *static_cast<volatile std::uint32_t*>(flag) = k;
      __threadfence();
      break;
    default:
      atomicCAS(flag, k - 1, k);
      break;
  }
}

// Spins until *flag == k; false when the budget ran out. The clock is read
// every 32 polls only, so that reading it barely delays seeing the flag.
__device__ bool wait_for(std::uint32_t* flag, std::uint32_t k, const PingPongArgs& a) {
  const std::uint64_t start = wall_ticks();
  for (std::uint32_t polls = 1; poll(flag, k, a.probe) != k; ++polls) {
    if (polls % 32 == 0 && wall_ticks() - start > a.wait_budget_ticks) return false;
  }
  return true;
}

// Flag values only grow (round trip k moves both flags from k-1 to k), so a
// late read can never mistake an old value for a new one (no ABA).
__global__ void ping_kernel(PingPongArgs a) {
  if (threadIdx.x != 0) return;
  std::uint32_t* mine = a.flags;
  std::uint32_t* partner = a.flags + a.offset_words;
  a.ping_status->hw_id = read_hw_id();
  std::uint32_t k = 0;
  auto round_trip = [&]() {
    ++k;
    signal(mine, k, a.probe);
    return wait_for(partner, k, a);
  };
  auto give_up = [&]() { a.ping_status->timed_out = kTimedOutMarker; };

  std::uint64_t t0 = wall_ticks();
  if (!round_trip()) return give_up();
  a.ticks[0] = wall_ticks() - t0;  // cold: the pair's first round trip on its own
  for (std::uint32_t w = 0; w < a.warmup; ++w) {
    if (!round_trip()) return give_up();
  }
  for (std::uint32_t s = 0; s < a.samples; ++s) {
    t0 = wall_ticks();
    const std::uint64_t c0 = shader_cycles();
    for (std::uint32_t i = 0; i < a.iters; ++i) {
      if (!round_trip()) return give_up();
    }
    a.cycles[s] = shader_cycles() - c0;
    a.ticks[1 + s] = wall_ticks() - t0;
    a.ping_status->samples_done = s + 1;
  }
}

__global__ void pong_kernel(PingPongArgs a) {
  if (threadIdx.x != 0) return;
  std::uint32_t* partner = a.flags;
  std::uint32_t* mine = a.flags + a.offset_words;
  a.pong_status->hw_id = read_hw_id();
  const std::uint32_t rounds = 1 + a.warmup + a.samples * a.iters;
  for (std::uint32_t k = 1; k <= rounds; ++k) {
    if (!wait_for(partner, k, a)) {
      a.pong_status->timed_out = kTimedOutMarker;
      return;
    }
    signal(mine, k, a.probe);
  }
}

__global__ void hw_id_probe_kernel(std::uint32_t* out) {
  if (threadIdx.x == 0) *out = read_hw_id();
}

// As Composable Kernel's ck::flush_icache: invalidate, then 16 s_nop so the
// invalidation settles before the wave ends.
__global__ void icache_flush_kernel() {
  asm volatile(
      "s_icache_inv\n\t"
      "s_nop 0\n\ts_nop 0\n\ts_nop 0\n\ts_nop 0\n\t"
      "s_nop 0\n\ts_nop 0\n\ts_nop 0\n\ts_nop 0\n\t"
      "s_nop 0\n\ts_nop 0\n\ts_nop 0\n\ts_nop 0\n\t"
      "s_nop 0\n\ts_nop 0\n\ts_nop 0\n\ts_nop 0" ::: "memory");
}

}  // namespace

// hipExtLaunchKernelGGL returns void; the launch error is left in
// hipGetLastError, which is what the launchers return.
hipError_t launch_ping_pong(const PingPongArgs& args, hipStream_t ping_stream,
                            hipStream_t pong_stream, hipEvent_t start, hipEvent_t stop) {
  hipExtLaunchKernelGGL(pong_kernel, dim3(1), dim3(1), 0, pong_stream, nullptr, nullptr, 0, args);
  if (hipError_t e = hipGetLastError(); e != hipSuccess) return e;
  hipExtLaunchKernelGGL(ping_kernel, dim3(1), dim3(1), 0, ping_stream, start, stop, 0, args);
  return hipGetLastError();
}

hipError_t launch_hw_id_probe(std::uint32_t* out, hipStream_t stream) {
  hipExtLaunchKernelGGL(hw_id_probe_kernel, dim3(1), dim3(1), 0, stream, nullptr, nullptr, 0, out);
  return hipGetLastError();
}

hipError_t launch_icache_flush(int cu_count, hipStream_t stream) {
  hipExtLaunchKernelGGL(icache_flush_kernel, dim3(cu_count * kIcacheFlushBlocksPerCu), dim3(64), 0,
                        stream, nullptr, nullptr, 0);
  return hipGetLastError();
}

}  // namespace cumap::hip_kernels
