#include "backends/cuda/cuda_sync.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "backends/cuda/launch_plan.hpp"
#include "backends/cuda/sync_measure.hpp"
#include "plan/sync_checks.hpp"

namespace cumap::cuda {
namespace {

class CudaSyncSession final : public SyncSession {
 public:
  CudaSyncSession(const SyncPlan& plan, const std::vector<CudaGpu*>& gpus, int silent_sm)
      : plan_(plan), first_gpu_(*gpus.front()), silent_sm_(silent_sm) {
    for (CudaGpu* g : gpus) {
      sms_[g->ordinal()] = g->sm_ids();
      gpu_of_[g->ordinal()] = g;
      arena_of_[g->ordinal()] = g->arena_for(plan.arena, false);
    }
  }

  std::optional<SyncMeasurement> measure_case(std::size_t index) override {
    const SyncCase& c = plan_.cases.at(index);
    if (std::string why = why_sync_case_unsupported(c, sms_); !why.empty()) return unsupported_case(c, std::move(why));
    SyncGroup group;
    group.ordinals = sync_case_devices(c);
    std::vector<CudaGpu*> members;
    double max_hz = 0;
    for (int ordinal : group.ordinals) {
      CudaGpu& gpu = *gpu_of_.at(ordinal);
      members.push_back(&gpu);
      group.arenas.push_back(arena_of_.at(ordinal));
      group.controls.push_back(gpu.runtime().control_words());
      group.group_blocks += static_cast<unsigned>(gpu.facts().sm_count);
      max_hz = std::max(max_hz, gpu.facts().max_sm_clock_hz);
    }
    // Budgets in cycles of the fastest SM clock of the group (at slower
    // clocks a budget only lasts longer).
    const std::uint64_t budget = budget_cycles(plan_.timeout_ms, max_hz);
    std::vector<SyncLaunch> launches;
    for (std::size_t m = 0; m < members.size(); ++m) {
      launches.push_back(sync_launch_for(c, plan_, group, static_cast<int>(m), budget));
      launches.back().settings.silent_sm = silent_sm_;
    }
    start_group(members, launches, kSyncSteps);
    const std::vector<SyncOutcome> done = finish_group(members, kSyncSteps);
    std::vector<double> cycles_per_ns;
    double longest_ms = 0;
    for (std::size_t m = 0; m < members.size(); ++m) {
      check_abort(done[m], "sync");
      cycles_per_ns.push_back(members[m]->launch_cycles_per_ns(done[m], run_clock_[group.ordinals[m]]));
      longest_ms = std::max(longest_ms, done[m].elapsed_ms);
    }
    device_seconds_ += longest_ms * 1e-3;
    return sync_measurement_from(c, done, group.ordinals, cycles_per_ns);
  }

  double device_seconds() const override { return device_seconds_; }

  double clock_hz() const override {
    const auto clock = run_clock_.find(first_gpu_.ordinal());
    const bool measured = clock != run_clock_.end() && clock->second.ns > 0;
    return (measured ? clock->second.cycles_per_ns() : first_gpu_.fallback_cycles_per_ns()) * 1e9;
  }

 private:
  const SyncPlan& plan_;
  const CudaGpu& first_gpu_;
  int silent_sm_;
  UnitsByDevice sms_;
  std::map<int, CudaGpu*> gpu_of_;
  std::map<int, DeviceAddress> arena_of_;
  std::map<int, ClockTally> run_clock_;  // by ordinal
  double device_seconds_ = 0.0;
};

}  // namespace

std::unique_ptr<SyncSession> open_cuda_sync_session(const SyncPlan& plan, const std::vector<CudaGpu*>& gpus,
                                                    int silent_sm) {
  return std::make_unique<CudaSyncSession>(plan, gpus, silent_sm);
}

}  // namespace cumap::cuda
