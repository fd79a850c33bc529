#include "backends/cuda/cuda_gpu.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "backends/cuda/launch_plan.hpp"
#include "cumap/error.hpp"

namespace cumap::cuda {
namespace {

// Launches shorter than this give too coarse a clock reading from
// %globaltimer; their cycles are converted with a longer measurement instead.
constexpr double kMinClockIntervalNs = 10e6;

}  // namespace

void ClockTally::add(const std::array<std::uint64_t, 4>& m) {
  cycles += static_cast<double>(m[2] - m[0]);
  ns += static_cast<double>(m[3] - m[1]);
}

double ClockTally::cycles_per_ns() const { return ns > 0 ? cycles / ns : kNaN; }

void check_abort(const LaunchOutcome& done, const char* kernel) {
  if (done.abort_code != kNoAbort)
    throw RuntimeFailure(fmt::format("the {} kernel stopped: {}", kernel, abort_reason(done.abort_code)));
}

const std::vector<int>& CudaGpu::sm_ids() const {
  if (sm_ids_) return *sm_ids_;
  PingPongLaunch empty;
  empty.settings.counts = {1, 1, 0, true};
  empty.settings.wait_budget_cycles = budget_cycles(100.0, facts().max_sm_clock_hz);
  empty.settings.round_budget_cycles = budget_cycles(1000.0, facts().max_sm_clock_hz);
  empty.settings.round_ns_estimate = 1000;
  empty.pairs.round_starts = {0};
  empty.arenas = {0};
  empty.controls = {rt_->control_words()};
  empty.group_blocks = static_cast<unsigned>(facts().sm_count);
  const PingPongOutcome done = rt_->run_pingpong(empty);
  check_abort(done, "ping-pong");
  std::vector<int> ids = done.block_sm;
  std::sort(ids.begin(), ids.end());
  if (std::adjacent_find(ids.begin(), ids.end()) != ids.end())
    throw RuntimeFailure(fmt::format("GPU {}: two blocks reported the same %smid: cannot pin one block per SM",
                                     ordinal()));
  sm_ids_ = std::move(ids);
  return *sm_ids_;
}

Topology CudaGpu::topology() {
  if (!topology_) topology_ = rt_->discover_gpcs(sm_ids());
  return *topology_;
}

double CudaGpu::launch_cycles_per_ns(const LaunchOutcome& done, ClockTally& run_clock) {
  const double cpn = cycles_per_ns(done.clock_marks.data());
  if (std::isfinite(cpn) && static_cast<double>(done.clock_marks[3] - done.clock_marks[1]) >= kMinClockIntervalNs) {
    run_clock.add(done.clock_marks);
    lifetime_clock_.add(done.clock_marks);
    return cpn;
  }
  return fallback_cycles_per_ns();
}

double CudaGpu::fallback_cycles_per_ns() const {
  return lifetime_clock_.ns > 0 ? lifetime_clock_.cycles_per_ns() : calibrated_cycles_per_ns();
}

double CudaGpu::calibrated_cycles_per_ns() const {
  if (!calibrated_cpn_) {
    const auto m = rt_->calibrate_clock();
    const double cpn = cycles_per_ns(m.data());
    if (!std::isfinite(cpn)) throw RuntimeFailure("SM clock calibration against %globaltimer failed");
    calibrated_cpn_ = cpn;
  }
  return *calibrated_cpn_;
}

DeviceAddress CudaGpu::arena_for(const FlagArena& wanted, bool with_flush) {
  check_arena(wanted);
  if (!arena_ || arena_spec_ != wanted) {
    arena_.reset();  // give the old one back before asking for room
    const std::size_t bytes = arena_allocation_bytes(wanted);
    check_fits(bytes, "the flag arena");
    arena_.emplace(*rt_, bytes);
    arena_spec_ = wanted;
  }
  if (with_flush && !flush_) {
    const std::size_t bytes = flush_buffer_words(facts().l2_bytes) * sizeof(std::uint32_t);
    check_fits(bytes, "--flush-cache's buffer (twice the L2)");
    flush_.emplace(*rt_, bytes);
  }
  return arena_base(arena_->address(), wanted);
}

void CudaGpu::zero_arena() { rt_->zero(arena_->address(), arena_->bytes()); }

DeviceAddress CudaGpu::cleared_sides_done(std::size_t pairs) {
  const std::size_t bytes = std::max<std::size_t>(pairs, 1) * sizeof(unsigned);
  if (!sides_done_ || sides_done_->bytes() < bytes) {
    sides_done_.reset();
    sides_done_.emplace(*rt_, bytes);
  }
  rt_->zero(sides_done_->address(), bytes);
  return sides_done_->address();
}

void CudaGpu::check_fits(std::size_t bytes, const char* what) const {
  const std::size_t free_bytes = rt_->free_memory_bytes();
  if (bytes > free_bytes / 2)
    throw UsageError(fmt::format("{} needs {} MiB; GPU {} has {} MiB free (fewer lines, a smaller "
                                 "--lines-per-class or --flag-offset?)",
                                 what, bytes >> 20, ordinal(), free_bytes >> 20));
}

}  // namespace cumap::cuda
