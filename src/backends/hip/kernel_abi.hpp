#pragma once
// What the host and the kernels agree on. Plain C++ with no HIP types,
// included by pingpong_kernels.hip (hipcc) and the runtime (g++). The probe
// codes and the order of round trips are protocol.hpp's.
#include <cstdint>

#include "cumap/protocol.hpp"

namespace cumap::hip_kernels {

// Written to SideStatus::timed_out when a wait ran out of budget, and to
// SideStatus::started when the kernel began (so the host can tell a side
// that never ran from one that waited in vain).
inline constexpr std::uint32_t kTimedOutMarker = 0x71AE0u;
inline constexpr std::uint32_t kStartedMarker = 0x57A87u;

// Which side of the pair a kernel plays: a (the pair's first unit) or b.
enum SideIndex : std::uint32_t { kSideA = 0, kSideB = 1 };

struct SideStatus {
  std::uint32_t hw_id;         // HW_ID (gfx9) or HW_ID1 (gfx10+), read at kernel start
  std::uint32_t xcc_id;        // XCC_ID on gfx940+ (MI300), 0 elsewhere
  std::uint32_t started;       // 0 or kStartedMarker
  std::uint32_t timed_out;     // 0 or kTimedOutMarker
  std::uint32_t samples_done;  // samples this side finished, every segment
  std::uint32_t reserved;
};

// Both sides run the same kernel on the same arguments and walk
// protocol::segment(counts, i) for i < protocol::segment_count(counts).
struct PingPongArgs {
  std::uint32_t* first;   // the pinger signals here (FlagSite::first)
  std::uint32_t* second;  // and waits here (FlagSite::second)
  cumap::protocol::Counts counts;
  std::uint64_t wait_budget_ticks;  // wall_clock64 ticks one wait may spin
  std::uint32_t probe;              // protocol::ProbeCode
  std::uint64_t* cold_ticks;        // the first round trip (a pings), wall_clock64 ticks
  std::uint64_t* a_ticks;           // [s]: the round trips a pinged in sample s (wall_clock64)
  std::uint64_t* b_ticks;           // [s]: the ones b pinged
  std::uint64_t* a_cycles;          // the same in clock64 cycles
  std::uint64_t* b_cycles;
  SideStatus* a_status;
  SideStatus* b_status;
};

// Home discovery: one wave times `repeats` chains of `chain` dependent
// atomicAdd(p, 0) on each of `line_count` lines.
struct LineProbeArgs {
  std::uint32_t* flags;
  const std::uint64_t* line_offsets;  // bytes from flags
  std::uint32_t line_count;
  std::uint32_t chain;
  std::uint32_t repeats;
  std::uint64_t* ticks;   // [line * repeats + r]
  std::uint64_t* cycles;  // [line * repeats + r]
};

// The icache flush launches this many one-wave blocks per CU, as Composable
// Kernel's ck::flush_icache does, so that every CU runs s_icache_inv.
inline constexpr int kIcacheFlushBlocksPerCu = 60;

}  // namespace cumap::hip_kernels
