#pragma once
// The steps of `cumap barrier` and `cumap contention` from options to
// result: home discovery and the layout (the map's first steps, as `cumap
// homes` runs them), the sweep's plan (src/plan/sync_plan.hpp), the
// backend's cases, each summarized. The CLI hands the SyncResult to the
// reporters.
#include <vector>

#include "core/sync_options.hpp"
#include "cumap/backend.hpp"
#include "cumap/result.hpp"
#include "run/map_run.hpp"

namespace cumap {

// The settings a sync run records, from its options.
SyncSettings sync_settings(const SyncOptions& options);

// Every case of `plan` on `backend` (Backend::open_sync), one after another,
// under the rules SyncSession states: the stop request asked before every
// case, progress(cases done, cases) after each case that came back, a case
// cut short ending the plan. Throws what open_sync and the cases throw.
SyncMeasurements measure_sync_plan(Backend& backend, const SyncPlan& plan, const ProgressFn& progress);

// Discovers homes over `units` (observer phases "homes", "topology"), plans
// the sweep, and runs it (phase "launches", counted in launches). Ends early once
// `stop` says so, keeping the cases measured (`interrupted` set); a stop
// during discovery measures no case. Everything but discovery.run (the
// command's clock and command line) is filled; unset `launches` take the
// backend's choice (contention: SyncOptions::kContentionLaunches), recorded
// in the settings and options. UsageError when the plan has nothing to
// measure or the backend cannot run it.
SyncResult measure_sync_run(Backend& backend, const std::vector<int>& units, const SyncOptions& options,
                            const MapObserver& observer = {}, const StopFn& stop = {});

}  // namespace cumap
