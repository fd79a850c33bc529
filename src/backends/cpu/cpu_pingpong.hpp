#pragma once
#include <atomic>
#include <cstdint>

#include "cumap/backend.hpp"

namespace cumap::cpu {

// The two flags of one pair: `first` is written by whoever pings, `second` by
// whoever answers. Where they sit (one line or two) is the placement.
struct FlagPair {
  std::atomic<std::uint32_t>* first;
  std::atomic<std::uint32_t>* second;
};

// Runs one pair: two threads pinned to cpu_a and cpu_b. Sequence: one cold
// round trip timed alone, `warmup` untimed ones, then `samples` timed samples
// of `iters` round trips each; with unordered specs each sample is half a
// pinging b, half b pinging a. The flags must be zero on entry.
PairMeasurement run_cpu_pair(int cpu_a, int cpu_b, FlagPair flags, const MeasureSpec& spec);

}  // namespace cumap::cpu
