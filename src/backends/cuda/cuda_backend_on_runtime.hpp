#pragma once
// The CUDA backend over any CudaRuntime: the real one (make_cuda_backend),
// the fake of tests/support, or the real one with test hooks (device tests).
#include <memory>
#include <vector>

#include "backends/cuda/cuda_runtime.hpp"
#include "backends/cuda/cuda_test_hooks.hpp"
#include "cumap/backend.hpp"

namespace cumap::cuda {

std::unique_ptr<Backend> make_cuda_backend_on(std::unique_ptr<CudaRuntime> runtime, const CudaTestHooks& hooks = {});
// Over several GPUs (--devices): one map across them. Every GPU must reach
// every other's memory with native atomics (UsageError naming the two GPUs
// otherwise); runtimes may come in any order.
std::unique_ptr<Backend> make_cuda_backend_on(std::vector<std::unique_ptr<CudaRuntime>> runtimes,
                                              const CudaTestHooks& hooks = {});

}  // namespace cumap::cuda
