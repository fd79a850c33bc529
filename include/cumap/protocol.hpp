#pragma once
// The ping-pong protocol, written once and compiled by g++, nvcc and hipcc:
// the probe codes kernels receive, the order of a pair's round trips (cold,
// warm-up, the samples, how each sample splits between the directions and
// the untimed hand-overs around each timed stretch),
// and where the two flags of a pair sit relative to each other. Every backend
// walks exactly this sequence; tests/conformance checks that they do.
#include <cstdint>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define CUMAP_HD __host__ __device__
#else
#define CUMAP_HD
#endif

namespace cumap::protocol {

// --probe as a kernel argument; the numbering of cumap::Probe (checked by a
// static_assert in src/core/options.cpp).
//   cas      signal CAS(k-1 -> k); poll with CAS(k -> k): every poll is a
//            read-modify-write, done at the line's home, so it goes there
//   exch     signal with an atomic exchange; poll with a relaxed atomic load
//   acq-rel  signal with a release store; poll with acquire loads
//   volatile volatile store; volatile loads (no ordering at all)
//   mbarrier (--via dsm only) arrive on the partner's shared-memory mbarrier;
//            wait on one's own with try_wait
// On the dsm path (thread-block clusters) the flag is in the poller's own
// shared memory: cas is a remote atomic CAS on shared::cluster, volatile and
// acq-rel a remote store; the poll is local.
// Loads and stores are device (agent) scope on GPUs. Flag values only grow
// within a pair, so a CAS expecting k is never fooled by an older k (no ABA).
enum ProbeCode : std::uint32_t { kCas = 0, kExch = 1, kAcqRel = 2, kVolatile = 3, kMbarrier = 4 };
inline constexpr int kProbeCount = 5;

// Flags are 32-bit words. A "line" is 128 bytes (a GPU L2 line; on CPUs two
// 64-byte lines, which keeps the adjacent-line prefetcher out of the way).
inline constexpr std::uint32_t kFlagBytes = 4;
inline constexpr std::uint32_t kLineBytes = 128;
// Same-line placement: the answering flag is the word after the pinger's.
inline constexpr std::uint32_t kSameLineGapBytes = kFlagBytes;

// How many round trips a pair runs and how the samples split. `iters` are
// the timed round trips of a sample; each of its timed segments adds two
// untimed round trips (its hand-over and its last). The defaults are the
// command line's (cumap::Options reads them from here); a backend may choose
// its own iters (Capabilities::default_iters).
struct Counts {
  int iters = 100;   // round trips per sample
  // Lines, not samples, make a map precise (H200: 24 lines x 3 samples of
  // 20 beat 16 x 5 of 20 for less kernel time, bench/RESULTS.md).
  int samples = 3;
  // Round trips after the cold one before timing starts: each line a pair
  // uses starts afresh, so this is paid once per line.
  int warmup = 8;
  bool ordered = false;  // a pings every round trip; else each sample splits
};

// Unordered pairs split every sample between the directions: a pings the
// first a_share round trips, b the rest, so a cell is the mean of both
// directions whatever the sample count.
CUMAP_HD constexpr int a_share(const Counts& c) { return c.ordered ? c.iters : c.iters / 2; }

// A stretch of round trips with one pinger. `sample` is the sample the
// pinger's time belongs to, or one of the markers below.
//
// How a segment is timed: its pinger reads the clock just after its first
// ping and again just after its last, so the time covers count - 1 round
// trips, each from one ping to the next (timed_round_trips), and the last
// round trip completes untimed. A read before a ping would delay it (on a CPU
// the partner's polls take the line back meanwhile: 10 % on a CPU pair at
// --iters 10); read after a ping, each read overlaps the ping's flight, and
// the two reads sit at the same point of a round trip, so their own costs
// cancel. Reading after the last answer instead would leave out one round
// trip's loop overhead (1 % at --iters 10 on an H200).
inline constexpr int kColdSample = -1;    // the pair's first round trip, alone (2 pings)
inline constexpr int kWarmupSample = -2;  // untimed
// One untimed round trip before every timed segment, pinged by that
// segment's pinger. Where the pinger changes, the previous one is still
// stopping its clock and storing its time (in kernels a global atomic of a
// few hundred ns) when the new one starts: timed, that hand-over would add a
// fixed cost to every sample, so a cell would read higher the fewer round
// trips a sample has (H200: near-side pairs 282 ns at 20 round trips per
// sample, 274 at 50, 272 at 100). The new pinger's answer comes only once the
// old one has finished its bookkeeping, so the timed segment then sees round
// trips alone, whatever --iters is.
inline constexpr int kHandOverSample = -3;
struct Segment {
  bool a_pings;
  int count;  // pings
  int sample;
};
// The round trips a segment's time covers.
CUMAP_HD constexpr int timed_round_trips(const Segment& s) {
  return s.sample >= 0 || s.sample == kColdSample ? s.count - 1 : 0;
}

CUMAP_HD constexpr int timed_segments_per_sample(const Counts& c) {
  return (a_share(c) > 0 ? 1 : 0) + (a_share(c) < c.iters ? 1 : 0);
}
CUMAP_HD constexpr int segment_count(const Counts& c) {
  return 1 + (c.warmup > 0 ? 1 : 0) + c.samples * 2 * timed_segments_per_sample(c);
}
// Segment i of segment_count(c): the cold round trip, the warm-up (both
// pinged by a), then per sample a's share and b's share, each after its
// hand-over round trip.
CUMAP_HD constexpr Segment segment(const Counts& c, int i) {
  if (i == 0) return {true, 2, kColdSample};
  if (c.warmup > 0 && i == 1) return {true, c.warmup, kWarmupSample};
  const int j = i - 1 - (c.warmup > 0 ? 1 : 0);
  const int per = 2 * timed_segments_per_sample(c);
  const int s = j / per;
  const bool a_part = a_share(c) > 0 && j % per < 2;
  if (j % 2 == 0) return {a_part, 1, kHandOverSample};
  return a_part ? Segment{true, a_share(c) + 1, s} : Segment{false, c.iters - a_share(c) + 1, s};
}
// Round trips one pair runs in all; flag values count up to this.
CUMAP_HD constexpr std::uint64_t round_trips(const Counts& c) {
  const auto per_sample =
      static_cast<std::uint64_t>(c.iters) + 2ull * static_cast<std::uint64_t>(timed_segments_per_sample(c));
  return 2ull + static_cast<std::uint64_t>(c.warmup) + static_cast<std::uint64_t>(c.samples) * per_sample;
}
// Flag values are 32-bit and must not wrap inside a pair (CAS expects k-1).
inline constexpr std::uint64_t kMaxRoundTrips = (1ull << 31) - 1;

}  // namespace cumap::protocol
