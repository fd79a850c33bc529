#pragma once
#include <optional>
#include <string>

#include "backends/hip/hip_runtime.hpp"
#include "cumap/backend.hpp"
#include "cumap/schedule.hpp"

namespace cumap {

// The round trips of every sample that a pings; b pings the rest. Ordered
// pairs: all of them (a is the pinger). Unordered pairs: iters / 2, so each
// sample is the mean of both directions and b takes the odd one out, as on
// the CUDA and CPU backends.
int a_share_of_sample(int iters, bool ordered);

struct HipClocks {
  double wall_hz = 0.0;    // wall_clock64(): converts ticks to ns
  double shader_hz = 0.0;  // clock64(); 0 leaves rtt_cycles empty
};

// Converts a pair's raw counters into one PairMeasurement: per sample, a's
// half plus b's half over `iters`, in ns (wall clock) and shader cycles
// (clock64).
PairMeasurement pair_measurement_from_result(const Pair& pair, int copy, const PingPongResult& result,
                                             int iters, const HipClocks& clocks);

// The round trips a kernel timed cannot add up to more than the kernel took
// (its start/stop events). When they do, the assumed wall-clock rate is
// wrong; the returned message says by how much.
std::optional<std::string> wall_clock_disagreement(const PingPongResult& result, double wall_hz);

}  // namespace cumap
