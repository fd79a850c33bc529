#pragma once
// What the host and the ping/pong kernels agree on. Plain C++ with no HIP
// types, included by pingpong_kernels.hip (hipcc) and the runtime (g++).
#include <cstdint>

namespace cumap::hip_kernels {

// How a side signals and polls (cumap::Probe, as a kernel argument). The
// same operations as the CUDA and CPU backends, so --probe compares alike.
enum ProbeCode : std::uint32_t {
  kProbeCas = 0,       // signal atomicCAS(k-1 -> k); poll atomicCAS(k -> k): every poll an RMW
  kProbeExch = 1,      // signal atomicExch(k); poll relaxed atomic load, agent scope
  kProbeAcqRel = 2,    // signal release store, poll acquire load, agent scope
  kProbeVolatile = 3,  // volatile store; poll volatile load
};

// Written to SideStatus::timed_out when a wait ran out of budget.
inline constexpr std::uint32_t kTimedOutMarker = 0x71AE0u;

// Index of a side in the per-side arrays: a (the pair's first unit) or b.
enum SideIndex : std::uint32_t { kSideA = 0, kSideB = 1 };

struct SideStatus {
  std::uint32_t hw_id;         // HW_ID (gfx9) or HW_ID1 (gfx10+), read at kernel start
  std::uint32_t timed_out;     // 0 or kTimedOutMarker
  std::uint32_t samples_done;  // samples this side finished, both halves
  std::uint32_t reserved;
};

// Both sides run the same kernel on the same arguments and walk the same
// sequence of round trips: the cold one and the warm-up (a pings), then per
// sample `a_share` round trips pinged by a and `iters - a_share` by b.
struct PingPongArgs {
  std::uint32_t* flags;        // the pinger's flag; the ponger's is flags + offset_words
  std::uint32_t offset_words;
  std::uint32_t iters;         // round trips per sample
  std::uint32_t a_share;       // of which a pings the first a_share
  std::uint32_t warmup;
  std::uint32_t samples;
  std::uint64_t wait_budget_ticks;  // wall_clock64 ticks one wait may spin
  std::uint32_t probe;              // ProbeCode
  std::uint64_t* cold_ticks;        // the first round trip (a pings), wall_clock64 ticks
  std::uint64_t* half_ticks[2];     // [side][s]: the round trips `side` pinged in sample s (wall_clock64)
  std::uint64_t* half_cycles[2];    // the same in clock64 cycles
  SideStatus* status[2];            // [side]
};

// The icache flush launches this many one-wave blocks per CU, as Composable
// Kernel's ck::flush_icache does, so that every CU runs s_icache_inv.
inline constexpr int kIcacheFlushBlocksPerCu = 60;

}  // namespace cumap::hip_kernels
