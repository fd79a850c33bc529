#pragma once
// A HipRuntime that simulates a device in memory: hardware-queue limits (a
// refusal, or silent time-slicing past the hardware's queues), masks the
// "driver" rejects or stripes across XCDs, round-trip timings, a line table
// with two home classes, and HW_ID/XCC_ID registers that do or do not match
// the masks. Lets the backend's host logic be tested without ROCm or a GPU.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "backends/hip/hip_runtime.hpp"

namespace cumap::testing {

struct FakeHipConfig {
  int devices = 1;
  std::string name = "Fake AMD Instinct";
  std::string arch = "gfx90a:sramecc+:xnack-";
  int cu_count = 64;
  int shader_engines = 4;  // per XCD
  // The driver stripes a linear CU mask across XCDs: bit i runs on XCD
  // i % xcds, as CU i / xcds of that XCD. Kernels read the XCD in XCC_ID.
  int xcds = 1;
  double shader_clock_hz = 1.7e9;
  double wall_clock_hz = 100e6;
  std::int64_t l2_bytes = 8 << 20;

  std::optional<std::size_t> queue_limit;  // creating stream K+1 fails: OutOfQueues
  // Hardware queues: with more streams alive, those beyond the first
  // `hw_queues` (in creation order) are time-sliced and a pair on one of
  // them never overlaps its partner: it times out with both kernels started,
  // or, with `time_sliced_cold_ticks`, completes after a time slice.
  std::optional<std::size_t> hw_queues;
  std::optional<std::uint64_t> time_sliced_cold_ticks;
  std::optional<int> rejected_cu;  // a mask containing this CU is rejected: Failed

  // Per round trip, by who pings it: the directions may differ.
  std::uint64_t cold_ticks = 400;       // first round trip (a pings)
  std::uint64_t a_ping_ticks = 150;     // wall_clock64 ticks
  std::uint64_t b_ping_ticks = 150;
  std::uint64_t a_ping_cycles = 2550;   // clock64 cycles
  std::uint64_t b_ping_cycles = 2550;
  // When set, every round trip (the cold one too) takes the wall ticks of the
  // CU that pings it, whichever side it plays, and the shader cycles those
  // ticks are at the two clocks' rates: who pinged shows in the times.
  std::map<int, std::uint64_t> ping_ticks_by_cu;
  double event_ms_factor = 1.2;  // kernel time (events) / time the round trips add up to

  // Line probing: lines of even address / 128 are near CUs of even mask
  // bit, odd lines near odd bits; ticks per dependent atomic.
  std::uint64_t near_line_ticks = 30;
  std::uint64_t far_line_ticks = 50;

  // Sync cases: participant 0 leaves episode e sync_episode_ticks + e after
  // e - 1; a contender's operation takes sync_op_ticks; participant p
  // starts its timed batches at tick 1000 + 10 p. Cycles are ticks at the
  // two clocks' rates.
  bool cooperative_launch = true;
  std::uint64_t sync_episode_ticks = 80;
  std::uint64_t sync_op_ticks = 20;

  // A program's own memory (start, bytes) as the runtime reports it: device
  // memory of this device (hipMalloc), managed, host; anything else unknown.
  std::vector<std::pair<HipBuffer, std::size_t>> program_memory, managed, host;

  std::optional<int> timeout_cu;   // any pair (or sync case) with this CU times out after 1 sample
  std::map<int, int> alias_cu;     // kernels on CU k report CU v's slot
  std::optional<int> drifting_cu;  // reports another slot on every second launch
};

class FakeHipRuntime final : public HipRuntime {
 public:
  explicit FakeHipRuntime(FakeHipConfig config) : config_(std::move(config)) {}

  int device_count() override { return config_.devices; }
  HipDeviceProperties properties(int device) override;
  void select_device(int device) override { selected_ = device; }
  StreamCreation create_cu_masked_stream(const std::vector<std::uint32_t>& mask) override;
  void destroy_stream(HipStream stream) override;
  HipBuffer allocate_flags(std::size_t bytes) override;
  void free_flags(HipBuffer buffer) override;
  MemoryFacts memory_facts(HipBuffer address) override;
  std::vector<PingPongResult> run_pairs(const std::vector<PingPongLaunch>& launches) override;
  LineProbeResult probe_lines(const LineProbeLaunch& launch) override;
  HipSyncResult run_sync(const HipSyncLaunch& launch) override;
  HwReading read_hw_id(HipStream stream) override;
  void flush_icache() override { ++icache_flushes; }
  void flush_l2() override { ++l2_flushes; }

  // The registers a kernel confined to mask bit `bit` would read.
  HwReading hw_reading_for_bit(int bit) const;

  // What happened, for the tests to check. CUs here are the lowest mask bit
  // of each stream.
  struct Launch {
    int a_cu;
    int b_cu;
    PingPongLaunch args;
    std::size_t call;  // which run_pairs call (a round or a wave of one)
  };
  std::vector<Launch> launches;
  struct SyncRun {
    std::vector<int> cus;  // per participant, from its stream
    HipSyncLaunch args;
  };
  std::vector<SyncRun> sync_runs;
  std::size_t run_pairs_calls = 0;
  std::size_t max_pairs_per_call = 0;
  std::size_t max_live_streams = 0;
  std::size_t streams_created = 0;
  int time_sliced_pairs = 0;
  std::size_t allocations = 0;
  int icache_flushes = 0;
  int l2_flushes = 0;
  std::size_t live_streams() const { return streams_.size(); }

 private:
  int cu_of(HipStream stream) const;
  bool time_sliced(HipStream stream) const;
  HwReading reported_reading(int cu);
  PingPongResult simulate(const PingPongLaunch& launch, int a, int b) const;

  FakeHipConfig config_;
  int selected_ = -1;
  HipStream next_handle_ = 1;
  std::map<HipStream, std::vector<std::uint32_t>> streams_;  // ascending handle = creation order
  std::map<HipBuffer, std::size_t> buffers_;
  int drift_launches_ = 0;
};

}  // namespace cumap::testing
