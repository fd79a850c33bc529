#include "backends/hip/hip_backend.hpp"
#include "backends/hip/hip_runtime_real.hpp"

namespace cumap {

// The "no AMD GPU" check lives in the backend, so the fake runtime tests it too.
std::unique_ptr<Backend> make_hip_backend(const DeviceSelection& selection) {
  return make_hip_backend_with_runtime(make_real_hip_runtime(), selection);
}

int hip_device_count() { return make_real_hip_runtime()->device_count(); }

}  // namespace cumap
