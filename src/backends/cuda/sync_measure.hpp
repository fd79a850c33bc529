#pragma once
// The host side of the CUDA backend's sync cases (cuda_sync.hpp), free of
// CUDA calls so that it is tested without a GPU: which plans it runs, the
// launches of one case (one per GPU it touches, run as a group), and how
// their records become a SyncMeasurement.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "backends/cuda/cuda_runtime.hpp"
#include "cumap/sync.hpp"
#include "plan/plan_checks.hpp"

namespace cumap::cuda {

// UsageError unless check_sync_plan passes (which also refuses mbarrier, a
// probe barriers cannot poll with), the arena is one the kernel can address
// and no case touches more GPUs than a launch group holds.
void check_cuda_sync_plan(const SyncPlan& plan, const UnitsByDevice& sms);

// Why these GPUs cannot run `c`, or "" when they can. grid.sync()
// synchronizes the whole grid of one block per SM of one GPU: only a case
// of every SM of one GPU measures it.
std::string why_sync_case_unsupported(const SyncCase& c, const UnitsByDevice& sms);

SyncKind sync_kind(const SyncCase& c);

// The GPUs of one case's launch group, ascending (sync_case_devices), and
// what each member needs of the others.
struct SyncGroup {
  std::vector<int> ordinals;
  std::vector<DeviceAddress> arenas;    // each member's flag arena, valid on every member
  std::vector<DeviceAddress> controls;  // each member's control words
  unsigned group_blocks = 0;            // blocks of every member together
  // The member number of GPU `ordinal`; std::out_of_range for another GPU.
  int member_of(int ordinal) const;
};

// The launch of case `c` of `plan` on member `self` of `group`, every wait
// bounded by `wait_budget_cycles`.
SyncLaunch sync_launch_for(const SyncCase& c, const SyncPlan& plan, const SyncGroup& group, int self,
                           std::uint64_t wait_budget_cycles);

// A barrier's episodes (leave to leave, as participant 0's GPU recorded
// them) or a contention case's batches (cycles per operation,
// participant-major, each from its participant's GPU) and operations per
// microsecond (over the longest of the GPUs' spans: their timers are not
// aligned), ns through each member's `cycles_per_ns`. `done` and
// `cycles_per_ns` are per member of the group of `ordinals`. A case any
// member timed out carries no timings.
SyncMeasurement sync_measurement_from(const SyncCase& c, std::span<const SyncOutcome> done,
                                      std::span<const int> ordinals, std::span<const double> cycles_per_ns);
// The same for a case on one GPU.
SyncMeasurement sync_measurement_from(const SyncCase& c, const SyncOutcome& done, double cycles_per_ns);

}  // namespace cumap::cuda
