// Checks every backend makes before it executes a plan.
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cumap/backend.hpp"
#include "plan/plan_checks.hpp"
#include "core/units.hpp"

namespace cumap {

namespace {

std::string device_list(const UnitsByDevice& available) {
  std::vector<int> devices;
  for (const auto& entry : available) devices.push_back(entry.first);
  return format_unit_list(devices);
}

void check_plan_counts(const protocol::Counts& counts) {
  if (protocol::round_trips(counts) > protocol::kMaxRoundTrips)
    throw UsageError("--iters x --samples is too large: a pair's flag values must fit in 31 bits");
  if (counts.iters < 1 || counts.samples < 1 || counts.warmup < 0)
    throw UsageError("iters and samples must be at least 1, warmup at least 0");
}

// The smallest value `values` holds twice (sorting it), if any.
template <typename T>
std::optional<T> repeated(std::vector<T>& values) {
  std::sort(values.begin(), values.end());
  const auto it = std::adjacent_find(values.begin(), values.end());
  return it == values.end() ? std::nullopt : std::optional<T>(*it);
}

}  // namespace

void check_units_exist(std::span<const UnitRef> units, const UnitsByDevice& available, const std::string& unit_name) {
  for (const UnitRef& u : units) {
    const auto on = available.find(u.device);
    if (on == available.end())
      throw UsageError(fmt::format("the plan names {} {} of device {}, which this backend does not measure "
                                   "(devices: {})",
                                   unit_name, u.unit, u.device, device_list(available)));
    if (!std::binary_search(on->second.begin(), on->second.end(), u.unit))
      throw UsageError(fmt::format("{} {} does not exist on device {} ({}s: {})", unit_name, u.unit, u.device,
                                   unit_name, format_unit_list(on->second)));
  }
}

void check_plan_units(const MeasurementPlan& plan, const UnitsByDevice& available, const std::string& unit_name) {
  check_units_exist(plan.units, available, unit_name);
  for (const Round& round : plan.rounds)
    for (const PlannedPair& p : round.pairs) {
      check_units_exist(std::array{p.a, p.b}, available, unit_name);
      if (!available.contains(p.flags.device))
        throw UsageError(fmt::format("pair {}-{} has its flags on device {}, which this backend does not measure "
                                     "(devices: {})",
                                     p.a.unit, p.b.unit, p.flags.device, device_list(available)));
    }
  check_plan_counts(plan.counts);
}

void check_plan_rounds(const MeasurementPlan& plan, const std::string& unit_name) {
  // Sorted vectors reused over the rounds, not sets: a GPU pass has ~130
  // rounds of 66 pairs, and a tree node per unit and word cost a tenth of
  // the pass's kernel time (bench/RESULTS.md, "Where the last 0.4 s went").
  std::vector<int> units;
  std::vector<std::pair<int, std::uint64_t>> words;  // (device, byte): every device has an arena
  for (std::size_t r = 0; r < plan.rounds.size(); ++r) {
    units.clear();
    words.clear();
    for (const PlannedPair& p : plan.rounds[r].pairs) {
      for (std::uint64_t w : {p.flags.first, p.flags.second})
        if (w % protocol::kFlagBytes != 0 || w + protocol::kFlagBytes > plan.arena.bytes)
          throw UsageError(fmt::format("plan: the flag at byte {} of pair {}-{} is not an aligned word of the "
                                       "{}-byte flag arena",
                                       w, p.a.unit, p.b.unit, plan.arena.bytes));
      if (p.a == p.b)
        throw UsageError(fmt::format("plan: pair {}-{} is one {}", p.a.unit, p.b.unit, unit_name));
      if (p.flags.first == p.flags.second)
        throw UsageError(fmt::format("plan: pair {}-{} has both flags on one word", p.a.unit, p.b.unit));
      units.insert(units.end(), {unit_id(p.a), unit_id(p.b)});
      words.insert(words.end(), {{p.flags.device, p.flags.first}, {p.flags.device, p.flags.second}});
    }
    if (const auto u = repeated(units))
      throw UsageError(fmt::format("plan: round {} uses {} {} in two pairs", r, unit_name, *u));
    if (const auto w = repeated(words))
      throw UsageError(fmt::format("plan: round {} uses the flag word at byte {} of device {} twice", r, w->second,
                                   w->first));
  }
}

namespace {

void check_sync_case(const SyncCase& c, const FlagArena& arena, const std::string& unit_name) {
  const std::string what(c.contention ? to_string(c.op) : to_string(c.impl));
  if (c.participants.empty()) throw UsageError(fmt::format("plan: a {} case has no participants", what));
  std::vector<UnitRef> units = c.participants;
  if (const auto u = repeated(units))
    throw UsageError(fmt::format("plan: a {} case names {} {} twice", what, unit_name, u->unit));
  if (c.episodes < 1 || c.warmup < 0 || (c.contention && c.ops_per_batch < 1))
    throw UsageError(fmt::format("plan: a {} case needs episodes and operations of at least 1, warmup of 0 or more",
                                 what));
  // Barrier counters grow by k every episode and are compared, never wrapped.
  const auto k = static_cast<std::uint64_t>(c.participants.size());
  if (!c.contention && k * static_cast<std::uint64_t>(c.episodes + c.warmup) > protocol::kMaxRoundTrips)
    throw UsageError(fmt::format("plan: {} participants x {} episodes do not fit a 31-bit counter", k,
                                 c.episodes + c.warmup));
  std::vector<std::uint64_t> words{c.counter};
  const bool flagged = !c.contention && (c.impl == BarrierImpl::Flag || c.impl == BarrierImpl::TwoLevel);
  if (flagged) words.push_back(c.release);
  if (!c.contention && c.impl == BarrierImpl::TwoLevel) {
    if (c.group_of.size() != c.participants.size() || c.group_counter.size() != c.group_release.size() ||
        c.group_counter.empty())
      throw UsageError("plan: a two-level case needs a group for every participant and two lines per group");
    std::vector<int> members(c.group_counter.size(), 0);
    for (int g : c.group_of) {
      if (g < 0 || static_cast<std::size_t>(g) >= members.size())
        throw UsageError(fmt::format("plan: a two-level case names group {} of {}", g, members.size()));
      ++members[static_cast<std::size_t>(g)];
    }
    if (std::find(members.begin(), members.end(), 0) != members.end())
      throw UsageError("plan: a two-level case has a group without participants");
    words.insert(words.end(), c.group_counter.begin(), c.group_counter.end());
    words.insert(words.end(), c.group_release.begin(), c.group_release.end());
  }
  for (std::uint64_t w : words)
    if (w % protocol::kFlagBytes != 0 || w + protocol::kFlagBytes > arena.bytes)
      throw UsageError(fmt::format("plan: the {} case's word at byte {} is not an aligned word of the {}-byte flag "
                                   "arena",
                                   what, w, arena.bytes));
  std::vector<std::uint64_t> lines;
  for (std::uint64_t w : words) lines.push_back(w / protocol::kLineBytes);
  if (const auto line = repeated(lines))
    throw UsageError(fmt::format("plan: the {} case puts two of its words in the line at byte {}", what,
                                 *line * protocol::kLineBytes));
}

}  // namespace

void check_sync_plan(const SyncPlan& plan, const UnitsByDevice& available, const std::string& unit_name) {
  if (plan.probe == Probe::Mbarrier)
    throw UsageError("--probe mbarrier exists only with --via dsm; barriers poll with cas, exch, acq-rel or volatile");
  for (const SyncCase& c : plan.cases) {
    check_units_exist(c.participants, available, unit_name);
    check_sync_case(c, plan.arena, unit_name);
  }
}

}  // namespace cumap
