#pragma once
#include <cuda_runtime_api.h>

#include <string>

namespace cumap::cuda {

// Throws RuntimeFailure naming the call, where it was made, and CUDA's own words.
[[noreturn]] void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line);

}  // namespace cumap::cuda

// Every CUDA runtime call in this backend goes through this macro.
#define CUMAP_CUDA_CHECK(call)                                                      \
  do {                                                                              \
    const cudaError_t cumap_err_ = (call);                                          \
    if (cumap_err_ != cudaSuccess) ::cumap::cuda::throw_cuda_error(cumap_err_, #call, __FILE__, __LINE__); \
  } while (0)
