// The device side of `cumap barrier` and `cumap contention` on AMD GPUs:
// each participant is a one-wave kernel on its unit's CU-masked stream, as
// each side of a ping-pong pair is; the platform barrier is grid sync in a
// cooperative launch. Built by hipcc only (see CMakeLists.txt). These
// kernels have never run on an AMD GPU: only compiled, their host logic
// tested against the fake runtime.
//
// Clocks, as in pingpong_kernels.hip: wall_clock64() (s_memrealtime, a
// constant-rate counter the whole device shares) times episodes and batches
// in ns, bounds every wait, and spans contention across CUs; clock64()
// (s_memtime, the shader clock) gives the same in cycles.
#include <hip/hip_ext.h>
#include <hip/hip_runtime.h>
// After hip_runtime.h, whose index macros it uses.
#include <hip/hip_cooperative_groups.h>

#include "backends/hip/device_ops.hpp"
#include "backends/hip/sync_launch.hpp"

namespace cumap::hip_kernels {
namespace {

// Spins until *counter >= target (a participant that left episode e may
// already have arrived at e + 1, so a counter can run past k * e).
__device__ bool wait_to_reach(std::uint32_t* counter, std::uint32_t target, const SyncArgs& a) {
  const std::uint64_t start = wall_ticks();
  for (std::uint32_t polls = 1; poll(counter, target, a.probe) < target; ++polls)
    if (polls % 32 == 0 && wall_ticks() - start > a.wait_budget_ticks) return false;
  return true;
}

// One participant of a barrier; episode e counts from 1, so counters only
// grow and a release flag holds the last episode released.
struct Participant {
  const SyncArgs& a;
  std::uint32_t index;

  __device__ bool counter_barrier(std::uint32_t e) {
    atomicAdd(a.counter, 1u);
    return wait_to_reach(a.counter, a.participants * e, a);
  }
  __device__ bool flag_barrier(std::uint32_t k, std::uint32_t e) {
    if (atomicAdd(a.counter, 1u) == k * e - 1) {
      signal(a.release, e, a.probe);
      return true;
    }
    return wait_for(a.release, e, a);
  }
  __device__ bool two_level_barrier(std::uint32_t e) {
    const SyncRole& role = a.roles[index];
    atomicAdd(role.group_counter, 1u);
    if (!role.leader) return wait_for(role.group_release, e, a);
    if (!wait_to_reach(role.group_counter, role.group_size * e, a)) return false;
    if (!flag_barrier(a.groups, e)) return false;
    signal(role.group_release, e, a.probe);
    return true;
  }
  __device__ bool barrier(std::uint32_t e) {
    switch (a.kind) {
      case kSyncFlag: return flag_barrier(a.participants, e);
      case kSyncTwoLevel: return two_level_barrier(e);
      default: return counter_barrier(e);
    }
  }
};

__device__ void note_leave(const SyncArgs& a, int e) {
  a.leave_ticks[e] = wall_ticks();
  a.leave_cycles[e] = shader_cycles();
}

__device__ bool run_barrier(const SyncArgs& a, std::uint32_t index) {
  Participant me{a, index};
  if (index == 0) note_leave(a, 0);
  for (int e = 1; e <= a.warmup + a.episodes; ++e) {
    if (!me.barrier(static_cast<std::uint32_t>(e))) return false;
    if (index == 0) note_leave(a, e);
  }
  return true;
}

__device__ void run_contention(const SyncArgs& a, std::uint32_t index) {
  std::uint32_t v = 0;  // add: the previous result; cas: the value expected next
  for (int b = 0; b < a.warmup + a.episodes; ++b) {
    if (b == a.warmup) a.span_ticks[2 * index] = wall_ticks();
    const std::uint64_t t0 = wall_ticks();
    const std::uint64_t c0 = shader_cycles();
    for (int i = 0; i < a.ops_per_batch; ++i) {
      if (a.kind == kSyncContentionCas) {
        const std::uint32_t old = atomicCAS(a.counter, v, v + 1);
        v = old == v ? v + 1 : old;  // a failed CAS counts too: it tells the value to expect
      } else {
        v = atomicAdd(a.counter + (v & a.zero_mask), 1u);
      }
    }
    // Until the last atomic has returned (v in hand), the clocks are not read
    // again: the batch includes it.
    asm volatile("s_waitcnt vmcnt(0)" ::"v"(v) : "memory");
    const std::uint64_t c1 = shader_cycles();
    const std::uint64_t t1 = wall_ticks();
    if (b >= a.warmup) {
      const std::size_t at = static_cast<std::size_t>(index) * a.episodes + (b - a.warmup);
      a.batch_ticks[at] = t1 - t0;
      a.batch_cycles[at] = c1 - c0;
    }
  }
  a.span_ticks[2 * index + 1] = wall_ticks();
}

__global__ void sync_participant_kernel(SyncArgs a, std::uint32_t index) {
  if (threadIdx.x != 0) return;
  SideStatus* status = a.status + index;
  status->hw_id = read_hw_id();
  status->xcc_id = read_xcc_id();
  status->started = kStartedMarker;
  atomicAdd(a.started, 1u);
  bool completed = wait_to_reach(a.started, a.participants, a);
  if (completed) {
    if (a.kind == kSyncContentionAdd || a.kind == kSyncContentionCas) run_contention(a, index);
    else completed = run_barrier(a, index);
  }
  if (!completed) status->timed_out = kTimedOutMarker;
}

// Grid sync cannot time out: it waits for every block, and the launch is
// cooperative, so every block is resident and reaches it. The runtime
// places the blocks, not CU masks: block 0 times, wherever it runs.
__global__ void platform_barrier_kernel(SyncArgs a) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  const bool timer = blockIdx.x == 0 && threadIdx.x == 0;
  if (timer) note_leave(a, 0);
  for (int e = 1; e <= a.warmup + a.episodes; ++e) {
    grid.sync();
    if (timer) note_leave(a, e);
  }
}

}  // namespace

hipError_t launch_sync_participant(const SyncArgs& args, std::uint32_t index, hipStream_t stream) {
  hipExtLaunchKernelGGL(sync_participant_kernel, dim3(1), dim3(1), 0, stream, nullptr, nullptr, 0, args, index);
  return hipGetLastError();
}

hipError_t launch_platform_barrier(const SyncArgs& args, int blocks, hipEvent_t start, hipEvent_t stop) {
  SyncArgs copy = args;
  void* params[] = {&copy};
  if (hipError_t e = hipEventRecord(start, nullptr); e != hipSuccess) return e;
  if (hipError_t e = hipLaunchCooperativeKernel(reinterpret_cast<const void*>(platform_barrier_kernel), dim3(blocks),
                                                dim3(1), params, 0, nullptr);
      e != hipSuccess)
    return e;
  return hipEventRecord(stop, nullptr);
}

}  // namespace cumap::hip_kernels
