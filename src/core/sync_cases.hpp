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
#include "core/value_matrix.hpp"
#include "cumap/sync.hpp"

namespace cumap {

// The planner's words for a case, beside the SyncCase the backend runs.
struct SyncCaseLabel {
  std::string set;           // "one-side", "alternating", "one-gpc", "spread"
  int k = 0;                 // participants
  // "near" or "far" (the counter's line relative to the participants), "any"
  // where the device has one home class (near and far are the same), "own"
  // for the platform's barrier (it keeps its own state).
  std::string counter_home;
  int counter_class = -1;    // home class of the counter's line; -1 for "own"
  int groups = 0;            // two-level: how many groups (sides, GPCs or GPUs)
  std::string grouped_by;    // two-level: "side", "group" or "gpu"
  // A run across GPUs only (empty on one): the GPU whose memory holds the
  // counter, "g0", "g1", ...; "each" for two-level by GPU (every group's
  // lines on its own GPU); empty for the platform's own barrier.
  std::string counter_gpu;
};

struct SyncCaseResult {
  SyncCaseLabel label;
  std::string what;                 // "counter", "flag", "two-level", "platform"; "cas", "add"
  std::vector<int> participants;    // unit ids, participant 0 first
  // Byte offsets of the counter's line in the flag arena, one per launch
  // measured, in launch order.
  std::vector<std::uint64_t> counter_offsets;
  int launches = 0;                 // launches measured (each its own counter lines)
  // Barrier: per episode (leave to leave, seen by participant 0).
  // Contention: per operation (each participant's batches). Over every launch.
  Summary ns{};
  Summary cycles{};                 // NaN without a cycle clock
  // Barrier: what one barrier costs in a loop of them, on a counter line of
  // the home class taken at random: each launch's mean over its episodes
  // (its loop's time over their count), and of those the mean over launches.
  // Means, not medians: episodes trade time with their neighbours
  // (participant 0 leaving one late shortens the next), and a launch settles
  // into one of a few such modes by its lines' L2 slices, so medians of
  // either jump from mode to mode between runs (up to 10 % at k = 2-8 on an
  // H200, bench/RESULTS.md) where the means move by their spread over
  // launches. NaN for contention.
  double per_barrier_ns = kNaN;
  double per_barrier_cycles = kNaN;
  int values = 0;                   // episodes (barrier) or batches (contention) that gave a value, all launches
  double ops_per_us = kNaN;         // contention: all participants together, the median over launches
  bool timed_out = false;
  bool unsupported = false;
  std::string why;                  // unsupported: the backend's reason
  bool measured() const { return !timed_out && !unsupported && values > 0; }
  // The case's one number: a barrier's per_barrier_ns, an operation's median.
  double headline_ns() const { return std::isnan(per_barrier_ns) ? ns.median : per_barrier_ns; }
  double headline_cycles() const { return std::isnan(per_barrier_cycles) ? cycles.median : per_barrier_cycles; }
};

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
