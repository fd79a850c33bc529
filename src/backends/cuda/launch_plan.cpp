#include "backends/cuda/launch_plan.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace cumap::cuda {

std::uint64_t round_trips_per_pair(const MeasureSpec& spec) {
  return 1 + static_cast<std::uint64_t>(spec.warmup) +
         static_cast<std::uint64_t>(spec.samples) * static_cast<std::uint64_t>(spec.iters);
}

std::size_t pairs_per_launch(const MeasureSpec& spec, double rtt_ns_guess, double target_seconds) {
  const double pair_ns = static_cast<double>(round_trips_per_pair(spec)) * rtt_ns_guess;
  const double n = std::floor(target_seconds * 1e9 / std::max(pair_ns, 1.0));
  return static_cast<std::size_t>(std::max(1.0, n));
}

std::vector<std::pair<std::size_t, std::size_t>> launch_ranges(std::size_t pair_count, std::size_t per_launch) {
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  per_launch = std::max<std::size_t>(per_launch, 1);
  for (std::size_t b = 0; b < pair_count; b += per_launch) ranges.emplace_back(b, std::min(pair_count, b + per_launch));
  return ranges;
}

std::uint64_t budget_cycles(double milliseconds, double max_clock_hz) {
  return static_cast<std::uint64_t>(std::ceil(milliseconds * 1e-3 * max_clock_hz));
}

std::uint64_t pair_budget_cycles(const MeasureSpec& spec, double max_clock_hz) {
  const double pair_ms = static_cast<double>(round_trips_per_pair(spec)) * 20e-3;
  return budget_cycles(pair_ms + 2.0 * spec.timeout_ms, max_clock_hz);
}

unsigned pair_ns_estimate(const MeasureSpec& spec, double rtt_ns_guess) {
  const double ns = static_cast<double>(round_trips_per_pair(spec)) * rtt_ns_guess;
  return static_cast<unsigned>(std::min(ns, 4e9));
}

std::vector<DevicePair> device_pairs(const std::vector<Pair>& pairs, std::size_t begin, std::size_t end) {
  std::vector<DevicePair> out;
  out.reserve(end - begin);
  for (std::size_t i = begin; i < end; ++i) out.push_back({pairs[i].a, pairs[i].b});
  return out;
}

double cycles_per_ns(const std::uint64_t marks[4]) {
  if (marks[2] <= marks[0] || marks[3] <= marks[1]) return kNaN;
  return static_cast<double>(marks[2] - marks[0]) / static_cast<double>(marks[3] - marks[1]);
}

std::vector<PairMeasurement> decode_launch(const std::vector<Pair>& pairs, std::size_t begin,
                                           const LaunchRecords& records, const MeasureSpec& spec,
                                           double cyc_per_ns, int copy) {
  std::vector<PairMeasurement> out;
  out.reserve(records.status.size());
  for (std::size_t i = 0; i < records.status.size(); ++i) {
    PairMeasurement m;
    m.a = pairs[begin + i].a;
    m.b = pairs[begin + i].b;
    m.copy = copy;
    m.timed_out = records.status[i] != kPairOk;
    if (!m.timed_out) {
      m.cold_rtt_ns = static_cast<double>(records.cold_cycles[i]) / cyc_per_ns;
      for (int s = 0; s < spec.samples; ++s) {
        const double cycles = static_cast<double>(records.sample_cycles[i * spec.samples + s]) / spec.iters;
        m.rtt_cycles.push_back(cycles);
        m.rtt_ns.push_back(cycles / cyc_per_ns);
      }
    }
    out.push_back(std::move(m));
  }
  return out;
}

namespace {
constexpr std::size_t kCopyStrideWords = 64 * 1024 / 4;
constexpr std::size_t kLineWords = 128 / 4;
constexpr std::size_t kPageWords = 4096 / 4;
}  // namespace

FlagOffsets flag_offsets(int copy, Placement placement) {
  const std::size_t c = static_cast<std::size_t>(copy);
  const std::size_t first = c * kCopyStrideWords + (c % (kPageWords / kLineWords)) * kLineWords;
  return {first, placement == Placement::SameLine ? first + 1 : first + kPageWords};
}

std::size_t flag_buffer_words(int copies) {
  return static_cast<std::size_t>(copies) * kCopyStrideWords;
}

std::size_t flush_buffer_words(std::size_t l2_bytes) {
  const std::size_t words = 2 * l2_bytes / 4;
  return (words + 3) / 4 * 4;
}

std::size_t persisting_window_bytes(std::size_t wanted, std::size_t persisting_max, std::size_t window_max) {
  return std::min({wanted, persisting_max, window_max});
}

std::string abort_reason(unsigned code) {
  switch (code) {
    case kNoAbort: return "";
    case kAbortSharedSm:
      return "an SM received more than one block, so roles chosen by %smid would be ambiguous "
             "(is another process using the GPU, or MPS/MIG limiting shared memory?)";
    case kAbortWaitTimeout:
      return "a block waited for its turn longer than any pair can take (raise --timeout-ms?)";
    default: return "unknown abort code " + std::to_string(code);
  }
}

}  // namespace cumap::cuda
