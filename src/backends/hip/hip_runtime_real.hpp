#pragma once
#include <memory>

#include "backends/hip/hip_runtime.hpp"

namespace cumap {

// HipRuntime on libamdhip64 and the kernels of pingpong_kernels.hip.
std::unique_ptr<HipRuntime> make_real_hip_runtime();

}  // namespace cumap
