#pragma once
#include <memory>

#include "cumap/backend.hpp"
#include "cumap/options.hpp"

namespace cumap {

// NVIDIA GPUs: a persistent cooperative kernel, one block per SM, roles by
// %smid. Throws UsageError when no usable NVIDIA GPU is present.
std::unique_ptr<Backend> make_cuda_backend(const Options& options);

}  // namespace cumap
