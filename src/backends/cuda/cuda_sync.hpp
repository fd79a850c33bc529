#pragma once
// Backend::measure_sync on the CUDA backend (plain C++ over the CudaRuntime
// seam, tested against fake runtimes): one launch group per case, on every
// GPU the case touches, its members prepared, started and finished together
// as a ping-pong launch's are.
#include <vector>

#include "backends/cuda/cuda_gpu.hpp"
#include "cumap/sync.hpp"

namespace cumap::cuda {

// Every case of `plan` (checked: check_cuda_sync_plan) on `gpus` (the
// backend's, by ordinal), the stop request asked between cases. A case
// whose wait ran out comes back timed out and the next one runs: the kernel
// bounds every wait, and each case starts from zeroed words. `silent_sm`:
// the test hook (cuda_test_hooks.hpp).
SyncMeasurements measure_sync_cases(const SyncPlan& plan, const std::vector<CudaGpu*>& gpus, int silent_sm,
                                    const ProgressFn& progress);

}  // namespace cumap::cuda
