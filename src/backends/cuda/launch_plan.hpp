#pragma once
// Host-side arithmetic of the CUDA backend, free of CUDA calls so that it is
// unit-tested without a GPU: how a plan is checked and cut into launches at
// round boundaries, the wait budgets, the arena layout, and how the kernels'
// records become PairMeasurements and line latencies.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/cuda/launch_params.hpp"
#include "cumap/backend.hpp"
#include "plan/plan_checks.hpp"
#include "cumap/plan.hpp"

namespace cumap::cuda {

// --- Cutting a plan into launches -------------------------------------------

// Rounds per launch, so that a launch lasts about `target_seconds` when a
// round trip takes `rtt_ns_guess` (the pairs of a round run at the same time,
// so a round lasts about as long as one pair). Progress updates and host-side
// checks happen between launches. At least 1.
std::size_t rounds_per_launch(const protocol::Counts& counts, double rtt_ns_guess, double target_seconds);

// [begin, end) of the plan's rounds, one per launch: at most `per_launch`
// rounds each, and the last of a plan longer than one launch at most an
// eighth of that (nothing runs while its records are decoded).
struct RoundRange {
  std::size_t begin;
  std::size_t end;
  bool operator==(const RoundRange&) const = default;
};
std::vector<RoundRange> launch_round_ranges(std::size_t round_count, std::size_t per_launch);

// UsageError unless the arena is one the kernel can address and the pairs
// pass check_plan_rounds (the kernel would run them into each other).
void check_plan_flags(const MeasurementPlan& plan);

// The GPUs a plan runs on, as a launch group: the devices of its units and
// of its pairs' flags, ascending; member g is group[g]. UsageError past
// kMaxGroupGpus.
std::vector<int> launch_group(const MeasurementPlan& plan);
// The member number of `device` in `group` (std::invalid_argument if absent).
int member_of(const std::vector<int>& group, int device);

// The device records of one launch: its pairs in plan order, the number of
// pairs before each of its rounds (round_starts.back() = pair count), and
// the widest round. Devices become member numbers of `group`.
struct LaunchPairs {
  std::vector<DevicePair> pairs;
  std::vector<unsigned> round_starts;
  unsigned round_width = 1;
};
LaunchPairs launch_pairs(const MeasurementPlan& plan, RoundRange range, const std::vector<int>& group);

// --- Budgets ------------------------------------------------------------------

// A time budget in cycles of the SM clock at its highest rate (at lower rates
// the budget only lasts longer).
std::uint64_t budget_cycles(double milliseconds, double max_clock_hz);

// The longest a legitimate round can take: all of a pair's round trips at a
// pessimistic 20 us each, plus two wait budgets. Blocks waiting for their
// turn allow this much per round ahead of them.
std::uint64_t round_budget_cycles(const protocol::Counts& counts, double timeout_ms, double max_clock_hz);

// How long a round usually takes, in ns (saturating): blocks waiting for a
// later round sleep by it.
unsigned round_ns_estimate(const protocol::Counts& counts, double rtt_ns_guess);

// --- Records ------------------------------------------------------------------

// SM clock in cycles per ns from the kernel's clock64/%globaltimer marks
// (start cycles, start ns, end cycles, end ns). NaN if the interval is empty.
double cycles_per_ns(const std::uint64_t marks[4]);

// What one ping-pong launch wrote, copied back to the host; indexed by the
// launch's pairs.
struct LaunchRecords {
  std::vector<std::uint64_t> sample_cycles;  // pair-major, `samples` per pair
  std::vector<std::uint64_t> cold_cycles;
  std::vector<int> status;
};

// The measurements of the plan's rounds [range) from every member's records
// (records[g], clock cyc_per_ns[g]): a member holds the cycles its own SMs
// timed as pingers, so a pair's cycles per round trip are the sum over
// members, and its ns the sum of each member's cycles through that member's
// clock (one GPU: one member, as ever); the cold round trip is a's. Tag,
// round and flags come from the plan. Timed-out pairs carry no samples.
std::vector<PairMeasurement> decode_launch(const MeasurementPlan& plan, RoundRange range,
                                           const std::vector<int>& group, const std::vector<LaunchRecords>& records,
                                           const std::vector<double>& cyc_per_ns);

// Why a launch was abandoned, for the error message; empty if it was not.
std::string abort_reason(unsigned code);

// --- Memory -------------------------------------------------------------------

// The arena's allocation: offset_bytes + bytes, plus room to start the arena
// on a 64 KiB boundary, so that an offset has the same page and line position
// whatever address the allocator returned.
inline constexpr std::size_t kArenaAlignment = 64 * 1024;
std::size_t arena_allocation_bytes(const FlagArena& arena);
// Where the arena (offset 0) starts inside an allocation at `allocation`.
std::uintptr_t arena_base(std::uintptr_t allocation, const FlagArena& arena);
// UsageError for an arena the kernels cannot address (offsets are 32-bit
// words; --flag-offset must keep flags 4-byte aligned).
void check_arena(const FlagArena& arena);

// Words of the L2 flush buffer: twice the L2, a whole number of 16-byte stores.
std::size_t flush_buffer_words(std::size_t l2_bytes);

// The persisting-L2 window for `wanted` bytes, clamped to the device limits.
std::size_t persisting_window_bytes(std::size_t wanted, std::size_t persisting_max, std::size_t window_max);

// --- Line probing -------------------------------------------------------------

// UsageError unless every line is inside the arena and 4-byte aligned, and
// chain and repeats are at least 1.
void check_line_probe(const LineProbePlan& plan);
std::vector<std::uint32_t> line_words(const LineProbePlan& plan);

// Units per probe launch, so that a launch lasts about `target_seconds` at
// `atomic_ns_guess` per atomic. At least 1.
std::size_t units_per_probe_launch(const LineProbePlan& plan, double atomic_ns_guess, double target_seconds);
// The longest one unit's turn can take: every atomic at a pessimistic 20 us.
std::uint64_t turn_budget_cycles(const LineProbePlan& plan, double max_clock_hz);
unsigned turn_ns_estimate(const LineProbePlan& plan, double atomic_ns_guess);

// Fills rows [first_unit, first_unit + turns) of `table` (already sized) from
// a launch's cycles, [turn][line][repeat] for whole chains: the median over
// repeats, divided by the chain length; ns through `cyc_per_ns`.
void fill_probe_rows(LineLatencyTable& table, std::size_t first_unit, std::size_t turns,
                     const std::vector<std::uint64_t>& cycles, int chain, int repeats, double cyc_per_ns);

}  // namespace cumap::cuda
