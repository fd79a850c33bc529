#pragma once
// Barrier and contention cases built by hand for the backends' and the
// plan checks' tests: participants on device 0, counter and release in the
// lines the test names, a plan of them.
#include <cstdint>
#include <utility>
#include <vector>

#include "cumap/sync.hpp"

namespace cumap::test {

// A barrier of `impl` among `units` of device 0, its counter and release
// flag at the starts of lines `counter_line` and `counter_line` + 1.
inline SyncCase barrier_case(BarrierImpl impl, const std::vector<int>& units, std::uint64_t counter_line,
                             int episodes, int warmup, int tag = 0) {
  SyncCase c;
  c.impl = impl;
  for (int u : units) c.participants.push_back({0, u});
  c.counter = counter_line * protocol::kLineBytes;
  c.release = (counter_line + 1) * protocol::kLineBytes;
  c.episodes = episodes;
  c.warmup = warmup;
  c.tag = tag;
  return c;
}

inline SyncPlan plan_of(std::vector<SyncCase> cases, double timeout_ms = SyncPlan{}.timeout_ms) {
  SyncPlan p;
  p.cases = std::move(cases);
  p.timeout_ms = timeout_ms;
  return p;
}

}  // namespace cumap::test
