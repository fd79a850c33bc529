#pragma once
// One case of `cumap barrier` or `cumap contention` as the outputs show it:
// what ran (implementation or operation), among which units (set, k), with
// the counter where (home), and what it cost, summarized once.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/stats.hpp"
#include "cumap/result.hpp"

namespace cumap {


// What a case is as one phrase: its implementation (operation), and across
// GPUs where its counter is: "counter on g1", "two-level by GPU"; on one GPU
// the implementation alone ("counter").
inline std::string sync_construction(const SyncCaseResult& c) {
  if (c.label.counter_gpu == "each") return c.what + " by GPU";
  return c.label.counter_gpu.empty() ? c.what : c.what + " on " + c.label.counter_gpu;
}

// The case a reader looks for first: the cheapest measured one at the
// largest k of the run (every unit of the widest set), and that k; no case
// when none was measured there. `result_of` reaches a SyncCaseResult from
// an element of `cases`.
struct CheapestCase {
  int k = 0;
  const SyncCaseResult* result = nullptr;
};
template <typename Cases, typename Project = std::identity>
CheapestCase cheapest_at_largest_k(const Cases& cases, Project result_of = {}) {
  CheapestCase out;
  for (const auto& x : cases) out.k = std::max(out.k, std::invoke(result_of, x).label.k);
  for (const auto& x : cases) {
    const SyncCaseResult& c = std::invoke(result_of, x);
    if (c.measured() && c.label.k == out.k && (!out.result || c.headline_ns() < out.result->headline_ns()))
      out.result = &c;
  }
  return out;
}

// One launch of a case: what was planned and what it measured.
struct SyncLaunchOutcome {
  const SyncCase* planned = nullptr;
  const SyncMeasurement* measured = nullptr;
};

// The case over its launches (at least one, in launch order), with its label
// and participants, named as a run whose default device is `default_device`
// names them (plan.hpp's unit_id: across GPUs device 0). A launch that timed
// out or could not run marks the whole case so and leaves it without values:
// the values before a stall would describe a barrier that then hung.
SyncCaseResult summarize_sync_case(const SyncCaseLabel& label, std::span<const SyncLaunchOutcome> launches,
                                   int default_device = 0);

}  // namespace cumap
