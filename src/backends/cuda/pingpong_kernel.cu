// The persistent ping-pong kernel: one block per SM; blocks learn their role
// from %smid and walk the launch's pairs round by round. A counter of
// finished pairs hands the turn on: the pairs of round r start when it
// reaches the number of pairs before r, every block without a pair sleeps,
// so nothing else touches the memory system while a round is measured. With
// one pair per round this is the serial schedule. Across GPUs the same
// kernel runs on every GPU of the group at once (launch_params.hpp): a block
// plays the sides of pairs on its own GPU, pairs across GPUs signal through
// the memory of one of them with system-scope operations.
#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/device_ops.cuh"
#include "backends/cuda/launches.hpp"

namespace cumap::cuda {
namespace {

using namespace dev;

// The launch group as a block sees it. Across GPUs every member keeps its own
// copy of the control counters and every add goes to every copy (system
// scope: over the link), so that a waiting block only ever polls its own
// GPU's memory; the link carries one add per finished pair, not the polls.
// With one GPU every operation is a plain .gpu one: system scope costs more.
struct Group {
  const PingPongParams& pp;

  __device__ bool across() const { return pp.group_size > 1; }
  __device__ unsigned* own(int slot) const { return pp.controls[pp.self] + slot; }
  __device__ void add_everywhere(int slot, unsigned v) const {
    if (!across()) {
      atomicAdd(own(slot), v);
      return;
    }
    for (int g = 0; g < pp.group_size; ++g) atomicAdd_system(pp.controls[g] + slot, v);
  }
  __device__ void raise_abort(unsigned code) const {
    if (!across()) {
      atomicCAS(own(kAbortSlot), 0u, code);
      return;
    }
    for (int g = 0; g < pp.group_size; ++g) atomicCAS_system(pp.controls[g] + kAbortSlot, 0u, code);
  }
  // wait_at_least on this GPU's copy of `slot`.
  __device__ bool wait(int slot, unsigned target, std::uint64_t budget, unsigned width) const {
    return wait_at_least(own(slot), target, budget, own(kAbortSlot), kAbortWaitTimeout, pp.settings.round_ns_estimate,
                         width, across(), [this](unsigned code) { raise_abort(code); });
  }
};

// One side of one pair. `k` counts round trips across the whole pair, so the
// flag values only grow (from 0: the previous user of the words reset them).
// S: the scope of the pair's operations (device_ops.cuh).
template <int P, int S>
struct Side {
  const PingPongParams& pp;
  int pair;
  unsigned* first;
  unsigned* second;
  unsigned k = 0;

  // `count` round trips; true when all completed. The pinger times them.
  __device__ bool run(int count, bool i_ping, std::uint64_t* cycles_out) {
    const std::uint64_t budget = pp.settings.wait_budget_cycles;
    if (i_ping) {
      long long t0 = 0, t1 = 0;
      for (int i = 0; i < count; ++i) {
        ++k;
        signal<P, S>(first, k);
        // protocol.hpp: timed from just after the first ping to just after the last
        if (i == 0) t0 = clock64();
        if (i == count - 1) t1 = clock64();
        if (!wait_for<P, S>(second, k, budget)) {
          atomicOr(&pp.pair_status[pair], kPingTimedOut);
          return false;
        }
      }
      *cycles_out = static_cast<std::uint64_t>(t1 - t0);
    } else {
      for (int i = 0; i < count; ++i) {
        ++k;
        if (!wait_for<P, S>(first, k, budget)) {
          atomicOr(&pp.pair_status[pair], kPongTimedOut);
          return false;
        }
        signal<P, S>(second, k);
      }
    }
    return true;
  }
};

// The pair's round trips in protocol order (protocol::segment): the cold one,
// the warm-up, then each sample, split between the directions unless
// ordered. The pinger of a segment adds its cycles to the sample's slot (of
// its own GPU's records: across GPUs the host adds the two members' up).
template <int P, int S>
__device__ void run_pair(const PingPongParams& pp, int pair, unsigned* first, unsigned* second, bool i_am_a) {
  const protocol::Counts& c = pp.settings.counts;
  Side<P, S> side{pp, pair, first, second};
  for (int i = 0; i < protocol::segment_count(c); ++i) {
    const protocol::Segment seg = protocol::segment(c, i);
    const bool i_ping = seg.a_pings == i_am_a;
    std::uint64_t cycles = 0;
    if (!side.run(seg.count, i_ping, &cycles)) return;
    if (!i_ping) continue;
    if (seg.sample == protocol::kColdSample) {
      pp.cold_cycles[pair] = cycles;
    } else if (seg.sample >= 0) {
      auto* slot = reinterpret_cast<unsigned long long*>(
          &pp.sample_cycles[static_cast<std::size_t>(pair) * c.samples + seg.sample]);
      atomicAdd(slot, static_cast<unsigned long long>(cycles));
    }
  }
}

// The second side to leave a pair (whether it completed or timed out) knows
// that nobody touches its flags any more: it zeroes them, makes that visible,
// and counts the pair finished. A round is over when all its pairs counted.
// A pair counts its sides beside its flags (the flag member's sides_done),
// so a pair inside one GPU leaves with that GPU's atomics and fence; only a
// pair across GPUs pays system scope for it. The count of finished pairs
// reaches every member (add_everywhere), after a system fence wherever
// another GPU may use the zeroed flags next.
__device__ void leave_pair(const Group& g, const DevicePair& pr, int pair, unsigned* first, unsigned* second) {
  const PingPongParams& pp = g.pp;
  unsigned* const sides = &pp.sides_done[pr.flag_gpu][pair];
  const bool pair_across = pr.a_gpu != pr.b_gpu;
  if (!pair_across) {
    __threadfence();
    if (atomicAdd(sides, 1u) == 1u) {
      atomicExch(first, 0u);
      atomicExch(second, 0u);
      if (g.across()) __threadfence_system();
      else __threadfence();
      g.add_everywhere(kPairsDoneSlot, 1u);
    }
    return;
  }
  __threadfence_system();
  if (atomicAdd_system(sides, 1u) == 1u) {
    atomicExch_system(first, 0u);
    atomicExch_system(second, 0u);
    __threadfence_system();
    g.add_everywhere(kPairsDoneSlot, 1u);
  }
}

__device__ void flush_l2(const PingPongParams& pp, unsigned value, unsigned flusher, unsigned flushers) {
  // 16-byte stores from every flushing thread of every block: the quickest
  // way to push the flag lines out of an L2 this buffer is twice as large as.
  uint4* buf = reinterpret_cast<uint4*>(pp.flush_buffer);
  const std::size_t n = pp.flush_words / 4;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * flushers;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * flushers + flusher; i < n; i += stride)
    buf[i] = make_uint4(value, value, value, value);
  __threadfence();
}

// Warps 1.. of a block flush L2 before every round (--flush-cache): when the
// previous round has finished, every block flushes its share of its own GPU's
// L2 and counts itself in `flushed` (on every member); players of round r
// wait for (r + 1) * group_blocks. They sync among themselves with named
// barrier 1 so that the player (thread 0 of warp 0) never shares a warp or a
// barrier with them.
__device__ void flusher_loop(const Group& g) {
  const PingPongParams& pp = g.pp;
  __shared__ int go;
  const unsigned flushers = blockDim.x - 32;
  const unsigned me = threadIdx.x - 32;
  const PingPongSettings& s = pp.settings;
  for (int r = 0; r < pp.round_count; ++r) {
    if (me == 0) go = g.wait(kPairsDoneSlot, pp.round_starts[r], s.round_budget_cycles * (r + 1), pp.round_width);
    asm volatile("bar.sync 1, %0;" ::"r"(flushers) : "memory");
    const bool ok = go != 0;
    asm volatile("bar.sync 1, %0;" ::"r"(flushers) : "memory");
    if (!ok) return;
    flush_l2(pp, static_cast<unsigned>(r), me, flushers);
    asm volatile("bar.sync 1, %0;" ::"r"(flushers) : "memory");
    if (me == 0) g.add_everywhere(kFlushedSlot, 1u);
  }
}

template <int P>
__global__ void __launch_bounds__(kPingPongThreads, 1) pingpong_kernel(PingPongParams pp) {
  extern __shared__ unsigned char one_block_per_sm[];  // sized by the host, never used
  (void)one_block_per_sm;
  const Group g{pp};
  const PingPongSettings& s = pp.settings;
  const unsigned blk = blockIdx.x;
  const int me = static_cast<int>(smid());

  // The player is thread 0, alone in its warp: lanes waiting beside a
  // spinning thread would change the loop a hand-written ping-pong runs.
  if (threadIdx.x >= 32) {
    if (pp.flush_buffer) flusher_loop(g);
    return;
  }
  if (threadIdx.x != 0) return;

  if (blk == 0) {
    pp.clock_marks[0] = static_cast<std::uint64_t>(clock64());
    pp.clock_marks[1] = globaltimer_ns();
  }
  pp.block_sm[blk] = me;
  if (me < pp.sm_id_limit) atomicAdd(&pp.sm_blocks[me], 1);
  __threadfence();
  // Every block of every member checks in before any pair starts: the
  // kernels of a group start at slightly different times.
  g.add_everywhere(kArrivedSlot, 1u);
  if (!g.wait(kArrivedSlot, pp.group_blocks, s.round_budget_cycles, 1)) return;
  // Roles come from %smid, so two blocks on one SM would both play.
  if (me >= pp.sm_id_limit || ld_relaxed(reinterpret_cast<unsigned*>(&pp.sm_blocks[me])) != 1) {
    g.raise_abort(kAbortSharedSm);
    return;
  }

  int previous = -1;  // the round this block last waited for
  for (int p = 0; p < pp.pair_count; ++p) {
    const DevicePair pr = pp.pairs[p];
    const bool i_am_a = pr.a_gpu == pp.self && me == pr.a;
    if (!i_am_a && !(pr.b_gpu == pp.self && me == pr.b)) continue;
    const std::uint64_t budget = s.round_budget_cycles * static_cast<std::uint64_t>(pr.round - previous);
    previous = pr.round;
    if (!g.wait(kPairsDoneSlot, pp.round_starts[pr.round], budget, pp.round_width)) return;
    if (pp.flush_buffer &&
        !g.wait(kFlushedSlot, (static_cast<unsigned>(pr.round) + 1) * pp.group_blocks, s.round_budget_cycles,
                pp.round_width))
      return;
    unsigned* const first = pp.arenas[pr.flag_gpu] + pr.first_word;
    unsigned* const second = pp.arenas[pr.flag_gpu] + pr.second_word;
    const bool pair_across = pr.a_gpu != pr.b_gpu;
    if (me != s.silent_sm) {  // the silent SM (tests) never answers
      if (pair_across) run_pair<P, kSystemScope>(pp, p, first, second, i_am_a);
      else run_pair<P, kGpuScope>(pp, p, first, second, i_am_a);
    }
    leave_pair(g, pr, p, first, second);
  }

  if (blk == 0) {
    const std::uint64_t budget = s.round_budget_cycles * static_cast<std::uint64_t>(pp.round_count - previous);
    if (g.wait(kPairsDoneSlot, static_cast<unsigned>(pp.pair_count), budget, pp.round_width)) {
      pp.clock_marks[2] = static_cast<std::uint64_t>(clock64());
      pp.clock_marks[3] = globaltimer_ns();
    }
  }
}

using KernelFn = void (*)(PingPongParams);

KernelFn kernel_for(int probe) {
  switch (probe) {
    case kExch: return pingpong_kernel<kExch>;
    case kAcqRel: return pingpong_kernel<kAcqRel>;
    case kVolatile: return pingpong_kernel<kVolatile>;
    default: return pingpong_kernel<kCas>;
  }
}

}  // namespace

void prepare_pingpong_kernels(std::size_t smem_bytes) {
  for (int probe : {kCas, kExch, kAcqRel, kVolatile})
    CUMAP_CUDA_CHECK(cudaFuncSetAttribute(kernel_for(probe), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(smem_bytes)));
}

void launch_pingpong(const PingPongParams& params, int blocks, std::size_t smem_bytes, cudaStream_t stream) {
  PingPongParams copy = params;
  void* args[] = {&copy};
  const int threads = params.flush_buffer ? kPingPongThreads : 1;
  CUMAP_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(kernel_for(params.settings.probe)),
                                               dim3(blocks), dim3(threads), args, smem_bytes, stream));
}

}  // namespace cumap::cuda
