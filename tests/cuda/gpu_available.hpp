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

#define CUMAP_REQUIRE_GPU()                                 \
  do {                                                      \
    const std::string why = why_no_gpu();                   \
    if (!why.empty()) GTEST_SKIP() << why;                  \
  } while (0)
