#pragma once
// The narrow waist between the CUDA backend's host orchestration and the
// CUDA runtime: memory, the four kernels as whole launches (upload, launch,
// synchronize, read back), the persisting-L2 window, and the two coarse
// device experiments. CudaBackend (cuda_backend.cpp) talks only to this, so
// it builds with g++ and tests/cuda run it against a fake; the real
// implementation is cuda_runtime_real.cpp.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "backends/cuda/cuda_device_facts.hpp"
#include "backends/cuda/launch_params.hpp"
#include "backends/cuda/launch_plan.hpp"
#include "cumap/backend.hpp"
#include "cumap/coherence.hpp"
#include "cumap/topology.hpp"

namespace cumap::cuda {

using DeviceAddress = std::uintptr_t;  // a device pointer as a number; 0: none

// What every launch reports besides its records.
struct LaunchOutcome {
  unsigned abort_code = kNoAbort;
  std::array<std::uint64_t, 4> clock_marks{};  // block 0: clock64, %globaltimer at start and end
  double elapsed_ms = 0.0;                     // events around the launch
  std::vector<int> block_sm;                   // %smid of every block
};

// One ping-pong launch: whole rounds of the plan (launch_pairs), the flags at
// `arena` + 4 * word. A launch without pairs only checks every block in: the
// SM census.
struct PingPongLaunch {
  PingPongSettings settings;
  LaunchPairs pairs;
  DeviceAddress arena = 0;
  DeviceAddress flush_buffer = 0;  // with settings.flush_l2
  std::size_t flush_words = 0;
};
struct PingPongOutcome : LaunchOutcome {
  LaunchRecords records;
};

// One line-probe launch: the SMs of `turn_sms` probe every line in turn.
struct LineProbeLaunch {
  DeviceAddress arena = 0;
  std::vector<std::uint32_t> line_words;
  std::vector<int> turn_sms;
  int chain = 32;
  int repeats = 3;
  std::uint64_t turn_budget_cycles = 0;
  unsigned turn_ns_estimate = 0;
};
struct LineProbeOutcome : LaunchOutcome {
  std::vector<std::uint64_t> cycles;  // [turn][line][repeat]: cycles of a whole chain
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
  virtual PingPongOutcome run_pingpong(const PingPongLaunch& launch) = 0;
  virtual LineProbeOutcome run_line_probe(const LineProbeLaunch& launch) = 0;

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
