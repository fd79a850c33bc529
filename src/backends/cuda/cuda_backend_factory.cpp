// make_cuda_backend: the orchestration (cuda_backend.cpp) over the real runtime.
#include "backends/cuda/cuda_backend.hpp"
#include "backends/cuda/cuda_backend_on_runtime.hpp"
#include "backends/cuda/cuda_runtime_real.hpp"

namespace cumap {

std::unique_ptr<Backend> make_cuda_backend(const DeviceSelection& selection) {
  return cuda::make_cuda_backend_on(cuda::make_real_cuda_runtime(selection.device));
}

}  // namespace cumap
