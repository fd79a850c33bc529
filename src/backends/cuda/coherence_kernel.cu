// `cumap check-coherence`: SM L1 caches are not kept coherent with each
// other; this shows, for each store and load operator, whether a reader that
// holds a line in L1 sees another SM's store.
#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/device_ops.cuh"
#include "backends/cuda/launches.hpp"

namespace cumap::cuda {

const char* const kStoreOpNames[kStoreOps] = {"st.wb", "st.cg", "st.wt"};
const char* const kLoadOpNames[kLoadOps] = {"ld.ca", "ld.cg", "ld.volatile", "ld.nc"};

namespace {

template <int Op>
__device__ __forceinline__ void store_op(unsigned* p, unsigned v) {
  if constexpr (Op == 0) asm volatile("st.global.wb.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  else if constexpr (Op == 1) asm volatile("st.global.cg.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  else asm volatile("st.global.wt.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

template <int Op>
__device__ __forceinline__ unsigned load_op(const unsigned* p) {
  unsigned v;
  if constexpr (Op == 0) asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  else if constexpr (Op == 1) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  else if constexpr (Op == 2) asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  else asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

// The handshake polls with relaxed atomics: they are served by L2 and, unlike
// an acquire, leave the reader's L1 alone, which would hide the effect.
__device__ bool wait_flag(unsigned* flag, std::uint64_t budget) {
  const long long start = clock64();
  while (atomicAdd(flag, 0u) == 0) {
    if (static_cast<std::uint64_t>(clock64() - start) > budget) return false;
  }
  return true;
}

template <int Store, int Load>
__global__ void coherence_kernel(CoherenceParams p) {
  if (threadIdx.x != 0) return;
  const int me = static_cast<int>(dev::smid());
  if (me != p.reader_sm && me != p.writer_sm) return;
  if (me >= p.claim_slots || atomicCAS(&p.claims[me], 0u, 1u) != 0u) return;  // another block here plays
  if (me == p.reader_sm) {
    // Bring the line into this SM's L1 (if this load caches there), then time
    // a chain of 32 dependent reloads: the word holds 0, so each load's
    // address waits for the previous value. An L1 hit takes tens of cycles,
    // an L2 trip hundreds. (A single reload between two clock reads cannot
    // be timed this way: the compiler schedules the clock reads together.)
    unsigned idx = load_op<Load>(p.data);
    const long long r0 = clock64();
#pragma unroll 1
    for (int i = 0; i < 32; ++i) idx = load_op<Load>(p.data + idx);
    const long long r1 = clock64();
    p.out[4] = static_cast<std::uint64_t>(r1 - r0) / 32 + idx;  // idx is 0; using it keeps the chain
    atomicExch(p.ready, 1u);
    if (!wait_flag(p.written, p.handshake_budget_cycles)) {
      p.out[3] = 1;
      return;
    }
    const long long t0 = clock64();
    long long t = t0;
    unsigned seen = 0;
    while (static_cast<std::uint64_t>(t - t0) < p.window_cycles) {
      if (load_op<Load>(p.data) == 1u) {
        seen = 1;
        break;
      }
      t = clock64();
    }
    p.out[0] = seen;
    p.out[1] = static_cast<std::uint64_t>(clock64() - t0);
    p.out[2] = p.window_cycles;
  } else if (me == p.writer_sm) {
    if (!wait_flag(p.ready, p.handshake_budget_cycles)) {
      p.out[3] = 1;
      return;
    }
    store_op<Store>(p.data, 1u);
    __threadfence();
    atomicExch(p.written, 1u);
  }
}

using Kernel = void (*)(CoherenceParams);

template <int S>
Kernel pick_load(int load) {
  switch (load) {
    case 0: return coherence_kernel<S, 0>;
    case 1: return coherence_kernel<S, 1>;
    case 2: return coherence_kernel<S, 2>;
    default: return coherence_kernel<S, 3>;
  }
}

Kernel pick(int store, int load) {
  switch (store) {
    case 0: return pick_load<0>(load);
    case 1: return pick_load<1>(load);
    default: return pick_load<2>(load);
  }
}

}  // namespace

void prepare_coherence_kernels() {
  for (int s = 0; s < kStoreOps; ++s)
    for (int l = 0; l < kLoadOps; ++l)
      CUMAP_CUDA_CHECK(cudaFuncSetAttribute(pick(s, l), cudaFuncAttributePreferredSharedMemoryCarveout, 0));
}

void launch_coherence(int store_op, int load_op, const CoherenceParams& p, int blocks, cudaStream_t stream) {
  // Cooperative: all blocks are resident together, so reader and writer meet.
  CoherenceParams copy = p;
  void* args[] = {&copy};
  CUMAP_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(pick(store_op, load_op)), dim3(blocks),
                                               dim3(32), args, 0, stream));
}

}  // namespace cumap::cuda
