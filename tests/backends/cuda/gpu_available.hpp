#pragma once
#include <cuda_runtime_api.h>

#include <string>

// Why the GPU tests cannot run here, or "" when an NVIDIA GPU is present.
inline std::string why_no_gpu() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) return std::string("no NVIDIA GPU: ") + cudaGetErrorString(err);
  if (count == 0) return "no NVIDIA GPU: the CUDA runtime reports 0 devices";
  return "";
}

// Skips the test with the reason `why_not` gives, unless it is "" (a GPU
// test built everywhere says why it did not run).
#define CUMAP_SKIP_WITH_REASON(why_not)    \
  do {                                     \
    const std::string why = (why_not);     \
    if (!why.empty()) GTEST_SKIP() << why; \
  } while (0)

#define CUMAP_REQUIRE_GPU() CUMAP_SKIP_WITH_REASON(why_no_gpu())
