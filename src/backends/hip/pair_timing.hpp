#pragma once
#include <optional>
#include <string>
#include <vector>

#include "backends/hip/hip_runtime.hpp"
#include "cumap/backend.hpp"
#include "cumap/schedule.hpp"

namespace cumap {

// One kernel-pair launch of a pair: who pings, who pongs, how many samples.
struct PairLeg {
  int ping;
  int pong;
  int samples;
};

// Ordered pairs run one leg, a pinging. Unordered pairs alternate roles by
// sample (see schedule.hpp): a leg a->b with the even samples, then b->a with
// the odd ones, so that neither side's role biases the pair.
std::vector<PairLeg> pair_legs(const Pair& pair, int samples, bool ordered);

struct HipClocks {
  double wall_hz = 0.0;    // wall_clock64(): converts ticks to ns
  double shader_hz = 0.0;  // clock64(); 0 leaves rtt_cycles empty
};

// Converts the legs' raw counters into one PairMeasurement: per sample the
// mean round trip over `iters`, in ns (wall clock) and shader cycles (clock64);
// the cold round trip is the first leg's first one.
PairMeasurement pair_measurement_from_legs(const Pair& pair, int copy,
                                           const std::vector<PingPongResult>& legs, int iters,
                                           const HipClocks& clocks);

// The round trips a kernel timed cannot add up to more than the kernel took
// (its start/stop events). When they do, the assumed wall-clock rate is
// wrong; the returned message says by how much.
std::optional<std::string> wall_clock_disagreement(const PingPongResult& leg, double wall_hz);

}  // namespace cumap
