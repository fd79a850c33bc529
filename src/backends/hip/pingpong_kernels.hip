// The device side of the HIP backend: the ping-pong pair, the line probe of
// home discovery, the HW_ID probe and the instruction-cache flush. Built by hipcc only (see CMakeLists.txt).
//
// Clocks: wall_clock64() (s_memrealtime, a constant-rate counter) times the
// round trips in ns and bounds every wait; clock64() (s_memtime, the shader
// clock, which follows DVFS) gives the same samples in cycles.
#include <hip/hip_ext.h>
#include <hip/hip_runtime.h>

#include "backends/hip/device_ops.hpp"
#include "backends/hip/pingpong_launch.hpp"

namespace cumap::hip_kernels {
namespace {

// One side of a pair. `k` counts the pair's round trips and both sides count
// alike whoever pings, so the flag values only grow across the whole pair:
// a late read can never mistake an old value for the one it waits for (no ABA).
struct Side {
  const PingPongArgs& a;
  std::uint32_t k = 0;

  // `count` round trips, this side starting each when `i_ping`. The pinger
  // writes their wall ticks and shader cycles to *ticks / *cycles (where
  // given). False when a wait ran out of budget.
  __device__ bool segment(int count, bool i_ping, std::uint64_t* ticks, std::uint64_t* cycles) {
    std::uint64_t t0 = 0, c0 = 0, t1 = 0, c1 = 0;
    for (int i = 0; i < count; ++i) {
      ++k;
      if (i_ping) {
        signal(a.first, k, a.probe);
        // protocol.hpp: timed from just after the first ping to just after the last
        if (i == 0) t0 = wall_ticks(), c0 = shader_cycles();
        if (i == count - 1) t1 = wall_ticks(), c1 = shader_cycles();
      }
      if (!wait_for(i_ping ? a.second : a.first, k, a)) return false;
      if (!i_ping) signal(a.second, k, a.probe);
    }
    if (i_ping) {
      if (cycles) *cycles = c1 - c0;
      if (ticks) *ticks = t1 - t0;
    }
    return true;
  }
};

// Both units of a pair run this kernel, told which side they are, and walk
// the protocol's segments (protocol.hpp): the cold round trip and the
// warm-up pinged by a, then each sample split between the directions. Each
// pinger times only its own segments; the host adds a sample's segments.
// The side is a template argument so that the status pointer is chosen at
// compile time.
template <SideIndex kSide>
__global__ void side_kernel(PingPongArgs a) {
  if (threadIdx.x != 0) return;
  constexpr bool i_am_a = kSide == kSideA;
  SideStatus* status = i_am_a ? a.a_status : a.b_status;
  status->hw_id = read_hw_id();
  status->xcc_id = read_xcc_id();
  status->started = kStartedMarker;
  Side me{a};
  const int n = protocol::segment_count(a.counts);
  for (int i = 0; i < n; ++i) {
    const protocol::Segment seg = protocol::segment(a.counts, i);
    std::uint64_t* ticks = nullptr;
    std::uint64_t* cycles = nullptr;
    if (seg.sample == protocol::kColdSample) ticks = a.cold_ticks;
    if (seg.sample >= 0) {
      ticks = (seg.a_pings ? a.a_ticks : a.b_ticks) + seg.sample;
      cycles = (seg.a_pings ? a.a_cycles : a.b_cycles) + seg.sample;
    }
    if (!me.segment(seg.count, seg.a_pings == i_am_a, ticks, cycles)) {
      status->timed_out = kTimedOutMarker;
      return;
    }
    if (seg.sample >= 0 && (i + 1 == n || protocol::segment(a.counts, i + 1).sample != seg.sample)) {
      status->samples_done = static_cast<std::uint32_t>(seg.sample + 1);
    }
  }
}

// Home discovery: each address depends on the previous atomic's result (the
// word holds 0, so the address does not move, but the wave cannot issue the
// next atomic before the previous one returned).
__global__ void line_probe_kernel(LineProbeArgs a) {
  if (threadIdx.x != 0) return;
  constexpr std::uint32_t kWordsPerLine = protocol::kLineBytes / protocol::kFlagBytes;
  std::uint32_t previous = 0;
  for (std::uint32_t l = 0; l < a.line_count; ++l) {
    std::uint32_t* line = a.flags + a.line_offsets[l] / protocol::kFlagBytes;
    for (std::uint32_t r = 0; r < a.repeats; ++r) {
      const std::uint64_t t0 = wall_ticks();
      const std::uint64_t c0 = shader_cycles();
      for (std::uint32_t i = 0; i < a.chain; ++i) previous = atomicAdd(line + previous % kWordsPerLine, 0u);
      a.cycles[l * a.repeats + r] = shader_cycles() - c0;
      a.ticks[l * a.repeats + r] = wall_ticks() - t0;
    }
  }
}

__global__ void hw_id_probe_kernel(std::uint32_t* out) {
  if (threadIdx.x == 0) {
    out[0] = read_hw_id();
    out[1] = read_xcc_id();
  }
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
hipError_t launch_ping_pong(const PingPongArgs& args, hipStream_t a_stream, hipStream_t b_stream,
                            hipEvent_t start, hipEvent_t stop) {
  hipExtLaunchKernelGGL(side_kernel<kSideB>, dim3(1), dim3(1), 0, b_stream, nullptr, nullptr, 0,
                        args);
  if (hipError_t e = hipGetLastError(); e != hipSuccess) return e;
  hipExtLaunchKernelGGL(side_kernel<kSideA>, dim3(1), dim3(1), 0, a_stream, start, stop, 0, args);
  return hipGetLastError();
}

hipError_t launch_hw_id_probe(std::uint32_t* out, hipStream_t stream) {
  hipExtLaunchKernelGGL(hw_id_probe_kernel, dim3(1), dim3(1), 0, stream, nullptr, nullptr, 0, out);
  return hipGetLastError();
}

hipError_t launch_line_probe(const LineProbeArgs& args, hipStream_t stream) {
  hipExtLaunchKernelGGL(line_probe_kernel, dim3(1), dim3(1), 0, stream, nullptr, nullptr, 0, args);
  return hipGetLastError();
}

hipError_t launch_icache_flush(int cu_count, hipStream_t stream) {
  hipExtLaunchKernelGGL(icache_flush_kernel, dim3(cu_count * kIcacheFlushBlocksPerCu), dim3(64), 0,
                        stream, nullptr, nullptr, 0);
  return hipGetLastError();
}

}  // namespace cumap::hip_kernels
