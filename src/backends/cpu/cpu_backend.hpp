#pragma once
#include <memory>

#include "cumap/backend.hpp"
#include "cumap/options.hpp"

namespace cumap {

// Pinned threads and std::atomic: runs anywhere, and is what `--backend auto`
// falls back to when no GPU backend has a device.
std::unique_ptr<Backend> make_cpu_backend(const Options& options);

}  // namespace cumap
