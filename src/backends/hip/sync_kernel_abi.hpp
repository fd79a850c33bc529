#pragma once
// What the host and the sync kernels (sync_kernels.hip) agree on: plain C++
// with no HIP types, included by hipcc and g++ alike.
#include <cstdint>

#include "backends/hip/kernel_abi.hpp"

namespace cumap::hip_kernels {

// HipSyncKind's numbering (hip_runtime.hpp).
enum SyncKernelKind : std::uint32_t {
  kSyncCounter = 0,
  kSyncFlag = 1,
  kSyncTwoLevel = 2,
  kSyncPlatform = 3,
  kSyncContentionAdd = 4,
  kSyncContentionCas = 5,
};

struct SyncRole {  // two-level: the participant's group
  std::uint32_t* group_counter;
  std::uint32_t* group_release;
  std::uint32_t group_size;
  std::uint32_t leader;  // 1 for the group's first participant
};

// Every participant's kernel gets the same arguments and its index.
struct SyncArgs {
  std::uint32_t kind;
  std::uint32_t probe;  // protocol::ProbeCode: how waiting participants poll
  std::uint32_t* counter;
  std::uint32_t* release;
  // The participants count themselves in here before the first episode (or
  // batch): their kernels start one stream at a time, and contention needs
  // them all running together. Zeroed by the host, not an arena word.
  std::uint32_t* started;
  const SyncRole* roles;  // [participants], two-level
  std::uint32_t participants;
  std::uint32_t groups;
  std::int32_t warmup;
  std::int32_t episodes;
  std::int32_t ops_per_batch;
  std::uint64_t wait_budget_ticks;  // wall_clock64 ticks one wait may spin
  // Zero at run time, unknown to the compiler: a contender's next address
  // is counter + (previous result & zero_mask), a dependence it must keep.
  std::uint32_t zero_mask;
  std::uint64_t* leave_ticks;   // [warmup + episodes + 1], participant 0
  std::uint64_t* leave_cycles;
  std::uint64_t* batch_ticks;   // [participants * episodes]
  std::uint64_t* batch_cycles;
  std::uint64_t* span_ticks;    // [participants * 2]
  SideStatus* status;           // [participants]: hardware id, started, timed out
};

}  // namespace cumap::hip_kernels
