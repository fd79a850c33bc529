#pragma once
// One placement measured and summarized in one call, for the engine's tests
// (a map run starts each placement with start_placement and collects it
// later): at the request's own concurrency, without --schedule's pilots, or
// under the request's --schedule.
#include <utility>

#include "cumap/options.hpp"
#include "run/measure_placement.hpp"

namespace cumap::test {

// Every pair of the request at request.pairs_per_round, with the serial
// check when that is more than one; --schedule is not asked.
inline PlacementResult measure_placement(Backend& backend, const PlacementRequest& request,
                                         const ProgressFn& progress, const StopFn& stop) {
  Options concurrent = *request.options;
  concurrent.schedule = ScheduleKind::Concurrent;
  PlacementRequest at_its_concurrency = request;
  at_its_concurrency.options = &concurrent;
  return start_placement(backend, std::move(at_its_concurrency), progress, stop).finish();
}

// The placement under request.options->schedule, as a map run measures it.
inline PlacementResult measure_placement_scheduled(Backend& backend, PlacementRequest request,
                                                   const ProgressFn& progress, const StopFn& stop) {
  return start_placement(backend, std::move(request), progress, stop).finish();
}

}  // namespace cumap::test
