#include "run/sync_run.hpp"

#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
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

SyncMeasurements measure_sync_plan(Backend& backend, const SyncPlan& plan, const ProgressFn& progress) {
  const std::unique_ptr<SyncSession> session = backend.open_sync(plan);
  SyncMeasurements out;
  for (std::size_t i = 0; i < plan.cases.size(); ++i) {
    if (plan.stop && plan.stop()) {
      out.stopped = true;
      break;
    }
    std::optional<SyncMeasurement> measured = session->measure_case(i);
    if (!measured) {
      out.stopped = true;
      break;
    }
    if (measured->tag != plan.cases[i].tag) throw std::logic_error("a backend returned a sync case under another tag");
    out.cases.push_back(std::move(*measured));
    if (progress) progress(i + 1, plan.cases.size());
  }
  out.device_seconds = session->device_seconds();
  out.clock_hz = session->clock_hz();
  return out;
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
  const SyncMeasurements measured = measure_sync_plan(backend, planned.plan, progress);
  if (observer.phase_done) observer.phase_done("launches");
  r.device_seconds = measured.device_seconds;
  r.clock_hz = measured.clock_hz;
  // Each label's launches, in launch order (the plan runs them launch-major);
  // a label none of whose launches ran (an interrupt) has no case.
  std::map<int, std::vector<SyncLaunchOutcome>> by_label;
  for (std::size_t i = 0; i < measured.cases.size(); ++i) {
    const SyncCase& c = planned.plan.cases.at(i);
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
