// Barriers and contention on the device (`cumap barrier`, `cumap
// contention`): one cooperative launch per case, one block per SM as in the
// ping-pong, each block learning its role from %smid. The case's
// participants play; the other blocks leave at once, except for grid.sync(),
// the whole grid's barrier, where every block takes part. Participant 0
// times a barrier from leaving one episode to leaving the next. A case
// across GPUs runs as one such launch on every GPU at once: the blocks of
// all of them check in together, the case's lines are reached at system
// scope, and a participant's own group (two-level) is on its own GPU.
#include <cooperative_groups.h>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/launch_params.hpp"
#include "backends/cuda/sync_launches.hpp"
#include "backends/cuda/sync_ops.cuh"

namespace cumap::cuda {
namespace {

using namespace dev;

// One participant of a barrier. Episode e counts from 1 and every
// participant arrives once per episode, so a counter only grows (k per
// episode) and a release flag holds the last episode released: nothing is
// reset between episodes, and no CAS can be fooled by an older value.
// S: the scope of the case's lines (kSystemScope for a case across GPUs).
template <int P, int S>
struct Participant {
  const SyncParams& sp;
  int index;

  __device__ std::uint64_t budget() const { return sp.settings.wait_budget_cycles; }

  // Everyone adds and polls the counter until all k have.
  __device__ bool counter_barrier(unsigned k, unsigned e) {
    fetch_add<S>(sp.counter, 1u);
    return wait_to_reach<P, S>(sp.counter, k * e, budget());
  }

  // Everyone adds; the last to arrive writes the episode to the release
  // flag, which the others poll.
  __device__ bool flag_barrier(unsigned k, unsigned e) {
    if (fetch_add<S>(sp.counter, 1u) == k * e - 1) {
      signal<P, S>(sp.release, e);
      return true;
    }
    return wait_for<P, S>(sp.release, e, budget());
  }

  // The leaders across GPUs: each adds 1 to every other group's exchange
  // counter (over the link) and polls its own GPU's until all the others
  // have added for this episode, so no leader polls over the link. No
  // leader can add for e + 1 before every leader has added for e: it would
  // have had to see all of them.
  __device__ bool exchange_barrier(unsigned group, unsigned e) {
    for (unsigned g = 0; g < sp.exchange_groups; ++g)
      if (g != group) atomicAdd_system(sp.exchange[g], 1u);
    return wait_to_reach<P, kSystemScope>(sp.exchange[group], (sp.exchange_groups - 1) * e, budget());
  }

  // A flag barrier per group on the group's lines (its own GPU's, at GPU
  // scope), whose leaders meet in a flag barrier on the case's lines, or by
  // exchange across GPUs, before each releases its group.
  __device__ bool two_level_barrier(unsigned e) {
    const SyncRole& role = sp.roles[index];
    unsigned* const group_counter = sp.arena + role.group_counter_word;
    unsigned* const group_release = sp.arena + role.group_release_word;
    atomicAdd(group_counter, 1u);
    if (!role.leader) return wait_for<P>(group_release, e, budget());
    if (!wait_to_reach<P>(group_counter, role.group_size * e, budget())) return false;
    // Leaders exchange only across GPUs, so the one-GPU kernel has no such branch.
    bool met = false;
    if constexpr (S == kSystemScope)
      met = sp.exchange_groups > 0 ? exchange_barrier(role.group, e) : flag_barrier(sp.groups, e);
    else
      met = flag_barrier(sp.groups, e);
    if (!met) return false;
    signal<P>(group_release, e);
    return true;
  }

  __device__ bool barrier(unsigned e) {
    const auto k = static_cast<unsigned>(sp.participants);
    switch (sp.settings.kind) {
      case kSyncFlag: return flag_barrier(k, e);
      case kSyncTwoLevel: return two_level_barrier(e);
      default: return counter_barrier(k, e);
    }
  }
};

__device__ void mark_clock(const SyncParams& sp, int at) {
  sp.clock_marks[at] = static_cast<std::uint64_t>(clock64());
  sp.clock_marks[at + 1] = globaltimer_ns();
}

// warmup + episodes barriers back to back; participant 0 notes when it
// leaves each. A wait that runs out marks the case and ends this
// participant; the others then run out in turn, each within its budget.
template <int P, int S>
__device__ void run_barrier(const SyncParams& sp, int index) {
  const int total = sp.settings.warmup + sp.settings.episodes;
  Participant<P, S> me{sp, index};
  if (index == 0) {
    mark_clock(sp, 0);
    sp.leave_cycles[0] = static_cast<std::uint64_t>(clock64());
  }
  for (int e = 1; e <= total; ++e) {
    if (!me.barrier(static_cast<unsigned>(e))) {
      atomicExch(sp.timed_out, 1u);
      return;
    }
    if (index == 0) sp.leave_cycles[e] = static_cast<std::uint64_t>(clock64());
  }
  if (index == 0) mark_clock(sp, 2);
}

// grid.sync() cannot time out. It needs every block of the grid, so every
// block calls it, and the launch is cooperative, so every block is resident:
// it cannot wait for a block that never runs.
__device__ void run_platform_barrier(const SyncParams& sp, bool timer) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  const int total = sp.settings.warmup + sp.settings.episodes;
  if (timer) {
    mark_clock(sp, 0);
    sp.leave_cycles[0] = static_cast<std::uint64_t>(clock64());
  }
  for (int e = 1; e <= total; ++e) {
    grid.sync();
    if (timer) sp.leave_cycles[e] = static_cast<std::uint64_t>(clock64());
  }
  if (timer) mark_clock(sp, 2);
}

// Batches of dependent atomics on the one line. Each batch is timed in
// clock64 cycles, which are this SM's own; the span over all participants
// is taken from %globaltimer, the one clock every SM reads alike (clock64
// counters of different SMs are not aligned; those of different GPUs are not
// either: the host takes each GPU's span apart).
template <bool kCasOp, int S>
__device__ void run_contention(const SyncParams& sp, int index) {
  const SyncSettings& s = sp.settings;
  unsigned* const line = sp.counter;
  unsigned v = 0;  // add: the previous result; cas: the value expected next
  for (int b = 0; b < s.warmup + s.episodes; ++b) {
    if (b == s.warmup) sp.span_ns[2 * index] = globaltimer_ns();
    const std::uint64_t t0 = clock_after(v);
    for (int i = 0; i < s.ops_per_batch; ++i) {
      if constexpr (kCasOp) {
        const unsigned old = cas<S>(line, v, v + 1);
        v = old == v ? v + 1 : old;  // a failed CAS counts too: it tells the value to expect
      } else {
        v = fetch_add<S>(line + (v & sp.zero_mask), 1u);
      }
    }
    const std::uint64_t t1 = clock_after(v);
    if (b >= s.warmup) sp.batch_cycles[static_cast<std::size_t>(index) * s.episodes + (b - s.warmup)] = t1 - t0;
  }
  sp.span_ns[2 * index + 1] = globaltimer_ns();
  if (index == 0) mark_clock(sp, 2);
}

// The abort word of every member of the group.
__device__ void raise_abort_everywhere(const SyncParams& sp, unsigned code) {
  for (int g = 0; g < sp.group_size; ++g) atomicCAS_system(sp.controls[g] + kAbortSlot, 0u, code);
}

// Every block notes its SM and checks in; false, with the abort word
// raised, when the check-in ran past its budget or an SM holds two blocks
// (roles come from %smid). Across GPUs every block of every member checks
// in before any plays, each add going to every member's copy and each wait
// polling its own GPU's, so that no member's participants start while
// another's kernel has not: their waits would run down their budgets.
__device__ bool check_in(const SyncParams& sp, int me) {
  unsigned* const arrived = sp.control + kArrivedSlot;
  unsigned* const abort = sp.control + kAbortSlot;
  sp.block_sm[blockIdx.x] = me;
  if (me < sp.sm_id_limit) atomicAdd(&sp.sm_blocks[me], 1);
  __threadfence();
  const bool across = sp.group_size > 1;
  if (!across) {
    atomicAdd(arrived, 1u);
    if (!wait_at_least(arrived, gridDim.x, sp.settings.wait_budget_cycles, abort, kAbortWaitTimeout, 1000, gridDim.x))
      return false;
  } else {
    for (int g = 0; g < sp.group_size; ++g) atomicAdd_system(sp.controls[g] + kArrivedSlot, 1u);
    if (!wait_at_least(arrived, sp.group_blocks, sp.settings.wait_budget_cycles, abort, kAbortWaitTimeout, 1000,
                       sp.group_blocks, true, [&sp](unsigned code) { raise_abort_everywhere(sp, code); }))
      return false;
  }
  if (me >= sp.sm_id_limit || ld_relaxed(reinterpret_cast<unsigned*>(&sp.sm_blocks[me])) != 1) {
    if (across) raise_abort_everywhere(sp, kAbortSharedSm);
    else atomicCAS(abort, 0u, static_cast<unsigned>(kAbortSharedSm));
    return false;
  }
  return true;
}

template <int P, int S>
__global__ void __launch_bounds__(32, 1) sync_kernel(SyncParams sp) {
  extern __shared__ unsigned char one_block_per_sm[];  // sized by the host, never used
  (void)one_block_per_sm;
  if (threadIdx.x != 0) return;
  const int me = static_cast<int>(smid());
  const bool checked_in = check_in(sp, me);
  const int index = checked_in ? sp.participant_of_sm[me] : -1;
  const int kind = sp.settings.kind;

  if (kind == kSyncPlatform) {
    // Every block syncs once whether it checked in or not (one that left
    // would hold the others in grid.sync() for good); after it the abort
    // word is the same for all, and all leave or all play.
    cooperative_groups::this_grid().sync();
    if (ld_relaxed(sp.control + kAbortSlot) != 0) return;
    run_platform_barrier(sp, index == 0);
    return;
  }
  if (index < 0 || me == sp.settings.silent_sm) return;
  if (index == 0 && is_contention(kind)) mark_clock(sp, 0);
  if (kind == kSyncContentionAdd) run_contention<false, S>(sp, index);
  else if (kind == kSyncContentionCas) run_contention<true, S>(sp, index);
  else run_barrier<P, S>(sp, index);
}

using SyncKernelFn = void (*)(SyncParams);

template <int S>
SyncKernelFn sync_kernel_for(int probe) {
  switch (probe) {
    case kExch: return sync_kernel<kExch, S>;
    case kAcqRel: return sync_kernel<kAcqRel, S>;
    case kVolatile: return sync_kernel<kVolatile, S>;
    default: return sync_kernel<kCas, S>;
  }
}

SyncKernelFn sync_kernel_for(int probe, bool system_scope) {
  return system_scope ? sync_kernel_for<kSystemScope>(probe) : sync_kernel_for<kGpuScope>(probe);
}

}  // namespace

void prepare_sync_kernels(std::size_t smem_bytes) {
  for (bool system_scope : {false, true})
    for (int probe : {kCas, kExch, kAcqRel, kVolatile})
      CUMAP_CUDA_CHECK(cudaFuncSetAttribute(sync_kernel_for(probe, system_scope),
                                            cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem_bytes)));
}

void launch_sync(const SyncParams& params, int blocks, std::size_t smem_bytes, cudaStream_t stream) {
  SyncParams copy = params;
  void* args[] = {&copy};
  const SyncKernelFn kernel = sync_kernel_for(params.settings.probe, params.settings.system_scope != 0);
  CUMAP_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(kernel), dim3(blocks), dim3(1), args,
                                               smem_bytes, stream));
}

}  // namespace cumap::cuda
