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
    for (void* p : {scratch_counters_, scratch_status_, probe_out_, l2_scratch_}) {
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
    const std::size_t samples = static_cast<std::size_t>(launch.samples);
    // Zeroed: the side that pings none of a sample (b, in ordered pairs) leaves its half at 0.
    CUMAP_HIP_CHECK(hipMemset(first_flag, 0, flag_bytes));
    CUMAP_HIP_CHECK(hipMemset(scratch_counters_, 0, counter_words(samples) * sizeof(std::uint64_t)));
    CUMAP_HIP_CHECK(hipMemset(scratch_status_, 0, 2 * sizeof(hk::SideStatus)));
    // The masked streams do not order against the memsets above; wait for them.
    CUMAP_HIP_CHECK(hipDeviceSynchronize());

    // Counters: [0] cold, then a's ticks, b's ticks, a's cycles, b's cycles.
    auto* counters = static_cast<std::uint64_t*>(scratch_counters_);
    auto* status = static_cast<hk::SideStatus*>(scratch_status_);
    hk::PingPongArgs args{};
    args.flags = first_flag;
    args.offset_words = static_cast<std::uint32_t>(launch.offset_words);
    args.iters = static_cast<std::uint32_t>(launch.iters);
    args.a_share = static_cast<std::uint32_t>(launch.a_share);
    args.warmup = static_cast<std::uint32_t>(launch.warmup);
    args.samples = static_cast<std::uint32_t>(launch.samples);
    args.wait_budget_ticks = launch.wait_budget_ticks;
    args.probe = static_cast<std::uint32_t>(probe_code(launch.probe));
    args.cold_ticks = counters;
    args.half_ticks[hk::kSideA] = counters + 1;
    args.half_ticks[hk::kSideB] = counters + 1 + samples;
    args.half_cycles[hk::kSideA] = counters + 1 + 2 * samples;
    args.half_cycles[hk::kSideB] = counters + 1 + 3 * samples;
    args.status[hk::kSideA] = status + hk::kSideA;
    args.status[hk::kSideB] = status + hk::kSideB;
    CUMAP_HIP_CHECK(hk::launch_ping_pong(args, as_stream(launch.a_stream),
                                         as_stream(launch.b_stream), start_, stop_));
    CUMAP_HIP_CHECK(hipStreamSynchronize(as_stream(launch.b_stream)));
    CUMAP_HIP_CHECK(hipStreamSynchronize(as_stream(launch.a_stream)));

    float event_ms = 0.0f;
    CUMAP_HIP_CHECK(hipEventElapsedTime(&event_ms, start_, stop_));
    hk::SideStatus sides[2];
    std::vector<std::uint64_t> host(counter_words(samples));
    CUMAP_HIP_CHECK(hipMemcpy(sides, scratch_status_, sizeof(sides), hipMemcpyDeviceToHost));
    CUMAP_HIP_CHECK(hipMemcpy(host.data(), scratch_counters_, host.size() * sizeof(std::uint64_t),
                              hipMemcpyDeviceToHost));

    // A sample is complete once both sides finished it.
    const std::size_t done = std::min<std::size_t>(
        {sides[hk::kSideA].samples_done, sides[hk::kSideB].samples_done, samples});
    auto slice = [&](std::size_t first) {
      const auto from = host.begin() + static_cast<std::ptrdiff_t>(first);
      return std::vector<std::uint64_t>(from, from + static_cast<std::ptrdiff_t>(done));
    };
    PingPongResult r;
    r.cold_ticks = host[0];
    r.a_pinged = {slice(1), slice(1 + 2 * samples)};
    r.b_pinged = {slice(1 + samples), slice(1 + 3 * samples)};
    r.timed_out = sides[hk::kSideA].timed_out == hk::kTimedOutMarker ||
                  sides[hk::kSideB].timed_out == hk::kTimedOutMarker;
    r.event_ms = event_ms;
    r.a_hw_id = sides[hk::kSideA].hw_id;
    r.b_hw_id = sides[hk::kSideB].hw_id;
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

  // The cold round trip, then per sample each side's ticks and cycles.
  static std::size_t counter_words(std::size_t samples) { return 1 + 4 * samples; }

  void ensure_scratch(int samples) {
    if (samples <= scratch_samples_) return;
    for (void** p : {&scratch_counters_, &scratch_status_}) {
      if (*p) CUMAP_HIP_CHECK(hipFree(*p));
      *p = nullptr;
    }
    CUMAP_HIP_CHECK(hipMalloc(&scratch_counters_,
                              counter_words(static_cast<std::size_t>(samples)) * sizeof(std::uint64_t)));
    CUMAP_HIP_CHECK(hipMalloc(&scratch_status_, 2 * sizeof(hk::SideStatus)));
    scratch_samples_ = samples;
  }

  int cu_count_ = 0;
  std::size_t l2_bytes_ = 0;
  hipEvent_t start_ = nullptr;
  hipEvent_t stop_ = nullptr;
  void* scratch_counters_ = nullptr;
  void* scratch_status_ = nullptr;
  int scratch_samples_ = 0;
  void* probe_out_ = nullptr;
  void* l2_scratch_ = nullptr;
  unsigned char l2_fill_ = 0;
};

}  // namespace

std::unique_ptr<HipRuntime> make_real_hip_runtime() { return std::make_unique<RealHipRuntime>(); }

}  // namespace cumap
