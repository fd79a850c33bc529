#include "run/sync_run.hpp"

#include <map>

#include "plan/sync_plan.hpp"

namespace cumap {

SyncSettings sync_settings(const SyncOptions& o) {
  SyncSettings s;
  s.contention = o.contention;
  s.probe = o.common.probe;
  s.episodes = o.episodes;
  s.warmup = o.warmup;
  s.ops_per_batch = o.ops_per_batch;
  s.timeout_ms = o.common.timeout_ms;
  s.out_dir = o.common.out_dir;
  s.options = to_json(o);
  return s;
}

SyncResult measure_sync_run(Backend& backend, const std::vector<int>& units, const SyncOptions& options,
                            const MapObserver& observer, const StopFn& stop) {
  SyncResult r;
  r.settings = sync_settings(options);
  // A map with no placement: homes and layout only.
  MapSettings discovery;
  discovery.placements.clear();
  discovery.colormap = options.common.colormap;
  discovery.out_dir = options.common.out_dir;
  discovery.options = r.settings.options;
  r.discovery = measure_map(backend, units, discovery, options.common, observer, stop);
  if (stop && stop()) {
    r.interrupted = true;
    return r;
  }
  PlannedSync planned = plan_sync(options, r.discovery.homes.front(), r.discovery.topology);
  r.notes = planned.notes;
  r.planned_cases = planned.plan.cases.size();
  planned.plan.stop = stop;
  const ProgressFn progress = observer.progress ? observer.progress("cases") : ProgressFn{};
  const SyncMeasurements measured = backend.measure_sync(planned.plan, progress);
  if (observer.phase_done) observer.phase_done("cases");
  r.device_seconds = measured.device_seconds;
  r.clock_hz = measured.clock_hz;
  std::map<int, const SyncCase*> by_tag;
  for (const SyncCase& c : planned.plan.cases) by_tag[c.tag] = &c;
  for (const SyncMeasurement& m : measured.cases) {
    const SyncCase& c = *by_tag.at(m.tag);
    r.cases.push_back(summarize_sync_case(c, planned.labels.at(static_cast<std::size_t>(c.tag)), m));
  }
  r.interrupted = measured.stopped || (stop && stop());
  return r;
}

}  // namespace cumap
