#include "backends/hip/pair_timing.hpp"

#include <fmt/format.h>

namespace cumap {

std::vector<PairLeg> pair_legs(const Pair& pair, int samples, bool ordered) {
  if (ordered) return {PairLeg{pair.a, pair.b, samples}};
  std::vector<PairLeg> legs;
  const int forward = (samples + 1) / 2;
  const int backward = samples / 2;
  if (forward > 0) legs.push_back(PairLeg{pair.a, pair.b, forward});
  if (backward > 0) legs.push_back(PairLeg{pair.b, pair.a, backward});
  return legs;
}

PairMeasurement pair_measurement_from_legs(const Pair& pair, int copy,
                                           const std::vector<PingPongResult>& legs, int iters,
                                           const HipClocks& clocks) {
  PairMeasurement m;
  m.a = pair.a;
  m.b = pair.b;
  m.copy = copy;
  const double ns_per_tick = 1e9 / clocks.wall_hz;
  for (std::size_t i = 0; i < legs.size(); ++i) {
    const PingPongResult& leg = legs[i];
    m.timed_out = m.timed_out || leg.timed_out;
    if (i == 0 && leg.cold_ticks > 0) {  // 0: the kernel timed out before one round trip
      m.cold_rtt_ns = static_cast<double>(leg.cold_ticks) * ns_per_tick;
    }
    for (std::uint64_t ticks : leg.sample_ticks) {
      m.rtt_ns.push_back(static_cast<double>(ticks) * ns_per_tick / iters);
    }
    if (clocks.shader_hz > 0.0) {
      for (std::uint64_t cycles : leg.sample_cycles) {
        m.rtt_cycles.push_back(static_cast<double>(cycles) / iters);
      }
    }
  }
  return m;
}

std::optional<std::string> wall_clock_disagreement(const PingPongResult& leg, double wall_hz) {
  if (leg.event_ms <= 0.0 || leg.timed_out) return std::nullopt;
  std::uint64_t ticks = leg.cold_ticks;
  for (std::uint64_t t : leg.sample_ticks) ticks += t;
  const double timed_ms = static_cast<double>(ticks) / wall_hz * 1e3;
  // 10% plus 10 us of slack: events and wall clock are different clocks.
  if (timed_ms <= leg.event_ms * 1.1 + 0.01) return std::nullopt;
  return fmt::format(
      "round trips timed with wall_clock64 at {:.0f} Hz add up to {:.3f} ms, longer than the "
      "kernel's {:.3f} ms (hipEvents): the wall-clock rate is probably wrong",
      wall_hz, timed_ms, leg.event_ms);
}

}  // namespace cumap
