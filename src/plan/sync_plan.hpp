#pragma once
// Planning `cumap barrier` and `cumap contention`, in plain C++ and tested
// without a device: which units take part (sets chosen by the structure home
// discovery and the topology found), how many (the k sweep), and where the
// counter lives (lines chosen by their measured latency to the participants).
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "core/sync_cases.hpp"
#include "core/sync_options.hpp"
#include "core/topology.hpp"
#include "cumap/result.hpp"
#include "cumap/sync.hpp"

namespace cumap {

// A set's units in the order a case of k takes them (its first k); empty,
// with `left_out` saying why, where the set does not exist on this device or
// is another set's sequence again.
struct ParticipantOrder {
  std::vector<int> units;
  std::string left_out;
};

// `units` ascending with `side[i]` the side of units[i]; `topology` restricted
// to them (groups in display order). See ParticipantSet for each order.
ParticipantOrder participant_order(ParticipantSet set, const std::vector<int>& units, const std::vector<int>& side,
                                   const Topology& topology);
// Across GPUs (one HomesResult per GPU, units by unit_id()): each GPU's order
// of the set, by its own sides and groups, interleaved GPU by GPU (GPU 0's
// first, GPU 1's first, GPU 0's second, ...), so that k = 2 is a unit of
// each of two GPUs; left out where any GPU lacks the set. One GPU: its order.
ParticipantOrder participant_order(ParticipantSet set, const RunHomes& homes, const Topology& topology);

// The k of the sweep for a set of `set_size` units, ascending and distinct,
// none below `smallest` (2 for a barrier, 1 for contention) or above the set.
std::vector<int> k_values(const KSweep& sweep, int set_size, int smallest);
// The --k values a sweep over `units` units can measure, checked before home
// discovery: none below 2 for a barrier, none above the units (a set is
// some of them). UsageError naming the first that is not.
void check_k_sweep(const KSweep& sweep, std::size_t units, bool contention);

// Where a counter line goes for `participants` (unit ids of `homes`): lines
// in the order launches should take them. "near": the home class whose lines
// are fastest for the participants on average; "far": the slowest other
// class; classes within 1 % of each other for the participants (a set split
// evenly over the sides) are told apart by the first participant. Within the
// class, pairs of neighbouring lines by latency to the participants, the
// typical pair first, then spread evenly over the class, so a case's launches
// stand for the class and not for its fastest or slowest lines. The list ends
// with every other line, lowest first, so that a case needing several lines
// always finds them. With one home class, "far" is "near" (label "any").
struct LineChoice {
  std::vector<std::uint64_t> lines;  // offsets, in the order to take them
  int home_class = 0;                // of the chosen class (the first lines)
  std::string label;                 // "near", "far" or "any"
};
LineChoice counter_lines(const std::vector<int>& participants, CounterHome home, const HomesResult& homes);

// The whole sweep: every case's launches in run order (launch-major: each
// case's first launch, then each case's second, ...; SyncCase::tag indexes
// `labels`), each launch of a case on its own lines of the case's choice
// where the arena has enough, and what was left out and why.
struct PlannedSync {
  SyncPlan plan;  // stop left empty: the run sets it
  std::vector<SyncCaseLabel> labels;
  std::vector<std::string> notes;
};
// `homes` is home discovery over the run's units, one entry per GPU;
// `topology` their groups restricted to those units. Across GPUs the
// counter (flag, contended line) of every case goes on each GPU of its
// participants in turn, near or far as judged by its participants on that GPU
// against that GPU's table (SyncCaseLabel::counter_gpu), and two-level groups
// by GPU, its leaders meeting by exchange (SyncCase::group_exchange).
// UsageError when nothing is left to measure or the flag arena has too few
// lines for a case.
PlannedSync plan_sync(const SyncOptions& options, const RunHomes& homes, const Topology& topology);
// One device's home discovery.
PlannedSync plan_sync(const SyncOptions& options, const HomesResult& homes, const Topology& topology);

}  // namespace cumap
