#pragma once
// The narrow waist between the CUDA backend's host orchestration and the
// CUDA runtime: memory, the four kernels as whole launches (upload, launch,
// synchronize, read back), the persisting-L2 window, and the two coarse
// device experiments. CudaBackend (cuda_backend.cpp) talks only to this, so
// it builds with g++ and tests/backends/cuda run it against a fake; the real
// implementation is cuda_runtime_real.cpp.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "backends/cuda/cuda_device_facts.hpp"
#include "backends/cuda/launch_params.hpp"
#include "backends/cuda/launch_plan.hpp"
#include "backends/cuda/sync_params.hpp"
#include "cumap/backend.hpp"
#include "core/topology.hpp"
#include "plan/plan_checks.hpp"

namespace cumap::cuda {

using DeviceAddress = std::uintptr_t;  // a device pointer as a number; 0: none

// What every launch reports besides its records.
struct LaunchOutcome {
  unsigned abort_code = kNoAbort;
  std::array<std::uint64_t, 4> clock_marks{};  // block 0: clock64, %globaltimer at start and end
  double elapsed_ms = 0.0;                     // events around the launch
  std::vector<int> block_sm;                   // %smid of every block
};

// One ping-pong launch on one GPU of a launch group: whole rounds of the plan
// (launch_pairs), the same on every member. This GPU is member `self`;
// arenas[g] is member g's flag arena (flags at arenas[flag_gpu] + 4 * word)
// and controls[g] its control words, all addresses valid on this GPU (peer
// addresses across GPUs); sides_done[g] is member g's array of a word per
// pair, and a pair counts its sides in its flag member's. A launch without
// pairs only checks every block in: the SM census (a group of one: arenas
// {0}, controls {control_words()}, no sides_done).
struct PingPongLaunch {
  PingPongSettings settings;
  LaunchPairs pairs;
  int self = 0;
  std::vector<DeviceAddress> arenas;
  std::vector<DeviceAddress> controls;
  std::vector<DeviceAddress> sides_done;
  unsigned group_blocks = 0;       // blocks of all members together
  DeviceAddress flush_buffer = 0;  // with settings.flush_l2
  std::size_t flush_words = 0;
};

// What the CUDA runtime says about reaching another GPU's memory.
struct PeerAccess {
  bool can_access = false;     // cudaDeviceCanAccessPeer
  bool native_atomics = false; // cudaDevP2PAttrNativeAtomicSupported: atomics to the peer are done there
  int performance_rank = 0;    // cudaDevP2PAttrPerformanceRank: 0 is the best link the system has
};
struct PingPongOutcome : LaunchOutcome {
  LaunchRecords records;
};

// One line-probe launch: the SMs of `turn_sms` probe every line in turn.
// `remote`: the arena is another GPU's (a peer address), reached over the
// link with system-scope atomics.
struct LineProbeLaunch {
  DeviceAddress arena = 0;
  bool remote = false;
  std::vector<std::uint32_t> line_words;
  std::vector<int> turn_sms;
  bool together = false;  // every SM of turn_sms probes at once (LineProbePlan::together)
  int chain = 32;
  int repeats = 3;
  std::uint64_t turn_budget_cycles = 0;
  unsigned turn_ns_estimate = 0;
};
struct LineProbeOutcome : LaunchOutcome {
  std::vector<std::uint64_t> cycles;  // [turn][line][repeat]: cycles of a whole chain
};

// A word in the flag arena of a member of a launch group.
struct GroupWord {
  int member = 0;
  std::uint32_t word = 0;  // 32-bit words from that arena's base
};

// One case of a SyncPlan (`cumap barrier`, `cumap contention`) as one
// launch on one GPU of a launch group (sync_measure.hpp builds it): the
// GPUs the case touches, each running its part at the same time, as
// ping-pong launches do. This GPU is member `self`; arenas[g] is member g's
// flag arena and controls[g] its control words, all addresses valid on this
// GPU (peer addresses across GPUs). Word offsets are in 32-bit words from an
// arena's base. One GPU is a group of one (arenas {its arena}).
struct SyncLaunch {
  SyncSettings settings;
  int self = 0;
  std::vector<DeviceAddress> arenas;
  std::vector<DeviceAddress> controls;
  unsigned group_blocks = 0;  // blocks of every member together
  int counter_member = 0;     // whose arena holds the counter and the release flag
  std::uint32_t counter_word = 0;
  std::uint32_t release_word = 0;
  // In participant order (participant 0 times): each participant's SM, or -1
  // for one on another member.
  std::vector<int> participant_sms;
  std::vector<SyncRole> roles;       // two-level: per participant (its words in its own GPU's arena); else empty
  unsigned groups = 0;               // two-level: groups (their leaders meet)
  std::vector<GroupWord> exchange;   // two-level across GPUs: each group's exchange counter; else empty
  std::vector<std::uint32_t> zero_words;  // the case's words in this member's arena, zeroed before any member starts

  DeviceAddress own_arena() const { return arenas.at(static_cast<std::size_t>(self)); }
};
struct SyncOutcome : LaunchOutcome {
  bool timed_out = false;                   // a participant's wait ran out
  std::vector<std::uint64_t> leave_cycles;  // barrier: SyncParams::leave_cycles
  std::vector<std::uint64_t> batch_cycles;  // contention: SyncParams::batch_cycles
  std::vector<std::uint64_t> span_ns;       // contention: SyncParams::span_ns
};

class CudaRuntime {
 public:
  virtual ~CudaRuntime() = default;

  // Read once when the runtime opens the device; no kernel runs for them.
  virtual const DeviceFacts& facts() const = 0;
  // Dynamic shared memory every measuring block asks for (one block per SM).
  virtual std::size_t smem_per_block() const = 0;

  virtual std::size_t free_memory_bytes() = 0;
  virtual DeviceAddress allocate(std::size_t bytes) = 0;
  virtual void release(DeviceAddress memory) noexcept = 0;
  virtual void zero(DeviceAddress memory, std::size_t bytes) = 0;

  // clock64/%globaltimer marks around a stretch of spinning (as LaunchOutcome::clock_marks).
  virtual std::array<std::uint64_t, 4> calibrate_clock() = 0;

  // A ping-pong launch in three steps, so that a group's kernels run at the
  // same time: prepare uploads it and clears this GPU's records and control
  // words, and returns when that is done (every member's words must be clear
  // before any member starts: they add to each other's); start launches
  // without waiting; finish waits for the kernel and reads it back.
  virtual void prepare_pingpong(const PingPongLaunch& launch) = 0;
  virtual void start_pingpong() = 0;
  virtual PingPongOutcome finish_pingpong() = 0;
  PingPongOutcome run_pingpong(const PingPongLaunch& launch) {
    prepare_pingpong(launch);
    start_pingpong();
    return finish_pingpong();
  }
  // This GPU's control words (kControlWords), which ping-pong launches clear
  // in prepare_pingpong and the members of a group add to.
  virtual DeviceAddress control_words() const = 0;

  virtual LineProbeOutcome run_line_probe(const LineProbeLaunch& launch) = 0;
  // One sync case's launch on this GPU, in three steps as a ping-pong's, so
  // that the launches of a case across GPUs run at the same time: prepare
  // uploads it and zeroes this GPU's words of the case and control words,
  // and returns when that is done (every member's must be clear before any
  // member starts); start launches without waiting; finish waits for the
  // kernel and reads it back.
  virtual void prepare_sync(const SyncLaunch& launch) = 0;
  virtual void start_sync() = 0;
  virtual SyncOutcome finish_sync() = 0;

  // Checks that this GPU can reach `peer_ordinal`'s memory and enables it.
  virtual PeerAccess open_peer_access(int peer_ordinal) = 0;

  // What memory a caller's address is (cudaPointerGetAttributes): a line
  // has a fixed L2 home only in device memory, which stays where it is.
  virtual MemoryFacts memory_facts(DeviceAddress address) = 0;

  // --l2-persist: accesses to [base, base + bytes) persist in L2 until
  // cleared; returns the window's size (clamped to the device), 0 if the
  // device has none.
  virtual std::size_t set_persisting_window(DeviceAddress base, std::size_t bytes) = 0;
  virtual void clear_persisting_window() noexcept = 0;

  virtual Topology discover_gpcs(const std::vector<int>& sm_ids) = 0;
  virtual CoherenceReport check_coherence(int reader, int writer, double window_ms, double cycles_per_ns) = 0;
  // --via dsm: the whole cluster path (backends/cuda/dsm_map.hpp), which
  // launches clusters until the wanted pairs are covered or a budget runs out.
  virtual Measurements measure_dsm(const MeasurementPlan& plan, const std::vector<int>& sm_ids, double cycles_per_ns,
                                   const ProgressFn& progress) = 0;
};

}  // namespace cumap::cuda
