#include "backends/hip/hip_runtime_real.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include <hip/hip_runtime_api.h>
#include <hip/hip_version.h>

#include "backends/hip/hip_check.hpp"
#include "backends/hip/kernel_abi.hpp"
#include "backends/hip/pingpong_launch.hpp"
#include "backends/hip/sync_launch.hpp"

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

// The seam's sync kinds are the kernels' codes.
static_assert(static_cast<std::uint32_t>(HipSyncKind::Counter) == hk::kSyncCounter);
static_assert(static_cast<std::uint32_t>(HipSyncKind::Flag) == hk::kSyncFlag);
static_assert(static_cast<std::uint32_t>(HipSyncKind::TwoLevel) == hk::kSyncTwoLevel);
static_assert(static_cast<std::uint32_t>(HipSyncKind::Platform) == hk::kSyncPlatform);
static_assert(static_cast<std::uint32_t>(HipSyncKind::ContentionAdd) == hk::kSyncContentionAdd);
static_assert(static_cast<std::uint32_t>(HipSyncKind::ContentionCas) == hk::kSyncContentionCas);

std::string version_string(int v) {
  // HIP encodes versions as major * 10'000'000 + minor * 100'000 + patch.
  return fmt::format("{}.{}.{}", v / 10000000, (v / 100000) % 100, v % 100000);
}

class RealHipRuntime final : public HipRuntime {
 public:
  ~RealHipRuntime() override {
    // Destructors must not throw; errors here change nothing for the results.
    for (auto [start, stop] : events_) {
      (void)hipEventDestroy(start);
      (void)hipEventDestroy(stop);
    }
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
    int cooperative = 0;
    CUMAP_HIP_CHECK(hipDeviceGetAttribute(&cooperative, hipDeviceAttributeCooperativeLaunch, device));
    out.cooperative_launch = cooperative != 0;
    out.runtime_version = version_string(runtime);
    out.driver_version = std::to_string(driver);
    cu_count_ = out.cu_count;
    l2_bytes_ = static_cast<std::size_t>(std::max<std::int64_t>(out.l2_cache_bytes, 0));
    return out;
  }

  void select_device(int device) override {
    CUMAP_HIP_CHECK(hipSetDevice(device));
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

  // hipPointerGetAttribute one attribute at a time: hipPointerAttribute_t's
  // fields were renamed between ROCm 5 and 6 (memoryType became type), these
  // attributes were not.
  MemoryFacts memory_facts(HipBuffer address) override {
    void* const p = reinterpret_cast<void*>(address);
    unsigned type = 0;
    int managed = 0, device = -1;
    if (hipPointerGetAttribute(&type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, p) != hipSuccess ||
        hipPointerGetAttribute(&managed, HIP_POINTER_ATTRIBUTE_IS_MANAGED, p) != hipSuccess ||
        hipPointerGetAttribute(&device, HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL, p) != hipSuccess) {
      (void)hipGetLastError();  // an address the runtime does not know
      return {};
    }
    if (managed != 0) return {MemoryKind::Managed, device};
    if (type == hipMemoryTypeDevice) return {MemoryKind::Device, device};
    if (type == hipMemoryTypeHost) return {MemoryKind::Host, device};
    return {};
  }

  std::vector<PingPongResult> run_pairs(const std::vector<PingPongLaunch>& launches) override {
    if (launches.empty()) return {};
    const auto samples = static_cast<std::size_t>(launches.front().counts.samples);
    ensure_scratch(launches.size(), samples);
    const std::size_t words = counter_words(samples);
    CUMAP_HIP_CHECK(hipMemset(scratch_counters_, 0, launches.size() * words * sizeof(std::uint64_t)));
    CUMAP_HIP_CHECK(hipMemset(scratch_status_, 0, launches.size() * 2 * sizeof(hk::SideStatus)));
    // The masked streams do not order against the memsets above; wait for them.
    CUMAP_HIP_CHECK(hipDeviceSynchronize());

    auto* status = static_cast<hk::SideStatus*>(scratch_status_);
    for (std::size_t p = 0; p < launches.size(); ++p) {
      const PingPongLaunch& l = launches[p];
      if (static_cast<std::size_t>(l.counts.samples) != samples)
        throw RuntimeFailure("run_pairs: every pair of a round has the same counts");
      // Counters of pair p: [0] cold, then a's ticks, b's ticks, a's cycles, b's cycles.
      std::uint64_t* counters = static_cast<std::uint64_t*>(scratch_counters_) + p * words;
      hk::PingPongArgs args{};
      args.first = flag_word(l.flags, l.first_offset_bytes);
      args.second = flag_word(l.flags, l.second_offset_bytes);
      args.counts = l.counts;
      args.wait_budget_ticks = l.wait_budget_ticks;
      args.probe = l.probe;
      args.cold_ticks = counters;
      args.a_ticks = counters + 1;
      args.b_ticks = counters + 1 + samples;
      args.a_cycles = counters + 1 + 2 * samples;
      args.b_cycles = counters + 1 + 3 * samples;
      args.a_status = status + 2 * p + hk::kSideA;
      args.b_status = status + 2 * p + hk::kSideB;
      CUMAP_HIP_CHECK(hk::launch_ping_pong(args, as_stream(l.a_stream), as_stream(l.b_stream), events_[p].first,
                                           events_[p].second));
    }
    for (const PingPongLaunch& l : launches) {
      CUMAP_HIP_CHECK(hipStreamSynchronize(as_stream(l.b_stream)));
      CUMAP_HIP_CHECK(hipStreamSynchronize(as_stream(l.a_stream)));
    }

    std::vector<hk::SideStatus> sides(2 * launches.size());
    std::vector<std::uint64_t> host(launches.size() * words);
    CUMAP_HIP_CHECK(hipMemcpy(sides.data(), scratch_status_, sides.size() * sizeof(hk::SideStatus),
                              hipMemcpyDeviceToHost));
    CUMAP_HIP_CHECK(hipMemcpy(host.data(), scratch_counters_, host.size() * sizeof(std::uint64_t),
                              hipMemcpyDeviceToHost));
    std::vector<PingPongResult> results;
    for (std::size_t p = 0; p < launches.size(); ++p) {
      const hk::SideStatus& a = sides[2 * p + hk::kSideA];
      const hk::SideStatus& b = sides[2 * p + hk::kSideB];
      // A sample is complete once both sides finished it.
      const std::size_t done = std::min<std::size_t>({a.samples_done, b.samples_done, samples});
      const auto base = host.begin() + static_cast<std::ptrdiff_t>(p * words);
      auto slice = [&](std::size_t first) {
        const auto from = base + static_cast<std::ptrdiff_t>(first);
        return std::vector<std::uint64_t>(from, from + static_cast<std::ptrdiff_t>(done));
      };
      PingPongResult r;
      r.cold_ticks = base[0];
      r.a_pinged = {slice(1), slice(1 + 2 * samples)};
      r.b_pinged = {slice(1 + samples), slice(1 + 3 * samples)};
      r.timed_out = a.timed_out == hk::kTimedOutMarker || b.timed_out == hk::kTimedOutMarker;
      r.both_started = a.started == hk::kStartedMarker && b.started == hk::kStartedMarker;
      float event_ms = 0.0f;
      CUMAP_HIP_CHECK(hipEventElapsedTime(&event_ms, events_[p].first, events_[p].second));
      r.event_ms = event_ms;
      r.a_hw = {a.hw_id, a.xcc_id};
      r.b_hw = {b.hw_id, b.xcc_id};
      results.push_back(std::move(r));
    }
    // The next round may reuse these words and counts from 0 again.
    for (const PingPongLaunch& l : launches) {
      CUMAP_HIP_CHECK(hipMemset(flag_word(l.flags, l.first_offset_bytes), 0, sizeof(std::uint32_t)));
      CUMAP_HIP_CHECK(hipMemset(flag_word(l.flags, l.second_offset_bytes), 0, sizeof(std::uint32_t)));
    }
    CUMAP_HIP_CHECK(hipDeviceSynchronize());
    return results;
  }

  LineProbeResult probe_lines(const LineProbeLaunch& launch) override {
    const std::size_t lines = launch.line_offsets.size();
    const std::size_t timings = lines * static_cast<std::size_t>(launch.repeats);
    DeviceBytes offsets(lines * sizeof(std::uint64_t));
    DeviceBytes ticks(timings * sizeof(std::uint64_t));
    DeviceBytes cycles(timings * sizeof(std::uint64_t));
    CUMAP_HIP_CHECK(hipMemcpy(offsets.p, launch.line_offsets.data(), offsets.bytes, hipMemcpyHostToDevice));
    hk::LineProbeArgs args{};
    args.flags = flag_word(launch.flags, 0);
    args.line_offsets = static_cast<const std::uint64_t*>(offsets.p);
    args.line_count = static_cast<std::uint32_t>(lines);
    args.chain = static_cast<std::uint32_t>(launch.chain);
    args.repeats = static_cast<std::uint32_t>(launch.repeats);
    args.ticks = static_cast<std::uint64_t*>(ticks.p);
    args.cycles = static_cast<std::uint64_t*>(cycles.p);
    CUMAP_HIP_CHECK(hk::launch_line_probe(args, as_stream(launch.stream)));
    CUMAP_HIP_CHECK(hipStreamSynchronize(as_stream(launch.stream)));
    LineProbeResult r;
    r.ticks.resize(timings);
    r.cycles.resize(timings);
    CUMAP_HIP_CHECK(hipMemcpy(r.ticks.data(), ticks.p, ticks.bytes, hipMemcpyDeviceToHost));
    CUMAP_HIP_CHECK(hipMemcpy(r.cycles.data(), cycles.p, cycles.bytes, hipMemcpyDeviceToHost));
    return r;
  }

  HipSyncResult run_sync(const HipSyncLaunch& launch) override {
    const bool platform = launch.kind == HipSyncKind::Platform;
    const std::size_t k = platform ? 0 : launch.streams.size();
    const std::size_t leaves = static_cast<std::size_t>(launch.warmup + launch.episodes) + 1;
    const std::size_t batches = std::max<std::size_t>(k * static_cast<std::size_t>(launch.episodes), 1);
    std::vector<hk::SyncRole> roles;
    for (const HipSyncRole& r : launch.roles)
      roles.push_back({flag_word(launch.flags, r.group_counter_offset), flag_word(launch.flags, r.group_release_offset),
                       r.group_size, r.leader ? 1u : 0u});
    DeviceBytes started(sizeof(std::uint32_t));
    DeviceBytes role_bytes(std::max<std::size_t>(roles.size(), 1) * sizeof(hk::SyncRole));
    DeviceBytes leave_ticks(leaves * sizeof(std::uint64_t)), leave_cycles(leaves * sizeof(std::uint64_t));
    DeviceBytes batch_ticks(batches * sizeof(std::uint64_t)), batch_cycles(batches * sizeof(std::uint64_t));
    DeviceBytes span_ticks(std::max<std::size_t>(2 * k, 1) * sizeof(std::uint64_t));
    DeviceBytes status(std::max<std::size_t>(k, 1) * sizeof(hk::SideStatus));
    for (DeviceBytes* b : {&started, &leave_ticks, &leave_cycles, &batch_ticks, &batch_cycles, &span_ticks, &status})
      CUMAP_HIP_CHECK(hipMemset(b->p, 0, b->bytes));
    if (!roles.empty()) CUMAP_HIP_CHECK(hipMemcpy(role_bytes.p, roles.data(), role_bytes.bytes, hipMemcpyHostToDevice));
    for (std::uint64_t offset : launch.zero_offsets)
      CUMAP_HIP_CHECK(hipMemset(flag_word(launch.flags, offset), 0, sizeof(std::uint32_t)));
    // The masked streams do not order against the memsets above; wait for them.
    CUMAP_HIP_CHECK(hipDeviceSynchronize());

    hk::SyncArgs args{};
    args.kind = static_cast<std::uint32_t>(launch.kind);
    args.probe = launch.probe;
    args.counter = flag_word(launch.flags, launch.counter_offset);
    args.release = flag_word(launch.flags, launch.release_offset);
    args.started = static_cast<std::uint32_t*>(started.p);
    args.roles = static_cast<const hk::SyncRole*>(role_bytes.p);
    args.participants = static_cast<std::uint32_t>(k);
    args.groups = launch.groups;
    args.warmup = launch.warmup;
    args.episodes = launch.episodes;
    args.ops_per_batch = launch.ops_per_batch;
    args.wait_budget_ticks = launch.wait_budget_ticks;
    args.zero_mask = 0;
    args.leave_ticks = static_cast<std::uint64_t*>(leave_ticks.p);
    args.leave_cycles = static_cast<std::uint64_t*>(leave_cycles.p);
    args.batch_ticks = static_cast<std::uint64_t*>(batch_ticks.p);
    args.batch_cycles = static_cast<std::uint64_t*>(batch_cycles.p);
    args.span_ticks = static_cast<std::uint64_t*>(span_ticks.p);
    args.status = static_cast<hk::SideStatus*>(status.p);

    // Events on the null stream around the case's kernels: device_seconds.
    ensure_events(1);
    const auto [start, stop] = events_.front();
    if (platform) {
      CUMAP_HIP_CHECK(hk::launch_platform_barrier(args, launch.platform_blocks, start, stop));
    } else {
      // Participant 0 last: once it starts, the others are already queued.
      CUMAP_HIP_CHECK(hipEventRecord(start, nullptr));
      for (std::size_t p = k; p-- > 0;)
        CUMAP_HIP_CHECK(hk::launch_sync_participant(args, static_cast<std::uint32_t>(p), as_stream(launch.streams[p])));
    }
    for (HipStream s : launch.streams) CUMAP_HIP_CHECK(hipStreamSynchronize(as_stream(s)));
    if (!platform) CUMAP_HIP_CHECK(hipEventRecord(stop, nullptr));
    CUMAP_HIP_CHECK(hipDeviceSynchronize());

    HipSyncResult r;
    float event_ms = 0.0f;
    CUMAP_HIP_CHECK(hipEventElapsedTime(&event_ms, start, stop));
    r.event_ms = event_ms;
    std::vector<hk::SideStatus> sides(k);
    if (k > 0)
      CUMAP_HIP_CHECK(hipMemcpy(sides.data(), status.p, k * sizeof(hk::SideStatus), hipMemcpyDeviceToHost));
    r.all_started = true;
    for (const hk::SideStatus& s : sides) {
      r.timed_out |= s.timed_out == hk::kTimedOutMarker;
      r.all_started &= s.started == hk::kStartedMarker;
      r.hw.push_back({s.hw_id, s.xcc_id});
    }
    const auto download = [](const DeviceBytes& b, std::size_t n) {
      std::vector<std::uint64_t> host(n);
      if (n > 0) CUMAP_HIP_CHECK(hipMemcpy(host.data(), b.p, n * sizeof(std::uint64_t), hipMemcpyDeviceToHost));
      return host;
    };
    const bool contention = launch.kind == HipSyncKind::ContentionAdd || launch.kind == HipSyncKind::ContentionCas;
    if (contention) {
      r.batch_ticks = download(batch_ticks, k * static_cast<std::size_t>(launch.episodes));
      r.batch_cycles = download(batch_cycles, k * static_cast<std::size_t>(launch.episodes));
      r.span_ticks = download(span_ticks, 2 * k);
    } else {
      r.leave_ticks = download(leave_ticks, leaves);
      r.leave_cycles = download(leave_cycles, leaves);
    }
    return r;
  }

  HwReading read_hw_id(HipStream stream) override {
    if (!probe_out_) CUMAP_HIP_CHECK(hipMalloc(&probe_out_, 2 * sizeof(std::uint32_t)));
    CUMAP_HIP_CHECK(hk::launch_hw_id_probe(static_cast<std::uint32_t*>(probe_out_), as_stream(stream)));
    CUMAP_HIP_CHECK(hipStreamSynchronize(as_stream(stream)));
    std::uint32_t ids[2] = {0, 0};
    CUMAP_HIP_CHECK(hipMemcpy(ids, probe_out_, sizeof(ids), hipMemcpyDeviceToHost));
    return {ids[0], ids[1]};
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
  // Device memory for one call, freed on every way out.
  struct DeviceBytes {
    explicit DeviceBytes(std::size_t n) : bytes(n) { CUMAP_HIP_CHECK(hipMalloc(&p, std::max<std::size_t>(n, 1))); }
    ~DeviceBytes() { (void)hipFree(p); }
    DeviceBytes(const DeviceBytes&) = delete;
    DeviceBytes& operator=(const DeviceBytes&) = delete;
    std::size_t bytes;
    void* p = nullptr;
  };

  static std::uint32_t* flag_word(HipBuffer flags, std::uint64_t offset_bytes) {
    return reinterpret_cast<std::uint32_t*>(reinterpret_cast<std::byte*>(flags) + offset_bytes);
  }

  // The cold round trip, then per sample each side's ticks and cycles.
  static std::size_t counter_words(std::size_t samples) { return 1 + 4 * samples; }

  // At least `n` start/stop pairs of timing events.
  void ensure_events(std::size_t n) {
    while (events_.size() < n) {
      std::pair<hipEvent_t, hipEvent_t> e{nullptr, nullptr};
      CUMAP_HIP_CHECK(hipEventCreate(&e.first));
      CUMAP_HIP_CHECK(hipEventCreate(&e.second));
      events_.push_back(e);
    }
  }

  // Counters, status words and timing events for `pairs` pairs of `samples` samples.
  void ensure_scratch(std::size_t pairs, std::size_t samples) {
    ensure_events(pairs);
    if (pairs <= scratch_pairs_ && samples <= scratch_samples_) return;
    for (void** p : {&scratch_counters_, &scratch_status_}) {
      if (*p) CUMAP_HIP_CHECK(hipFree(*p));
      *p = nullptr;
    }
    scratch_pairs_ = std::max(pairs, scratch_pairs_);
    scratch_samples_ = std::max(samples, scratch_samples_);
    CUMAP_HIP_CHECK(hipMalloc(&scratch_counters_, scratch_pairs_ * counter_words(scratch_samples_) * sizeof(std::uint64_t)));
    CUMAP_HIP_CHECK(hipMalloc(&scratch_status_, scratch_pairs_ * 2 * sizeof(hk::SideStatus)));
  }

  int cu_count_ = 0;
  std::size_t l2_bytes_ = 0;
  // Start/stop of pair p's side-a kernel; the first pair also brackets a sync case.
  std::vector<std::pair<hipEvent_t, hipEvent_t>> events_;
  void* scratch_counters_ = nullptr;
  void* scratch_status_ = nullptr;
  std::size_t scratch_pairs_ = 0;
  std::size_t scratch_samples_ = 0;
  void* probe_out_ = nullptr;
  void* l2_scratch_ = nullptr;
  unsigned char l2_fill_ = 0;
};

}  // namespace

std::unique_ptr<HipRuntime> make_real_hip_runtime() { return std::make_unique<RealHipRuntime>(); }

}  // namespace cumap
