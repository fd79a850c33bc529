#include "backends/hip/hip_sync.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "cumap/error.hpp"
#include "plan/sync_checks.hpp"

namespace cumap {
namespace {

HipSyncKind hip_sync_kind(const SyncCase& c) {
  if (c.contention) return c.op == ContentionOp::Cas ? HipSyncKind::ContentionCas : HipSyncKind::ContentionAdd;
  switch (c.impl) {
    case BarrierImpl::Flag: return HipSyncKind::Flag;
    case BarrierImpl::TwoLevel: return HipSyncKind::TwoLevel;
    case BarrierImpl::Platform: return HipSyncKind::Platform;
    case BarrierImpl::Counter: break;
  }
  return HipSyncKind::Counter;
}

}  // namespace

std::string why_hip_sync_case_unsupported(const SyncCase& c, const HipSyncLimits& limits) {
  if (!c.contention && c.impl == BarrierImpl::Platform) {
    if (!limits.cooperative_launch) return "this HIP runtime has no cooperative launch: no grid sync to measure";
    if (c.participants.size() != limits.units)
      return "grid sync synchronizes the whole grid: measured only with every unit";
    return "";
  }
  if (c.participants.size() > limits.streams)
    return fmt::format("{} participants need {} CU-masked streams running at once; this device keeps at most {} "
                       "(--max-streams)",
                       c.participants.size(), c.participants.size(), limits.streams);
  return "";
}

HipSyncLaunch hip_sync_launch_for(const SyncCase& c, const SyncPlan& plan, HipBuffer flags, double wall_clock_hz) {
  const std::uint64_t base = plan.arena.offset_bytes;
  HipSyncLaunch l;
  l.kind = hip_sync_kind(c);
  l.probe = static_cast<protocol::ProbeCode>(plan.probe);
  l.flags = flags;
  l.counter_offset = base + c.counter;
  l.release_offset = base + c.release;
  l.warmup = c.warmup;
  l.episodes = c.episodes;
  l.ops_per_batch = c.ops_per_batch;
  l.wait_budget_ticks = static_cast<std::uint64_t>(plan.timeout_ms * 1e-3 * wall_clock_hz) + 1;
  for (std::uint64_t w : sync_case_words(c)) l.zero_offsets.push_back(base + w);
  if (l.kind == HipSyncKind::TwoLevel) {
    std::vector<std::uint32_t> sizes(c.group_counter.size(), 0);
    for (int g : c.group_of) ++sizes[static_cast<std::size_t>(g)];
    std::vector<bool> led(c.group_counter.size(), false);
    for (int g : c.group_of) {
      const auto gi = static_cast<std::size_t>(g);
      l.roles.push_back({base + c.group_counter[gi], base + c.group_release[gi], sizes[gi], !led[gi]});
      led[gi] = true;
    }
    l.groups = static_cast<std::uint32_t>(c.group_counter.size());
  }
  return l;
}

SyncMeasurement sync_measurement_from_result(const SyncCase& c, const HipSyncResult& result,
                                             const HipClocks& clocks) {
  SyncMeasurement m;
  m.tag = c.tag;
  m.timed_out = result.timed_out;
  if (result.timed_out) return m;
  const bool with_cycles = clocks.shader_hz > 0.0;
  const auto add = [&](double ticks, double cycles, double per) {
    m.ns.push_back(ticks / clocks.wall_hz * 1e9 / per);
    if (with_cycles) m.cycles.push_back(cycles / per);
  };
  const auto episodes = static_cast<std::size_t>(c.episodes);
  if (!c.contention) {
    const auto first = static_cast<std::size_t>(c.warmup);
    if (result.leave_ticks.size() < first + episodes + 1 || result.leave_cycles.size() < first + episodes + 1)
      throw RuntimeFailure("the sync kernel returned fewer leave times than the case has episodes");
    for (std::size_t e = first; e < first + episodes; ++e)
      add(static_cast<double>(result.leave_ticks[e + 1] - result.leave_ticks[e]),
          static_cast<double>(result.leave_cycles[e + 1] - result.leave_cycles[e]), 1.0);
    return m;
  }
  const std::size_t k = c.participants.size();
  if (result.batch_ticks.size() < k * episodes || result.batch_cycles.size() < k * episodes ||
      result.span_ticks.size() < 2 * k)
    throw RuntimeFailure("the sync kernel returned fewer batches than the case has");
  const auto ops = static_cast<double>(c.ops_per_batch);
  for (std::size_t i = 0; i < k * episodes; ++i)
    add(static_cast<double>(result.batch_ticks[i]), static_cast<double>(result.batch_cycles[i]), ops);
  std::uint64_t start = std::numeric_limits<std::uint64_t>::max(), end = 0;
  for (std::size_t p = 0; p < k; ++p) {
    start = std::min(start, result.span_ticks[2 * p]);
    end = std::max(end, result.span_ticks[2 * p + 1]);
  }
  if (end > start) {
    const double us = static_cast<double>(end - start) / clocks.wall_hz * 1e6;
    m.ops_per_us = static_cast<double>(k * episodes) * ops / us;
  }
  return m;
}

}  // namespace cumap
