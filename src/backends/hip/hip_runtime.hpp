#pragma once
// The narrow waist between the HIP backend and the HIP runtime. The backend's
// logic (masks, stream pool, pair sequencing, HW_ID checks) talks only to this
// interface, so it builds with plain g++ and is tested against a fake runtime;
// only hip_runtime_real.cpp and pingpong_kernels.hip need ROCm.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cumap/options.hpp"

namespace cumap {

struct HipDeviceProperties {
  std::string name;           // hipDeviceProp_t::name
  std::string gcn_arch_name;  // "gfx90a:sramecc+:xnack-"
  int cu_count = 0;           // multiProcessorCount
  double shader_clock_hz = 0.0;  // peak shader clock: the rate of clock64()
  double wall_clock_hz = 0.0;    // rate of wall_clock64() (s_memrealtime)
  std::string wall_clock_rate_source;  // how wall_clock_hz was found
  std::int64_t l2_cache_bytes = 0;
  std::string runtime_version;
  std::string driver_version;
};

// Opaque handles; 0 is "none".
using HipStream = std::uintptr_t;
using HipBuffer = std::uintptr_t;

enum class StreamCreateStatus {
  Created,
  OutOfQueues,  // the device has no hardware queue left: recoverable by freeing one
  Failed,       // anything else (a bad mask, a lost device): not recoverable
};

struct StreamCreation {
  StreamCreateStatus status = StreamCreateStatus::Failed;
  HipStream stream = 0;
  std::string error;  // the runtime's words when not Created
};

// One launch of a pair: the ping-pong kernel as side a on a's masked stream
// and as side b on b's. Both flags live in `flags` at `flags_offset_bytes`,
// the second `offset_words` 32-bit words after the first. The cold round trip
// and the warm-up are a's; every sample is `iters` round trips, a pinging the
// first `a_share` and b the rest (a_share == iters: a pings them all).
struct PingPongLaunch {
  HipStream a_stream = 0;
  HipStream b_stream = 0;
  HipBuffer flags = 0;
  std::size_t flags_offset_bytes = 0;
  int offset_words = 1;
  int iters = 1;
  int a_share = 1;
  int warmup = 0;
  int samples = 1;
  std::uint64_t wait_budget_ticks = 0;  // wall_clock64 ticks any single wait may take
  Probe probe = Probe::Cas;
};

// The round trips one side pinged, per completed sample.
struct PingerHalves {
  std::vector<std::uint64_t> ticks;   // wall_clock64 ticks
  std::vector<std::uint64_t> cycles;  // clock64() shader cycles
};

struct PingPongResult {
  std::uint64_t cold_ticks = 0;  // first round trip alone (a pings), wall_clock64 ticks
  PingerHalves a_pinged;         // per sample: the a_share round trips a pinged
  PingerHalves b_pinged;         // per sample: the rest, pinged by b (zeros when a pinged all)
  bool timed_out = false;        // a wait ran out of budget; samples incomplete
  double event_ms = 0.0;         // hipEventElapsedTime around side a's kernel (the whole pair)
  std::uint32_t a_hw_id = 0;     // raw HW_ID (gfx9) / HW_ID1 (gfx10+) register
  std::uint32_t b_hw_id = 0;
};

class HipRuntime {
 public:
  virtual ~HipRuntime() = default;

  // 0 when there is no AMD GPU (hipErrorNoDevice is not a failure here).
  virtual int device_count() = 0;
  virtual HipDeviceProperties properties(int device) = 0;
  virtual void select_device(int device) = 0;

  // `mask` has one bit per CU, 32 CUs a word (hipExtStreamCreateWithCUMask).
  virtual StreamCreation create_cu_masked_stream(const std::vector<std::uint32_t>& mask) = 0;
  virtual void destroy_stream(HipStream stream) = 0;

  virtual HipBuffer allocate_flags(std::size_t bytes) = 0;
  virtual void free_flags(HipBuffer buffer) = 0;

  // Zeroes the two flags (every pair starts from 0), runs the pair and waits
  // for both kernels.
  virtual PingPongResult run_ping_pong(const PingPongLaunch& launch) = 0;
  // The raw HW_ID register a one-wave kernel reads on `stream`.
  virtual std::uint32_t read_hw_id(HipStream stream) = 0;

  // Cold-cache controls: invalidate every CU's instruction cache; evict L2
  // by writing a buffer larger than it.
  virtual void flush_icache() = 0;
  virtual void flush_l2() = 0;
};

}  // namespace cumap
