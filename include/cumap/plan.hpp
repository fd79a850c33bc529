#pragma once
// The measurement plan: what Backend::measure executes. Which units play,
// rounds of disjoint pairs (a backend may run the pairs of one round at the
// same time; a round of one pair is the serial schedule), the two flag words
// of every pair as offsets into the flag arena, the path the signal takes and
// the protocol counts. Planning (which rounds, which lines) is plain C++ in
// src/core (planner.hpp); backends only execute.
#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "cumap/options.hpp"
#include "cumap/protocol.hpp"

namespace cumap {

// A compute unit on a device: (GPU index, SM/CU/WGP id) or (0, CPU id).
// Several devices fit one plan (maps across GPUs); single-device backends
// reject a unit of another device.
struct UnitRef {
  int device = 0;
  int unit = 0;
  auto operator<=>(const UnitRef&) const = default;
};

// Maps, matrices and CSVs name a unit by one int. On one device it is the
// unit's own id (SM, CU, CPU). A run over several devices numbers unit u of
// device d as d * kDeviceUnitStride + u (written "g<d>.<u>" in CSVs), so ids of
// device 0 stay what they are; such a run's default device is 0.
inline constexpr int kDeviceUnitStride = 100000;
constexpr int unit_id(UnitRef u) { return u.device * kDeviceUnitStride + u.unit; }
// The unit an id names; ids below the stride are on `default_device` (the one
// a single-device run selected).
constexpr UnitRef unit_ref(int id, int default_device) {
  return id >= kDeviceUnitStride ? UnitRef{id / kDeviceUnitStride, id % kDeviceUnitStride} : UnitRef{default_device, id};
}
// The device of an id in a run across devices (whose default device is 0).
constexpr int device_of_id(int id) { return unit_ref(id, 0).device; }
// The inverse: the id of `u` in a run whose default device is `default_device`.
constexpr int unit_id(UnitRef u, int default_device) { return u.device == default_device ? u.unit : unit_id(u); }

// The flag arena: one allocation per device that holds flags, which a backend
// keeps for its lifetime (it reallocates only when a plan asks for a
// different size or offset), so that an offset names the same memory, and so
// the same L2 home, in every call: home discovery and the maps that choose
// lines by home depend on it. Every device's arena has this same layout.
// `offset_bytes` (--flag-offset) moves the whole arena that far into a larger
// allocation, to show that a result does not depend on one address.
struct FlagArena {
  std::uint64_t bytes = 64 * 1024;
  std::uint64_t offset_bytes = 0;
  bool operator==(const FlagArena&) const = default;
};

// Where a pair's two flags are: byte offsets into the flag arena of `device`,
// 4-byte aligned. The pinger of a round trip signals on `first` and waits on
// `second`. A pair on one device keeps its flags there; a pair across devices
// has them in the memory of one of its two (--flag-on).
struct FlagSite {
  std::uint64_t first = 0;
  std::uint64_t second = protocol::kSameLineGapBytes;
  int device = 0;  // last, so that {first, second} alone names flags on device 0
  bool operator==(const FlagSite&) const = default;
};

// One pair of a round. `tag` is the planner's label (which pass over the
// lines, which class), returned untouched with the pair's measurement.
struct PlannedPair {
  UnitRef a;  // pings first (and always, when ordered)
  UnitRef b;
  FlagSite flags;
  int tag = 0;
};

// Pairs that share no unit and no flag word. A backend runs them at once
// (up to its Capabilities::max_pairs_per_round) or one after another; the
// next round starts when every pair of this one has finished and reset its
// flags to zero, so a later round may reuse a line.
struct Round {
  std::vector<PlannedPair> pairs;
};

struct MeasurementPlan {
  std::vector<UnitRef> units;  // every unit that takes part, ascending; the others idle
  std::vector<Round> rounds;
  protocol::Counts counts;
  Probe probe = Probe::Cas;
  double timeout_ms = 1000.0;  // budget of every wait
  FlagArena arena;             // the layout of the flag arena of every device the pairs' flags are on
  Path path = Path::Global;
  bool flush_cache = false;  // flush the last-level cache before every round
  bool l2_persist = false;   // CUDA: the arena in a persisting-L2 window
  // The run's stop request (Ctrl-C), asked inside a long plan: the cpu
  // backend asks every 1024 round trips of a pair and during long waits,
  // from its measuring threads, so it must be safe to call from any thread.
  // True ends the plan early: pairs not finished are left out (neither
  // measured nor timed out) and Measurements::stopped is set. Empty: never.
  // GPU backends ask it between launches (CUDA) or rounds (HIP); inside a
  // launch, timeout_ms bounds every wait.
  std::function<bool()> stop;

  std::size_t pair_count() const {
    std::size_t n = 0;
    for (const Round& r : rounds) n += r.pairs.size();
    return n;
  }
};

// Home discovery: the latency of a chain of dependent atomics from each unit
// (one at a time, the others idle) to each line of the arena of `device`
// (homes are a device's own: its L2 slices). The units are on `device`, or,
// in a run across devices, all on other devices: they then reach the lines
// over the link, with the system-scope atomics of a pair across devices.
struct LineProbePlan {
  int device = 0;
  std::vector<UnitRef> units;
  std::vector<std::uint64_t> lines;  // byte offsets of 128-byte lines in the arena
  FlagArena arena;
  int chain = 32;    // dependent atomicAdd(p, 0) per timing
  int repeats = 3;   // timings per (unit, line); the table keeps the median
  // Every unit probes at once, each starting at its own line so that no two
  // chains meet on one line: one unit's time instead of all of theirs. The
  // cuda backend does; the hip and cpu backends probe one unit at a time
  // either way (their units run as separate launches or threads).
  bool together = true;
  // Nonzero: the lines are not the flag arena's but memory the caller owns
  // at this device address (the placement library's classify; `arena.bytes`
  // then spans it): a GPU backend probes it where it is, and refuses memory
  // whose lines have no fixed home (managed, host). 0: the flag arena.
  std::uintptr_t memory = 0;
};

}  // namespace cumap
