#pragma once
// Device-side primitives of the ping-pong: special registers, the signalling
// operations of --probe, bounded waits and a bounded device-wide barrier.
#include <cstdint>

namespace cumap::cuda::dev {

__device__ __forceinline__ unsigned smid() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}

__device__ __forceinline__ std::uint64_t globaltimer_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __forceinline__ unsigned ld_acquire(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ unsigned ld_relaxed(const unsigned* p) {
  unsigned v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ unsigned ld_volatile(const unsigned* p) {
  unsigned v;
  asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void st_release(unsigned* p, unsigned v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void st_volatile(unsigned* p, unsigned v) {
  asm volatile("st.volatile.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// The signalling operations (--probe), same numbering as cumap::Probe.
// Flag values only grow within a pair, so a CAS expecting k is never fooled
// by a stale value (no ABA).
enum ProbeKind : int { kCas = 0, kExch = 1, kAcqRel = 2, kVolatile = 3 };

template <int P>
__device__ __forceinline__ void send(unsigned* flag, unsigned k) {
  if constexpr (P == kCas) atomicCAS(flag, k - 1, k);
  else if constexpr (P == kExch) atomicExch(flag, k);
  else if constexpr (P == kAcqRel) st_release(flag, k);
  else st_volatile(flag, k);
}

template <int P>
__device__ __forceinline__ bool arrived(unsigned* flag, unsigned k) {
  // CAS polling rewrites the value it expects: every poll is an atomic at the
  // line's L2 home, as in the seed protocol.
  if constexpr (P == kCas) return atomicCAS(flag, k, k) == k;
  else if constexpr (P == kExch) return ld_relaxed(flag) == k;
  else if constexpr (P == kAcqRel) return ld_acquire(flag) == k;
  else return ld_volatile(flag) == k;
}

// Spins until *flag == k. False once `budget` cycles have passed: the caller
// marks the pair timed out and moves on, so the GPU never hangs.
template <int P>
__device__ __forceinline__ bool wait_for(unsigned* flag, unsigned k, std::uint64_t budget) {
  const long long start = clock64();
  while (!arrived<P>(flag, k)) {
    if (static_cast<std::uint64_t>(clock64() - start) > budget) return false;
  }
  return true;
}

// Device-wide barrier over thread 0 of every block, bounded. Each block
// waits on its own 128-byte wake line, which the last arriver writes: idle
// SMs then poll lines spread over the L2 instead of hammering one line while
// a pair is being measured, and __nanosleep thins their polling further.
// Every block calls the barriers in the same sequence, so `generation`
// (counted locally) agrees across blocks. False on timeout or abort, after
// raising the abort word so that every block leaves.
struct Barrier {
  unsigned* count;
  unsigned* wake;  // blocks * kWakeStride words
  unsigned* abort;
  unsigned blocks;
  std::uint64_t budget;
  static constexpr unsigned kWakeStride = 32;
};

__device__ inline bool grid_barrier(const Barrier& b, unsigned my_block, unsigned generation, unsigned timeout_code) {
  __threadfence();
  if (atomicAdd(b.count, 1u) == b.blocks - 1) {
    atomicExch(b.count, 0u);
    __threadfence();
    for (unsigned i = 0; i < b.blocks; ++i) st_release(b.wake + i * Barrier::kWakeStride, generation);
    return ld_relaxed(b.abort) == 0;
  }
  unsigned* mine = b.wake + my_block * Barrier::kWakeStride;
  const long long start = clock64();
  while (ld_acquire(mine) != generation) {
    if (ld_relaxed(b.abort) != 0) return false;
    if (static_cast<std::uint64_t>(clock64() - start) > b.budget) {
      atomicCAS(b.abort, 0u, timeout_code);
      return false;
    }
    __nanosleep(128);
  }
  return ld_relaxed(b.abort) == 0;
}

}  // namespace cumap::cuda::dev
