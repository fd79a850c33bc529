// make_cuda_backend: the orchestration (cuda_backend.cpp) over the real runtime.
#include <cuda_runtime_api.h>

#include <future>
#include <vector>

#include "backends/cuda/cuda_backend.hpp"
#include "backends/cuda/cuda_backend_on_runtime.hpp"
#include "backends/cuda/cuda_runtime_real.hpp"

namespace cumap {

std::unique_ptr<Backend> make_cuda_backend(const DeviceSelection& selection) {
  if (selection.devices.size() < 2) {
    const int device = selection.devices.empty() ? selection.device : selection.devices.front();
    return cuda::make_cuda_backend_on(cuda::make_real_cuda_runtime(device));
  }
  // Each GPU's runtime opens on a thread of its own: opening one GPU took
  // 0.25-0.39 s on H200s (bench/RESULTS.md), two in turn 0.56-0.82 s.
  std::vector<std::future<std::unique_ptr<cuda::CudaRuntime>>> opening;
  for (int device : selection.devices)
    opening.push_back(std::async(std::launch::async, [device] { return cuda::make_real_cuda_runtime(device); }));
  std::vector<std::unique_ptr<cuda::CudaRuntime>> runtimes;
  for (auto& runtime : opening) runtimes.push_back(runtime.get());
  return cuda::make_cuda_backend_on(std::move(runtimes));
}

int cuda_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();  // no driver or no device: none
    return 0;
  }
  return count;
}

}  // namespace cumap
