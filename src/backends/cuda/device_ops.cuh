#pragma once
// Device-side primitives of the ping-pong: special registers, the --probe
// operations as protocol.hpp names them (signal, poll), bounded waits and a
// bounded device-wide barrier.
#include <cstdint>

#include "cumap/protocol.hpp"

namespace cumap::cuda::dev {

using protocol::kAcqRel;
using protocol::kCas;
using protocol::kExch;
using protocol::kVolatile;

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

// clock64, read only once `after` is known: the read is predicated on a
// test of `after`, a dependence the assembler must keep (a plain clock read
// may issue before an outstanding atomic returns).
__device__ __forceinline__ std::uint64_t clock_after(unsigned after) {
  std::uint64_t t;
  asm volatile(
      "{\n\t.reg .pred p;\n\t"
      "setp.ne.u32 p, %1, 0xffffffff;\n\t"
      "@p mov.u64 %0, %%clock64;\n\t"
      "@!p mov.u64 %0, %%clock64;\n\t}"
      : "=l"(t)
      : "r"(after)
      : "memory");
  return t;
}

// The scope of an operation: the GPU for two SMs of one GPU, the system for
// a pair across GPUs (the flags are in one GPU's memory, the other side
// reaches them over the link: atomicCAS_system and .sys loads and stores).
// A pair of one GPU keeps the .gpu operations it always had.
enum Scope { kGpuScope, kSystemScope };

template <int S = kGpuScope>
__device__ __forceinline__ unsigned ld_acquire(const unsigned* p) {
  unsigned v;
  if constexpr (S == kSystemScope) asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  else asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
template <int S = kGpuScope>
__device__ __forceinline__ unsigned ld_relaxed(const unsigned* p) {
  unsigned v;
  if constexpr (S == kSystemScope) asm volatile("ld.relaxed.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  else asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
template <int S = kGpuScope>
__device__ __forceinline__ void st_release(unsigned* p, unsigned v) {
  if constexpr (S == kSystemScope) asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  else asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
template <int S = kGpuScope>
__device__ __forceinline__ unsigned cas(unsigned* p, unsigned expected, unsigned desired) {
  if constexpr (S == kSystemScope) return atomicCAS_system(p, expected, desired);
  else return atomicCAS(p, expected, desired);
}
template <int S = kGpuScope>
__device__ __forceinline__ unsigned exch(unsigned* p, unsigned v) {
  if constexpr (S == kSystemScope) return atomicExch_system(p, v);
  else return atomicExch(p, v);
}
// Volatile accesses have no scope: the same instruction serves both.
__device__ __forceinline__ unsigned ld_volatile(const unsigned* p) {
  unsigned v;
  asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void st_volatile(unsigned* p, unsigned v) {
  asm volatile("st.volatile.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// The --probe operations (protocol::ProbeCode) at scope S. Flag values only
// grow within a pair, so a CAS expecting k is never fooled by a stale value.
// signal: writes round trip k's value.
template <int P, int S = kGpuScope>
__device__ __forceinline__ void signal(unsigned* flag, unsigned k) {
  if constexpr (P == kCas) cas<S>(flag, k - 1, k);
  else if constexpr (P == kExch) exch<S>(flag, k);
  else if constexpr (P == kAcqRel) st_release<S>(flag, k);
  else st_volatile(flag, k);
}

// poll: what the word holds. cas rewrites the value it expects: every poll
// is an atomic at the line's L2 home, so the round trip includes the way
// there and back; the others load.
template <int P, int S = kGpuScope>
__device__ __forceinline__ unsigned poll(unsigned* flag, unsigned expected) {
  if constexpr (P == kCas) return cas<S>(flag, expected, expected);
  else if constexpr (P == kExch) return ld_relaxed<S>(flag);
  else if constexpr (P == kAcqRel) return ld_acquire<S>(flag);
  else return ld_volatile(flag);
}

// When a wait is over: the flag holds k (a ping-pong's hand-over), or has
// reached it (a barrier's counter, see sync_ops.cuh's wait_to_reach).
struct Equals {
  __device__ __forceinline__ bool operator()(unsigned value, unsigned k) const { return value == k; }
};
struct AtLeast {
  __device__ __forceinline__ bool operator()(unsigned value, unsigned k) const { return value >= k; }
};

// Spins until *flag == k (or `Done` says). False once `budget` cycles have
// passed: the caller marks the pair timed out and moves on, so the GPU
// never hangs.
template <int P, int S = kGpuScope, typename Done = Equals>
__device__ __forceinline__ bool wait_for(unsigned* flag, unsigned k, std::uint64_t budget, Done done = {}) {
  const long long start = clock64();
  // Sixteen polls unrolled between clock checks: each poll is then the bare
  // poll-compare-branch of a hand-written ping-pong, with no counter.
  for (;;) {
#pragma unroll
    for (int i = 0; i < 16; ++i)
      if (done(poll<P, S>(flag, k), k)) return true;
    if (static_cast<std::uint64_t>(clock64() - start) > budget) return false;
  }
}

// Waits until a monotonic counter reaches `target`. Rounds run one after
// another through a counter of finished pairs (`width` pairs to a round at
// most): a block polls it only when its own round comes next, and sleeps
// longer the more rounds are still ahead, so idle SMs keep the L2 quiet while
// pairs are measured. With one pair per round this is the serial schedule's
// wait. The counter is always the block's own GPU's: across GPUs every
// member adds to every member's copy (`system`: those adds come over the
// link), so no wait ever polls across it. False on abort or after `budget`
// cycles (then it raises the abort word itself; `raise_abort` raises it on
// every member of the group).
template <typename RaiseAbort>
__device__ inline bool wait_at_least(unsigned* counter, unsigned target, std::uint64_t budget, unsigned* abort,
                                     unsigned timeout_code, unsigned round_ns_estimate, unsigned width, bool system,
                                     RaiseAbort raise_abort) {
  const long long start = clock64();
  for (;;) {
    // Relaxed polls and one fence at the end: an acquire on every poll puts a
    // GPU-scope fence on every poll, and those disturb the pair being
    // measured on other SMs (seen on the H100: +8% on a pair's round trip).
    const unsigned seen = system ? ld_relaxed<kSystemScope>(counter) : ld_relaxed(counter);
    if (seen >= target) {
      if (system) __threadfence_system();
      else __threadfence();
      return true;
    }
    if ((system ? ld_relaxed<kSystemScope>(abort) : ld_relaxed(abort)) != 0) return false;
    if (static_cast<std::uint64_t>(clock64() - start) > budget) {
      raise_abort(timeout_code);
      return false;
    }
    // Next in line: look every half microsecond (a few ms over a whole map).
    // Further back: sleep through about half of the rounds still ahead.
    const unsigned rounds_ahead = (target - seen + width - 1) / width;
    const unsigned long long ahead_ns = static_cast<unsigned long long>(rounds_ahead - 1) * round_ns_estimate / 2;
    __nanosleep(rounds_ahead <= 1 ? 500u
                                  : static_cast<unsigned>(ahead_ns < 500 ? 500 : ahead_ns > 50000 ? 50000 : ahead_ns));
  }
}

// The same on one GPU (line probes): the block's own abort word.
__device__ inline bool wait_at_least(unsigned* counter, unsigned target, std::uint64_t budget, unsigned* abort,
                                     unsigned timeout_code, unsigned round_ns_estimate, unsigned width) {
  return wait_at_least(counter, target, budget, abort, timeout_code, round_ns_estimate, width, false,
                       [abort](unsigned code) { atomicCAS(abort, 0u, code); });
}

}  // namespace cumap::cuda::dev
