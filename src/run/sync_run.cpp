#include "run/sync_run.hpp"

#include <map>
#include <stdexcept>
#include <vector>

#include "plan/sync_plan.hpp"
#include "core/sync_cases.hpp"

namespace cumap {

SyncSettings sync_settings(const SyncOptions& o) {
  SyncSettings s;
  s.contention = o.contention;
  s.probe = o.common.probe;
  s.episodes = o.episodes;
  s.warmup = o.warmup;
  s.launches = o.launches.value_or(0);
  s.ops_per_batch = o.ops_per_batch;
  s.timeout_ms = o.common.timeout_ms;
  s.out_dir = o.common.out_dir;
  s.options = to_json(o);
  return s;
}

SyncResult measure_sync_run(Backend& backend, const std::vector<int>& units, const SyncOptions& asked,
                            const MapObserver& observer, const StopFn& stop) {
  SyncOptions options = asked;
  if (!options.launches)
    options.launches = options.contention ? SyncOptions::kContentionLaunches
                                          : backend.capabilities().default_barrier_launches;
  SyncResult r;
  r.settings = sync_settings(options);
  r.discovery = measure_map(backend, units, discovery_settings(options.common, r.settings.options), options.common,
                            observer, stop);
  if (stop && stop()) {
    r.interrupted = true;
    return r;
  }
  PlannedSync planned = plan_sync(options, r.discovery.homes, r.discovery.topology);
  r.notes = planned.notes;
  r.planned_cases = planned.labels.size();
  planned.plan.stop = stop;
  const ProgressFn progress = observer.progress ? observer.progress("launches") : ProgressFn{};
  const SyncMeasurements measured = backend.measure_sync(planned.plan, progress);
  if (observer.phase_done) observer.phase_done("launches");
  r.device_seconds = measured.device_seconds;
  r.clock_hz = measured.clock_hz;
  // Each label's launches, in launch order (the plan runs them launch-major);
  // a label none of whose launches ran (an interrupt) has no case.
  std::map<int, std::vector<SyncLaunchOutcome>> by_label;
  for (std::size_t i = 0; i < measured.cases.size(); ++i) {
    const SyncCase& c = planned.plan.cases.at(i);
    if (measured.cases[i].tag != c.tag) throw std::logic_error("a backend returned sync cases out of plan order");
    by_label[c.tag].push_back({&c, &measured.cases[i]});
  }
  // Participants as the run's files name units: across GPUs by unit_id().
  const RunHomes& homes = r.discovery.homes;
  const int default_device = homes.size() == 1 ? homes.front().device : 0;
  for (const auto& [tag, launches] : by_label)
    r.cases.push_back(summarize_sync_case(planned.labels.at(static_cast<std::size_t>(tag)), launches, default_device));
  r.interrupted = measured.stopped || (stop && stop());
  return r;
}

}  // namespace cumap
