#include "backends/cuda/sync_measure.hpp"

#include <algorithm>
#include <limits>

#include "backends/cuda/launch_plan.hpp"
#include "cumap/error.hpp"
#include "plan/sync_checks.hpp"

namespace cumap::cuda {
namespace {

std::uint32_t word_of(std::uint64_t offset_bytes) {
  return static_cast<std::uint32_t>(offset_bytes / protocol::kFlagBytes);
}

// Per participant: its group's lines and size, and whether it leads it
// (the group's first participant in participant order).
std::vector<SyncRole> two_level_roles(const SyncCase& c) {
  std::vector<unsigned> sizes(c.group_counter.size(), 0);
  for (int g : c.group_of) ++sizes[static_cast<std::size_t>(g)];
  std::vector<bool> led(c.group_counter.size(), false);
  std::vector<SyncRole> roles;
  for (int g : c.group_of) {
    const auto gi = static_cast<std::size_t>(g);
    roles.push_back({word_of(c.group_counter[gi]), word_of(c.group_release[gi]), sizes[gi], led[gi] ? 0 : 1});
    led[gi] = true;
  }
  return roles;
}

}  // namespace

void check_cuda_sync_plan(const SyncPlan& plan, const UnitsByDevice& sms) {
  check_arena(plan.arena);
  check_sync_plan(plan, sms, "SM");
}

std::string why_sync_case_unsupported(const SyncCase& c, const std::vector<int>& sm_ids) {
  if (c.contention || c.impl != BarrierImpl::Platform) return "";
  if (c.participants.size() == sm_ids.size()) return "";  // distinct and existing: check_sync_plan
  return "grid.sync() synchronizes the whole grid: measured only with every SM";
}

SyncKind sync_kind(const SyncCase& c) {
  if (c.contention) return c.op == ContentionOp::Cas ? kSyncContentionCas : kSyncContentionAdd;
  switch (c.impl) {
    case BarrierImpl::Flag: return kSyncFlag;
    case BarrierImpl::TwoLevel: return kSyncTwoLevel;
    case BarrierImpl::Platform: return kSyncPlatform;
    case BarrierImpl::Counter: break;
  }
  return kSyncCounter;
}

SyncLaunch sync_launch_for(const SyncCase& c, const SyncPlan& plan, DeviceAddress arena_base,
                           std::uint64_t wait_budget_cycles) {
  SyncLaunch l;
  l.settings.kind = sync_kind(c);
  l.settings.probe = static_cast<int>(plan.probe);
  l.settings.warmup = c.warmup;
  l.settings.episodes = c.episodes;
  l.settings.ops_per_batch = c.ops_per_batch;
  l.settings.wait_budget_cycles = wait_budget_cycles;
  l.arena = arena_base;
  l.counter_word = word_of(c.counter);
  l.release_word = word_of(c.release);
  for (const UnitRef& u : c.participants) l.participant_sms.push_back(u.unit);
  if (l.settings.kind == kSyncTwoLevel) {
    l.roles = two_level_roles(c);
    l.groups = static_cast<unsigned>(c.group_counter.size());
  }
  for (std::uint64_t w : sync_case_words(c)) l.zero_words.push_back(word_of(w));
  return l;
}

SyncMeasurement sync_measurement_from(const SyncCase& c, const SyncOutcome& done, double cycles_per_ns) {
  SyncMeasurement m;
  m.tag = c.tag;
  m.timed_out = done.timed_out;
  if (done.timed_out) return m;
  const auto add = [&](double cycles) {
    m.cycles.push_back(cycles);
    m.ns.push_back(cycles / cycles_per_ns);
  };
  const auto episodes = static_cast<std::size_t>(c.episodes);
  if (!c.contention) {
    const auto first = static_cast<std::size_t>(c.warmup);
    if (done.leave_cycles.size() < first + episodes + 1)
      throw RuntimeFailure("the sync kernel returned fewer leave times than the case has episodes");
    for (std::size_t e = first; e < first + episodes; ++e)
      add(static_cast<double>(done.leave_cycles[e + 1] - done.leave_cycles[e]));
    return m;
  }
  const std::size_t k = c.participants.size();
  if (done.batch_cycles.size() < k * episodes || done.span_ns.size() < 2 * k)
    throw RuntimeFailure("the sync kernel returned fewer batches than the case has");
  const auto ops = static_cast<double>(c.ops_per_batch);
  for (std::size_t i = 0; i < k * episodes; ++i) add(static_cast<double>(done.batch_cycles[i]) / ops);
  std::uint64_t start = std::numeric_limits<std::uint64_t>::max(), end = 0;
  for (std::size_t p = 0; p < k; ++p) {
    start = std::min(start, done.span_ns[2 * p]);
    end = std::max(end, done.span_ns[2 * p + 1]);
  }
  if (end > start) m.ops_per_us = static_cast<double>(k * episodes) * ops / (static_cast<double>(end - start) * 1e-3);
  return m;
}

}  // namespace cumap::cuda
