#include "backends/cuda/launch_plan.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "cumap/backend.hpp"
#include "plan/plan_checks.hpp"
#include "cumap/error.hpp"

namespace cumap::cuda {

std::size_t rounds_per_launch(const protocol::Counts& counts, double rtt_ns_guess, double target_seconds) {
  const double round_ns = static_cast<double>(protocol::round_trips(counts)) * rtt_ns_guess;
  const double n = std::floor(target_seconds * 1e9 / std::max(round_ns, 1.0));
  return static_cast<std::size_t>(std::max(1.0, n));
}

std::vector<RoundRange> launch_round_ranges(std::size_t round_count, std::size_t per_launch) {
  std::vector<RoundRange> ranges;
  per_launch = std::max<std::size_t>(per_launch, 1);
  // Each launch's records are decoded while the next one runs, except the
  // last's: the GPUs wait for it (10-17 ms for a whole launch across two
  // GPUs). A plan of more than one launch ends with an eighth of one.
  const std::size_t tail = round_count > per_launch ? std::max<std::size_t>(per_launch / 8, 1) : 0;
  const std::size_t body = round_count - tail;
  for (std::size_t b = 0; b < body; b += per_launch) ranges.push_back({b, std::min(body, b + per_launch)});
  if (tail > 0) ranges.push_back({body, round_count});
  return ranges;
}

void check_plan_flags(const MeasurementPlan& plan) {
  check_arena(plan.arena);
  check_plan_rounds(plan, "SM");
}

std::vector<int> launch_group(const MeasurementPlan& plan) {
  // A handful of devices over up to millions of pairs: inserted when new,
  // never sorted in bulk; the rounds looked through on every core (before
  // every plan, while the GPUs wait), each thread's devices joined after.
  std::vector<int> group;
  const auto add = [](std::vector<int>& devices, int device) {
    const auto at = std::lower_bound(devices.begin(), devices.end(), device);
    if (at == devices.end() || *at != device) devices.insert(at, device);
  };
  for (const UnitRef& u : plan.units) add(group, u.device);
  const auto rounds = static_cast<std::ptrdiff_t>(plan.rounds.size());
#pragma omp parallel
  {
    std::vector<int> seen;
#pragma omp for schedule(static) nowait
    for (std::ptrdiff_t r = 0; r < rounds; ++r)
      for (const PlannedPair& p : plan.rounds[static_cast<std::size_t>(r)].pairs)
        for (int device : {p.a.device, p.b.device, p.flags.device}) add(seen, device);
#pragma omp critical(cumap_launch_group)
    for (int device : seen) add(group, device);
  }
  if (group.size() > static_cast<std::size_t>(kMaxGroupGpus))
    throw UsageError(fmt::format("a map across {} GPUs: cumap runs at most {} at once", group.size(), kMaxGroupGpus));
  return group;
}

int member_of(const std::vector<int>& group, int device) {
  const auto it = std::lower_bound(group.begin(), group.end(), device);
  if (it == group.end() || *it != device)
    throw std::invalid_argument(fmt::format("member_of: device {} is not in the launch group", device));
  return static_cast<int>(it - group.begin());
}

LaunchPairs launch_pairs(const MeasurementPlan& plan, RoundRange range, const std::vector<int>& group) {
  LaunchPairs out;
  // Members by device ordinal, looked up in a table: a launch has ~100 000
  // pairs, made between two launches while the GPUs wait.
  std::vector<int> member(group.empty() || group.back() < 0 ? 0 : static_cast<std::size_t>(group.back()) + 1, -1);
  for (std::size_t g = 0; g < group.size(); ++g)
    if (group[g] >= 0) member[static_cast<std::size_t>(group[g])] = static_cast<int>(g);
  const auto member_at = [&](int device) {
    const auto at = static_cast<std::size_t>(device);
    const int m = device >= 0 && at < member.size() ? member[at] : -1;
    return m >= 0 ? m : member_of(group, device);  // member_of says what is wrong
  };
  std::size_t count = 0;
  for (std::size_t r = range.begin; r < range.end; ++r) count += plan.rounds[r].pairs.size();
  out.pairs.reserve(count);
  out.round_starts.reserve(range.end - range.begin + 1);
  for (std::size_t r = range.begin; r < range.end; ++r) {
    const auto& pairs = plan.rounds[r].pairs;
    out.round_starts.push_back(static_cast<unsigned>(out.pairs.size()));
    out.round_width = std::max(out.round_width, static_cast<unsigned>(pairs.size()));
    for (const PlannedPair& p : pairs)
      out.pairs.push_back({p.a.unit, p.b.unit, member_at(p.a.device), member_at(p.b.device), member_at(p.flags.device),
                           static_cast<std::uint32_t>(p.flags.first / protocol::kFlagBytes),
                           static_cast<std::uint32_t>(p.flags.second / protocol::kFlagBytes),
                           static_cast<int>(r - range.begin)});
  }
  out.round_starts.push_back(static_cast<unsigned>(out.pairs.size()));
  return out;
}

std::uint64_t budget_cycles(double milliseconds, double max_clock_hz) {
  return static_cast<std::uint64_t>(std::ceil(milliseconds * 1e-3 * max_clock_hz));
}

std::uint64_t round_budget_cycles(const protocol::Counts& counts, double timeout_ms, double max_clock_hz) {
  const double pair_ms = static_cast<double>(protocol::round_trips(counts)) * 20e-3;
  return budget_cycles(pair_ms + 2.0 * timeout_ms, max_clock_hz);
}

unsigned round_ns_estimate(const protocol::Counts& counts, double rtt_ns_guess) {
  const double ns = static_cast<double>(protocol::round_trips(counts)) * rtt_ns_guess;
  return static_cast<unsigned>(std::min(ns, 4e9));
}

double cycles_per_ns(const std::uint64_t marks[4]) {
  if (marks[2] <= marks[0] || marks[3] <= marks[1]) return kNaN;
  return static_cast<double>(marks[2] - marks[0]) / static_cast<double>(marks[3] - marks[1]);
}

std::vector<PairMeasurement> decode_launch(const MeasurementPlan& plan, RoundRange range,
                                           const std::vector<int>& group, const std::vector<LaunchRecords>& records,
                                           const std::vector<double>& cyc_per_ns) {
  if (records.size() != group.size() || cyc_per_ns.size() != group.size())
    throw std::invalid_argument("decode_launch: one record set and clock per member of the group");
  const int samples = plan.counts.samples;
  const int iters = plan.counts.iters;
  std::vector<PairMeasurement> out;
  out.reserve(records.front().status.size());
  std::size_t i = 0;  // the pair's index in the launch
  for (std::size_t r = range.begin; r < range.end; ++r) {
    for (const PlannedPair& p : plan.rounds[r].pairs) {
      PairMeasurement m = measurement_for(p, static_cast<int>(r));
      for (const LaunchRecords& member : records) m.timed_out |= member.status.at(i) != kPairOk;
      if (!m.timed_out) {
        const auto a = static_cast<std::size_t>(member_of(group, p.a.device));
        m.cold_rtt_ns = static_cast<double>(records[a].cold_cycles.at(i)) / cyc_per_ns[a];
        m.rtt_cycles.reserve(static_cast<std::size_t>(samples));
        m.rtt_ns.reserve(static_cast<std::size_t>(samples));
        for (int s = 0; s < samples; ++s) {
          double cycles = 0.0, ns = 0.0;
          for (std::size_t g = 0; g < records.size(); ++g) {
            const double c = static_cast<double>(records[g].sample_cycles.at(i * samples + s)) / iters;
            cycles += c;
            ns += c / cyc_per_ns[g];
          }
          m.rtt_cycles.push_back(cycles);
          m.rtt_ns.push_back(ns);
        }
      }
      out.push_back(std::move(m));
      ++i;
    }
  }
  return out;
}

std::string abort_reason(unsigned code) {
  switch (code) {
    case kNoAbort: return "";
    case kAbortSharedSm:
      return "an SM received more than one block, so roles chosen by %smid would be ambiguous "
             "(is another process using the GPU, or MPS/MIG limiting shared memory?)";
    case kAbortWaitTimeout:
      return "a block waited for its turn longer than any round can take (raise --timeout-ms?)";
    default: return "unknown abort code " + std::to_string(code);
  }
}

std::size_t arena_allocation_bytes(const FlagArena& arena) {
  return static_cast<std::size_t>(arena.offset_bytes + arena.bytes) + kArenaAlignment;
}

std::uintptr_t arena_base(std::uintptr_t allocation, const FlagArena& arena) {
  const std::uintptr_t aligned = (allocation + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment;
  return aligned + static_cast<std::uintptr_t>(arena.offset_bytes);
}

void check_arena(const FlagArena& arena) {
  if (arena.bytes < protocol::kFlagBytes) throw UsageError("the flag arena must hold at least one word");
  if (arena.offset_bytes % protocol::kFlagBytes != 0)
    throw UsageError(fmt::format("--flag-offset {} must be a multiple of {} bytes (flags are aligned words)",
                                 arena.offset_bytes, protocol::kFlagBytes));
  if (arena.bytes / protocol::kFlagBytes > 0xffffffffull)
    throw UsageError(fmt::format("a flag arena of {} bytes is larger than the CUDA backend addresses (16 GiB)",
                                 arena.bytes));
}

std::size_t flush_buffer_words(std::size_t l2_bytes) {
  const std::size_t words = 2 * l2_bytes / 4;
  return (words + 3) / 4 * 4;
}

std::size_t persisting_window_bytes(std::size_t wanted, std::size_t persisting_max, std::size_t window_max) {
  return std::min({wanted, persisting_max, window_max});
}

void check_line_probe(const LineProbePlan& plan) {
  check_arena(plan.arena);
  if (plan.chain < 1 || plan.repeats < 1) throw UsageError("line probing needs a chain and repeats of at least 1");
  for (std::uint64_t line : plan.lines)
    if (line % protocol::kFlagBytes != 0 || line + protocol::kFlagBytes > plan.arena.bytes)
      throw UsageError(fmt::format("line probe: byte {} is not an aligned word of the {}-byte arena", line,
                                   plan.arena.bytes));
}

std::vector<std::uint32_t> line_words(const LineProbePlan& plan) {
  std::vector<std::uint32_t> words;
  for (std::uint64_t line : plan.lines) words.push_back(static_cast<std::uint32_t>(line / protocol::kFlagBytes));
  return words;
}

namespace {
double atomics_per_unit(const LineProbePlan& plan) {
  return static_cast<double>(plan.lines.size()) * plan.chain * plan.repeats;
}
}  // namespace

std::size_t units_per_probe_launch(const LineProbePlan& plan, double atomic_ns_guess, double target_seconds) {
  const double unit_ns = atomics_per_unit(plan) * atomic_ns_guess;
  return static_cast<std::size_t>(std::max(1.0, std::floor(target_seconds * 1e9 / std::max(unit_ns, 1.0))));
}

std::uint64_t turn_budget_cycles(const LineProbePlan& plan, double max_clock_hz) {
  return budget_cycles(atomics_per_unit(plan) * 20e-3 + 100.0, max_clock_hz);
}

unsigned turn_ns_estimate(const LineProbePlan& plan, double atomic_ns_guess) {
  return static_cast<unsigned>(std::min(atomics_per_unit(plan) * atomic_ns_guess, 4e9));
}

void fill_probe_rows(LineLatencyTable& table, std::size_t first_unit, std::size_t turns,
                     const std::vector<std::uint64_t>& cycles, int chain, int repeats, double cyc_per_ns) {
  const std::size_t lines = table.lines.size();
  std::vector<double> timings(static_cast<std::size_t>(repeats));
  for (std::size_t t = 0; t < turns; ++t) {
    for (std::size_t l = 0; l < lines; ++l) {
      for (int r = 0; r < repeats; ++r)
        timings[r] = static_cast<double>(cycles.at((t * lines + l) * repeats + r)) / chain;
      std::sort(timings.begin(), timings.end());
      const std::size_t n = timings.size();
      const double median = n % 2 ? timings[n / 2] : 0.5 * (timings[n / 2 - 1] + timings[n / 2]);
      const std::size_t cell = (first_unit + t) * lines + l;
      table.cycles.at(cell) = median;
      table.ns.at(cell) = median / cyc_per_ns;
    }
  }
}

}  // namespace cumap::cuda
