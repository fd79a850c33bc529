// The CUDA backend's host orchestration, over the CudaRuntime seam (plain
// C++: tests/cuda run it against a fake runtime). It checks plans, keeps the
// flag arena, cuts plans into launches at round boundaries, turns records
// into measurements and reports how the run went.
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "backends/cuda/cuda_backend_on_runtime.hpp"
#include "backends/cuda/launch_plan.hpp"
#include "cumap/error.hpp"

namespace cumap::cuda {
namespace {

// Launches shorter than this give too coarse a clock reading from
// %globaltimer; their cycles are converted with a longer measurement instead.
constexpr double kMinClockIntervalNs = 10e6;
// A launch should last about this long: frequent enough progress, few launches.
constexpr double kTargetLaunchSeconds = 0.1;
constexpr double kRttGuessNs = 700.0;
constexpr double kAtomicGuessNs = 300.0;

// Device memory owned through the runtime.
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

// The persisting-L2 window over the arena, for one measure() call.
class PersistingWindow {
 public:
  PersistingWindow(CudaRuntime& rt, DeviceAddress base, std::size_t bytes)
      : rt_(rt), bytes_(rt.set_persisting_window(base, bytes)) {
    if (bytes_ == 0) throw UsageError("--l2-persist: this device has no persisting L2 (compute capability 8.0+ needed)");
  }
  ~PersistingWindow() { rt_.clear_persisting_window(); }
  PersistingWindow(const PersistingWindow&) = delete;
  PersistingWindow& operator=(const PersistingWindow&) = delete;
  std::size_t bytes() const { return bytes_; }

 private:
  CudaRuntime& rt_;
  std::size_t bytes_;
};

// Cycles and ns of the launches long enough to time the SM clock themselves.
struct ClockTally {
  double cycles = 0;
  double ns = 0;
  void add(const std::array<std::uint64_t, 4>& m) {
    cycles += static_cast<double>(m[2] - m[0]);
    ns += static_cast<double>(m[3] - m[1]);
  }
  double cycles_per_ns() const { return ns > 0 ? cycles / ns : kNaN; }
};

class CudaBackend final : public Backend {
 public:
  CudaBackend(std::unique_ptr<CudaRuntime> runtime, const CudaTestHooks& hooks)
      : rt_(std::move(runtime)), hooks_(hooks) {}

  DeviceInfo device() const override { return describe(rt_->facts()); }

  // The SM census is a launch, so it happens on first use.
  std::vector<int> units() const override {
    if (!sm_ids_) sm_ids_ = census();
    return *sm_ids_;
  }

  Capabilities capabilities() const override {
    Capabilities c;
    c.max_pairs_per_round = std::max(1, rt_->facts().sm_count / 2);
    c.l2_persist = true;
    c.dsm = rt_->facts().cc_major >= 9;
    // One line's home shapes a map as much as the pair does, and so do the
    // L2 slices within a home. On the H100, 32 lines of 500 round trips per
    // class kept per-class maps of two allocations at r 0.988-0.995; 64 lines
    // of 250 at r 0.995-0.998 for 5 % more kernel time (bench/RESULTS.md,
    // fourth session and issue #23's runs).
    c.default_lines_per_class = 64;
    c.default_iters = 50;
    return c;
  }

  Topology topology() override {
    if (!topology_) topology_ = rt_->discover_gpcs(units());
    return *topology_;
  }

  Measurements measure(const MeasurementPlan& plan, const ProgressFn& progress) override {
    if (plan.path == Path::Dsm) return rt_->measure_dsm(plan, units(), fallback_cycles_per_ns(), progress);
    // The global path's kernels exist for these four; others (mbarrier) are dsm-only.
    if (plan.probe != Probe::Cas && plan.probe != Probe::Exch && plan.probe != Probe::AcqRel &&
        plan.probe != Probe::Volatile)
      throw UsageError(fmt::format("--probe {} needs --via dsm", to_string(plan.probe)));
    check_plan_units(plan, rt_->facts().ordinal, units(), "SM");
    check_plan_flags(plan);
    const DeviceAddress base = arena_for(plan.arena, plan.flush_cache);
    // Every pair starts from zero, even after a launch that was abandoned.
    rt_->zero(arena_->address(), arena_->bytes());
    std::optional<PersistingWindow> persist;
    if (plan.l2_persist) persist.emplace(*rt_, base, plan.arena.bytes);

    PingPongLaunch launch;
    launch.settings = settings_for(plan);
    launch.arena = base;
    if (plan.flush_cache) {
      launch.flush_buffer = flush_->address();
      launch.flush_words = flush_->bytes() / sizeof(std::uint32_t);
    }
    Measurements out;
    ClockTally run_clock;
    const auto ranges =
        launch_round_ranges(plan.rounds.size(), rounds_per_launch(plan.counts, kRttGuessNs, kTargetLaunchSeconds));
    for (const RoundRange& range : ranges) {
      launch.pairs = launch_pairs(plan, range);
      const PingPongOutcome done = rt_->run_pingpong(launch);
      check_abort(done, "ping-pong");
      const double cpn = launch_cycles_per_ns(done, run_clock);
      auto decoded = decode_launch(plan, range, done.records, cpn);
      out.pairs.insert(out.pairs.end(), std::make_move_iterator(decoded.begin()), std::make_move_iterator(decoded.end()));
      out.stats.device_seconds += done.elapsed_ms * 1e-3;
      ++out.stats.launches;
      if (progress) progress(range.end, plan.rounds.size());
    }
    out.stats.clock_hz = run_clock.ns > 0 ? run_clock.cycles_per_ns() * 1e9 : fallback_cycles_per_ns() * 1e9;
    out.stats.extra = run_extra(run_clock, persist ? persist->bytes() : 0);
    return out;
  }

  LineLatencyTable probe_lines(const LineProbePlan& plan, const ProgressFn& progress) override {
    check_probe_units(plan);
    check_line_probe(plan);
    LineLatencyTable table;
    table.units = plan.units;
    table.lines = plan.lines;
    table.cycles.assign(plan.units.size() * plan.lines.size(), kNaN);
    table.ns = table.cycles;
    if (plan.units.empty() || plan.lines.empty()) return table;

    LineProbeLaunch launch;
    launch.arena = arena_for(plan.arena, false);
    launch.line_words = line_words(plan);
    launch.chain = plan.chain;
    launch.repeats = plan.repeats;
    launch.turn_budget_cycles = turn_budget_cycles(plan, rt_->facts().max_sm_clock_hz);
    launch.turn_ns_estimate = turn_ns_estimate(plan, kAtomicGuessNs);
    const std::size_t per = units_per_probe_launch(plan, kAtomicGuessNs, kTargetLaunchSeconds);
    ClockTally run_clock;
    for (std::size_t begin = 0; begin < plan.units.size(); begin += per) {
      const std::size_t end = std::min(plan.units.size(), begin + per);
      launch.turn_sms.clear();
      for (std::size_t u = begin; u < end; ++u) launch.turn_sms.push_back(plan.units[u].unit);
      const LineProbeOutcome done = rt_->run_line_probe(launch);
      check_abort(done, "line-probe");
      fill_probe_rows(table, begin, end - begin, done.cycles, plan.chain, plan.repeats,
                      launch_cycles_per_ns(done, run_clock));
      if (progress) progress(end, plan.units.size());
    }
    return table;
  }

  CoherenceReport check_coherence(int reader, int writer, double window_ms) override {
    const std::vector<int> sms = units();
    for (int u : {reader, writer})
      if (!std::binary_search(sms.begin(), sms.end(), u))
        throw UsageError(fmt::format("check-coherence: SM {} does not exist on this device", u));
    if (reader == writer) throw UsageError("check-coherence: reader and writer must be different SMs");
    return rt_->check_coherence(reader, writer, window_ms, calibrated_cycles_per_ns());
  }

 private:
  PingPongSettings settings_for(const MeasurementPlan& plan) const {
    const double max_hz = rt_->facts().max_sm_clock_hz;
    PingPongSettings s;
    s.counts = plan.counts;
    s.probe = static_cast<int>(plan.probe);
    s.wait_budget_cycles = budget_cycles(plan.timeout_ms, max_hz);
    s.round_budget_cycles = round_budget_cycles(plan.counts, plan.timeout_ms, max_hz);
    s.round_ns_estimate = round_ns_estimate(plan.counts, kRttGuessNs);
    s.silent_sm = hooks_.silent_sm;
    s.flush_l2 = plan.flush_cache;
    return s;
  }

  // The arena of `wanted`, allocated on first use and kept while plans ask
  // for the same one, so that an offset names the same memory (and L2 home)
  // in every call. Returns its base (offset 0).
  DeviceAddress arena_for(const FlagArena& wanted, bool with_flush) {
    check_arena(wanted);
    if (wanted.device != rt_->facts().ordinal)
      throw UsageError(fmt::format("the flag arena is on device {}; this backend measures device {}", wanted.device,
                                   rt_->facts().ordinal));
    if (!arena_ || arena_spec_ != wanted) {
      arena_.reset();  // give the old one back before asking for room
      const std::size_t bytes = arena_allocation_bytes(wanted);
      check_fits(bytes, "the flag arena");
      arena_.emplace(*rt_, bytes);
      arena_spec_ = wanted;
    }
    if (with_flush && !flush_) {
      const std::size_t bytes = flush_buffer_words(rt_->facts().l2_bytes) * sizeof(std::uint32_t);
      check_fits(bytes, "--flush-cache's buffer (twice the L2)");
      flush_.emplace(*rt_, bytes);
    }
    return arena_base(arena_->address(), wanted);
  }

  // Memory the device cannot spare is bad input, not a failure.
  void check_fits(std::size_t bytes, const char* what) const {
    const std::size_t free_bytes = rt_->free_memory_bytes();
    if (bytes > free_bytes / 2)
      throw UsageError(fmt::format("{} needs {} MiB; the device has {} MiB free (fewer lines, a smaller "
                                   "--rotating-count or --flag-offset?)",
                                   what, bytes >> 20, free_bytes >> 20));
  }

  void check_probe_units(const LineProbePlan& plan) const {
    MeasurementPlan units_only;
    units_only.units = plan.units;
    check_plan_units(units_only, rt_->facts().ordinal, units(), "SM");
  }

  static void check_abort(const LaunchOutcome& done, const char* kernel) {
    if (done.abort_code != kNoAbort)
      throw RuntimeFailure(fmt::format("the {} kernel stopped: {}", kernel, abort_reason(done.abort_code)));
  }

  // A launch of at least 10 ms times the SM clock itself; shorter ones use
  // what longer launches measured so far, else the calibration.
  double launch_cycles_per_ns(const LaunchOutcome& done, ClockTally& run_clock) {
    const double cpn = cycles_per_ns(done.clock_marks.data());
    if (std::isfinite(cpn) && static_cast<double>(done.clock_marks[3] - done.clock_marks[1]) >= kMinClockIntervalNs) {
      run_clock.add(done.clock_marks);
      lifetime_clock_.add(done.clock_marks);
      return cpn;
    }
    return fallback_cycles_per_ns();
  }

  double fallback_cycles_per_ns() const {
    return lifetime_clock_.ns > 0 ? lifetime_clock_.cycles_per_ns() : calibrated_cycles_per_ns();
  }

  double calibrated_cycles_per_ns() const {
    if (!calibrated_cpn_) {
      const auto m = rt_->calibrate_clock();
      const double cpn = cycles_per_ns(m.data());
      if (!std::isfinite(cpn)) throw RuntimeFailure("SM clock calibration against %globaltimer failed");
      calibrated_cpn_ = cpn;
    }
    return *calibrated_cpn_;
  }

  nlohmann::json run_extra(const ClockTally& run_clock, std::size_t persist_bytes) const {
    nlohmann::json j;
    j["sm_clock_calibration_hz"] = calibrated_cycles_per_ns() * 1e9;
    j["clock_measured_by_launches"] = run_clock.ns > 0;
    j["blocks_per_launch"] = rt_->facts().sm_count;
    j["dynamic_shared_memory_per_block_bytes"] = rt_->smem_per_block();
    if (persist_bytes > 0) j["l2_persisting_window_bytes"] = persist_bytes;
    return j;
  }

  // A launch with no pairs: which %smid values exist, and is every SM taken once?
  std::vector<int> census() const {
    PingPongLaunch empty;
    empty.settings.counts = {1, 1, 0, true};
    empty.settings.wait_budget_cycles = budget_cycles(100.0, rt_->facts().max_sm_clock_hz);
    empty.settings.round_budget_cycles = budget_cycles(1000.0, rt_->facts().max_sm_clock_hz);
    empty.settings.round_ns_estimate = 1000;
    empty.pairs.round_starts = {0};
    const PingPongOutcome done = rt_->run_pingpong(empty);
    check_abort(done, "ping-pong");
    std::vector<int> ids = done.block_sm;
    std::sort(ids.begin(), ids.end());
    if (std::adjacent_find(ids.begin(), ids.end()) != ids.end())
      throw RuntimeFailure("two blocks reported the same %smid: cannot pin one block per SM");
    return ids;
  }

  std::unique_ptr<CudaRuntime> rt_;  // first: the memory below is released through it
  CudaTestHooks hooks_;
  mutable std::optional<std::vector<int>> sm_ids_;
  mutable std::optional<double> calibrated_cpn_;
  std::optional<Topology> topology_;
  ClockTally lifetime_clock_;
  FlagArena arena_spec_;
  std::optional<DeviceMemory> arena_;
  std::optional<DeviceMemory> flush_;
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend_on(std::unique_ptr<CudaRuntime> runtime, const CudaTestHooks& hooks) {
  return std::make_unique<CudaBackend>(std::move(runtime), hooks);
}

}  // namespace cumap::cuda
