#pragma once
// How many CU-masked streams the backend keeps, and how it notices that it
// kept too many. Every masked stream takes a hardware queue of its own; an
// Instinct GPU has 32 hardware compute queues, about 24 of them left to ROCm
// user queues. Past that, stream creation still succeeds, the firmware
// time-slices the queues, and a pair whose two kernels sit on queues that
// never run together stalls until its wait budget runs out.
#include <string>
#include <string_view>

#include "backends/hip/hip_runtime.hpp"

namespace cumap {

struct QueueBudget {
  int streams = 0;
  std::string source;  // why this number: the option, or the family's figure
};

// --max-streams when given (> 0; 1 is a UsageError: a pair needs two), else
// the figure for the architecture (hipDeviceProp_t::gcnArchName).
QueueBudget queue_budget(int max_streams_option, std::string_view gcn_arch_name);

// A genuine first round trip takes microseconds; one that waits for a queue
// to be scheduled takes a time slice (milliseconds).
inline constexpr double kTimeSlicedColdRoundTripNs = 100'000.0;

// Whether a pair's result looks like its two kernels were time-sliced rather
// than run together: the cold round trip took longer than the bound, or the
// pair timed out although both kernels had started.
bool looks_time_sliced(const PingPongResult& result, double wall_clock_hz);

// The budget after time-slicing was seen with `alive` streams: half, even,
// at least one pair. Halving, because each pair is re-measured only once:
// a smaller step could leave the re-measurement time-sliced too.
std::size_t reduced_queue_budget(std::size_t alive);

}  // namespace cumap
