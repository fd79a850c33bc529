#pragma once
// Host-side arithmetic of the CUDA backend, free of CUDA calls so that it is
// unit-tested without a GPU: how the schedule is cut into launches, the wait
// budgets, and how the kernel's records become PairMeasurements.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "backends/cuda/launch_params.hpp"
#include "cumap/backend.hpp"
#include "cumap/placement.hpp"
#include "cumap/schedule.hpp"

namespace cumap::cuda {

// Round trips one pair runs: the cold one, the warm-up, the samples.
std::uint64_t round_trips_per_pair(const MeasureSpec& spec);

// Pairs per launch, so that a launch lasts about `target_seconds` at an
// assumed `rtt_ns_guess` (progress updates and host-side checks happen
// between launches). At least 1.
std::size_t pairs_per_launch(const MeasureSpec& spec, double rtt_ns_guess, double target_seconds);

// [begin, end) ranges of the pair list, one per launch.
std::vector<std::pair<std::size_t, std::size_t>> launch_ranges(std::size_t pair_count, std::size_t per_launch);

// A time budget in cycles of the SM clock at its highest rate (at lower rates
// the budget only lasts longer).
std::uint64_t budget_cycles(double milliseconds, double max_clock_hz);

// The longest a legitimate pair can take: all its round trips at a
// pessimistic 20 us each, plus two wait budgets. Blocks waiting for their
// turn allow this much per pair ahead of them.
std::uint64_t pair_budget_cycles(const MeasureSpec& spec, double max_clock_hz);

// How long a pair usually takes, in ns (saturating): blocks waiting for a
// later turn sleep by it.
unsigned pair_ns_estimate(const MeasureSpec& spec, double rtt_ns_guess);

std::vector<DevicePair> device_pairs(const std::vector<Pair>& pairs, std::size_t begin, std::size_t end);

// SM clock in cycles per ns from the kernel's clock64/%globaltimer marks
// (start cycles, start ns, end cycles, end ns). NaN if the interval is empty.
double cycles_per_ns(const std::uint64_t marks[4]);

// What one launch wrote, copied back to the host.
struct LaunchRecords {
  std::vector<std::uint64_t> sample_cycles;  // pair-major, `samples` per pair
  std::vector<std::uint64_t> cold_cycles;
  std::vector<int> status;
};

// Turns the records of pairs [begin, end) into measurements: cycles per round
// trip and ns through `cyc_per_ns`. Timed-out pairs carry no samples.
std::vector<PairMeasurement> decode_launch(const std::vector<Pair>& pairs, std::size_t begin,
                                           const LaunchRecords& records, const MeasureSpec& spec,
                                           double cyc_per_ns, int copy);

// Where the flags of rotating copy `copy` sit in the flag buffer, in 32-bit
// words. Copies are 64 KiB apart and shifted by a different line within the
// page, so that they land on different pages and, as far as the address hash
// allows, different L2 slices. Same-line: adjacent words. Split-line: the
// second flag 4 KiB after the first (another line and another page).
struct FlagOffsets {
  std::size_t first;
  std::size_t second;
};
FlagOffsets flag_offsets(int copy, Placement placement);
std::size_t flag_buffer_words(int copies);

// Words of the L2 flush buffer: twice the L2, a whole number of 16-byte stores.
std::size_t flush_buffer_words(std::size_t l2_bytes);

// The persisting-L2 window for `wanted` bytes, clamped to the device limits.
std::size_t persisting_window_bytes(std::size_t wanted, std::size_t persisting_max, std::size_t window_max);

// Why a launch was abandoned, for the error message; empty if it was not.
std::string abort_reason(unsigned code);

}  // namespace cumap::cuda
