#pragma once
// The narrow waist between the HIP backend and the HIP runtime. The backend's
// logic (masks, stream pool, pair sequencing, HW_ID checks) talks only to this
// interface, so it builds with plain g++ and is tested against a fake runtime;
// only hip_runtime_real.cpp and pingpong_kernels.hip need ROCm.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cumap/options.hpp"
#include "cumap/protocol.hpp"
#include "plan/plan_checks.hpp"

namespace cumap {

struct HipDeviceProperties {
  std::string name;           // hipDeviceProp_t::name
  std::string gcn_arch_name;  // "gfx90a:sramecc+:xnack-"
  int cu_count = 0;           // multiProcessorCount
  double shader_clock_hz = 0.0;  // peak shader clock: the rate of clock64()
  double wall_clock_hz = 0.0;    // rate of wall_clock64() (s_memrealtime)
  std::string wall_clock_rate_source;  // how wall_clock_hz was found
  std::int64_t l2_cache_bytes = 0;
  std::string runtime_version;
  std::string driver_version;
  bool cooperative_launch = false;  // hipDeviceAttributeCooperativeLaunch: grid sync is possible
};

// Opaque handles; 0 is "none".
using HipStream = std::uintptr_t;
using HipBuffer = std::uintptr_t;

enum class StreamCreateStatus {
  Created,
  OutOfQueues,  // the device has no hardware queue left: recoverable by freeing one
  Failed,       // anything else (a bad mask, a lost device): not recoverable
};

struct StreamCreation {
  StreamCreateStatus status = StreamCreateStatus::Failed;
  HipStream stream = 0;
  std::string error;  // the runtime's words when not Created
};

// Where a kernel ran: the raw hardware-id register (HW_ID on gfx9, HW_ID1 on
// gfx10+) and, on gfx940+ (MI300), XCC_ID (0 elsewhere).
struct HwReading {
  std::uint32_t hw_id = 0;
  std::uint32_t xcc_id = 0;
  bool operator==(const HwReading&) const = default;
};

// One pair of a round: the ping-pong kernel as side a on a's masked stream
// and as side b on b's. Both kernels walk protocol::segment over `counts`;
// the pinger signals on the word at `first_offset_bytes` and waits on the
// one at `second_offset_bytes` (offsets from the start of `flags`).
struct PingPongLaunch {
  HipStream a_stream = 0;
  HipStream b_stream = 0;
  HipBuffer flags = 0;
  std::uint64_t first_offset_bytes = 0;
  std::uint64_t second_offset_bytes = protocol::kSameLineGapBytes;
  protocol::Counts counts;
  std::uint64_t wait_budget_ticks = 0;  // wall_clock64 ticks any single wait may take
  protocol::ProbeCode probe = protocol::kCas;
};

// The round trips one side pinged, per completed sample.
struct PingerHalves {
  std::vector<std::uint64_t> ticks;   // wall_clock64 ticks
  std::vector<std::uint64_t> cycles;  // clock64() shader cycles
};

struct PingPongResult {
  std::uint64_t cold_ticks = 0;  // first round trip alone (a pings), wall_clock64 ticks; 0 if never done
  PingerHalves a_pinged;         // per sample: the round trips a pinged
  PingerHalves b_pinged;         // per sample: the rest, pinged by b (zeros when a pinged all)
  bool timed_out = false;        // a wait ran out of budget; samples incomplete
  bool both_started = false;     // both kernels began (each wrote its hardware id)
  double event_ms = 0.0;         // hipEventElapsedTime around side a's kernel (the whole pair)
  HwReading a_hw;
  HwReading b_hw;
};

// Home discovery from one unit: `repeats` timings of `chain` dependent
// atomicAdd(p, 0) on each line, one wave on the unit's masked stream.
struct LineProbeLaunch {
  HipStream stream = 0;
  HipBuffer flags = 0;
  std::vector<std::uint64_t> line_offsets;  // from the start of `flags`
  int chain = 32;
  int repeats = 3;
};

// [line * repeats + r]: one chain's wall_clock64 ticks and clock64 cycles.
struct LineProbeResult {
  std::vector<std::uint64_t> ticks;
  std::vector<std::uint64_t> cycles;
};

// One case of a SyncPlan (`cumap barrier`, `cumap contention`), built by
// hip_sync.hpp. Each participant is a one-wave kernel on its unit's
// CU-masked stream (`streams`, participant order), all resident at once;
// the platform barrier is instead one cooperative launch of
// `platform_blocks` blocks synchronizing with grid sync (no streams).
// Offsets are bytes from the start of `flags`.
enum class HipSyncKind : std::uint32_t { Counter, Flag, TwoLevel, Platform, ContentionAdd, ContentionCas };
struct HipSyncRole {  // two-level: the participant's group
  std::uint64_t group_counter_offset = 0;
  std::uint64_t group_release_offset = 0;
  std::uint32_t group_size = 0;
  bool leader = false;  // the group's first participant
};
struct HipSyncLaunch {
  HipSyncKind kind = HipSyncKind::Counter;
  protocol::ProbeCode probe = protocol::kCas;
  std::vector<HipStream> streams;
  int platform_blocks = 0;
  HipBuffer flags = 0;
  std::uint64_t counter_offset = 0;
  std::uint64_t release_offset = 0;
  std::vector<HipSyncRole> roles;  // two-level: per participant; else empty
  std::uint32_t groups = 0;
  int warmup = 0;
  int episodes = 1;
  int ops_per_batch = 1;
  std::uint64_t wait_budget_ticks = 0;       // each wait, the participants' start included
  std::vector<std::uint64_t> zero_offsets;   // the case's words, zeroed before it starts
};
struct HipSyncResult {
  bool timed_out = false;    // a participant's wait ran out
  bool all_started = false;  // every participant's kernel began
  // Barrier: participant 0 (block 0 of the platform barrier) before the first
  // episode and as it leaves each, wall_clock64 ticks and clock64 cycles.
  std::vector<std::uint64_t> leave_ticks;
  std::vector<std::uint64_t> leave_cycles;
  // Contention: each timed batch, participant-major; each participant's
  // wall_clock64 at the start of its first timed batch and the end of its last.
  std::vector<std::uint64_t> batch_ticks;
  std::vector<std::uint64_t> batch_cycles;
  std::vector<std::uint64_t> span_ticks;
  std::vector<HwReading> hw;  // per participant (not for the platform barrier)
  double event_ms = 0.0;      // hipEvents around the case's launches
};

class HipRuntime {
 public:
  virtual ~HipRuntime() = default;

  // 0 when there is no AMD GPU (hipErrorNoDevice is not a failure here).
  virtual int device_count() = 0;
  virtual HipDeviceProperties properties(int device) = 0;
  virtual void select_device(int device) = 0;

  // `mask` has one bit per CU, 32 CUs a word (hipExtStreamCreateWithCUMask).
  virtual StreamCreation create_cu_masked_stream(const std::vector<std::uint32_t>& mask) = 0;
  virtual void destroy_stream(HipStream stream) = 0;

  // Zeroed device memory for the flag arena.
  virtual HipBuffer allocate_flags(std::size_t bytes) = 0;
  virtual void free_flags(HipBuffer buffer) = 0;
  // What memory a caller's address is (the placement library classifies a
  // program's own allocations): a line has a fixed home only in device memory.
  virtual MemoryFacts memory_facts(HipBuffer address) = 0;

  // Launches every pair of a round (their streams are distinct), waits for
  // all of them, then zeroes each pair's two flag words so that a later
  // round may reuse them. The flags must be zero on entry. Results in order.
  virtual std::vector<PingPongResult> run_pairs(const std::vector<PingPongLaunch>& launches) = 0;
  virtual LineProbeResult probe_lines(const LineProbeLaunch& launch) = 0;
  // One sync case: zeroes its words, launches, waits for every kernel and
  // reads the results back.
  virtual HipSyncResult run_sync(const HipSyncLaunch& launch) = 0;
  // Where a one-wave kernel on `stream` runs.
  virtual HwReading read_hw_id(HipStream stream) = 0;

  // Cold-cache controls: invalidate every CU's instruction cache; evict L2
  // by writing a buffer larger than it.
  virtual void flush_icache() = 0;
  virtual void flush_l2() = 0;
};

}  // namespace cumap
