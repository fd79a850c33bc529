#pragma once
// Planning, in plain C++ and tested without a device: which pairs run
// together (rounds), which flag lines each pair uses, and the serial
// re-measurement that checks a concurrent map.
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "cumap/options.hpp"
#include "cumap/plan.hpp"

namespace cumap {

// Two units by id (unit_id() across devices), and the device whose memory
// holds their flags (place_flags sets it; the rounds' makers leave 0).
struct UnitPair {
  int a;
  int b;
  int flags_on = 0;
  bool operator==(const UnitPair&) const = default;
};
using PairRounds = std::vector<std::vector<UnitPair>>;

// Every unordered pair {a, b}, a < b, once, one pair per round, in row-major
// order of `units` (the serial schedule). `ordered`: (a, b) and then (b, a).
PairRounds serial_rounds(const std::vector<int>& units, bool ordered);

// Round-robin rounds of disjoint pairs by the circle method: N-1 rounds of
// N/2 pairs for even N, N rounds with a bye for odd N; every unordered pair
// exactly once. `ordered`: every round a second time with the pairs reversed.
PairRounds round_robin_rounds(const std::vector<int>& units, bool ordered);

// Rounds over the units of several devices (ids by unit_id(), so the device
// is id / kDeviceUnitStride): first the pairs on one device, every device's
// round-robin rounds side by side (round k holds round k of each device:
// they run on different chips at once), then the pairs across devices, every
// two devices in bipartite rounds (round r pairs the i-th unit of one with
// the (i + r)-th of the other), device pairs that share no device side by
// side. Every unordered pair exactly once; same-device rounds never hold a
// pair across devices, so a chip's own map is measured as it would be alone.
// `ordered`: every round a second time with the pairs reversed.
PairRounds device_rounds(const std::vector<int>& units, bool ordered);

// Cuts rounds so that none has more than `max_pairs` pairs and no two pairs of
// one round share an exclusive key (CPU: the physical core; two pairs on SMT
// siblings of one core would measure each other). Units missing from
// `exclusive_key` conflict with nobody. Order of pairs is kept.
PairRounds limit_rounds(const PairRounds& rounds, int max_pairs, const std::map<int, int>& exclusive_key = {});

// Which device's memory holds each pair's flags (UnitPair::flags_on). A
// pair on one device keeps them there; a pair across devices has them on
// a's device (FlagOn::A), b's (B), or both: then the pairs across devices of
// a round alternate between a's and b's side, and the round comes again
// (those pairs only) with every side swapped, so each such pair is measured
// once on each side and a round's flags are spread over both memories. Ids
// below kDeviceUnitStride are on `default_device`.
PairRounds place_flags(const PairRounds& rounds, FlagOn flag_on, int default_device);

// Cuts rounds so that no round has more than most[d] pairs with their flags
// on device d (what its line pools can give a round: assign_lines needs a
// line per pair, two for split-line). Devices not in `most` are not limited.
// Pair order is kept.
PairRounds cap_flags_per_device(const PairRounds& rounds, const std::map<int, int>& most);

// Lines available to the planner on one device: its arena's lines grouped
// by home class (that device's classes), each in ascending offset order.
struct LinePools {
  std::vector<std::vector<std::uint64_t>> by_class;
};
// Every device's pools, by device.
using DeviceLinePools = std::map<int, LinePools>;

// How many pairs of one round each device's pools can give their lines (the
// `most` of cap_flags_per_device): by the rule assign_lines deals by, a line
// of the class per pair, two for split-line, and for cross-home one of the
// next class too; the scarcest class decides.
std::map<int, int> pairs_each_device_holds(const DeviceLinePools& pools, Placement placement);

// What a map's planned pair carries in its tag (PlannedPair::tag): the home
// class of its first flag's line and its pass over the class's lines. The
// backends return a tag untouched, so each measurement's statistics are
// labelled by decoding it.
struct PairTag {
  int home_class = 0;
  int pass = 0;

  // One int holds both: a pass must stay below this.
  static constexpr int kPassesPerClass = 1 << 16;
  int encode() const { return home_class * kPassesPerClass + pass; }
  static PairTag decode(int tag) { return {tag / kPassesPerClass, tag % kPassesPerClass}; }
};

// Which lines the pairs of `rounds` use in pass `pass` (0 .. passes-1) when
// the first flag is in class `cls` of the device that holds the pair's flags:
// - every pair of a round gets its own line (so a device's pools need at
//   least as many lines as a round has pairs with flags there; throws
//   UsageError otherwise);
// - over `passes` passes, one pair sees `passes` different lines (as far as
//   the pool allows) and every line of the pool is used about equally;
// - same-line: the second flag is the next word of the line; split-line: the
//   first word of another line of the same class, not used by any other pair
//   of the round; cross-home: a line of class (cls + 1) % class_count.
// Pairs whose flag device has no class `cls` are left out. Tags are `tag`.
// Ids below kDeviceUnitStride are units of `default_device`.
std::vector<Round> assign_lines(const PairRounds& rounds, const DeviceLinePools& pools, Placement placement, int cls,
                                int pass, int passes, int tag, int default_device = 0);

// The dsm path's rounds: each flag lives in its poller's own shared memory,
// so the pairs have no flag line (FlagSite keeps its defaults, which the dsm
// kernel does not read) and no home class. Units are on `device`.
std::vector<Round> rounds_without_lines(const PairRounds& rounds, int tag, int device = 0);

// Where a sampled pair sits in the plan: round index and slot in the round.
struct PlanPosition {
  std::size_t round = 0;
  std::size_t slot = 0;
};

// The positions of at least `count` pairs (all pairs if there are fewer)
// spread over the plan's rounds and units, in plan order.
std::vector<PlanPosition> check_sample_positions(const std::vector<Round>& rounds, std::size_t count);

// Those pairs, each in a round of its own, on the same flag words:
// re-measuring them serially checks a concurrent map.
std::vector<Round> serial_check_sample(const std::vector<Round>& rounds, std::size_t count);

// The rounds that hold those pairs, whole and as planned (each once, in plan
// order): the same crowd and lines as in the map, a pilot of its concurrency.
std::vector<Round> pilot_rounds(const std::vector<Round>& rounds, std::size_t count);

}  // namespace cumap
