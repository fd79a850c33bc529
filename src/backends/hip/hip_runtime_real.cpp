#include "backends/hip/hip_runtime_real.hpp"

#include <algorithm>
#include <cstddef>

#include <hip/hip_runtime_api.h>
#include <hip/hip_version.h>

#include "backends/hip/hip_check.hpp"
#include "backends/hip/kernel_abi.hpp"
#include "backends/hip/pingpong_launch.hpp"

namespace cumap {
namespace {

namespace hk = hip_kernels;

// Without hipDeviceAttributeWallClockRate (HIP < 5.3) the rate of
// s_memrealtime is taken to be the 100 MHz reference clock it counts on
// gfx9 and gfx10.3. The backend cross-checks it against hipEvents.
constexpr double kAssumedWallClockHz = 100e6;

// The L2 flush writes at least this much, so it also pushes the flags out of
// RDNA's Infinity Cache (up to 128 MiB), which sits behind L2.
constexpr std::size_t kMinL2FlushBytes = 256u << 20;

hipStream_t as_stream(HipStream s) { return reinterpret_cast<hipStream_t>(s); }

std::string version_string(int v) {
  // HIP encodes versions as major * 10'000'000 + minor * 100'000 + patch.
  return fmt::format("{}.{}.{}", v / 10000000, (v / 100000) % 100, v % 100000);
}

class RealHipRuntime final : public HipRuntime {
 public:
  ~RealHipRuntime() override {
    // Destructors must not throw; errors here change nothing for the results.
    if (start_) (void)hipEventDestroy(start_);
    if (stop_) (void)hipEventDestroy(stop_);
    for (void* p : {scratch_ticks_, scratch_cycles_, scratch_status_, probe_out_, l2_scratch_}) {
      if (p) (void)hipFree(p);
    }
  }

  int device_count() override {
    int n = 0;
    const hipError_t e = hipGetDeviceCount(&n);
    if (e == hipErrorNoDevice) return 0;
    CUMAP_HIP_CHECK(e);
    return n;
  }

  HipDeviceProperties properties(int device) override {
    hipDeviceProp_t p{};
    CUMAP_HIP_CHECK(hipGetDeviceProperties(&p, device));
    HipDeviceProperties out;
    out.name = p.name;
    out.gcn_arch_name = p.gcnArchName;
    out.cu_count = p.multiProcessorCount;
    out.shader_clock_hz = p.clockRate * 1e3;  // kHz
    out.l2_cache_bytes = p.l2CacheSize;
#if HIP_VERSION >= 50300000
    int wall_khz = 0;
    CUMAP_HIP_CHECK(hipDeviceGetAttribute(&wall_khz, hipDeviceAttributeWallClockRate, device));
    out.wall_clock_hz = wall_khz * 1e3;
    out.wall_clock_rate_source = "hipDeviceAttributeWallClockRate";
#else
    out.wall_clock_hz = kAssumedWallClockHz;
    out.wall_clock_rate_source = "assumed 100 MHz (HIP < 5.3 cannot report it)";
#endif
    int runtime = 0;
    int driver = 0;
    CUMAP_HIP_CHECK(hipRuntimeGetVersion(&runtime));
    CUMAP_HIP_CHECK(hipDriverGetVersion(&driver));
    out.runtime_version = version_string(runtime);
    out.driver_version = std::to_string(driver);
    cu_count_ = out.cu_count;
    l2_bytes_ = static_cast<std::size_t>(std::max<std::int64_t>(out.l2_cache_bytes, 0));
    return out;
  }

  void select_device(int device) override {
    CUMAP_HIP_CHECK(hipSetDevice(device));
    CUMAP_HIP_CHECK(hipEventCreate(&start_));
    CUMAP_HIP_CHECK(hipEventCreate(&stop_));
  }

  StreamCreation create_cu_masked_stream(const std::vector<std::uint32_t>& mask) override {
    // Not CUMAP_HIP_CHECK: running out of hardware queues is expected here
    // and the stream pool recovers from it.
    hipStream_t s = nullptr;
    const hipError_t e =
        hipExtStreamCreateWithCUMask(&s, static_cast<std::uint32_t>(mask.size()), mask.data());
    if (e == hipSuccess) return {StreamCreateStatus::Created, reinterpret_cast<HipStream>(s), {}};
    (void)hipGetLastError();  // clear it so that it cannot surface in a later check
    // ROCclr answers hipErrorOutOfMemory when the kernel driver will not give
    // it another hardware queue for the masked stream.
    const bool out_of_queues = e == hipErrorOutOfMemory || e == hipErrorLaunchOutOfResources;
    return {out_of_queues ? StreamCreateStatus::OutOfQueues : StreamCreateStatus::Failed, 0,
            fmt::format("{} ({})", hipGetErrorString(e), hipGetErrorName(e))};
  }

  void destroy_stream(HipStream stream) override {
    CUMAP_HIP_CHECK(hipStreamDestroy(as_stream(stream)));
  }

  HipBuffer allocate_flags(std::size_t bytes) override {
    void* p = nullptr;
    CUMAP_HIP_CHECK(hipMalloc(&p, bytes));
    CUMAP_HIP_CHECK(hipMemset(p, 0, bytes));
    return reinterpret_cast<HipBuffer>(p);
  }

  void free_flags(HipBuffer buffer) override {
    CUMAP_HIP_CHECK(hipFree(reinterpret_cast<void*>(buffer)));
  }

  PingPongResult run_ping_pong(const PingPongLaunch& launch) override {
    ensure_scratch(launch.samples);
    auto* first_flag = reinterpret_cast<std::uint32_t*>(
        reinterpret_cast<std::byte*>(launch.flags) + launch.flags_offset_bytes);
    const std::size_t flag_bytes = (launch.offset_words + 1) * sizeof(std::uint32_t);
    const std::size_t tick_bytes = (launch.samples + 1) * sizeof(std::uint64_t);
    CUMAP_HIP_CHECK(hipMemset(first_flag, 0, flag_bytes));
    CUMAP_HIP_CHECK(hipMemset(scratch_ticks_, 0, tick_bytes));
    CUMAP_HIP_CHECK(hipMemset(scratch_status_, 0, 2 * sizeof(hk::SideStatus)));
    // The masked streams do not order against the memsets above; wait for them.
    CUMAP_HIP_CHECK(hipDeviceSynchronize());

    auto* status = static_cast<hk::SideStatus*>(scratch_status_);
    hk::PingPongArgs args{};
    args.flags = first_flag;
    args.offset_words = static_cast<std::uint32_t>(launch.offset_words);
    args.iters = static_cast<std::uint32_t>(launch.iters);
    args.warmup = static_cast<std::uint32_t>(launch.warmup);
    args.samples = static_cast<std::uint32_t>(launch.samples);
    args.wait_budget_ticks = launch.wait_budget_ticks;
    args.probe = static_cast<std::uint32_t>(probe_code(launch.probe));
    args.ticks = static_cast<std::uint64_t*>(scratch_ticks_);
    args.cycles = static_cast<std::uint64_t*>(scratch_cycles_);
    args.ping_status = status;
    args.pong_status = status + 1;
    CUMAP_HIP_CHECK(hk::launch_ping_pong(args, as_stream(launch.ping_stream),
                                         as_stream(launch.pong_stream), start_, stop_));
    CUMAP_HIP_CHECK(hipStreamSynchronize(as_stream(launch.pong_stream)));
    CUMAP_HIP_CHECK(hipStreamSynchronize(as_stream(launch.ping_stream)));

    float event_ms = 0.0f;
    CUMAP_HIP_CHECK(hipEventElapsedTime(&event_ms, start_, stop_));
    hk::SideStatus sides[2];
    std::vector<std::uint64_t> ticks(launch.samples + 1);
    std::vector<std::uint64_t> cycles(launch.samples);
    CUMAP_HIP_CHECK(hipMemcpy(sides, scratch_status_, sizeof(sides), hipMemcpyDeviceToHost));
    CUMAP_HIP_CHECK(hipMemcpy(ticks.data(), scratch_ticks_, tick_bytes, hipMemcpyDeviceToHost));
    CUMAP_HIP_CHECK(hipMemcpy(cycles.data(), scratch_cycles_, cycles.size() * sizeof(std::uint64_t),
                              hipMemcpyDeviceToHost));

    PingPongResult r;
    const std::size_t done = std::min<std::size_t>(sides[0].samples_done, launch.samples);
    r.cold_ticks = ticks[0];
    r.sample_ticks.assign(ticks.begin() + 1, ticks.begin() + 1 + static_cast<std::ptrdiff_t>(done));
    r.sample_cycles.assign(cycles.begin(), cycles.begin() + static_cast<std::ptrdiff_t>(done));
    r.timed_out = sides[0].timed_out == hk::kTimedOutMarker || sides[1].timed_out == hk::kTimedOutMarker;
    r.event_ms = event_ms;
    r.ping_hw_id = sides[0].hw_id;
    r.pong_hw_id = sides[1].hw_id;
    return r;
  }

  std::uint32_t read_hw_id(HipStream stream) override {
    if (!probe_out_) CUMAP_HIP_CHECK(hipMalloc(&probe_out_, sizeof(std::uint32_t)));
    CUMAP_HIP_CHECK(hk::launch_hw_id_probe(static_cast<std::uint32_t*>(probe_out_), as_stream(stream)));
    CUMAP_HIP_CHECK(hipStreamSynchronize(as_stream(stream)));
    std::uint32_t id = 0;
    CUMAP_HIP_CHECK(hipMemcpy(&id, probe_out_, sizeof(id), hipMemcpyDeviceToHost));
    return id;
  }

  void flush_icache() override {
    CUMAP_HIP_CHECK(hk::launch_icache_flush(cu_count_, nullptr));
    CUMAP_HIP_CHECK(hipDeviceSynchronize());
  }

  void flush_l2() override {
    const std::size_t bytes = std::max(4 * l2_bytes_, kMinL2FlushBytes);
    if (!l2_scratch_) CUMAP_HIP_CHECK(hipMalloc(&l2_scratch_, bytes));
    // A new byte each time, so no layer can skip the write as a no-op.
    CUMAP_HIP_CHECK(hipMemset(l2_scratch_, ++l2_fill_, bytes));
    CUMAP_HIP_CHECK(hipDeviceSynchronize());
  }

 private:
  static hk::ProbeCode probe_code(Probe p) {
    switch (p) {
      case Probe::Exch: return hk::kProbeExch;
      case Probe::AcqRel: return hk::kProbeAcqRel;
      case Probe::Volatile: return hk::kProbeVolatile;
      case Probe::Cas: break;
    }
    return hk::kProbeCas;
  }

  void ensure_scratch(int samples) {
    if (samples <= scratch_samples_) return;
    for (void** p : {&scratch_ticks_, &scratch_cycles_, &scratch_status_}) {
      if (*p) CUMAP_HIP_CHECK(hipFree(*p));
      *p = nullptr;
    }
    CUMAP_HIP_CHECK(hipMalloc(&scratch_ticks_, (samples + 1) * sizeof(std::uint64_t)));
    CUMAP_HIP_CHECK(hipMalloc(&scratch_cycles_, samples * sizeof(std::uint64_t)));
    CUMAP_HIP_CHECK(hipMalloc(&scratch_status_, 2 * sizeof(hk::SideStatus)));
    scratch_samples_ = samples;
  }

  int cu_count_ = 0;
  std::size_t l2_bytes_ = 0;
  hipEvent_t start_ = nullptr;
  hipEvent_t stop_ = nullptr;
  void* scratch_ticks_ = nullptr;
  void* scratch_cycles_ = nullptr;
  void* scratch_status_ = nullptr;
  int scratch_samples_ = 0;
  void* probe_out_ = nullptr;
  void* l2_scratch_ = nullptr;
  unsigned char l2_fill_ = 0;
};

}  // namespace

std::unique_ptr<HipRuntime> make_real_hip_runtime() { return std::make_unique<RealHipRuntime>(); }

}  // namespace cumap
