// bench_minimal_pingpong: the smallest hand-written CAS ping-pong between two
// SMs, with none of cumap's harness (no barrier, no schedule, no bounded
// waits): one launch per pair, blocks on other SMs leave at once. It is the
// reference that cumap's same-line numbers must match (bench/RESULTS.md).
//
// usage: bench_minimal_pingpong ITERS SAMPLES A:B [A:B ...]
// prints: a b cycles_per_round_trip (median over samples)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    cudaError_t e = (call);                                                                  \
    if (e != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s failed at %s:%d: %s\n", #call, __FILE__, __LINE__, cudaGetErrorString(e)); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

__global__ void pingpong(unsigned* flags, int a, int b, int iters, int samples, unsigned long long* out) {
  extern __shared__ unsigned char one_block_per_sm[];
  (void)one_block_per_sm;
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  if (threadIdx.x != 0 || (static_cast<int>(sm) != a && static_cast<int>(sm) != b)) return;
  unsigned* first = flags;       // same-line: adjacent words, like cumap
  unsigned* second = flags + 1;
  unsigned k = 0;
  const bool ping = static_cast<int>(sm) == a;
  for (int s = 0; s < samples; ++s) {
    long long t0 = clock64();
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

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: bench_minimal_pingpong ITERS SAMPLES A:B [A:B ...]\n");
    return 2;
  }
  const int iters = std::atoi(argv[1]), samples = std::atoi(argv[2]);
  cudaDeviceProp p{};
  CHECK(cudaGetDeviceProperties(&p, 0));
  const int smem = static_cast<int>(p.sharedMemPerBlockOptin) - 1024;
  CHECK(cudaFuncSetAttribute(pingpong, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  unsigned* flags;
  unsigned long long* out;
  CHECK(cudaMalloc(&flags, 64 * 1024));
  CHECK(cudaMalloc(&out, samples * sizeof(unsigned long long)));
  std::vector<unsigned long long> host(samples);
  for (int i = 3; i < argc; ++i) {
    int a = 0, b = 0;
    if (std::sscanf(argv[i], "%d:%d", &a, &b) != 2) return 2;
    CHECK(cudaMemset(flags, 0, 64 * 1024));
    // Warm-up launch, then the measured one.
    for (int rep = 0; rep < 2; ++rep) {
      CHECK(cudaMemset(flags, 0, 64 * 1024));
      pingpong<<<p.multiProcessorCount, 32, smem>>>(flags, a, b, iters, samples, out);
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
    }
    CHECK(cudaMemcpy(host.data(), out, samples * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    std::sort(host.begin(), host.end());
    std::printf("%d %d %.1f\n", a, b, static_cast<double>(host[samples / 2]) / iters);
  }
  return 0;
}
