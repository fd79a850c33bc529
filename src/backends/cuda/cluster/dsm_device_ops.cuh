#pragma once
// Device-side primitives of the dsm path (compute capability 9.0+): the
// cluster barrier, shared::cluster addressing through mapa,
// the --probe operations on distributed shared memory (signal and poll;
// arrive and try_wait for mbarrier), and bounded waits. Addresses are
// 32-bit shared-window addresses: shared::cta for one's own memory,
// shared::cluster (from mapa) for a partner's.
#include <cstdint>

#include "backends/cuda/device_ops.cuh"
#include "cumap/protocol.hpp"

namespace cumap::cuda::dsm {

using dev::smid;

// Every thread of every block of the cluster arrives, then waits for all;
// release/acquire, so everything written before is visible after.
// Not .aligned: the caller may be in divergent code.
__device__ __forceinline__ void cluster_barrier() {
  asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
}

// The shared::cta address of a generic pointer to this block's shared memory.
__device__ __forceinline__ std::uint32_t local_addr(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}
// The same variable in block `rank` of the cluster (a shared::cluster address).
__device__ __forceinline__ std::uint32_t remote_addr(std::uint32_t local, unsigned rank) {
  std::uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(local), "r"(rank));
  return r;
}
__device__ __forceinline__ std::uint32_t ld_remote_u32(std::uint32_t remote) {
  std::uint32_t v;
  asm volatile("ld.relaxed.cluster.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(remote) : "memory");
  return v;
}
// mbarrier with one expected arrival per phase. Re-initialised before every
// pair (after inval) so that a pair that timed out leaves no phase behind;
// the fence makes the init visible to remote arrivals at cluster scope.
__device__ __forceinline__ void mbarrier_reset(std::uint32_t local_bar) {
  asm volatile(
      "mbarrier.inval.shared::cta.b64 [%0];\n\t"
      "mbarrier.init.shared::cta.b64 [%0], 1;\n\t"
      "fence.mbarrier_init.release.cluster;" ::"r"(local_bar)
      : "memory");
}
__device__ __forceinline__ void mbarrier_init(std::uint32_t local_bar) {
  asm volatile(
      "mbarrier.init.shared::cta.b64 [%0], 1;\n\t"
      "fence.mbarrier_init.release.cluster;" ::"r"(local_bar)
      : "memory");
}

// The --probe operations on the dsm path, as protocol.hpp names them. The
// flag is the poller's own shared-memory word (or mbarrier): signal is a
// remote operation on it (mbarrier: arrive), poll a local read (mbarrier:
// try_wait). Round trip k signals k; flag values only grow within a pair.

// mbarrier: one arrival on the partner's mbarrier.
__device__ __forceinline__ void arrive(std::uint32_t remote_bar) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote_bar) : "memory");
}

// mbarrier: has round trip k completed phase k-1 of one's own mbarrier
// (parity (k-1)&1)? A partner never arrives twice before we have seen the
// first (it waits for our answer in between), so the parity is never
// ambiguous.
__device__ __forceinline__ bool try_wait(std::uint32_t local_bar, unsigned k) {
  unsigned done;
  asm volatile(
      "{\n\t.reg .pred done;\n\t"
      "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 done, [%1], %2;\n\t"
      "selp.u32 %0, 1, 0, done;\n\t}"
      : "=r"(done) : "r"(local_bar), "r"((k - 1) & 1u) : "memory");
  return done != 0;
}

template <int P>
__device__ __forceinline__ void signal(std::uint32_t remote_flag, std::uint32_t remote_bar, unsigned k) {
  if constexpr (P == protocol::kCas) {
    unsigned old;
    asm volatile("atom.relaxed.cluster.shared::cluster.cas.b32 %0, [%1], %2, %3;"
                 : "=r"(old) : "r"(remote_flag), "r"(k - 1), "r"(k) : "memory");
  } else if constexpr (P == protocol::kExch) {
    unsigned old;
    asm volatile("atom.relaxed.cluster.shared::cluster.exch.b32 %0, [%1], %2;"
                 : "=r"(old) : "r"(remote_flag), "r"(k) : "memory");
  } else if constexpr (P == protocol::kAcqRel) {
    asm volatile("st.release.cluster.shared::cluster.u32 [%0], %1;" ::"r"(remote_flag), "r"(k) : "memory");
  } else if constexpr (P == protocol::kVolatile) {
    asm volatile("st.volatile.shared::cluster.u32 [%0], %1;" ::"r"(remote_flag), "r"(k) : "memory");
  } else {
    arrive(remote_bar);
  }
}

// What one's own flag holds (the flag probes; mbarrier waits with try_wait).
template <int P>
__device__ __forceinline__ unsigned poll(std::uint32_t local_flag) {
  unsigned v;
  if constexpr (P == protocol::kCas || P == protocol::kExch) {
    asm volatile("ld.relaxed.cluster.shared::cta.u32 %0, [%1];" : "=r"(v) : "r"(local_flag) : "memory");
  } else if constexpr (P == protocol::kAcqRel) {
    asm volatile("ld.acquire.cluster.shared::cta.u32 %0, [%1];" : "=r"(v) : "r"(local_flag) : "memory");
  } else {
    asm volatile("ld.volatile.shared::cta.u32 %0, [%1];" : "=r"(v) : "r"(local_flag) : "memory");
  }
  return v;
}

// Spins until round trip k's signal arrives; false once `budget` cycles have
// passed (the caller records the timeout and leaves the pair: nothing hangs).
// Sixteen polls unrolled between clock checks, as on the global path.
template <int P>
__device__ __forceinline__ bool wait_for(std::uint32_t local_flag, std::uint32_t local_bar, unsigned k,
                                         std::uint64_t budget) {
  const long long start = clock64();
  for (;;) {
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      if constexpr (P == protocol::kMbarrier) {
        if (try_wait(local_bar, k)) return true;
      } else if (poll<P>(local_flag) == k) {
        return true;
      }
    }
    if (static_cast<std::uint64_t>(clock64() - start) > budget) return false;
  }
}

}  // namespace cumap::cuda::dsm
