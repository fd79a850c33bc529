#pragma once
// Synchronization beyond pairs: `cumap barrier` and `cumap contention`.
// The pair map says what one signal costs between two units; these say what
// a barrier of k units costs and where its counter should live, and what an
// atomic costs when k units hit one line. Planning (participant sets by
// structure, counter lines by home) is plain C++ in src/plan; a backend only
// executes a SyncPlan, the way it executes a MeasurementPlan.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cumap/plan.hpp"

namespace cumap {

// How the participants of a barrier meet. Each is a few lines beside the
// ping-pong in every backend.
//   counter    every participant adds 1 to one counter and polls it until it
//              reaches k * episode
//   flag       adds to the counter; the last arriver (whose add returned
//              k * episode - 1) writes the episode to a separate release
//              flag that the others poll (sense reversal by episode number)
//   two-level  flag barrier per group (side or GPC), each group's counter and
//              release flag in lines near the group; the group's leader (its
//              first participant) takes part in a flag barrier of the leaders
//              on the case's counter/release before releasing its group.
//              Across GPUs the groups are the GPUs and the leaders meet by
//              exchange instead (SyncCase::group_exchange), so that no
//              participant polls over the link
//   platform   the platform's own: cooperative_groups grid.sync() (CUDA,
//              every SM, one block each), std::barrier (cpu threads), HIP's
//              cooperative grid sync where the runtime has it
enum class BarrierImpl { Counter, Flag, TwoLevel, Platform };
// What each contender does on the one line, every operation depending on the
// previous one's result: cas increments with a CAS that expects the value the
// previous operation returned (a failed CAS counts as an operation too); add
// is fetch-add of 1.
enum class ContentionOp { Cas, Add };

// Names from one table per enum (core/sync_options.hpp).
std::string_view to_string(BarrierImpl i);   // "counter", "flag", "two-level", "platform"
std::string_view to_string(ContentionOp o);  // "cas", "add"
// The inverses; UsageError naming the choices for any other word.
BarrierImpl barrier_impl_from_string(std::string_view name);
ContentionOp contention_op_from_string(std::string_view name);

// One case: one implementation (or operation) among one participant set with
// its counter lines, run for `episodes` timed episodes after `warmup`.
struct SyncCase {
  bool contention = false;  // false: a barrier of `impl`; true: contention with `op`
  BarrierImpl impl = BarrierImpl::Counter;
  ContentionOp op = ContentionOp::Add;
  std::vector<UnitRef> participants;  // distinct; participant 0 times the barrier
  // Byte offsets into the flag arena, each in its own 128-byte line:
  // the counter (counter, flag, the leaders' level of two-level, the
  // contended line), and the release flag (flag and two-level).
  std::uint64_t counter = 0;
  std::uint64_t release = protocol::kLineBytes;
  // The device whose flag arena holds the counter and the release flag (every
  // device's arena has the same layout). A case whose participants or lines
  // are on more than one device runs at system scope: those on another device
  // than a line reach it over the link.
  int counter_gpu = 0;
  // two-level only: the group (index into group_counter) of each participant,
  // in participant order, and each group's counter and release lines. A
  // group's leader is its first participant in participant order.
  std::vector<int> group_of;
  std::vector<std::uint64_t> group_counter;
  std::vector<std::uint64_t> group_release;
  // The device holding each group's lines, which is its participants' device;
  // empty: every group's are on counter_gpu.
  std::vector<int> group_gpu;
  // two-level across devices: each group's exchange counter, a line on its
  // group_gpu. Each leader adds 1 to every other group's exchange counter and
  // polls its own until it holds (groups - 1) * episode, so no leader polls
  // over the link. `counter` is then the first group's exchange line (what
  // the outputs show as the counter) and `release` is unused. Empty: the
  // leaders meet in a flag barrier on counter and release.
  std::vector<std::uint64_t> group_exchange;
  int episodes = 200;  // barrier: timed episodes; contention: timed batches per participant
  int warmup = 20;     // untimed episodes (batches) first
  int ops_per_batch = 64;  // contention: dependent operations per timed batch
  int tag = 0;             // the planner's label, returned untouched
};

struct SyncPlan {
  std::vector<SyncCase> cases;  // run one after another, the other units idle
  Probe probe = Probe::Cas;     // how barrier participants poll (cas / exch / acq-rel / volatile)
  double timeout_ms = 1000.0;   // budget of every wait; a case that exceeds it is reported timed out
  FlagArena arena;              // the same arena (and so the same homes) as home discovery used
  // As MeasurementPlan::stop: asked before every case (SyncSession says the
  // rules) and inside long cpu waits; true ends the plan, the cases done so
  // far come back, `stopped` is set.
  std::function<bool()> stop;
};

struct SyncMeasurement {
  int tag = 0;
  // Barrier: per timed episode, the time participant 0 took from leaving
  // episode e-1 to leaving episode e (back-to-back barriers). Contention: per
  // participant and timed batch (participant-major), the batch's time / ops.
  std::vector<double> ns;
  std::vector<double> cycles;  // the same in device cycles; empty without a cycle clock
  // Contention: operations all participants completed per microsecond,
  // counted over the timed batches (from the first participant's start to
  // the last one's end; across devices, whose timers are not aligned, the
  // longest such span of one device's participants).
  double ops_per_us = 0.0;
  bool timed_out = false;
  // The backend cannot run this case here (grid.sync() with fewer than every
  // SM, a runtime without cooperative launch): `why` says so; not an error.
  bool unsupported = false;
  std::string why;
};

// The device holding group `g`'s lines (SyncCase::group_gpu).
inline int group_gpu_of(const SyncCase& c, std::size_t g) {
  return c.group_gpu.empty() ? c.counter_gpu : c.group_gpu.at(g);
}

// A case the backend cannot run here, and why.
inline SyncMeasurement unsupported_case(const SyncCase& c, std::string why) {
  SyncMeasurement m;
  m.tag = c.tag;
  m.unsupported = true;
  m.why = std::move(why);
  return m;
}

// A whole plan's cases, as measure_sync_plan (run/sync_run.hpp) collects them.
struct SyncMeasurements {
  std::vector<SyncMeasurement> cases;  // in plan order; fewer when stopped
  double device_seconds = 0.0;
  double clock_hz = 0.0;  // cycle counter rate measured during the run; 0 without one
  bool stopped = false;
};

}  // namespace cumap
