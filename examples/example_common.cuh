#pragma once
// What the examples share: CUDA error checks, one block per SM, the clocks.
// Each example pins its roles by %smid the way cumap does: a launch of one
// block per SM (each asking for a whole SM's shared memory, so no SM holds
// two), every block reading the SM it landed on, the blocks without a role
// leaving at once.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

#define EXAMPLE_CHECK(call)                                                                         \
  do {                                                                                              \
    const cudaError_t example_err = (call);                                                         \
    if (example_err != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(example_err)); \
      std::exit(1);                                                                                 \
    }                                                                                               \
  } while (0)

namespace example {

__device__ __forceinline__ unsigned smid() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

__device__ __forceinline__ unsigned long long globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// A wait that gives up: examples never hang a GPU.
constexpr unsigned long long kWaitBudgetNs = 2'000'000'000ull;

// The launch shape that puts one block on every SM of `gpu`.
struct OneBlockPerSm {
  int blocks = 0;
  std::size_t smem = 0;
};
template <typename Kernel>
OneBlockPerSm one_block_per_sm(int gpu, Kernel kernel) {
  OneBlockPerSm shape;
  int smem = 0;
  EXAMPLE_CHECK(cudaSetDevice(gpu));
  EXAMPLE_CHECK(cudaDeviceGetAttribute(&shape.blocks, cudaDevAttrMultiProcessorCount, gpu));
  EXAMPLE_CHECK(cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, gpu));
  shape.smem = static_cast<std::size_t>(smem);
  EXAMPLE_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  return shape;
}

inline double mean(const std::vector<double>& v) {
  return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

inline void print_result(const char* what, const char* unit, const std::vector<double>& unplaced,
                         const std::vector<double>& placed) {
  const double before = mean(unplaced), after = mean(placed);
  std::printf("%s: unplaced %.1f %s (mean of %zu), placed %.1f %s (mean of %zu): %.1f %% lower\n", what, before, unit,
              unplaced.size(), after, unit, placed.size(), 100.0 * (before - after) / before);
}

}  // namespace example
