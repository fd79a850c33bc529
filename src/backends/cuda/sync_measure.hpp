#pragma once
// The host side of Backend::measure_sync on the CUDA backend, free of CUDA
// calls so that it is tested without a GPU: which plans it runs, the launch
// of one case, and how a launch's records become a SyncMeasurement.
#include <cstdint>
#include <string>
#include <vector>

#include "backends/cuda/cuda_runtime.hpp"
#include "cumap/sync.hpp"
#include "plan/plan_checks.hpp"

namespace cumap::cuda {

// UsageError unless check_sync_plan passes (which also refuses mbarrier, a
// probe barriers cannot poll with) and the arena is one the kernel can address.
void check_cuda_sync_plan(const SyncPlan& plan, const UnitsByDevice& sms);

// Why this GPU cannot run `c`, or "" when it can. grid.sync() synchronizes
// the whole grid of one block per SM: only a case of every SM measures it.
std::string why_sync_case_unsupported(const SyncCase& c, const std::vector<int>& sm_ids);

SyncKind sync_kind(const SyncCase& c);

// The launch of case `c` of `plan` over the arena at `arena_base`, every
// wait bounded by `wait_budget_cycles`.
SyncLaunch sync_launch_for(const SyncCase& c, const SyncPlan& plan, DeviceAddress arena_base,
                           std::uint64_t wait_budget_cycles);

// A barrier's episodes (leave to leave) or a contention case's batches
// (cycles per operation, participant-major) and operations per microsecond,
// ns through `cycles_per_ns`. A timed-out case carries no timings.
SyncMeasurement sync_measurement_from(const SyncCase& c, const SyncOutcome& done, double cycles_per_ns);

}  // namespace cumap::cuda
