#pragma once
// The CUDA backend's SyncSession (backend.hpp), plain C++ over the
// CudaRuntime seam and tested against fake runtimes: a case is one launch
// group, on every GPU the case touches, its members prepared, started and
// finished together as a ping-pong launch's are.
#include <memory>
#include <vector>

#include "backends/cuda/cuda_gpu.hpp"
#include "cumap/backend.hpp"
#include "cumap/sync.hpp"

namespace cumap::cuda {

// A session over `plan` (checked: check_cuda_sync_plan) on `gpus` (the
// backend's, by ordinal), each GPU's arena allocated now. A case whose wait
// ran out comes back timed out: the kernel bounds every wait, and each case
// starts from zeroed words. device_seconds: each case's longest member
// launch; clock_hz: the first GPU's SM clock as the launches measured it
// (else its fallback), as a map across GPUs reports it. `silent_sm`: the
// test hook (cuda_test_hooks.hpp).
std::unique_ptr<SyncSession> open_cuda_sync_session(const SyncPlan& plan, const std::vector<CudaGpu*>& gpus,
                                                    int silent_sm);

}  // namespace cumap::cuda
