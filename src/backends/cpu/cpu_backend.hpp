#pragma once
#include <memory>

#include "cumap/backend.hpp"

namespace cumap {

// Pinned threads and std::atomic: runs anywhere, and is what `--backend auto`
// falls back to when no GPU backend has a device. Device 0 only; `--unit wgp`
// is a UsageError.
std::unique_ptr<Backend> make_cpu_backend(const DeviceSelection& selection);

}  // namespace cumap
