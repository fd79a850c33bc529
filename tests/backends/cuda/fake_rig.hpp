#pragma once
// A CUDA backend over the fake runtime, with a view of that runtime (owned
// by the backend), for the backend's host tests.
#include <memory>
#include <utility>

#include "backends/cuda/cuda_backend_on_runtime.hpp"
#include "fake_cuda_runtime.hpp"

namespace cumap::cuda {

struct Rig {
  std::unique_ptr<Backend> backend;
  testing::FakeCudaRuntime* rt;
};
inline Rig rig(testing::FakeCudaConfig config = {}, CudaTestHooks hooks = {}) {
  auto rt = std::make_unique<testing::FakeCudaRuntime>(std::move(config));
  testing::FakeCudaRuntime* view = rt.get();
  return {make_cuda_backend_on(std::move(rt), hooks), view};
}

}  // namespace cumap::cuda
