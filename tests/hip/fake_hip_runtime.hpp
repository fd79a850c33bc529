#pragma once
// A HipRuntime that simulates a device in memory: hardware-queue limits,
// masks the "driver" rejects, round-trip timings and HW_ID registers that do
// or do not match the masks. Lets the backend's host logic be tested on
// machines without ROCm or an AMD GPU.
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
  int shader_engines = 4;
  double shader_clock_hz = 1.7e9;
  double wall_clock_hz = 100e6;
  std::int64_t l2_bytes = 8 << 20;

  std::optional<std::size_t> queue_limit;  // creating stream K+1 fails: OutOfQueues
  std::optional<int> rejected_cu;          // a mask containing this CU is rejected: Failed

  // Per round trip, by who pings it: the directions may differ.
  std::uint64_t cold_ticks = 400;       // first round trip (a pings)
  std::uint64_t a_ping_ticks = 150;     // wall_clock64 ticks
  std::uint64_t b_ping_ticks = 150;
  std::uint64_t a_ping_cycles = 2550;   // clock64 cycles
  std::uint64_t b_ping_cycles = 2550;
  double event_ms_factor = 1.2;  // kernel time (events) / time the round trips add up to

  std::optional<int> timeout_cu;              // any pair with this CU times out after 1 sample
  std::map<int, int> alias_cu;                // kernels on CU k report CU v's slot
  std::optional<int> drifting_cu;             // reports another slot on every second launch
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
  PingPongResult run_ping_pong(const PingPongLaunch& launch) override;
  std::uint32_t read_hw_id(HipStream stream) override;
  void flush_icache() override { ++icache_flushes; }
  void flush_l2() override { ++l2_flushes; }

  // The raw register a kernel on `cu` would read with this config's layout.
  std::uint32_t hw_id_for_cu(int cu) const;

  // What happened, for the tests to check. Units here are the lowest CU of
  // each stream's mask.
  struct Launch {
    int a_cu;
    int b_cu;
    PingPongLaunch args;
  };
  std::vector<Launch> launches;
  std::size_t max_live_streams = 0;
  std::size_t streams_created = 0;
  int icache_flushes = 0;
  int l2_flushes = 0;
  std::size_t live_streams() const { return streams_.size(); }

 private:
  int cu_of(HipStream stream) const;
  std::uint32_t reported_hw_id(int cu);

  FakeHipConfig config_;
  int selected_ = -1;
  HipStream next_handle_ = 1;
  std::map<HipStream, std::vector<std::uint32_t>> streams_;
  std::set<HipBuffer> buffers_;
  int drift_launches_ = 0;
};

}  // namespace cumap::testing
