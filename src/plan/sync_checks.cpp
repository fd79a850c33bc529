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
}

void check_words(const SyncCase& c, std::size_t index, const FlagArena& arena) {
  std::vector<std::uint64_t> words = sync_case_words(c);
  for (std::uint64_t w : words)
    if (w % protocol::kFlagBytes != 0 || w + protocol::kFlagBytes > arena.bytes)
      throw UsageError(fmt::format("sync plan: case {} has a word at byte {}, not an aligned word of the {}-byte "
                                   "flag arena",
                                   index, w, arena.bytes));
  std::sort(words.begin(), words.end());
  for (std::size_t i = 1; i < words.size(); ++i)
    if (words[i] - words[i - 1] < protocol::kLineBytes)
      throw UsageError(fmt::format("sync plan: case {} has words at bytes {} and {}, closer than a {}-byte line",
                                   index, words[i - 1], words[i], protocol::kLineBytes));
}

}  // namespace

std::vector<std::uint64_t> sync_case_words(const SyncCase& c) {
  std::vector<std::uint64_t> words{c.counter};
  if (c.contention || c.impl == BarrierImpl::Counter || c.impl == BarrierImpl::Platform) return words;
  words.push_back(c.release);
  if (c.impl == BarrierImpl::TwoLevel) {
    words.insert(words.end(), c.group_counter.begin(), c.group_counter.end());
    words.insert(words.end(), c.group_release.begin(), c.group_release.end());
  }
  return words;
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
    check_words(c, i, plan.arena);
  }
}

}  // namespace cumap
