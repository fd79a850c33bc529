#pragma once
// Plain data shared by the host code (g++) and the kernels (nvcc): what one
// launch of the persistent ping-pong kernel reads and writes in device memory.
#include <cstddef>
#include <cstdint>

namespace cumap::cuda {

struct DevicePair {
  int a;  // SM id that pings first (and always, when ordered)
  int b;
};

// Codes in PingPongParams::control[kAbortSlot].
enum AbortCode : unsigned {
  kNoAbort = 0,
  kAbortSharedSm = 1,      // an SM holds more than one block: roles would be ambiguous
  kAbortBarrierTimeout = 2 // a device-wide barrier ran past its budget
};

// Bits of a pair's status word.
enum PairStatus : int {
  kPairOk = 0,
  kPingTimedOut = 1,
  kPongTimedOut = 2,
};

// The control buffer: the barrier's arrival counter and the abort word on
// lines of their own, then one 128-byte wake line per block.
inline constexpr int kBarrierCountSlot = 0;
inline constexpr int kAbortSlot = 32;
inline constexpr int kWakeSlot = 64;
inline constexpr int kWakeStride = 32;
inline constexpr std::size_t control_words(int blocks) { return kWakeSlot + static_cast<std::size_t>(blocks) * kWakeStride; }

struct PingPongParams {
  const DevicePair* pairs;
  int pair_count;
  int iters;
  int samples;
  int warmup;
  int ordered;
  int probe;  // cumap::Probe as int
  std::uint64_t wait_budget_cycles;     // each flag wait
  std::uint64_t barrier_budget_cycles;  // each device-wide barrier

  std::uint32_t* flag_first;   // written by the pinger of a round trip
  std::uint32_t* flag_second;  // written by the answering side
  std::uint32_t* flush_buffer; // nullptr: no L2 flush between pairs
  std::size_t flush_words;

  // Outputs.
  std::uint64_t* sample_cycles;  // [pair_count * samples]: cycles of `iters` round trips
  std::uint64_t* cold_cycles;    // [pair_count]: the first round trip alone
  int* pair_status;              // [pair_count]: PairStatus bits
  int* block_sm;                 // [gridDim]: %smid of each block
  int* sm_blocks;                // [sm_id_limit]: blocks that landed on each SM
  int sm_id_limit;
  unsigned* control;             // [control_words(gridDim)], zeroed by the host
  std::uint64_t* clock_marks;    // [4]: clock64 and %globaltimer at start and end, block 0
};

}  // namespace cumap::cuda
