// Checks every backend makes before it executes a plan.
#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cumap/backend.hpp"
#include "cumap/error.hpp"
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

namespace {

// The first round whose check throws, the rounds checked on every core:
// every plan is checked before it runs, while the GPUs wait (a class across
// two GPUs is ~6 000 rounds of 132 pairs: 15 ms on one core); `count` if
// none. Each thread keeps its own State, made anew after a throw. Only the
// index comes out: the caller checks that round again for its error.
template <class State, class Check>
std::size_t first_failing_round(std::size_t count, const Check& check) {
  std::size_t first = count;
  const auto n = static_cast<std::ptrdiff_t>(count);
#pragma omp parallel
  {
    State state;
#pragma omp for schedule(static) reduction(min : first)
    for (std::ptrdiff_t r = 0; r < n; ++r) {
      const auto at = static_cast<std::size_t>(r);
      if (at > first) continue;  // this thread has an earlier one already
      try {
        check(state, at);
      } catch (...) {
        first = at;
        state = State{};
      }
    }
  }
  return first;
}

// What check_plan_units has found to exist so far: each unit is looked up
// once, not once per pair (a lookup per pair cost more host time than the
// launches left between them).
struct UnitsMet {
  std::map<int, std::vector<bool>> units;  // device -> unit ids met so far
  std::vector<int> flag_devices;           // devices found to hold flags

  void check(const MeasurementPlan& plan, std::size_t r, const UnitsByDevice& available,
             const std::string& unit_name) {
    for (const PlannedPair& p : plan.rounds[r].pairs) {
      for (const UnitRef& u : {p.a, p.b}) {
        std::vector<bool>& met = units[u.device];
        const auto id = static_cast<std::size_t>(u.unit);
        if (u.unit >= 0 && id < met.size() && met[id]) continue;
        check_units_exist(std::array{u}, available, unit_name);
        if (met.size() <= id) met.resize(id + 1, false);
        met[id] = true;
      }
      if (std::find(flag_devices.begin(), flag_devices.end(), p.flags.device) != flag_devices.end()) continue;
      if (!available.contains(p.flags.device))
        throw UsageError(fmt::format("pair {}-{} has its flags on device {}, which this backend does not measure "
                                     "(devices: {})",
                                     p.a.unit, p.b.unit, p.flags.device, device_list(available)));
      flag_devices.push_back(p.flags.device);
    }
  }
};

// A round's units and flag words, marked and cleared by what the round set
// (sorting each round's units and words cost more host time than the
// launches left between them: bench/RESULTS.md, "Where the last 0.4 s went").
class RoundMarks {
 public:
  void check(const MeasurementPlan& plan, std::size_t r, const std::string& unit_name) {
    for (int u : units_set_) unit_used_[static_cast<std::size_t>(u)] = 0;
    for (const auto& [used, at] : words_set_) (*used)[at] = 0;
    units_set_.clear();
    words_set_.clear();
    for (const PlannedPair& p : plan.rounds[r].pairs) {
      for (std::uint64_t w : {p.flags.first, p.flags.second})
        if (w % protocol::kFlagBytes != 0 || w + protocol::kFlagBytes > plan.arena.bytes)
          throw UsageError(fmt::format("plan: the flag at byte {} of pair {}-{} is not an aligned word of the "
                                       "{}-byte flag arena",
                                       w, p.a.unit, p.b.unit, plan.arena.bytes));
      if (p.a == p.b) throw UsageError(fmt::format("plan: pair {}-{} is one {}", p.a.unit, p.b.unit, unit_name));
      if (p.flags.first == p.flags.second)
        throw UsageError(fmt::format("plan: pair {}-{} has both flags on one word", p.a.unit, p.b.unit));
      for (const UnitRef& u : {p.a, p.b}) {
        const int id = unit_id(u);
        if (id < 0) throw UsageError(fmt::format("plan: {} {} has a negative id", unit_name, u.unit));
        if (mark(unit_used_, static_cast<std::size_t>(id)))
          throw UsageError(fmt::format("plan: round {} uses {} {} in two pairs", r, unit_name, id));
        units_set_.push_back(id);
      }
      std::vector<char>& words = word_used_[p.flags.device];
      for (std::uint64_t w : {p.flags.first, p.flags.second}) {
        const auto at = static_cast<std::size_t>(w / protocol::kFlagBytes);
        if (mark(words, at))
          throw UsageError(fmt::format("plan: round {} uses the flag word at byte {} of device {} twice", r, w,
                                       p.flags.device));
        words_set_.emplace_back(&words, at);
      }
    }
  }

 private:
  static bool mark(std::vector<char>& used, std::size_t at) {
    if (used.size() <= at) used.resize(at + 1, 0);
    const bool before = used[at] != 0;
    used[at] = 1;
    return before;
  }

  std::vector<char> unit_used_;
  std::map<int, std::vector<char>> word_used_;  // by the device whose arena holds the word
  std::vector<int> units_set_;
  std::vector<std::pair<std::vector<char>*, std::size_t>> words_set_;
};

}  // namespace

void check_plan_units(const MeasurementPlan& plan, const UnitsByDevice& available, const std::string& unit_name) {
  check_units_exist(plan.units, available, unit_name);
  const auto check = [&](UnitsMet& met, std::size_t r) { met.check(plan, r, available, unit_name); };
  if (const std::size_t r = first_failing_round<UnitsMet>(plan.rounds.size(), check); r < plan.rounds.size()) {
    UnitsMet fresh;
    check(fresh, r);  // throws that round's first error
  }
  check_plan_counts(plan.counts);
}

void check_plan_rounds(const MeasurementPlan& plan, const std::string& unit_name) {
  const auto check = [&](RoundMarks& marks, std::size_t r) { marks.check(plan, r, unit_name); };
  if (const std::size_t r = first_failing_round<RoundMarks>(plan.rounds.size(), check); r < plan.rounds.size()) {
    RoundMarks fresh;
    check(fresh, r);  // throws that round's first error
  }
}

void check_callers_memory(const MemoryFacts& facts, std::uintptr_t address, int gpu, std::string_view runtime,
                          std::string_view allocator) {
  switch (facts.kind) {
    case MemoryKind::Device:
      if (facts.device != gpu)
        throw UsageError(fmt::format("the memory at {:#x} is GPU {}'s, not GPU {}'s: classify it on its own GPU",
                                     address, facts.device, gpu));
      return;
    case MemoryKind::Managed:
      throw UsageError(fmt::format("the memory at {:#x} is managed memory: its pages move between the GPUs and the "
                                   "host, and a line's home with them; allocate flags with {}",
                                   address, allocator));
    case MemoryKind::Host:
      throw UsageError(fmt::format("the memory at {:#x} is host memory: it has no home in the GPU's L2; allocate "
                                   "flags with {}",
                                   address, allocator));
    case MemoryKind::Unknown: break;
  }
  throw UsageError(fmt::format("the memory at {:#x} is no allocation the {} runtime knows of", address, runtime));
}

}  // namespace cumap
