#pragma once
#include <memory>

#include "backends/cuda/cuda_runtime.hpp"

namespace cumap::cuda {

// The CudaRuntime of a real device: reads its facts and prepares the kernels'
// attributes (no kernel runs). Throws UsageError when no usable NVIDIA GPU is
// at `ordinal`.
std::unique_ptr<CudaRuntime> make_real_cuda_runtime(int ordinal);

}  // namespace cumap::cuda
