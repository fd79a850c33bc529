#pragma once
#include <memory>

#include "cumap/backend.hpp"

namespace cumap {

// NVIDIA GPUs: a persistent cooperative kernel, one block per SM, roles by
// %smid. Throws UsageError when no usable NVIDIA GPU is present. Opening the
// device reads its facts; no kernel runs before the first call that needs one.
// With selection.devices of two or more, one backend over all of them.
std::unique_ptr<Backend> make_cuda_backend(const DeviceSelection& selection);
// The NVIDIA GPUs the CUDA runtime sees (0 without a driver or a GPU).
int cuda_device_count();

}  // namespace cumap
