#include "backends/cuda/sync_measure.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

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
    roles.push_back({word_of(c.group_counter[gi]), word_of(c.group_release[gi]), sizes[gi], led[gi] ? 0 : 1,
                     static_cast<unsigned>(g)});
    led[gi] = true;
  }
  return roles;
}

// The member of `ordinals` each participant is on.
std::vector<std::size_t> members_of(const SyncCase& c, std::span<const int> ordinals) {
  std::vector<std::size_t> members;
  for (const UnitRef& u : c.participants) {
    const auto at = std::find(ordinals.begin(), ordinals.end(), u.device);
    if (at == ordinals.end()) throw std::logic_error("a sync case's participant is on no GPU of its launch group");
    members.push_back(static_cast<std::size_t>(at - ordinals.begin()));
  }
  return members;
}

}  // namespace

void check_cuda_sync_plan(const SyncPlan& plan, const UnitsByDevice& sms) {
  check_arena(plan.arena);
  check_sync_plan(plan, sms, "SM");
  for (std::size_t i = 0; i < plan.cases.size(); ++i)
    if (sync_case_devices(plan.cases[i]).size() > static_cast<std::size_t>(kMaxGroupGpus))
      throw UsageError(fmt::format("sync plan: case {} spans more than {} GPUs", i, kMaxGroupGpus));
}

std::string why_sync_case_unsupported(const SyncCase& c, const UnitsByDevice& sms) {
  if (c.contention || c.impl != BarrierImpl::Platform) return "";
  if (sync_case_devices(c).size() > 1)
    return "grid.sync() synchronizes one GPU's grid, and CUDA has no grid across GPUs: the multi-device cooperative "
           "launch and its multi_grid_group, deprecated since CUDA 11.3, are gone from the runtime API and "
           "cooperative groups";
  // Distinct and existing: check_sync_plan.
  if (c.participants.size() == sms.at(c.participants.front().device).size()) return "";
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

int SyncGroup::member_of(int ordinal) const {
  const auto at = std::find(ordinals.begin(), ordinals.end(), ordinal);
  if (at == ordinals.end()) throw std::out_of_range(fmt::format("GPU {} is not in the launch group", ordinal));
  return static_cast<int>(at - ordinals.begin());
}

SyncLaunch sync_launch_for(const SyncCase& c, const SyncPlan& plan, const SyncGroup& group, int self,
                           std::uint64_t wait_budget_cycles) {
  const int own_gpu = group.ordinals.at(static_cast<std::size_t>(self));
  SyncLaunch l;
  l.settings.kind = sync_kind(c);
  l.settings.probe = static_cast<int>(plan.probe);
  l.settings.warmup = c.warmup;
  l.settings.episodes = c.episodes;
  l.settings.ops_per_batch = c.ops_per_batch;
  l.settings.wait_budget_cycles = wait_budget_cycles;
  l.settings.system_scope = group.ordinals.size() > 1 ? 1 : 0;
  l.self = self;
  l.arenas = group.arenas;
  l.controls = group.controls;
  l.group_blocks = group.group_blocks;
  l.counter_member = group.member_of(c.counter_gpu);
  l.counter_word = word_of(c.counter);
  l.release_word = word_of(c.release);
  for (const UnitRef& u : c.participants) l.participant_sms.push_back(u.device == own_gpu ? u.unit : -1);
  if (l.settings.kind == kSyncTwoLevel) {
    l.roles = two_level_roles(c);
    l.groups = static_cast<unsigned>(c.group_counter.size());
    for (std::size_t g = 0; g < c.group_exchange.size(); ++g)
      l.exchange.push_back({group.member_of(group_gpu_of(c, g)), word_of(c.group_exchange[g])});
  }
  for (const SyncWordSite& w : sync_case_sites(c))
    if (w.device == own_gpu) l.zero_words.push_back(word_of(w.offset));
  return l;
}

SyncMeasurement sync_measurement_from(const SyncCase& c, std::span<const SyncOutcome> done,
                                      std::span<const int> ordinals, std::span<const double> cycles_per_ns) {
  if (done.size() != ordinals.size() || cycles_per_ns.size() != ordinals.size())
    throw std::logic_error("a sync case's outcomes and clocks are one per member of its group");
  SyncMeasurement m;
  m.tag = c.tag;
  for (const SyncOutcome& d : done) m.timed_out |= d.timed_out;
  if (m.timed_out) return m;
  const std::vector<std::size_t> member = members_of(c, ordinals);
  const auto add = [&](double cycles, std::size_t on) {
    m.cycles.push_back(cycles);
    m.ns.push_back(cycles / cycles_per_ns[on]);
  };
  const auto episodes = static_cast<std::size_t>(c.episodes);
  if (!c.contention) {
    // Participant 0 times the barrier, on its own GPU's clock.
    const std::size_t timer = member.front();
    const std::vector<std::uint64_t>& leave = done[timer].leave_cycles;
    const auto first = static_cast<std::size_t>(c.warmup);
    if (leave.size() < first + episodes + 1)
      throw RuntimeFailure("the sync kernel returned fewer leave times than the case has episodes");
    for (std::size_t e = first; e < first + episodes; ++e) add(static_cast<double>(leave[e + 1] - leave[e]), timer);
    return m;
  }
  const std::size_t k = c.participants.size();
  for (const SyncOutcome& d : done)
    if (d.batch_cycles.size() < k * episodes || d.span_ns.size() < 2 * k)
      throw RuntimeFailure("the sync kernel returned fewer batches than the case has");
  const auto ops = static_cast<double>(c.ops_per_batch);
  for (std::size_t p = 0; p < k; ++p)
    for (std::size_t b = 0; b < episodes; ++b)
      add(static_cast<double>(done[member[p]].batch_cycles[p * episodes + b]) / ops, member[p]);
  // Each GPU's span from its first participant's start to its last one's
  // end, in its own %globaltimer; the operations took the longest of them.
  std::uint64_t longest = 0;
  for (std::size_t g = 0; g < done.size(); ++g) {
    std::uint64_t start = std::numeric_limits<std::uint64_t>::max(), end = 0;
    for (std::size_t p = 0; p < k; ++p) {
      if (member[p] != g) continue;
      start = std::min(start, done[g].span_ns[2 * p]);
      end = std::max(end, done[g].span_ns[2 * p + 1]);
    }
    if (end > start) longest = std::max(longest, end - start);
  }
  if (longest > 0) m.ops_per_us = static_cast<double>(k * episodes) * ops / (static_cast<double>(longest) * 1e-3);
  return m;
}

SyncMeasurement sync_measurement_from(const SyncCase& c, const SyncOutcome& done, double cycles_per_ns) {
  const int gpu = c.participants.empty() ? c.counter_gpu : c.participants.front().device;
  return sync_measurement_from(c, std::span(&done, 1), std::span(&gpu, 1), std::span(&cycles_per_ns, 1));
}

}  // namespace cumap::cuda
