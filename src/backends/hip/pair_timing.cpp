#include "backends/hip/pair_timing.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace cumap {

PairMeasurement pair_measurement_from_result(const PlannedPair& pair, int round, const PingPongResult& result,
                                             const protocol::Counts& counts, const HipClocks& clocks) {
  PairMeasurement m = measurement_for(pair, round);
  m.timed_out = result.timed_out;
  const double ns_per_tick = 1e9 / clocks.wall_hz;
  if (result.cold_ticks > 0) {  // 0: the kernel timed out before one round trip
    m.cold_rtt_ns = static_cast<double>(result.cold_ticks) * ns_per_tick;
  }
  const PingerHalves& a = result.a_pinged;
  const PingerHalves& b = result.b_pinged;
  const std::size_t samples = std::min(a.ticks.size(), b.ticks.size());
  for (std::size_t s = 0; s < samples; ++s) {
    m.rtt_ns.push_back(static_cast<double>(a.ticks[s] + b.ticks[s]) * ns_per_tick / counts.iters);
  }
  if (clocks.shader_hz > 0.0) {
    const std::size_t cycled = std::min({samples, a.cycles.size(), b.cycles.size()});
    for (std::size_t s = 0; s < cycled; ++s) {
      m.rtt_cycles.push_back(static_cast<double>(a.cycles[s] + b.cycles[s]) / counts.iters);
    }
  }
  return m;
}

std::optional<std::string> wall_clock_disagreement(const PingPongResult& result, double wall_hz) {
  if (result.event_ms <= 0.0 || result.timed_out) return std::nullopt;
  std::uint64_t ticks = result.cold_ticks;
  for (const PingerHalves* half : {&result.a_pinged, &result.b_pinged}) {
    for (std::uint64_t t : half->ticks) ticks += t;
  }
  const double timed_ms = static_cast<double>(ticks) / wall_hz * 1e3;
  // 10% plus 10 us of slack: events and wall clock are different clocks.
  if (timed_ms <= result.event_ms * 1.1 + 0.01) return std::nullopt;
  return fmt::format(
      "round trips timed with wall_clock64 at {:.0f} Hz add up to {:.3f} ms, longer than the "
      "kernel's {:.3f} ms (hipEvents): the wall-clock rate is probably wrong",
      wall_hz, timed_ms, result.event_ms);
}

void append_line_latencies(const LineProbeResult& result, int chain, int repeats, const HipClocks& clocks,
                           std::vector<double>& ns, std::vector<double>& cycles) {
  auto median_of = [repeats](std::vector<std::uint64_t> v) {
    std::nth_element(v.begin(), v.begin() + repeats / 2, v.end());
    return static_cast<double>(v[static_cast<std::size_t>(repeats / 2)]);
  };
  const std::size_t lines = result.ticks.size() / static_cast<std::size_t>(repeats);
  for (std::size_t l = 0; l < lines; ++l) {
    const auto first = static_cast<std::ptrdiff_t>(l * static_cast<std::size_t>(repeats));
    const std::vector<std::uint64_t> ticks(result.ticks.begin() + first, result.ticks.begin() + first + repeats);
    const std::vector<std::uint64_t> cyc(result.cycles.begin() + first, result.cycles.begin() + first + repeats);
    ns.push_back(median_of(ticks) * 1e9 / clocks.wall_hz / chain);
    cycles.push_back(clocks.shader_hz > 0.0 ? median_of(cyc) / chain : kNaN);
  }
}

}  // namespace cumap
