#pragma once
// What the host and the ping/pong kernels agree on. Plain C++ with no HIP
// types, included by pingpong_kernels.hip (hipcc) and the runtime (g++).
#include <cstdint>

namespace cumap::hip_kernels {

// How a side signals and polls (cumap::Probe, as a kernel argument).
enum ProbeCode : std::uint32_t {
  kProbeCas = 0,       // signal atomicCAS(k-1 -> k); poll atomicCAS(k, k)
  kProbeExch = 1,      // signal atomicExch(k); poll atomicCAS(k, k)
  kProbeAcqRel = 2,    // signal release store, poll acquire load, agent scope
  kProbeVolatile = 3,  // volatile store + __threadfence(); volatile load
};

// Written to SideStatus::timed_out when a wait ran out of budget.
inline constexpr std::uint32_t kTimedOutMarker = 0x71AE0u;

struct SideStatus {
  std::uint32_t hw_id;         // HW_ID (gfx9) or HW_ID1 (gfx10+), read at kernel start
  std::uint32_t timed_out;     // 0 or kTimedOutMarker
  std::uint32_t samples_done;  // ping only: samples whose ticks are valid
  std::uint32_t reserved;
};

struct PingPongArgs {
  std::uint32_t* flags;        // the ping side's flag; pong's is flags + offset_words
  std::uint32_t offset_words;
  std::uint32_t iters;
  std::uint32_t warmup;
  std::uint32_t samples;
  std::uint64_t wait_budget_ticks;  // wall_clock64 ticks one wait may spin
  std::uint32_t probe;              // ProbeCode
  std::uint64_t* ticks;             // [0]: cold round trip; [1 + s]: sample s (wall_clock64)
  std::uint64_t* cycles;            // [s]: sample s (clock64)
  SideStatus* ping_status;
  SideStatus* pong_status;
};

// The icache flush launches this many one-wave blocks per CU, as Composable
// Kernel's ck::flush_icache does, so that every CU runs s_icache_inv.
inline constexpr int kIcacheFlushBlocksPerCu = 60;

}  // namespace cumap::hip_kernels
