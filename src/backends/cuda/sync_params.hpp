#pragma once
// Plain data shared by the host code (g++) and the sync kernel (nvcc,
// C++17): what one launch of `cumap barrier` or `cumap contention` reads and
// writes. One launch runs one SyncCase; a case across GPUs is one launch on
// each, run together as a group (launch_params.hpp).
#include <cstddef>
#include <cstdint>

#include "backends/cuda/launch_params.hpp"
#include "cumap/protocol.hpp"

namespace cumap::cuda {

// What the participants of a launch do (sync.hpp's BarrierImpl and
// ContentionOp as one code).
enum SyncKind : int {
  kSyncCounter = 0,
  kSyncFlag = 1,
  kSyncTwoLevel = 2,
  kSyncPlatform = 3,      // grid.sync(): every block of the launch takes part
  kSyncContentionAdd = 4,
  kSyncContentionCas = 5,
};

CUMAP_HD constexpr bool is_contention(int kind) { return kind == kSyncContentionAdd || kind == kSyncContentionCas; }

// A participant's place in a two-level barrier; zeros elsewhere. Word
// offsets are from the flag arena's base, in 32-bit words.
// A participant's group is on its own GPU: its words are in that GPU's arena.
struct SyncRole {
  std::uint32_t group_counter_word;
  std::uint32_t group_release_word;
  unsigned group_size;  // participants in its group
  int leader;           // 1 for the group's first participant
  unsigned group;       // its group's number (its exchange counter's index)
};

struct SyncSettings {
  int kind = kSyncCounter;
  int probe = protocol::kCas;  // how waiting participants poll
  int warmup = 0;              // untimed episodes (batches) first
  int episodes = 1;            // timed ones
  int ops_per_batch = 1;       // contention
  std::uint64_t wait_budget_cycles = 0;  // every wait: the check-in and each barrier wait
  int silent_sm = -1;  // test hook (cuda_test_hooks.hpp): this SM's participant never arrives
  // The case spans GPUs: its counter, release flag and contended line are
  // reached with system-scope operations (over the link from the GPUs that
  // do not hold them). A case of one GPU keeps the .gpu operations.
  int system_scope = 0;
};

struct SyncParams {
  SyncSettings settings;
  // Addresses valid on this GPU: a peer address where another GPU's memory
  // holds the line.
  unsigned* counter;             // the case's counter (the contended line)
  unsigned* release;             // flag and two-level: the release flag
  std::uint32_t* arena;          // this GPU's arena: base of its two-level group words
  const int* participant_of_sm;  // [sm_id_limit]: participant index, -1 for none
  const SyncRole* roles;         // [participants]
  int participants;
  unsigned groups;               // two-level: groups (= leaders)
  // Zero at run time, unknown to the compiler: a contender's next address is
  // counter + (previous result & zero_mask), a dependence it cannot drop.
  unsigned zero_mask;

  // Barrier: participant 0's clock64 before the first episode, then as it
  // leaves each of the warmup + episodes episodes.
  std::uint64_t* leave_cycles;   // [warmup + episodes + 1]
  // Contention: each timed batch's cycles, participant-major, and each
  // participant's %globaltimer at the start of its first timed batch and the
  // end of its last.
  std::uint64_t* batch_cycles;   // [participants * episodes]
  std::uint64_t* span_ns;        // [participants * 2]
  unsigned* timed_out;           // set to 1 by any participant whose wait ran out

  // two-level across GPUs: the groups whose leaders meet by exchange (0:
  // they meet in a flag barrier on counter and release), and each group's
  // exchange counter, an address valid here (a peer address for another
  // GPU's group).
  unsigned exchange_groups;
  unsigned* exchange[kMaxGroupGpus];

  // The launch group (one member per GPU the case touches): every block of
  // every member checks in by adding to each member's control words and
  // waits on its own GPU's copy only, as the ping-pong does.
  int self;                            // this GPU's member number
  int group_size;                      // members: 1 for a case of one GPU
  unsigned group_blocks;               // blocks of every member together
  unsigned* controls[kMaxGroupGpus];   // every member's control words; controls[self] == control

  unsigned* control;             // [kControlWords] (launch_params.hpp), zeroed by the host
  int* block_sm;
  int* sm_blocks;
  int sm_id_limit;
  std::uint64_t* clock_marks;    // [4]: participant 0's clock64 and %globaltimer at start and end
};

}  // namespace cumap::cuda
