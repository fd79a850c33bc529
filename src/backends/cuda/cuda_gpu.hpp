#pragma once
// One GPU of the CUDA backend: its runtime and what the backend keeps on it
// (the SM census, clocks, the flag arena, the flush buffer, the group's
// sides-done words). The backend (cuda_backend.cpp) holds one per GPU it
// measures. Plain C++ over the CudaRuntime seam.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "backends/cuda/cuda_runtime.hpp"
#include "cumap/plan.hpp"
#include "core/topology.hpp"

namespace cumap::cuda {

// Device memory owned through a runtime.
class DeviceMemory {
 public:
  DeviceMemory(CudaRuntime& rt, std::size_t bytes) : rt_(&rt), bytes_(bytes), address_(rt.allocate(bytes)) {}
  ~DeviceMemory() { rt_->release(address_); }
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  DeviceAddress address() const { return address_; }
  std::size_t bytes() const { return bytes_; }

 private:
  CudaRuntime* rt_;
  std::size_t bytes_;
  DeviceAddress address_;
};

// Cycles and ns of the launches long enough to time the SM clock themselves.
struct ClockTally {
  double cycles = 0;
  double ns = 0;
  void add(const std::array<std::uint64_t, 4>& m);
  double cycles_per_ns() const;
};

class CudaGpu {
 public:
  explicit CudaGpu(std::unique_ptr<CudaRuntime> runtime) : rt_(std::move(runtime)) {}

  CudaRuntime& runtime() const { return *rt_; }
  const DeviceFacts& facts() const { return rt_->facts(); }
  int ordinal() const { return rt_->facts().ordinal; }

  // Which %smid values exist: a launch with no pairs (on first use), which
  // also checks that every SM holds exactly one block.
  const std::vector<int>& sm_ids() const;
  Topology topology();

  // The SM clock: measured by a launch of at least 10 ms (added to
  // `run_clock` and this GPU's lifetime tally), else what longer launches
  // measured so far, else the calibration kernel's.
  double launch_cycles_per_ns(const LaunchOutcome& done, ClockTally& run_clock);
  double fallback_cycles_per_ns() const;
  double calibrated_cycles_per_ns() const;

  // The arena of `wanted` on this GPU, allocated on first use and kept while
  // plans ask for the same one, so that an offset names the same memory (and
  // L2 home) in every call; and the flush buffer when asked. Returns the
  // arena's base (offset 0).
  DeviceAddress arena_for(const FlagArena& wanted, bool with_flush);
  void zero_arena();
  DeviceAddress flush_buffer() const { return flush_ ? flush_->address() : 0; }
  std::size_t flush_words() const { return flush_ ? flush_->bytes() / sizeof(std::uint32_t) : 0; }
  // One cleared word per pair of a launch, for the whole group.
  DeviceAddress cleared_sides_done(std::size_t pairs);

 private:
  // Memory the device cannot spare is bad input, not a failure.
  void check_fits(std::size_t bytes, const char* what) const;

  std::unique_ptr<CudaRuntime> rt_;  // first: the memory below is released through it
  mutable std::optional<std::vector<int>> sm_ids_;
  mutable std::optional<double> calibrated_cpn_;
  std::optional<Topology> topology_;
  ClockTally lifetime_clock_;
  FlagArena arena_spec_;
  std::optional<DeviceMemory> arena_;
  std::optional<DeviceMemory> flush_;
  std::optional<DeviceMemory> sides_done_;
};

// UsageError or RuntimeFailure for a launch that stopped: the kernel's abort code.
void check_abort(const LaunchOutcome& done, const char* kernel);

// A launch that spans GPUs in CudaRuntime's three steps (a ping-pong's, or
// a sync case's): every member is prepared (its words cleared: the others
// add to them) before any starts. A member that fails to start leaves the
// others running until their waits give up (bounded by their budget); they
// are still waited for before the error goes on, the first error being the
// one to report.
template <typename Launch, typename Outcome>
struct GroupSteps {
  void (CudaRuntime::*prepare)(const Launch&);
  void (CudaRuntime::*start)();
  Outcome (CudaRuntime::*finish)();
};
inline constexpr GroupSteps<PingPongLaunch, PingPongOutcome> kPingPongSteps{
    &CudaRuntime::prepare_pingpong, &CudaRuntime::start_pingpong, &CudaRuntime::finish_pingpong};
inline constexpr GroupSteps<SyncLaunch, SyncOutcome> kSyncSteps{&CudaRuntime::prepare_sync, &CudaRuntime::start_sync,
                                                                &CudaRuntime::finish_sync};

template <typename Launch, typename Outcome>
void start_group(const std::vector<CudaGpu*>& members, const std::vector<Launch>& launches,
                 const GroupSteps<Launch, Outcome>& steps) {
  for (std::size_t g = 0; g < members.size(); ++g) (members[g]->runtime().*steps.prepare)(launches[g]);
  std::size_t started = 0;
  try {
    for (; started < members.size(); ++started) (members[started]->runtime().*steps.start)();
  } catch (...) {
    for (std::size_t g = 0; g < started; ++g) {
      try {
        (members[g]->runtime().*steps.finish)();
      } catch (...) {  // the first error is the one to report
      }
    }
    throw;
  }
}

// Waits for every member's launch.
template <typename Launch, typename Outcome>
std::vector<Outcome> finish_group(const std::vector<CudaGpu*>& members, const GroupSteps<Launch, Outcome>& steps) {
  std::vector<Outcome> out;
  for (CudaGpu* m : members) out.push_back((m->runtime().*steps.finish)());
  return out;
}

}  // namespace cumap::cuda
