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
  kAbortWaitTimeout = 2    // waiting for the previous pair (or for all blocks) ran past its budget
};

// Bits of a pair's status word.
enum PairStatus : int {
  kPairOk = 0,
  kPingTimedOut = 1,
  kPongTimedOut = 2,
};

// The control words, each on a 128-byte line of its own: blocks that have
// arrived, pairs finished, blocks done flushing L2 (cumulative), abort code.
inline constexpr int kArrivedSlot = 0;
inline constexpr int kPairsDoneSlot = 32;
inline constexpr int kFlushedSlot = 64;
inline constexpr int kAbortSlot = 96;
inline constexpr std::size_t kControlWords = 128;
struct PingPongParams {
  const DevicePair* pairs;
  int pair_count;
  int iters;
  int samples;
  int warmup;
  int ordered;
  int probe;  // cumap::Probe as int
  std::uint64_t wait_budget_cycles;     // each flag wait
  std::uint64_t pair_budget_cycles;     // the longest a legitimate pair can take
  unsigned pair_ns_estimate;            // how long a pair usually takes: waiting blocks sleep by it
  int silent_sm = -1;                   // fault injection for tests: this SM never answers

  std::uint32_t* flag_first;   // written by the pinger of a round trip
  std::uint32_t* flag_second;  // written by the answering side
  std::uint32_t* flush_buffer; // nullptr: no L2 flush between pairs
  std::size_t flush_words;

  // Outputs.
  std::uint64_t* sample_cycles;  // [pair_count * samples]: cycles of `iters` round trips
  std::uint64_t* cold_cycles;    // [pair_count]: the first round trip alone
  int* pair_status;              // [pair_count]: PairStatus bits
  unsigned* sides_done;          // [pair_count]: sides that left the pair (the second one hands on)
  int* block_sm;                 // [gridDim]: %smid of each block
  int* sm_blocks;                // [sm_id_limit]: blocks that landed on each SM
  int sm_id_limit;
  unsigned* control;             // [kControlWords], zeroed by the host
  std::uint64_t* clock_marks;    // [4]: clock64 and %globaltimer at start and end, block 0
};

}  // namespace cumap::cuda
