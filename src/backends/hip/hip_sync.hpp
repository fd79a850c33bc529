#pragma once
// The host side of the HIP backend's sync cases (its SyncSession, in
// hip_backend.cpp), plain C++ tested against the fake runtime: which cases
// this device can run, the launch of one case, and how its results become a
// SyncMeasurement.
#include <cstddef>
#include <string>

#include "backends/hip/hip_runtime.hpp"
#include "backends/hip/pair_timing.hpp"
#include "cumap/sync.hpp"

namespace cumap {

// What the device offers a case: its unit count, the CU-masked streams
// that can be alive at once (StreamPool::capacity), and cooperative launch.
struct HipSyncLimits {
  std::size_t units = 0;
  std::size_t streams = 0;
  bool cooperative_launch = false;
};

// Why this device cannot run `c`, or "" when it can. Every participant is a
// kernel on a stream of its own that must run alongside the others; the
// platform barrier is grid sync over every unit, in a cooperative launch.
std::string why_hip_sync_case_unsupported(const SyncCase& c, const HipSyncLimits& limits);

// The launch of case `c` of `plan` on `flags` (the arena's allocation), its
// streams not yet filled in; every wait bounded by the plan's timeout.
HipSyncLaunch hip_sync_launch_for(const SyncCase& c, const SyncPlan& plan, HipBuffer flags, double wall_clock_hz);

// A barrier's episodes (leave to leave) or a contention case's batches (per
// operation, participant-major) in ns from wall_clock64 and cycles from
// clock64, and a contention case's operations per microsecond. A timed-out
// case carries no timings.
SyncMeasurement sync_measurement_from_result(const SyncCase& c, const HipSyncResult& result,
                                             const HipClocks& clocks);

}  // namespace cumap
