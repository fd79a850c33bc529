#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "backends/cpu/flag_memory.hpp"
#include "cumap/backend.hpp"
#include "cumap/sync.hpp"

namespace cumap::cpu {

// The words of one case in the flag memory (null where the case has none).
struct SyncWords {
  std::atomic<std::uint32_t>* counter = nullptr;
  std::atomic<std::uint32_t>* release = nullptr;
  std::vector<std::atomic<std::uint32_t>*> group_counter;
  std::vector<std::atomic<std::uint32_t>*> group_release;
};

struct SyncTiming {
  SyncMeasurement measurement;  // its tag is the case's
  // The stop request ended the case before its last episode: it has no
  // values (and did not time out).
  bool stopped = false;
};

// Runs one barrier or contention case: one thread per participant, pinned
// to the participant's CPU (participants[i].unit), all released together;
// returns when every thread has ended. The words must be zero on entry.
// `stop` (may be empty) is asked as the case goes; once it says true the
// case ends at once, stopped. Every wait is bounded by `timeout_ms`.
SyncTiming run_cpu_sync_case(const SyncCase& c, const SyncWords& words, Probe probe, double timeout_ms,
                             const std::function<bool()>& stop = {});

// The cpu backend's SyncSession (backend.hpp) over a checked plan: each case
// on its words in `memory`, zeroed before and after it (a later case may
// reuse them), timed by the wall clock around its threads.
std::unique_ptr<SyncSession> open_cpu_sync_session(const SyncPlan& plan, const FlagMemory& memory);

}  // namespace cumap::cpu
