#include "backends/cuda/cuda_sync.hpp"

#include <algorithm>
#include <map>

#include "backends/cuda/launch_plan.hpp"
#include "backends/cuda/sync_measure.hpp"
#include "plan/sync_checks.hpp"

namespace cumap::cuda {
namespace {

// Starts a case's launch on every member: all are prepared (their words
// cleared: the others add to them) before any starts. A member that fails
// to start leaves the others running until their check-in gives up
// (bounded by the wait budget); they are still waited for before the error
// goes on.
void start_sync_group(const std::vector<CudaGpu*>& members, const std::vector<SyncLaunch>& launches) {
  for (std::size_t g = 0; g < members.size(); ++g) members[g]->runtime().prepare_sync(launches[g]);
  std::size_t started = 0;
  try {
    for (; started < members.size(); ++started) members[started]->runtime().start_sync();
  } catch (...) {
    for (std::size_t g = 0; g < started; ++g) {
      try {
        members[g]->runtime().finish_sync();
      } catch (...) {  // the first error is the one to report
      }
    }
    throw;
  }
}

std::vector<SyncOutcome> finish_sync_group(const std::vector<CudaGpu*>& members) {
  std::vector<SyncOutcome> out;
  for (CudaGpu* m : members) out.push_back(m->runtime().finish_sync());
  return out;
}

}  // namespace

SyncMeasurements measure_sync_cases(const SyncPlan& plan, const std::vector<CudaGpu*>& gpus, int silent_sm,
                                    const ProgressFn& progress) {
  UnitsByDevice sms;
  std::map<int, CudaGpu*> gpu_of;
  std::map<int, DeviceAddress> arena_of;
  for (CudaGpu* g : gpus) {
    sms[g->ordinal()] = g->sm_ids();
    gpu_of[g->ordinal()] = g;
    arena_of[g->ordinal()] = g->arena_for(plan.arena, false);
  }
  SyncMeasurements out;
  std::map<int, ClockTally> run_clock;  // by ordinal
  for (std::size_t i = 0; i < plan.cases.size(); ++i) {
    if (plan.stop && plan.stop()) {
      out.stopped = true;
      break;
    }
    const SyncCase& c = plan.cases[i];
    if (std::string why = why_sync_case_unsupported(c, sms); !why.empty()) {
      out.cases.push_back(unsupported_case(c, std::move(why)));
    } else {
      SyncGroup group;
      group.ordinals = sync_case_devices(c);
      std::vector<CudaGpu*> members;
      double max_hz = 0;
      for (int ordinal : group.ordinals) {
        CudaGpu& gpu = *gpu_of.at(ordinal);
        members.push_back(&gpu);
        group.arenas.push_back(arena_of.at(ordinal));
        group.controls.push_back(gpu.runtime().control_words());
        group.group_blocks += static_cast<unsigned>(gpu.facts().sm_count);
        max_hz = std::max(max_hz, gpu.facts().max_sm_clock_hz);
      }
      // Budgets in cycles of the fastest SM clock of the group (at slower
      // clocks a budget only lasts longer).
      const std::uint64_t budget = budget_cycles(plan.timeout_ms, max_hz);
      std::vector<SyncLaunch> launches;
      for (std::size_t m = 0; m < members.size(); ++m) {
        launches.push_back(sync_launch_for(c, plan, group, static_cast<int>(m), budget));
        launches.back().settings.silent_sm = silent_sm;
      }
      start_sync_group(members, launches);
      const std::vector<SyncOutcome> done = finish_sync_group(members);
      std::vector<double> cycles_per_ns;
      double longest_ms = 0;
      for (std::size_t m = 0; m < members.size(); ++m) {
        check_abort(done[m], "sync");
        cycles_per_ns.push_back(members[m]->launch_cycles_per_ns(done[m], run_clock[group.ordinals[m]]));
        longest_ms = std::max(longest_ms, done[m].elapsed_ms);
      }
      out.cases.push_back(sync_measurement_from(c, done, group.ordinals, cycles_per_ns));
      out.device_seconds += longest_ms * 1e-3;
    }
    if (progress) progress(i + 1, plan.cases.size());
  }
  // The first GPU's clock, as a map across GPUs reports it.
  const CudaGpu& first = *gpus.front();
  const ClockTally& clock = run_clock[first.ordinal()];
  out.clock_hz = (clock.ns > 0 ? clock.cycles_per_ns() : first.fallback_cycles_per_ns()) * 1e9;
  return out;
}

}  // namespace cumap::cuda
