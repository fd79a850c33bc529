#include "backends/cuda/cuda_backend.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "backends/cuda/coherence_launch.hpp"
#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cuda_device_facts.hpp"
#include "backends/cuda/device_buffer.hpp"
#include "backends/cuda/l2_persistence.hpp"
#include "backends/cuda/launch_buffers.hpp"
#include "backends/cuda/launch_plan.hpp"
#include "backends/cuda/pingpong_launch.hpp"
#include "backends/cuda/sm_topology.hpp"
#include "cumap/error.hpp"
#include "cumap/units.hpp"

namespace cumap {
namespace {

using namespace cuda;

// Launches shorter than this give too coarse a clock reading from
// %globaltimer; their cycles are converted with the calibration instead.
constexpr double kMinClockIntervalNs = 10e6;
// A launch should last about this long: frequent enough progress, few launches.
constexpr double kTargetLaunchSeconds = 0.1;
constexpr double kRttGuessNs = 700.0;

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(const Options& o) : facts_(read_device_facts(o.device)) {
    // More than half an SM's shared memory per block: no SM can take two.
    smem_bytes_ = facts_.smem_optin_bytes - 1024;
    prepare_pingpong_kernels(smem_bytes_);
    prepare_coherence_kernels();
    calibrated_cycles_per_ns_ = calibrate_clock();
    sm_ids_ = census();
  }

  DeviceInfo device() const override {
    DeviceInfo d = describe(facts_, measured_hz());
    d.extra["sm_clock_calibration_hz"] = calibrated_cycles_per_ns_ * 1e9;
    d.extra["sm_clock_during_run_hz"] = run_ns_ > 0 ? nlohmann::json(run_cycles_ / run_ns_ * 1e9) : nlohmann::json();
    d.extra["blocks_per_launch"] = facts_.sm_count;
    d.extra["dynamic_shared_memory_per_block_bytes"] = smem_bytes_;
    if (persist_bytes_) d.extra["l2_persisting_window_bytes"] = *persist_bytes_;
    // Device time of the measuring launches, per placement: with the pairs'
    // round trips it tells how much the harness itself costs.
    d.extra["kernel_seconds"] = kernel_seconds_;
    d.extra["launches"] = launches_;
    return d;
  }

  std::vector<int> units() const override { return sm_ids_; }

  Topology topology() override {
    if (!topology_) topology_ = discover_gpcs(facts_.cc_major, smem_bytes_, sm_ids_, stream_.get());
    return *topology_;
  }

  std::vector<PairMeasurement> measure(const Schedule& schedule, const MeasureSpec& spec,
                                       const ProgressFn& progress) override {
    if (round_trips_per_pair(spec) >= (1ull << 31))
      throw UsageError("--iters x --samples is too large: a pair's flag values must fit in 31 bits");
    for (int u : schedule.units)
      if (!std::binary_search(sm_ids_.begin(), sm_ids_.end(), u))
        throw UsageError(fmt::format("SM {} does not exist on this device (SMs: {})", u, format_unit_list(sm_ids_)));
    const int blocks = facts_.sm_count;
    const auto ranges = launch_ranges(schedule.pairs.size(), pairs_per_launch(spec, kRttGuessNs, kTargetLaunchSeconds));
    std::size_t widest = 0;
    for (auto [b, e] : ranges) widest = std::max(widest, e - b);

    check_fits_in_memory(spec);
    DeviceBuffer<std::uint32_t> flags(flag_buffer_words(spec.rotating_count));
    std::optional<DeviceBuffer<std::uint32_t>> flush;
    if (spec.flush_cache) flush.emplace(flush_buffer_words(facts_.l2_bytes));
    LaunchBuffers buffers(widest, spec.samples, blocks, sm_id_limit());
    flags.zero(stream_.get());

    std::optional<PersistingL2Window> persist;
    if (spec.l2_persist) {
      persist.emplace(stream_.get(), flags.get(), flags.bytes(), facts_.persisting_l2_max_bytes,
                      facts_.access_policy_max_window_bytes);
      persist_bytes_ = persist->bytes();
    }

    PingPongParams pp{};
    pp.iters = spec.iters;
    pp.samples = spec.samples;
    pp.warmup = spec.warmup;
    pp.ordered = spec.ordered;
    pp.probe = static_cast<int>(spec.probe);
    pp.wait_budget_cycles = budget_cycles(spec.timeout_ms, facts_.max_sm_clock_hz);
    pp.pair_budget_cycles = pair_budget_cycles(spec, facts_.max_sm_clock_hz);
    pp.pair_ns_estimate = pair_ns_estimate(spec, kRttGuessNs);
    pp.silent_sm = spec.silent_unit;
    pp.flush_buffer = flush ? flush->get() : nullptr;
    pp.flush_words = flush ? flush->size() : 0;
    const std::string placement(to_string(spec.placement));
    kernel_seconds_[placement] = 0.0;
    launches_[placement] = 0;
    std::vector<PairMeasurement> out;
    const std::size_t total = schedule.pairs.size() * static_cast<std::size_t>(spec.rotating_count);
    for (int copy = 0; copy < spec.rotating_count; ++copy) {
      const FlagOffsets at = flag_offsets(copy, spec.placement);
      pp.flag_first = flags.get() + at.first;
      pp.flag_second = flags.get() + at.second;
      for (auto [begin, end] : ranges) {
        buffers.prepare(pp, device_pairs(schedule.pairs, begin, end), stream_.get());
        run_launch(pp, buffers);
        const LaunchRecords rec = buffers.records(end - begin, spec.samples, stream_.get());
        kernel_seconds_[placement] = kernel_seconds_[placement].get<double>() + last_launch_ms_ * 1e-3;
        launches_[placement] = launches_[placement].get<int>() + 1;
        auto decoded = decode_launch(schedule.pairs, begin, rec, spec, last_launch_cycles_per_ns_, copy);
        out.insert(out.end(), std::make_move_iterator(decoded.begin()), std::make_move_iterator(decoded.end()));
        if (progress) progress(out.size(), total);
      }
    }
    return out;
  }

  CoherenceReport check_coherence(int reader, int writer, double window_ms) override {
    for (int u : {reader, writer})
      if (!std::binary_search(sm_ids_.begin(), sm_ids_.end(), u))
        throw UsageError(fmt::format("check-coherence: SM {} does not exist on this device", u));
    if (reader == writer) throw UsageError("check-coherence: reader and writer must be different SMs");
    // Each case gets its own page: data, then the two handshake flags on lines of their own.
    constexpr std::size_t kCaseWords = 1024;
    constexpr int kCases = kStoreOps * kLoadOps;
    DeviceBuffer<unsigned> mem(kCaseWords * kCases);
    DeviceBuffer<unsigned> claims(static_cast<std::size_t>(kCases) * sm_id_limit());
    claims.zero(stream_.get());
    DeviceBuffer<std::uint64_t> out(kCoherenceOutWords * kCases);
    mem.zero(stream_.get());
    out.zero(stream_.get());
    CoherenceReport report{reader, writer, {}};
    const double cpn = calibrated_cycles_per_ns_;
    for (int st = 0; st < kStoreOps; ++st) {
      for (int ld = 0; ld < kLoadOps; ++ld) {
        const int c = st * kLoadOps + ld;
        CoherenceParams p{};
        p.data = mem.get() + c * kCaseWords;
        p.ready = p.data + 256;
        p.written = p.data + 512;
        p.out = out.get() + kCoherenceOutWords * c;
        p.claims = claims.get() + static_cast<std::size_t>(c) * sm_id_limit();
        p.claim_slots = sm_id_limit();
        p.reader_sm = reader;
        p.writer_sm = writer;
        p.handshake_budget_cycles = budget_cycles(100.0, facts_.max_sm_clock_hz);
        p.window_cycles = budget_cycles(window_ms, facts_.max_sm_clock_hz);
        launch_coherence(st, ld, p, 4 * facts_.sm_count, stream_.get());
        CUMAP_CUDA_CHECK(cudaGetLastError());
      }
    }
    const auto r = out.download(out.size(), stream_.get());
    for (int c = 0; c < kCases; ++c) {
      CoherenceCase cc;
      cc.store = kStoreOpNames[c / kLoadOps];
      cc.load = kLoadOpNames[c % kLoadOps];
      const std::uint64_t* o = &r[kCoherenceOutWords * c];
      cc.saw_new_value = o[0] != 0;
      cc.first_seen_ns = static_cast<double>(o[1]) / cpn;
      cc.window_ns = static_cast<double>(o[2]) / cpn;
      cc.handshake_timed_out = o[3] != 0;
      cc.primed_reload_cycles = static_cast<double>(o[4]);
      cc.load_caches_in_l1 = kLoadCachesInL1[c % kLoadOps];
      report.cases.push_back(cc);
    }
    return report;
  }

 private:
  // A --rotating-count the device cannot hold is bad input, not a failure.
  void check_fits_in_memory(const MeasureSpec& spec) const {
    std::size_t free_bytes = 0, total_bytes = 0;
    CUMAP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::size_t need = flag_buffer_words(spec.rotating_count) * sizeof(std::uint32_t) +
                             (spec.flush_cache ? flush_buffer_words(facts_.l2_bytes) * sizeof(std::uint32_t) : 0);
    if (need > free_bytes / 2)
      throw UsageError(fmt::format("--rotating-count {} needs {} MiB of flag copies; the device has {} MiB free",
                                   spec.rotating_count, need >> 20, free_bytes >> 20));
  }

  int sm_id_limit() const { return std::max(facts_.sm_count, 1024); }

  double measured_hz() const {
    return run_ns_ > 0 ? run_cycles_ / run_ns_ * 1e9 : calibrated_cycles_per_ns_ * 1e9;
  }

  double calibrate_clock() {
    DeviceBuffer<std::uint64_t> marks(4);
    launch_clock_calibration(marks.get(), 50'000'000, 20'000'000, stream_.get());
    const auto m = marks.download(4, stream_.get());
    const double cpn = cycles_per_ns(m.data());
    if (!std::isfinite(cpn)) throw RuntimeFailure("SM clock calibration against %globaltimer failed");
    return cpn;
  }

  // One launch over the prepared pairs; throws if the kernel gave up.
  void run_launch(const PingPongParams& pp, LaunchBuffers& buffers) {
    cudaStream_t s = stream_.get();
    timer_.start(s);
    launch_pingpong(pp, facts_.sm_count, smem_bytes_, s);
    CUMAP_CUDA_CHECK(cudaGetLastError());
    timer_.stop(s);
    CUMAP_CUDA_CHECK(cudaStreamSynchronize(s));
    last_launch_ms_ = timer_.elapsed_ms();
    if (const unsigned abort = buffers.abort_code(s); abort != kNoAbort)
      throw RuntimeFailure("the ping-pong kernel stopped: " + abort_reason(abort));
    const auto m = buffers.clock_marks(s);
    const double interval_ns = static_cast<double>(m[3] - m[1]);
    const double cpn = cycles_per_ns(m.data());
    if (std::isfinite(cpn) && interval_ns >= kMinClockIntervalNs) {
      run_cycles_ += static_cast<double>(m[2] - m[0]);
      run_ns_ += interval_ns;
      last_launch_cycles_per_ns_ = cpn;
    } else {
      last_launch_cycles_per_ns_ = run_ns_ > 0 ? run_cycles_ / run_ns_ : calibrated_cycles_per_ns_;
    }
  }

  // A launch with no pairs: which %smid values exist, and is every SM taken once?
  std::vector<int> census() {
    LaunchBuffers buffers(0, 1, facts_.sm_count, sm_id_limit());
    PingPongParams pp{};
    pp.iters = pp.samples = 1;
    pp.wait_budget_cycles = budget_cycles(100.0, facts_.max_sm_clock_hz);
    pp.pair_budget_cycles = budget_cycles(1000.0, facts_.max_sm_clock_hz);
    pp.pair_ns_estimate = 1000;
    buffers.prepare(pp, {}, stream_.get());
    run_launch(pp, buffers);
    std::vector<int> ids = buffers.block_sm(stream_.get());
    std::sort(ids.begin(), ids.end());
    if (std::adjacent_find(ids.begin(), ids.end()) != ids.end())
      throw RuntimeFailure("two blocks reported the same %smid: cannot pin one block per SM");
    return ids;
  }

  DeviceFacts facts_;
  Stream stream_;
  EventTimer timer_;
  double last_launch_ms_ = 0;
  nlohmann::json kernel_seconds_ = nlohmann::json::object();
  nlohmann::json launches_ = nlohmann::json::object();
  std::size_t smem_bytes_ = 0;
  double calibrated_cycles_per_ns_ = kNaN;
  double last_launch_cycles_per_ns_ = kNaN;
  double run_cycles_ = 0;
  double run_ns_ = 0;
  std::vector<int> sm_ids_;
  std::optional<Topology> topology_;
  std::optional<std::size_t> persist_bytes_;
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend(const Options& options) { return std::make_unique<CudaBackend>(options); }

}  // namespace cumap
