#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "cumap/backend.hpp"
#include "cumap/protocol.hpp"

namespace cumap::cpu {

// One pair of a round: two CPUs and their two flag words. The pinger of a
// round trip signals on `first` and waits on `second`.
struct PairJob {
  int cpu_a;
  int cpu_b;
  std::atomic<std::uint32_t>* first;
  std::atomic<std::uint32_t>* second;
  // For tests, a stand-in for a GPU pinger storing its time (a global atomic
  // of a few hundred ns): after ending each timed segment it pinged, a side
  // spins this long before it answers again. The hand-over round trip before
  // every timed segment (protocol.hpp) must keep it out of every sample.
  double stall_after_timing_ns = 0.0;
};

struct PairTiming {
  std::vector<double> rtt_ns;  // per sample, mean round trip over iters
  double cold_rtt_ns = kNaN;
  bool timed_out = false;
  // Per protocol segment, the CPU the thread that timed it ran on as the
  // segment ended (sched_getcpu): the pinger's, which protocol::segment
  // names. What tests check the walk's directions against.
  std::vector<int> pinger_cpu;
  // The stop request ended the pair before its last round trip: it has no
  // values (and did not time out).
  bool stopped = false;
};

// How often each side of a pair asks the stop request: every this many
// round trips, and in a wait that has spun this many times.
inline constexpr unsigned kStopCheckRoundTrips = 1024;
static_assert((kStopCheckRoundTrips & (kStopCheckRoundTrips - 1)) == 0, "a power of two: checked by masking");

// Runs the pairs of one round at the same time: two threads per pair, each
// pinned to its CPU, all released together, walking protocol::segment. The
// flags must be zero on entry; they are left as the pairs left them. `stop`
// (may be empty) is asked by the measuring threads as they go; once it says
// true every pair still running ends at once, stopped.
std::vector<PairTiming> run_cpu_round(const std::vector<PairJob>& jobs, const protocol::Counts& counts, Probe probe,
                                      double timeout_ms, const std::function<bool()>& stop = {});

}  // namespace cumap::cpu
