#include "backends/hip/queue_budget.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cumap/error.hpp"

namespace cumap {

QueueBudget queue_budget(int max_streams_option, std::string_view arch) {
  if (max_streams_option == 1 || max_streams_option < 0)
    throw UsageError(fmt::format("--max-streams {}: a pair needs two streams (0 = the device's default)",
                                 max_streams_option));
  if (max_streams_option > 0) return {max_streams_option, "--max-streams"};
  // CDNA (MI100, MI200, MI300) and Vega: 4 MEC pipes x 8 queues = 32
  // hardware queues, of which the kernel driver keeps some; ROCm's HWS maps
  // about 24 user queues before it time-slices.
  if (arch.starts_with("gfx9")) return {24, "gfx9/CDNA: 32 hardware compute queues, about 24 left to ROCm"};
  // RDNA: not measured by us; half the 32 queues is a figure that leaves the
  // desktop's own queues (compositor, video) room.
  if (arch.starts_with("gfx10") || arch.starts_with("gfx11")) return {16, "RDNA: conservative, half of 32 queues"};
  return {16, "unknown family: conservative"};
}

bool looks_time_sliced(const PingPongResult& result, double wall_clock_hz) {
  const double cold_ns = static_cast<double>(result.cold_ticks) * 1e9 / wall_clock_hz;
  if (result.cold_ticks > 0 && cold_ns > kTimeSlicedColdRoundTripNs) return true;
  return result.timed_out && result.both_started;
}

std::size_t reduced_queue_budget(std::size_t alive) { return std::max<std::size_t>(2, alive / 2 / 2 * 2); }

}  // namespace cumap
