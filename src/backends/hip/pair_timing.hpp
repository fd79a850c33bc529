#pragma once
#include <optional>
#include <string>
#include <vector>

#include "backends/hip/hip_runtime.hpp"
#include "cumap/backend.hpp"

namespace cumap {

struct HipClocks {
  double wall_hz = 0.0;    // wall_clock64(): converts ticks to ns
  double shader_hz = 0.0;  // clock64(); 0 leaves rtt_cycles empty
};

// Converts a pair's raw counters into one PairMeasurement: per sample, the
// round trips a pinged plus those b pinged, over `counts.iters`, in ns (wall
// clock) and shader cycles (clock64).
PairMeasurement pair_measurement_from_result(const PlannedPair& pair, int round, const PingPongResult& result,
                                             const protocol::Counts& counts, const HipClocks& clocks);

// The round trips a kernel timed cannot add up to more than the kernel took
// (its start/stop events). When they do, the assumed wall-clock rate is
// wrong; the returned message says by how much.
std::optional<std::string> wall_clock_disagreement(const PingPongResult& result, double wall_hz);

// Home discovery: per line of `result`, the median of its `repeats` chains
// divided by `chain`, appended to `ns` and `cycles` (NaN without a shader clock).
void append_line_latencies(const LineProbeResult& result, int chain, int repeats, const HipClocks& clocks,
                           std::vector<double>& ns, std::vector<double>& cycles);

}  // namespace cumap
