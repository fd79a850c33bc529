// The distributed-shared-memory ping-pong: clusters of one-thread blocks,
// one block per SM. Each cluster learns which SMs it got, rank 0 picks the
// wanted pairs among them (claiming each, so no pair is measured twice), and
// the cluster measures them one at a time: a pair's two blocks signal into
// each other's shared memory while the others wait at the cluster barrier.
// Every block passes the same sequence of cluster barriers whatever happens
// (all waits are bounded), so a timed-out pair cannot hang the cluster.
#include <cstddef>

#include "backends/cuda/cluster/cluster_launches.hpp"
#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cluster/dsm_device_ops.cuh"

namespace cumap::cuda {
namespace {

using namespace dsm;

// One pair of a cluster's list: the entry and the cluster ranks of its sides.
struct DsmTask {
  int entry;
  unsigned ranks;  // rank of a | rank of b << 16
};

// The start of every block's dynamic shared memory; the rest of it is only
// there to keep other blocks off the SM.
struct DsmBlockShared {
  std::uint64_t mbar;  // the mbarrier this block waits on (--probe mbarrier)
  unsigned inbox;      // the flag this block polls; its partner writes it remotely
  int smid;
  int task_count;      // rank 0: pairs this cluster measures
  DsmTask tasks[kDsmMaxTasksPerCluster];  // rank 0
};

// One side of one pair. `k` counts round trips across the pair, alike on
// both sides, so flag values only grow and mbarrier parities agree.
template <int P>
struct Side {
  std::uint32_t my_flag, my_bar, their_flag, their_bar;
  std::uint64_t budget;
  unsigned k = 0;

  // `count` round trips; false at the first timeout. The pinger times them.
  __device__ bool segment(int count, bool i_ping, unsigned long long& cycles) {
    long long t0 = 0, t1 = 0;
    if (i_ping) {
      for (int i = 0; i < count; ++i) {
        ++k;
        signal<P>(their_flag, their_bar, k);
        // protocol.hpp: timed from just after the first ping to just after the last
        if (i == 0) t0 = clock64();
        if (i == count - 1) t1 = clock64();
        if (!wait_for<P>(my_flag, my_bar, k, budget)) return false;
      }
    } else {
      for (int i = 0; i < count; ++i) {
        ++k;
        if (!wait_for<P>(my_flag, my_bar, k, budget)) return false;
        signal<P>(their_flag, their_bar, k);
      }
    }
    cycles = static_cast<unsigned long long>(t1 - t0);  // the pinger's; the ponger's is unused
    return true;
  }
};

// Walks protocol.hpp's segments: cold, warm-up, each sample split between the
// directions; each pinger adds the cycles of its share to the sample.
template <int P>
__device__ void run_pair(const DsmParams& p, DsmBlockShared& me, int entry, bool i_am_a, unsigned partner) {
  const protocol::Counts& c = p.counts;
  const std::uint32_t my_flag = local_addr(&me.inbox), my_bar = local_addr(&me.mbar);
  Side<P> side{my_flag, my_bar, remote_addr(my_flag, partner), remote_addr(my_bar, partner), p.wait_budget_cycles};
  for (int i = 0; i < protocol::segment_count(c); ++i) {
    const protocol::Segment s = protocol::segment(c, i);
    const bool i_ping = s.a_pings == i_am_a;
    unsigned long long cycles = 0;
    if (!side.segment(s.count, i_ping, cycles)) {
      atomicOr(&p.status[entry], i_ping ? kDsmPingTimedOut : kDsmPongTimedOut);
      return;
    }
    if (!i_ping) continue;
    if (s.sample == protocol::kColdSample) p.cold_cycles[entry] = cycles;
    else if (s.sample >= 0)
      atomicAdd(reinterpret_cast<unsigned long long*>(
                    &p.sample_cycles[static_cast<std::size_t>(entry) * c.samples + s.sample]),
                cycles);
  }
}

// Rank 0: the wanted pairs among the cluster's SMs, in rank order, each
// claimed for this cluster (a pair another cluster claimed is skipped).
__device__ void plan_cluster_tasks(const DsmParams& p, DsmBlockShared& me, unsigned size) {
  int sms[kDsmMaxClusterSize];
  for (unsigned r = 0; r < size; ++r) sms[r] = static_cast<int>(ld_remote_u32(remote_addr(local_addr(&me.smid), r)));
  int n = 0;
  for (unsigned i = 0; i < size && n < p.max_tasks; ++i) {
    for (unsigned j = i + 1; j < size && n < p.max_tasks; ++j) {
      const int lo = min(sms[i], sms[j]), hi = max(sms[i], sms[j]);
      if (lo == hi || lo < 0 || hi >= p.sm_id_limit) continue;
      const int key = lo * p.sm_id_limit + hi;
      for (int x = p.key_offsets[key]; x < p.key_offsets[key + 1] && n < p.max_tasks; ++x) {
        const int e = p.key_entries[x];
        if (atomicCAS(&p.claimed[e], 0u, 1u) != 0u) continue;
        const unsigned ra = p.entry_sms[2 * e] == sms[i] ? i : j;
        const unsigned rb = ra == i ? j : i;
        me.tasks[n++] = DsmTask{e, ra | (rb << 16)};
      }
    }
  }
  me.task_count = n;
}

template <int P>
__global__ void __launch_bounds__(1, 1) dsm_pingpong_kernel(DsmParams p) {
  extern __shared__ __align__(16) unsigned char dynamic_smem[];
  DsmBlockShared& me = *reinterpret_cast<DsmBlockShared*>(dynamic_smem);
  // Clusters are 1-D: __clusterIdx().x is the cluster's index in the grid.
  const unsigned rank = __clusterRelativeBlockRank(), size = __clusterSizeInBlocks(), cluster = __clusterIdx().x;
  *static_cast<volatile unsigned*>(&me.inbox) = 0;
  me.smid = static_cast<int>(smid());
  me.task_count = 0;
  mbarrier_init(local_addr(&me.mbar));
  p.cluster_sms[cluster * size + rank] = me.smid;
  cluster_barrier();  // every block's smid, inbox and mbarrier are in place

  // What one cluster barrier costs at this size, while the cluster is idle.
  const long long b0 = clock64();
  for (int i = 0; i < kDsmBarrierReps; ++i) cluster_barrier();
  const long long b1 = clock64();
  if (rank == 0) {
    p.barrier_cycles[cluster] = static_cast<std::uint64_t>(b1 - b0);
    if (size <= static_cast<unsigned>(kDsmMaxClusterSize)) plan_cluster_tasks(p, me, size);
    p.cluster_tasks[cluster] = me.task_count;
  }
  cluster_barrier();  // rank 0's task list is published

  // Every block reads the list from rank 0 (the same variables there as here).
  const int count = static_cast<int>(ld_remote_u32(remote_addr(local_addr(&me.task_count), 0)));
  for (int t = 0; t < count; ++t) {
    const int entry = static_cast<int>(ld_remote_u32(remote_addr(local_addr(&me.tasks[t].entry), 0)));
    const unsigned ranks = ld_remote_u32(remote_addr(local_addr(&me.tasks[t].ranks), 0));
    const unsigned ra = ranks & 0xffffu, rb = ranks >> 16;
    const bool playing = rank == ra || rank == rb;
    if (playing) {
      *static_cast<volatile unsigned*>(&me.inbox) = 0;
      if constexpr (P == protocol::kMbarrier) mbarrier_reset(local_addr(&me.mbar));
    }
    cluster_barrier();  // both flags fresh before either side's first signal
    if (playing && me.smid != p.silent_sm) run_pair<P>(p, me, entry, rank == ra, rank == ra ? rb : ra);
    cluster_barrier();  // the pair's last signal has landed before anyone resets
  }
  cluster_barrier();  // nobody reads rank 0's list any more: shared memory may go
}

using DsmKernelFn = void (*)(DsmParams);

DsmKernelFn dsm_kernel_for(int probe) {
  switch (probe) {
    case protocol::kExch: return dsm_pingpong_kernel<protocol::kExch>;
    case protocol::kAcqRel: return dsm_pingpong_kernel<protocol::kAcqRel>;
    case protocol::kVolatile: return dsm_pingpong_kernel<protocol::kVolatile>;
    case protocol::kMbarrier: return dsm_pingpong_kernel<protocol::kMbarrier>;
    default: return dsm_pingpong_kernel<protocol::kCas>;
  }
}

// A launch of `clusters` clusters of `cluster_size` one-thread blocks;
// cluster_size 0 leaves the cluster shape to the occupancy query (whose grid
// then only needs to be divisible by every size it may answer).
cudaLaunchConfig_t dsm_config(int clusters, int cluster_size, std::size_t smem_bytes, cudaStream_t stream,
                              cudaLaunchAttribute* attr) {
  const int per_cluster = cluster_size > 0 ? cluster_size : kDsmMaxClusterSize;
  return cluster_launch_config(static_cast<unsigned>(clusters * per_cluster), 1, cluster_size, smem_bytes, stream, attr);
}

}  // namespace

void prepare_dsm_kernels(std::size_t smem_bytes) {
  for (int probe = 0; probe < protocol::kProbeCount; ++probe) {
    const DsmKernelFn k = dsm_kernel_for(probe);
    CUMAP_CUDA_CHECK(
        cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem_bytes)));
    CUMAP_CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  }
}

int dsm_max_cluster_size(int probe, std::size_t smem_bytes) {
  cudaLaunchAttribute attr{};
  const cudaLaunchConfig_t cfg = dsm_config(1, 0, smem_bytes, nullptr, &attr);
  int size = 0;
  CUMAP_CUDA_CHECK(cudaOccupancyMaxPotentialClusterSize(&size, dsm_kernel_for(probe), &cfg));
  return size;
}

int dsm_max_active_clusters(int probe, int cluster_size, std::size_t smem_bytes) {
  cudaLaunchAttribute attr{};
  const cudaLaunchConfig_t cfg = dsm_config(1, cluster_size, smem_bytes, nullptr, &attr);
  int n = 0;
  // A size the device cannot run is an answer here, not a failure.
  if (cudaOccupancyMaxActiveClusters(&n, dsm_kernel_for(probe), &cfg) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

void launch_dsm_pingpong(const DsmParams& params, int clusters, int cluster_size, std::size_t smem_bytes,
                         cudaStream_t stream) {
  cudaLaunchAttribute attr{};
  const cudaLaunchConfig_t cfg = dsm_config(clusters, cluster_size, smem_bytes, stream, &attr);
  CUMAP_CUDA_CHECK(cudaLaunchKernelEx(&cfg, dsm_kernel_for(params.probe), params));
}

}  // namespace cumap::cuda
