#pragma once
#include <memory>

#include "backends/hip/hip_runtime.hpp"
#include "cumap/backend.hpp"

namespace cumap {

// The AMD backend on the real HIP runtime (only in builds with CUMAP_HIP).
// Throws UsageError "no AMD GPU found (HIP runtime reports N devices)" when
// there is none.
std::unique_ptr<Backend> make_hip_backend(const DeviceSelection& selection);
// The AMD GPUs the HIP runtime sees.
int hip_device_count();

// The same backend over any HipRuntime; tests pass a fake one.
std::unique_ptr<Backend> make_hip_backend_with_runtime(std::unique_ptr<HipRuntime> runtime,
                                                       const DeviceSelection& selection);

}  // namespace cumap
