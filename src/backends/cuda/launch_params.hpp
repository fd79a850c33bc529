#pragma once
// Plain data shared by the host code (g++) and the kernels (nvcc, C++17):
// what one launch of the ping-pong or line-probe kernel reads and writes in
// device memory. Only protocol.hpp from include/cumap: plan.hpp is C++20.
#include <cstddef>
#include <cstdint>

#include "cumap/protocol.hpp"

namespace cumap::cuda {

// A launch runs on a group of GPUs at once (one kernel per GPU, every SM of
// each holding one block): one GPU, or the GPUs of a map across devices.
// Members are numbered 0..group_size-1; this is the most a group holds.
inline constexpr int kMaxGroupGpus = 8;

// One pair of a launch, in plan order (so grouped by round). Flag words are
// offsets from the base of the flag arena of member flag_gpu, in 32-bit words.
struct DevicePair {
  int a;  // SM id that pings first (and always, when ordered)
  int b;
  int a_gpu;     // the group members a and b are on
  int b_gpu;
  int flag_gpu;  // the member whose memory holds the flags
  std::uint32_t first_word;   // the pinger of a round trip signals here
  std::uint32_t second_word;  // ... and waits here
  int round;                  // its round, counted from the launch's first
};

// Codes in the abort control word.
enum AbortCode : unsigned {
  kNoAbort = 0,
  kAbortSharedSm = 1,      // an SM holds more than one block: roles would be ambiguous
  kAbortWaitTimeout = 2    // waiting for a turn (or for all blocks) ran past its budget
};

// Bits of a pair's status word.
enum PairStatus : int {
  kPairOk = 0,
  kPingTimedOut = 1,
  kPongTimedOut = 2,
};

// The control words, each on a 128-byte line of its own: blocks that have
// arrived, pairs (or probe turns) finished, blocks done flushing L2
// (cumulative over rounds), abort code.
inline constexpr int kArrivedSlot = 0;
inline constexpr int kPairsDoneSlot = 32;
inline constexpr int kFlushedSlot = 64;
inline constexpr int kAbortSlot = 96;
inline constexpr std::size_t kControlWords = 128;

// How the ping-pong runs, the same for every launch of a measure() call.
struct PingPongSettings {
  protocol::Counts counts;
  int probe = protocol::kCas;
  std::uint64_t wait_budget_cycles = 0;   // each flag wait
  std::uint64_t round_budget_cycles = 0;  // the longest a legitimate round can take
  unsigned round_ns_estimate = 0;         // how long a round usually takes: waiting blocks sleep by it
  int silent_sm = -1;                     // test hook (cuda_test_hooks.hpp): this SM never answers
  bool flush_l2 = false;                  // --flush-cache: warps 1-3 flush L2 before every round
};

// What one ping-pong launch reads and writes (set up by the real runtime).
// Across GPUs every member runs the same pairs: its blocks play the pairs'
// sides on its own SMs. Pointers to other members' memory are peer
// addresses, valid here once peer access is enabled.
struct PingPongParams {
  PingPongSettings settings;
  const DevicePair* pairs;
  int pair_count;
  const unsigned* round_starts;  // [round_count + 1]: pairs before each round of the launch
  int round_count;
  unsigned round_width;          // most pairs in one round of the launch (>= 1): sleep arithmetic

  int self;                                // this GPU's member number
  int group_size;                          // members: 1 for a map of one GPU
  unsigned group_blocks;                   // blocks of every member together
  std::uint32_t* arenas[kMaxGroupGpus];    // each member's flag arena (flag words: + first_word, second_word)
  unsigned* controls[kMaxGroupGpus];       // each member's control words (kControlWords each, zeroed by the host)
  std::uint32_t* flush_buffer;             // nullptr without --flush-cache
  std::size_t flush_words;

  // Outputs, this member's: a pair's cycles are in the records of the member
  // whose SM pinged them (both members' records add up to the pair's).
  std::uint64_t* sample_cycles;  // [pair_count * samples]: cycles of `iters` round trips
  std::uint64_t* cold_cycles;    // [pair_count]: the first round trip alone
  int* pair_status;              // [pair_count]: PairStatus bits
  // [member][pair_count]: sides that left the pair, counted in the array of
  // the member that holds the pair's flags.
  unsigned* sides_done[kMaxGroupGpus];
  int* block_sm;                 // [gridDim]: %smid of each block
  int* sm_blocks;                // [sm_id_limit]: blocks that landed on each SM
  int sm_id_limit;
  std::uint64_t* clock_marks;    // [4]: clock64 and %globaltimer at start and end, block 0
};

// Home discovery: the SMs of the launch take turns; on its turn an SM times
// `chain` dependent atomics on every line, `repeats` times.
struct LineProbeParams {
  const std::uint32_t* arena;       // another GPU's (a peer address) when `remote`
  int remote;                       // nonzero: the lines are another GPU's, reached with system-scope atomics
  const std::uint32_t* line_words;  // [line_count]: word offsets from the arena base
  int line_count;
  int chain;
  int repeats;
  // Zero at run time, unknown to the compiler: the next address is
  // line + (previous result & zero_mask), which it cannot fold away.
  std::uint32_t zero_mask;
  const int* turn_of_sm;            // [sm_id_limit]: the SM's turn in this launch, -1: idle
  int turn_count;
  int together;                     // nonzero: every turn at once, each from its own first line
  std::uint64_t turn_budget_cycles; // the longest one turn can take
  unsigned turn_ns_estimate;

  std::uint64_t* cycles;            // [turn_count * line_count * repeats]
  int* block_sm;
  int* sm_blocks;
  int sm_id_limit;
  unsigned* control;                // [kControlWords]; kPairsDoneSlot counts finished turns
  std::uint64_t* clock_marks;
};

}  // namespace cumap::cuda
