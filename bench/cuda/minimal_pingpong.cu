// The reference of bench_harness_vs_minimal: the smallest hand-written CAS
// ping-pong between two SMs, with none of cumap's harness around it (no
// schedule, no turn counter, no bounded waits). Blocks on other SMs leave.
#include <cuda_runtime.h>

#include "minimal_pingpong.hpp"

namespace {

// The same protocol as cumap's (two flags, CAS signal, CAS poll), a pings.
__global__ void minimal_pingpong(unsigned* first, unsigned* second, int a, int b, int iters, int samples,
                                 unsigned long long* out) {
  extern __shared__ unsigned char one_block_per_sm[];
  (void)one_block_per_sm;
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  if (threadIdx.x != 0 || (static_cast<int>(sm) != a && static_cast<int>(sm) != b)) return;
  const bool ping = static_cast<int>(sm) == a;
  unsigned k = 0;
  for (int s = 0; s < samples; ++s) {
    const long long t0 = clock64();
    for (int i = 0; i < iters; ++i) {
      ++k;
      if (ping) {
        atomicCAS(first, k - 1, k);
        while (atomicCAS(second, k, k) != k) {
        }
      } else {
        while (atomicCAS(first, k, k) != k) {
        }
        atomicCAS(second, k - 1, k);
      }
    }
    if (ping) out[s] = clock64() - t0;
  }
}

}  // namespace

cudaError_t prepare_minimal_pingpong(std::size_t smem) {
  return cudaFuncSetAttribute(minimal_pingpong, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem));
}

cudaError_t launch_minimal_pingpong(unsigned* first, unsigned* second, int a, int b, int iters, int samples,
                                    unsigned long long* out, int blocks, std::size_t smem, cudaStream_t stream) {
  minimal_pingpong<<<blocks, 32, smem, stream>>>(first, second, a, b, iters, samples, out);
  return cudaGetLastError();
}
