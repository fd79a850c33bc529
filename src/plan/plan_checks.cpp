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

}  // namespace cumap
