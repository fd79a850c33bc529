#pragma once
// A CudaRuntime that simulates a GPU in memory: allocations, launches that
// complete their pairs with synthetic timings (or time out a chosen SM),
// line probes with two "L2 halves", abort codes on demand. Records every
// call so that tests check the backend's orchestration without a GPU.
// Several fakes with different ordinals form a group as real GPUs do: each
// reports, for the pairs of a launch, the cycles of the sides its own SMs
// pinged, so the backend must add the members' records up.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "backends/cuda/cuda_runtime.hpp"

namespace cumap::testing {

struct FakeCudaConfig {
  int ordinal = 0;
  std::string name = "Fake NVIDIA H100";  // the model, as cudaGetDeviceProperties names it
  std::string pci_bus_id = "0000:65:00.0";  // one the fake NVML knows (serial FAKE65)
  std::vector<int> sm_ids{0, 1, 2, 3, 4, 5, 6, 7};
  bool peer_access = true;    // open_peer_access: can this GPU reach the others?
  bool peer_atomics = true;   // ... with native atomics?
  int cc_major = 9;
  double max_sm_clock_hz = 1.98e9;
  std::size_t l2_bytes = 1 << 20;
  std::size_t free_memory_bytes = std::size_t{1} << 30;
  std::size_t persisting_l2_max_bytes = 4 << 20;

  double run_cycles_per_ns = 1.5;          // the SM clock launches report in their marks
  double calibration_cycles_per_ns = 1.6;  // what calibrate_clock reports
  double round_ms = 4.0;                   // how long one round "takes" (marks and events)
  std::uint64_t cold_cycles = 900;         // per round trip
  std::uint64_t a_ping_cycles = 600;       // per round trip pinged by a
  std::uint64_t b_ping_cycles = 700;       // per round trip pinged by b
  // When set, every round trip (the cold one too) costs the cycles of the SM
  // that pings it, whichever side that SM plays: who pinged shows in the times.
  std::map<int, std::uint64_t> ping_cycles_by_sm;
  std::optional<int> timeout_sm;           // every pair (and sync case) with this SM times out
  // Every ping-pong launch with pairs, and every sync launch, ends with this abort code.
  std::optional<unsigned> abort_launch;

  // Sync cases: participant 0 leaves episode e sync_episode_cycles + e after
  // e - 1 (so that episodes differ); a contender's batch takes
  // sync_op_cycles per operation; participant p starts its timed batches at
  // globaltimer_offset_ns + p * 100 ns and ends them sync_span_ns later; a
  // launch lasts sync_case_ms. Each GPU records its own participants only.
  std::uint64_t sync_episode_cycles = 1800;
  std::uint64_t sync_op_cycles = 400;
  std::uint64_t sync_span_ns = 100000;
  double sync_case_ms = 1.0;
  std::uint64_t globaltimer_offset_ns = 0;  // GPUs' %globaltimer are not aligned

  // Cycles per dependent atomic from `sm` to the line at word `word`: lines
  // in the SM's own half (line parity == SM parity) are near.
  double near_cycles = 312;
  double far_cycles = 512;

  // Addresses memory_facts calls managed or host memory (start, bytes);
  // this fake's own allocations are its device memory, anything else unknown.
  std::vector<std::pair<cuda::DeviceAddress, std::size_t>> managed;
  std::vector<std::pair<cuda::DeviceAddress, std::size_t>> host;
};

class FakeCudaRuntime final : public cuda::CudaRuntime {
 public:
  explicit FakeCudaRuntime(FakeCudaConfig config);

  const cuda::DeviceFacts& facts() const override { return facts_; }
  std::size_t smem_per_block() const override { return 227 * 1024; }
  std::size_t free_memory_bytes() override { return config_.free_memory_bytes; }
  cuda::DeviceAddress allocate(std::size_t bytes) override;
  void release(cuda::DeviceAddress memory) noexcept override { live_.erase(memory); }
  void zero(cuda::DeviceAddress memory, std::size_t bytes) override;
  std::array<std::uint64_t, 4> calibrate_clock() override;
  void prepare_pingpong(const cuda::PingPongLaunch& launch) override;
  void start_pingpong() override;
  cuda::PingPongOutcome finish_pingpong() override;
  cuda::DeviceAddress control_words() const override { return control_; }
  cuda::PeerAccess open_peer_access(int peer_ordinal) override;
  MemoryFacts memory_facts(cuda::DeviceAddress address) override;
  cuda::LineProbeOutcome run_line_probe(const cuda::LineProbeLaunch& launch) override;
  void prepare_sync(const cuda::SyncLaunch& launch) override;
  void start_sync() override;
  cuda::SyncOutcome finish_sync() override;
  std::size_t set_persisting_window(cuda::DeviceAddress base, std::size_t bytes) override;
  void clear_persisting_window() noexcept override { window_live = false; }
  Topology discover_gpcs(const std::vector<int>& sm_ids) override;
  CoherenceReport check_coherence(int reader, int writer, double window_ms, double cycles_per_ns) override;
  // The cluster path is its own kernel; here it only records that it was asked.
  Measurements measure_dsm(const MeasurementPlan& plan, const std::vector<int>& sm_ids, double cycles_per_ns,
                           const ProgressFn& progress) override;
  int dsm_calls = 0;

  double cycles_to_line(int sm, std::uint32_t word) const;

  // What happened, for the tests to check.
  std::vector<cuda::PingPongLaunch> pingpong_launches;  // with pairs (the census is counted apart)
  std::vector<cuda::LineProbeLaunch> probe_launches;
  std::vector<cuda::SyncLaunch> sync_launches;  // as prepared
  int sync_started = 0;                          // start_sync calls
  int census_launches = 0;
  std::vector<int> peers_opened;  // open_peer_access's arguments, in order
  int started = 0;                // start_pingpong calls
  int calibrations = 0;
  int allocations = 0;
  int zeroes = 0;
  std::map<cuda::DeviceAddress, std::size_t> live_;  // allocations not yet released
  bool window_live = false;
  std::size_t window_bytes = 0;

 private:
  // The live allocation holding [address, address + bytes); throws otherwise.
  void check_inside(cuda::DeviceAddress address, std::size_t bytes) const;
  std::array<std::uint64_t, 4> marks_for(double ms) const;
  // Cycles of one round trip that `sm` pings, as side a or b.
  std::uint64_t ping_cycles(int sm, bool a_pings) const;

  FakeCudaConfig config_;
  cuda::DeviceFacts facts_;
  cuda::DeviceAddress next_;                    // deliberately not 64 KiB aligned; apart per ordinal
  cuda::DeviceAddress control_;
  std::optional<cuda::PingPongLaunch> prepared_;
  std::optional<cuda::SyncLaunch> prepared_sync_;
  bool sync_running_ = false;
};

}  // namespace cumap::testing
