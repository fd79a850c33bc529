// The persistent ping-pong kernel: one block per SM; blocks learn their role
// from %smid and walk the pair list one pair at a time. A counter of finished
// pairs hands the turn on: the two blocks of the next pair start when it
// reaches their pair, every other block sleeps, so nothing else touches the
// memory system while a pair is measured.
#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/device_ops.cuh"
#include "backends/cuda/pingpong_launch.hpp"

namespace cumap::cuda {
namespace {

using namespace dev;

// One side of one pair. `k` counts round trips across the whole pair, so the
// flag values only grow.
template <int P>
struct Side {
  const PingPongParams& pp;
  int pair;
  unsigned k = 0;

  // `count` round trips; true when all completed. The pinger times them.
  __device__ bool segment(int count, bool i_ping, std::uint64_t* cycles_out) {
    if (i_ping) {
      const long long t0 = clock64();
      for (int i = 0; i < count; ++i) {
        ++k;
        send<P>(pp.flag_first, k);
        if (!wait_for<P>(pp.flag_second, k, pp.wait_budget_cycles)) {
          atomicOr(&pp.pair_status[pair], kPingTimedOut);
          return false;
        }
      }
      const long long t1 = clock64();
      if (cycles_out) *cycles_out = static_cast<std::uint64_t>(t1 - t0);
    } else {
      for (int i = 0; i < count; ++i) {
        ++k;
        if (!wait_for<P>(pp.flag_first, k, pp.wait_budget_cycles)) {
          atomicOr(&pp.pair_status[pair], kPongTimedOut);
          return false;
        }
        send<P>(pp.flag_second, k);
      }
    }
    return true;
  }
};

// Cold round trip, warm-up, then the samples. Unordered pairs split every
// sample between the directions (a pings the first half of the round trips,
// b the second), so that a cell is the mean of both directions however many
// samples there are; each pinger adds the cycles of its half.
template <int P>
__device__ void run_pair(const PingPongParams& pp, int pair, bool i_am_a) {
  Side<P> side{pp, pair};
  if (!side.segment(1, i_am_a, i_am_a ? &pp.cold_cycles[pair] : nullptr)) return;
  if (pp.warmup > 0 && !side.segment(pp.warmup, i_am_a, nullptr)) return;
  const int a_share = pp.ordered ? pp.iters : pp.iters / 2;
  for (int s = 0; s < pp.samples; ++s) {
    unsigned long long* slot =
        reinterpret_cast<unsigned long long*>(&pp.sample_cycles[static_cast<std::size_t>(pair) * pp.samples + s]);
    std::uint64_t cycles = 0;
    if (a_share > 0) {
      if (!side.segment(a_share, i_am_a, &cycles)) return;
      if (i_am_a) atomicAdd(slot, static_cast<unsigned long long>(cycles));
    }
    if (a_share < pp.iters) {
      cycles = 0;
      if (!side.segment(pp.iters - a_share, !i_am_a, &cycles)) return;
      if (!i_am_a) atomicAdd(slot, static_cast<unsigned long long>(cycles));
    }
  }
}

// The second side to leave a pair (whether it completed or timed out) knows
// that nobody touches the flags any more: it zeroes them and hands the turn
// to the next pair.
__device__ void leave_pair(const PingPongParams& pp, int pair) {
  __threadfence();
  if (atomicAdd(&pp.sides_done[pair], 1u) == 1u) {
    atomicExch(pp.flag_first, 0u);
    atomicExch(pp.flag_second, 0u);
    __threadfence();
    st_release(pp.control + kPairsDoneSlot, static_cast<unsigned>(pair) + 1);
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

// Warps 1.. of a block flush L2 before every pair (--flush-cache), in step
// with the turn counter; they sync among themselves with named barrier 1 so
// that the player (thread 0 of warp 0) never shares a warp or a barrier with
// them.
__device__ void flusher_loop(const PingPongParams& pp, unsigned* pairs_done, unsigned* flushed, unsigned* abort) {
  __shared__ int go;
  const unsigned flushers = blockDim.x - 32;
  const unsigned me = threadIdx.x - 32;
  for (int p = 0; p < pp.pair_count; ++p) {
    if (me == 0)
      go = wait_at_least(pairs_done, static_cast<unsigned>(p), pp.pair_budget_cycles * (p + 1), abort,
                         kAbortWaitTimeout, pp.pair_ns_estimate);
    asm volatile("bar.sync 1, %0;" ::"r"(flushers) : "memory");
    const bool ok = go != 0;
    asm volatile("bar.sync 1, %0;" ::"r"(flushers) : "memory");
    if (!ok) return;
    flush_l2(pp, static_cast<unsigned>(p), me, flushers);
    asm volatile("bar.sync 1, %0;" ::"r"(flushers) : "memory");
    if (me == 0) atomicAdd(flushed, 1u);
  }
}

template <int P>
__global__ void __launch_bounds__(kPingPongThreads, 1) pingpong_kernel(PingPongParams pp) {
  extern __shared__ unsigned char one_block_per_sm[];  // sized by the host, never used
  (void)one_block_per_sm;
  unsigned* const arrived = pp.control + kArrivedSlot;
  unsigned* const pairs_done = pp.control + kPairsDoneSlot;
  unsigned* const flushed = pp.control + kFlushedSlot;
  unsigned* const abort = pp.control + kAbortSlot;
  const unsigned blk = blockIdx.x;
  const int me = static_cast<int>(smid());

  // The player is thread 0, alone in its warp: lanes waiting beside a
  // spinning thread would change the loop a hand-written ping-pong runs.
  if (threadIdx.x >= 32) {
    if (pp.flush_buffer) flusher_loop(pp, pairs_done, flushed, abort);
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
  atomicAdd(arrived, 1u);
  if (!wait_at_least(arrived, gridDim.x, pp.pair_budget_cycles, abort, kAbortWaitTimeout, pp.pair_ns_estimate))
    return;
  // Roles come from %smid, so two blocks on one SM would both play.
  if (me >= pp.sm_id_limit || ld_relaxed(reinterpret_cast<unsigned*>(&pp.sm_blocks[me])) != 1) {
    atomicCAS(abort, 0u, static_cast<unsigned>(kAbortSharedSm));
    return;
  }

  int previous = -1;  // the last pair this block waited for
  for (int p = 0; p < pp.pair_count; ++p) {
    const DevicePair pr = pp.pairs[p];
    if (me != pr.a && me != pr.b) continue;
    const std::uint64_t budget = pp.pair_budget_cycles * static_cast<std::uint64_t>(p - previous);
    previous = p;
    if (!wait_at_least(pairs_done, static_cast<unsigned>(p), budget, abort, kAbortWaitTimeout, pp.pair_ns_estimate))
      return;
    if (pp.flush_buffer &&
        !wait_at_least(flushed, (static_cast<unsigned>(p) + 1) * gridDim.x, pp.pair_budget_cycles, abort,
                       kAbortWaitTimeout, pp.pair_ns_estimate))
      return;
    if (me == pp.silent_sm) {
      // Fault injection for the tests: this side never answers.
    } else {
      run_pair<P>(pp, p, me == pr.a);
    }
    leave_pair(pp, p);
  }

  if (blk == 0) {
    const std::uint64_t budget = pp.pair_budget_cycles * static_cast<std::uint64_t>(pp.pair_count - previous);
    if (wait_at_least(pairs_done, static_cast<unsigned>(pp.pair_count), budget, abort, kAbortWaitTimeout,
                      pp.pair_ns_estimate)) {
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

__global__ void cluster_census_kernel(int* out_sm) {
  extern __shared__ unsigned char one_block_per_sm[];
  (void)one_block_per_sm;
  if (threadIdx.x == 0) {
    out_sm[blockIdx.x] = static_cast<int>(smid());
    // Stay resident a while so that every cluster of the launch is on the
    // chip at once and the scheduler has to spread them over all GPCs.
    const long long start = clock64();
    while (clock64() - start < 200000) {
    }
  }
}

__global__ void clock_calibration_kernel(std::uint64_t* marks, std::uint64_t settle_ns, std::uint64_t measure_ns) {
  // Spin first so the SM clock leaves its idle state, then count cycles over a
  // known stretch of %globaltimer.
  const std::uint64_t t_start = globaltimer_ns();
  while (globaltimer_ns() - t_start < settle_ns) {
  }
  const std::uint64_t g0 = globaltimer_ns();
  const long long c0 = clock64();
  std::uint64_t g1;
  do {
    g1 = globaltimer_ns();
  } while (g1 - g0 < measure_ns);
  const long long c1 = clock64();
  marks[0] = static_cast<std::uint64_t>(c0);
  marks[1] = g0;
  marks[2] = static_cast<std::uint64_t>(c1);
  marks[3] = g1;
}

}  // namespace

void launch_clock_calibration(std::uint64_t* marks, std::uint64_t settle_ns, std::uint64_t measure_ns,
                              cudaStream_t stream) {
  clock_calibration_kernel<<<1, 1, 0, stream>>>(marks, settle_ns, measure_ns);
  CUMAP_CUDA_CHECK(cudaGetLastError());
}

void prepare_pingpong_kernels(std::size_t smem_bytes) {
  for (int probe : {kCas, kExch, kAcqRel, kVolatile})
    CUMAP_CUDA_CHECK(cudaFuncSetAttribute(kernel_for(probe), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(smem_bytes)));
  CUMAP_CUDA_CHECK(cudaFuncSetAttribute(cluster_census_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(smem_bytes)));
  CUMAP_CUDA_CHECK(cudaFuncSetAttribute(cluster_census_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
}

void launch_pingpong(const PingPongParams& params, int blocks, std::size_t smem_bytes, cudaStream_t stream) {
  PingPongParams copy = params;
  void* args[] = {&copy};
  const int threads = params.flush_buffer ? kPingPongThreads : 1;
  CUMAP_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(kernel_for(params.probe)), dim3(blocks),
                                               dim3(threads), args, smem_bytes, stream));
}

namespace {
cudaLaunchConfig_t cluster_config(int clusters, int cluster_size, std::size_t smem_bytes, cudaStream_t stream,
                                  cudaLaunchAttribute* attr) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(clusters * cluster_size);
  cfg.blockDim = dim3(32);
  cfg.dynamicSmemBytes = smem_bytes;
  cfg.stream = stream;
  attr->id = cudaLaunchAttributeClusterDimension;
  attr->val.clusterDim.x = cluster_size;
  attr->val.clusterDim.y = 1;
  attr->val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  return cfg;
}
}  // namespace

int max_active_clusters(int cluster_size, std::size_t smem_bytes) {
  cudaLaunchAttribute attr{};
  cudaLaunchConfig_t cfg = cluster_config(1, cluster_size, smem_bytes, nullptr, &attr);
  int n = 0;
  // An unsupported size is an answer here, not a failure.
  if (cudaOccupancyMaxActiveClusters(&n, cluster_census_kernel, &cfg) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

void launch_cluster_census(int* out_sm, int clusters, int cluster_size, std::size_t smem_bytes, cudaStream_t stream) {
  cudaLaunchAttribute attr{};
  cudaLaunchConfig_t cfg = cluster_config(clusters, cluster_size, smem_bytes, stream, &attr);
  CUMAP_CUDA_CHECK(cudaLaunchKernelEx(&cfg, cluster_census_kernel, out_sm));
}

}  // namespace cumap::cuda
