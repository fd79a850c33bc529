// Checks every backend makes before it executes a SyncPlan.
#include "plan/sync_checks.hpp"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "cumap/error.hpp"

namespace cumap {
namespace {

// Counter values only grow within a case (k per episode, or every operation
// of every participant) and are compared as 32-bit words that must not wrap.
constexpr std::uint64_t kMaxCounterValue = (1ull << 31) - 1;

std::uint64_t largest_counter_value(const SyncCase& c) {
  const auto k = static_cast<std::uint64_t>(c.participants.size());
  const auto rounds = static_cast<std::uint64_t>(c.warmup) + static_cast<std::uint64_t>(c.episodes);
  return c.contention ? k * rounds * static_cast<std::uint64_t>(c.ops_per_batch) : k * rounds;
}

void check_counts(const SyncCase& c, std::size_t index) {
  if (c.participants.empty()) throw UsageError(fmt::format("sync plan: case {} has no participants", index));
  if (c.episodes < 1 || c.warmup < 0)
    throw UsageError(fmt::format("sync plan: case {} needs at least 1 episode and no negative warm-up", index));
  if (c.contention && c.ops_per_batch < 1)
    throw UsageError(fmt::format("sync plan: case {} needs at least 1 operation per batch", index));
  if (largest_counter_value(c) > kMaxCounterValue)
    throw UsageError(fmt::format("sync plan: case {} counts past 2^31 on its counter (participants x (warm-up + "
                                 "episodes){}): fewer episodes",
                                 index, c.contention ? " x operations per batch" : ""));
}

void check_groups(const SyncCase& c, std::size_t index) {
  if (c.contention || c.impl != BarrierImpl::TwoLevel) return;
  const std::size_t groups = c.group_counter.size();
  if (groups == 0 || c.group_release.size() != groups)
    throw UsageError(fmt::format("sync plan: two-level case {} needs a counter and a release line for every group",
                                 index));
  if (c.group_of.size() != c.participants.size())
    throw UsageError(fmt::format("sync plan: two-level case {} gives {} groups for {} participants", index,
                                 c.group_of.size(), c.participants.size()));
  std::vector<int> members(groups, 0);
  for (int g : c.group_of) {
    if (g < 0 || static_cast<std::size_t>(g) >= groups)
      throw UsageError(fmt::format("sync plan: two-level case {} names group {} of {}", index, g, groups));
    ++members[static_cast<std::size_t>(g)];
  }
  if (std::find(members.begin(), members.end(), 0) != members.end())
    throw UsageError(fmt::format("sync plan: two-level case {} has a group without participants", index));
  if (!c.group_gpu.empty() && c.group_gpu.size() != groups)
    throw UsageError(fmt::format("sync plan: two-level case {} names the devices of {} groups of {}", index,
                                 c.group_gpu.size(), groups));
  if (!c.group_exchange.empty() && c.group_exchange.size() != groups)
    throw UsageError(fmt::format("sync plan: two-level case {} has {} exchange lines for {} groups", index,
                                 c.group_exchange.size(), groups));
  // A participant reaches its group's lines as its own device's memory.
  for (std::size_t p = 0; p < c.participants.size(); ++p) {
    const int device = group_gpu_of(c, static_cast<std::size_t>(c.group_of[p]));
    if (c.participants[p].device != device)
      throw UsageError(fmt::format("sync plan: two-level case {} puts the lines of group {} on device {}, but its "
                                   "participant {} is on device {}",
                                   index, c.group_of[p], device, p, c.participants[p].device));
  }
}

void check_words(const SyncCase& c, std::size_t index, const FlagArena& arena) {
  std::vector<SyncWordSite> sites = sync_case_sites(c);
  for (const SyncWordSite& w : sites)
    if (w.offset % protocol::kFlagBytes != 0 || w.offset + protocol::kFlagBytes > arena.bytes)
      throw UsageError(fmt::format("sync plan: case {} has a word at byte {}, not an aligned word of the {}-byte "
                                   "flag arena",
                                   index, w.offset, arena.bytes));
  std::sort(sites.begin(), sites.end(), [](const SyncWordSite& a, const SyncWordSite& b) {
    return std::pair(a.device, a.offset) < std::pair(b.device, b.offset);
  });
  for (std::size_t i = 1; i < sites.size(); ++i)
    if (sites[i].device == sites[i - 1].device && sites[i].offset - sites[i - 1].offset < protocol::kLineBytes)
      throw UsageError(fmt::format("sync plan: case {} has words at bytes {} and {}, closer than a {}-byte line",
                                   index, sites[i - 1].offset, sites[i].offset, protocol::kLineBytes));
}

void check_devices(const SyncCase& c, std::size_t index, const UnitsByDevice& available) {
  for (int device : sync_case_devices(c))
    if (!available.contains(device))
      throw UsageError(fmt::format("sync plan: case {} has a line on device {}, which this backend does not measure",
                                   index, device));
}

}  // namespace

std::vector<SyncWordSite> sync_case_sites(const SyncCase& c) {
  std::vector<SyncWordSite> sites{{c.counter_gpu, c.counter}};
  if (c.contention || c.impl == BarrierImpl::Counter || c.impl == BarrierImpl::Platform) return sites;
  const bool exchange = c.impl == BarrierImpl::TwoLevel && !c.group_exchange.empty();
  if (exchange) sites.clear();  // `counter` repeats the first exchange line; `release` is unused
  else sites.push_back({c.counter_gpu, c.release});
  if (c.impl != BarrierImpl::TwoLevel) return sites;
  for (const auto* lines : {&c.group_counter, &c.group_release, &c.group_exchange})
    for (std::size_t g = 0; g < lines->size(); ++g) sites.push_back({group_gpu_of(c, g), (*lines)[g]});
  return sites;
}

std::vector<std::uint64_t> sync_case_words(const SyncCase& c) {
  std::vector<std::uint64_t> words;
  for (const SyncWordSite& w : sync_case_sites(c)) words.push_back(w.offset);
  return words;
}

std::vector<int> sync_case_devices(const SyncCase& c) {
  std::vector<int> devices;
  for (const UnitRef& u : c.participants) devices.push_back(u.device);
  for (const SyncWordSite& w : sync_case_sites(c)) devices.push_back(w.device);
  std::sort(devices.begin(), devices.end());
  devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
  return devices;
}

void check_sync_plan(const SyncPlan& plan, const UnitsByDevice& available, const std::string& unit_name) {
  if (plan.probe == Probe::Mbarrier)
    throw UsageError("--probe mbarrier exists only with --via dsm; barriers poll with cas, exch, acq-rel or volatile");
  for (std::size_t i = 0; i < plan.cases.size(); ++i) {
    const SyncCase& c = plan.cases[i];
    check_counts(c, i);
    check_units_exist(c.participants, available, unit_name);
    std::vector<UnitRef> sorted = c.participants;
    std::sort(sorted.begin(), sorted.end());
    if (const auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end())
      throw UsageError(fmt::format("sync plan: case {} names {} {} twice", i, unit_name, twice->unit));
    check_groups(c, i);
    check_devices(c, i, available);
    check_words(c, i, plan.arena);
  }
}

}  // namespace cumap
