#include "backends/hip/hip_backend.hpp"
#include "plan/plan_checks.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "backends/hip/cu_mask.hpp"
#include "backends/hip/hip_sync.hpp"
#include "backends/hip/hw_id.hpp"
#include "backends/hip/pair_timing.hpp"
#include "backends/hip/queue_budget.hpp"
#include "backends/hip/stream_pool.hpp"
#include "cumap/error.hpp"
#include "plan/sync_checks.hpp"

namespace cumap {
namespace {

class HipBackend final : public Backend {
 public:
  HipBackend(std::unique_ptr<HipRuntime> runtime, const DeviceSelection& selection);
  ~HipBackend() override;

  DeviceInfo device() const override;
  std::vector<int> units() const override;
  Capabilities capabilities() const override;
  Topology topology() override;
  LineLatencyTable probe_lines(const LineProbePlan& plan, const ProgressFn& progress) override;
  Measurements measure(const MeasurementPlan& plan, const ProgressFn& progress) override;
  std::unique_ptr<SyncSession> open_sync(const SyncPlan& plan) override;

 private:
  class Sync;  // its SyncSession: a nested class, for the streams, checker and runtime it shares
  HipDeviceProperties probe_device(int device);
  void check_plan(const MeasurementPlan& plan) const;
  HipBuffer flags_for(const FlagArena& arena);
  std::vector<PingPongResult> run_pairs(const std::vector<PlannedPair>& pairs, const MeasurementPlan& plan,
                                        RunStats& stats);
  void ensure_xcd_striping();
  int expected_xcd(int unit) const { return striping_.xcds > 1 ? striping_.xcd_of_unit(unit) : -1; }
  HwIdChecker& checker() { return *checker_; }

  int device_;
  // Declared before the pool, which destroys its streams through it.
  std::unique_ptr<HipRuntime> runtime_;
  HipUnit unit_;
  HipDeviceProperties props_;
  HwIdLayout layout_;
  std::string unit_name_;
  QueueBudget budget_;
  XcdStriping striping_;  // how unit ids map to mask bits (MI300: across XCDs)
  bool striping_known_ = false;
  std::unique_ptr<StreamPool> pool_;
  std::unique_ptr<HwIdChecker> checker_;
  std::optional<Topology> topology_;
  std::vector<std::string> notes_;
  std::optional<FlagArena> arena_;  // what flags_ holds
  HipBuffer flags_ = 0;
  int time_slicing_events_ = 0;
  int remeasured_pairs_ = 0;
};

HipBackend::HipBackend(std::unique_ptr<HipRuntime> runtime, const DeviceSelection& selection)
    : device_(selection.device),
      runtime_(std::move(runtime)),
      unit_(selection.hip_unit),
      props_(probe_device(selection.device)),
      layout_(hw_id_layout_for_arch(props_.gcn_arch_name)),
      unit_name_(hip_unit_name(unit_)),
      budget_(queue_budget(selection.max_streams, props_.gcn_arch_name)),
      striping_{1, props_.cu_count},
      pool_(std::make_unique<StreamPool>(
          *runtime_,
          [this](int u) {
            return unit_ == HipUnit::Wgp ? cu_mask_for_unit(HipUnit::Wgp, u, props_.cu_count)
                                         : cu_mask_for_unit(striping_, u);
          },
          unit_name_, static_cast<std::size_t>(budget_.streams))),
      checker_(std::make_unique<HwIdChecker>(layout_, unit_, unit_name_)) {
  if (unit_ == HipUnit::Wgp && layout_ == HwIdLayout::Gfx9) {
    throw UsageError(fmt::format("--unit wgp needs an RDNA GPU (gfx10 or newer); {} has CUs only",
                                 props_.gcn_arch_name));
  }
  if (props_.wall_clock_hz <= 0.0) {
    throw RuntimeFailure(fmt::format("{}: the HIP runtime reports no wall-clock rate", props_.name));
  }
}

HipBackend::~HipBackend() {
  pool_.reset();
  if (flags_ != 0) {
    try {
      runtime_->free_flags(flags_);
    } catch (...) {
      // Nothing useful to do in a destructor; the process is ending anyway.
    }
  }
}

HipDeviceProperties HipBackend::probe_device(int device) {
  const int count = runtime_->device_count();
  if (count == 0) {
    throw UsageError(fmt::format("no AMD GPU found (HIP runtime reports {} devices)", count));
  }
  if (device < 0 || device >= count) {
    throw UsageError(fmt::format("device {} does not exist: the HIP runtime reports {} device(s)", device, count));
  }
  runtime_->select_device(device);
  return runtime_->properties(device);
}

DeviceInfo HipBackend::device() const {
  DeviceInfo d;
  d.backend = "hip";
  d.name = props_.name;
  d.unit_name = unit_name_;
  d.unit_count = hip_unit_count(unit_, props_.cu_count);
  d.clock_source = "wall_clock64 (s_memrealtime) for ns; clock64 (s_memtime, shader clock) for cycles";
  d.clock_hz = props_.shader_clock_hz;
  d.runtime_version = props_.runtime_version;
  d.driver_version = props_.driver_version;
  d.extra["gcn_arch_name"] = props_.gcn_arch_name;
  d.extra["cu_count"] = props_.cu_count;
  d.extra["wall_clock_hz"] = props_.wall_clock_hz;
  d.extra["wall_clock_rate_source"] = props_.wall_clock_rate_source;
  d.extra["hw_id_register"] = layout_ == HwIdLayout::Gfx9 ? "HW_ID" : "HW_ID1";
  d.extra["max_streams"] = budget_.streams;
  d.extra["max_streams_source"] = budget_.source;
  return d;
}

std::vector<int> HipBackend::units() const {
  std::vector<int> ids(static_cast<std::size_t>(hip_unit_count(unit_, props_.cu_count)));
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int>(i);
  return ids;
}

Capabilities HipBackend::capabilities() const {
  Capabilities c;
  c.max_pairs_per_round = static_cast<int>(pool_->capacity() / 2);
  // As on the cuda backend (measured there; no AMD GPU has run cumap yet).
  c.default_lines_per_class = 32;
  c.caveat = "Measured by the hip backend, which is compiled and tested against a simulated runtime only and has "
             "not been run on an AMD GPU by its authors: check these numbers against what you expect of the card, "
             "and please report what you see.";
  return c;
}

// MI300 (gfx94x): the driver stripes a linear CU mask across the XCDs, bit
// i on XCD i % N. The first 16 bits therefore show every XCD once (N <= 8
// on MI300X, fewer in partition modes): N is one more than the highest
// XCC_ID they report. Found once, before the pool makes any stream.
void HipBackend::ensure_xcd_striping() {
  if (striping_known_) return;
  striping_known_ = true;
  if (unit_ != HipUnit::Cu || !props_.gcn_arch_name.starts_with("gfx94")) return;
  int highest = 0;
  for (int bit = 0; bit < std::min(props_.cu_count, 16); ++bit) {
    const StreamCreation made = runtime_->create_cu_masked_stream(cu_mask_for_unit(HipUnit::Cu, bit, props_.cu_count));
    if (made.status != StreamCreateStatus::Created)
      throw RuntimeFailure(fmt::format("hipExtStreamCreateWithCUMask failed for mask bit {}: {}", bit, made.error));
    highest = std::max(highest, decode_xcc_id(runtime_->read_hw_id(made.stream).xcc_id));
    runtime_->destroy_stream(made.stream);
  }
  if (props_.cu_count % (highest + 1) != 0) {
    notes_.push_back(fmt::format("{} CUs do not divide among the {} XCDs XCC_ID reports: CU masks left linear",
                                 props_.cu_count, highest + 1));
    return;
  }
  striping_.xcds = highest + 1;
}

Topology HipBackend::topology() {
  if (!topology_) {
    ensure_xcd_striping();
    const std::vector<int> ids = units();
    std::vector<HwReading> readings;
    readings.reserve(ids.size());
    for (int u : ids) {
      readings.push_back(runtime_->read_hw_id(pool_->acquire(u)));
      checker().record(u, readings.back(), expected_xcd(u));
    }
    topology_ = hip_topology_from_hw_readings(ids, readings, layout_, striping_.xcds);
    topology_->details["xcds"] = striping_.xcds;
  }
  return *topology_;
}

// What a plan may ask of the hip backend, checked before anything launches.
void HipBackend::check_plan(const MeasurementPlan& plan) const {
  if (plan.l2_persist)
    throw UsageError("--l2-persist needs the cuda backend: HIP has no persisting-L2 access window");
  if (plan.path == Path::Dsm)
    throw UsageError("--via dsm needs the cuda backend (thread-block clusters); AMD GPUs have no cluster shared memory");
  if (plan.probe == Probe::Mbarrier) throw UsageError("--probe mbarrier exists only with --via dsm on the cuda backend");
  check_plan_units(plan, {{device_, units()}}, unit_name_);
  check_plan_rounds(plan, unit_name_);
}

// The arena lives as long as the backend and moves only for a different one,
// so that an offset names the same line (and L2 channel) in every call.
HipBuffer HipBackend::flags_for(const FlagArena& arena) {
  if (arena_ != arena) {
    if (flags_ != 0) runtime_->free_flags(std::exchange(flags_, 0));
    flags_ = runtime_->allocate_flags(static_cast<std::size_t>(arena.offset_bytes + arena.bytes));
    arena_ = arena;
  }
  return flags_;
}

// Runs `pairs` (disjoint) as many at a time as the stream pool holds.
std::vector<PingPongResult> HipBackend::run_pairs(const std::vector<PlannedPair>& pairs, const MeasurementPlan& plan,
                                                  RunStats& stats) {
  const HipBuffer flags = flags_for(plan.arena);
  std::vector<PingPongResult> results;
  for (std::size_t first = 0; first < pairs.size();) {
    const std::size_t last = std::min(pairs.size(), first + std::max<std::size_t>(1, pool_->capacity() / 2));
    std::vector<int> wave_units;
    for (std::size_t p = first; p < last; ++p) wave_units.insert(wave_units.end(), {pairs[p].a.unit, pairs[p].b.unit});
    const std::vector<HipStream> streams = pool_->acquire_all(wave_units);
    std::vector<PingPongLaunch> launches;
    for (std::size_t p = first; p < last; ++p) {
      PingPongLaunch l;
      l.a_stream = streams[2 * (p - first)];
      l.b_stream = streams[2 * (p - first) + 1];
      l.flags = flags;
      l.first_offset_bytes = plan.arena.offset_bytes + pairs[p].flags.first;
      l.second_offset_bytes = plan.arena.offset_bytes + pairs[p].flags.second;
      l.counts = plan.counts;
      l.wait_budget_ticks = static_cast<std::uint64_t>(plan.timeout_ms * 1e-3 * props_.wall_clock_hz) + 1;
      l.probe = static_cast<protocol::ProbeCode>(plan.probe);
      launches.push_back(l);
    }
    if (plan.flush_cache) {
      runtime_->flush_icache();
      runtime_->flush_l2();
    }
    std::vector<PingPongResult> wave = runtime_->run_pairs(launches);
    ++stats.launches;
    for (std::size_t j = 0; j < wave.size(); ++j) {
      const int a = pairs[first + j].a.unit, b = pairs[first + j].b.unit;
      checker().record(a, wave[j].a_hw, expected_xcd(a));
      checker().record(b, wave[j].b_hw, expected_xcd(b));
      results.push_back(std::move(wave[j]));
    }
    first = last;
  }
  return results;
}

Measurements HipBackend::measure(const MeasurementPlan& plan, const ProgressFn& progress) {
  check_plan(plan);
  ensure_xcd_striping();
  const HipClocks clocks{props_.wall_clock_hz, props_.shader_clock_hz};
  Measurements out;
  double cycles = 0.0, seconds = 0.0;  // the shader clock, measured over every sample
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t r = 0; r < plan.rounds.size(); ++r) {
    // Asked between rounds: a stop keeps the rounds done (a map's plan holds
    // a whole home class).
    if (r > 0 && plan.stop && plan.stop()) {
      out.stopped = true;
      break;
    }
    const std::vector<PlannedPair>& pairs = plan.rounds[r].pairs;
    std::vector<PingPongResult> results = run_pairs(pairs, plan, out.stats);
    // Time-slicing means the pool holds more queues than the hardware runs
    // at once: shrink it and measure those pairs again, once.
    std::vector<std::size_t> suspects;
    for (std::size_t j = 0; j < results.size(); ++j)
      if (looks_time_sliced(results[j], props_.wall_clock_hz)) suspects.push_back(j);
    if (!suspects.empty()) {
      ++time_slicing_events_;
      pool_->shrink_budget(reduced_queue_budget(pool_->alive()));
      std::vector<PlannedPair> again;
      for (std::size_t j : suspects) again.push_back(pairs[j]);
      std::vector<PingPongResult> redone = run_pairs(again, plan, out.stats);
      for (std::size_t i = 0; i < suspects.size(); ++i) results[suspects[i]] = std::move(redone[i]);
      remeasured_pairs_ += static_cast<int>(suspects.size());
    }
    for (std::size_t j = 0; j < results.size(); ++j) {
      const PingPongResult& res = results[j];
      if (notes_.empty() && !res.timed_out) {
        if (auto msg = wall_clock_disagreement(res, props_.wall_clock_hz)) notes_.push_back(*msg);
      }
      PairMeasurement m = pair_measurement_from_result(pairs[j], static_cast<int>(r), res, plan.counts, clocks);
      for (std::size_t s = 0; s < m.rtt_cycles.size(); ++s) {
        cycles += m.rtt_cycles[s];
        seconds += m.rtt_ns[s] * 1e-9;
      }
      out.pairs.push_back(std::move(m));
    }
    if (progress) progress(r + 1, plan.rounds.size());
  }
  RunStats& stats = out.stats;
  stats.device_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  stats.clock_hz = seconds > 0.0 ? cycles / seconds : kNaN;
  stats.extra["max_streams"] = pool_->budget();
  stats.extra["xcds"] = striping_.xcds;
  stats.extra["cu_masked_streams_peak"] = pool_->peak_alive();
  // Known once the device refused a stream; null means it never did.
  stats.extra["max_cu_masked_streams"] = pool_->limit() ? nlohmann::json(*pool_->limit()) : nlohmann::json(nullptr);
  stats.extra["time_slicing_events"] = time_slicing_events_;
  stats.extra["remeasured_pairs"] = remeasured_pairs_;
  stats.extra["hw_id_warnings"] = checker_->warnings();
  stats.extra["notes"] = notes_;
  return out;
}

// One case at a time: each participant a kernel on its unit's masked stream
// (the streams of a case alive together), the platform barrier a
// cooperative launch. A case whose wait ran out comes back timed out.
class HipBackend::Sync final : public SyncSession {
 public:
  Sync(HipBackend& backend, const SyncPlan& plan, HipBuffer flags) : b_(backend), plan_(plan), flags_(flags) {}

  std::optional<SyncMeasurement> measure_case(std::size_t index) override {
    const SyncCase& c = plan_.cases.at(index);
    const HipSyncLimits limits{b_.units().size(), b_.pool_->capacity(), b_.props_.cooperative_launch};
    if (std::string why = why_hip_sync_case_unsupported(c, limits); !why.empty())
      return unsupported_case(c, std::move(why));
    HipSyncLaunch launch = hip_sync_launch_for(c, plan_, flags_, b_.props_.wall_clock_hz);
    std::vector<int> ids;
    for (const UnitRef& u : c.participants) ids.push_back(u.unit);
    if (launch.kind == HipSyncKind::Platform) launch.platform_blocks = static_cast<int>(ids.size());
    else launch.streams = b_.pool_->acquire_all(ids);
    const HipSyncResult result = b_.runtime_->run_sync(launch);
    for (std::size_t p = 0; p < result.hw.size() && p < ids.size(); ++p)
      b_.checker().record(ids[p], result.hw[p], b_.expected_xcd(ids[p]));
    SyncMeasurement m = sync_measurement_from_result(c, result, {b_.props_.wall_clock_hz, b_.props_.shader_clock_hz});
    if (!c.contention)
      for (std::size_t e = 0; e < m.cycles.size(); ++e) {
        cycles_ += m.cycles[e];
        seconds_ += m.ns[e] * 1e-9;
      }
    device_seconds_ += result.event_ms * 1e-3;
    return m;
  }

  double device_seconds() const override { return device_seconds_; }
  // The shader clock, measured over every barrier episode.
  double clock_hz() const override { return seconds_ > 0.0 ? cycles_ / seconds_ : 0.0; }

 private:
  HipBackend& b_;
  const SyncPlan& plan_;
  HipBuffer flags_;
  double cycles_ = 0.0, seconds_ = 0.0;
  double device_seconds_ = 0.0;
};

std::unique_ptr<SyncSession> HipBackend::open_sync(const SyncPlan& plan) {
  check_sync_plan(plan, {{device_, units()}}, unit_name_);
  ensure_xcd_striping();
  return std::make_unique<Sync>(*this, plan, flags_for(plan.arena));
}

LineLatencyTable HipBackend::probe_lines(const LineProbePlan& plan, const ProgressFn& progress) {
  if (plan.chain < 1 || plan.repeats < 1) throw UsageError("line probing needs chain and repeats of at least 1");
  if (plan.device != device_)
    throw UsageError(fmt::format("the line probe's arena is on device {}; this backend measures device {}", plan.device,
                                 device_));
  if (plan.memory != 0) check_callers_memory(runtime_->memory_facts(plan.memory), plan.memory, device_, "HIP", "hipMalloc");
  const std::vector<int> ids = units();
  for (std::uint64_t line : plan.lines)
    if (line % protocol::kFlagBytes != 0 || line + protocol::kLineBytes > plan.arena.bytes)
      throw UsageError(fmt::format("line offset {} is outside the {}-byte flag arena", line, plan.arena.bytes));
  ensure_xcd_striping();
  // The caller's memory is probed where it is; the lines are offsets into it.
  const HipBuffer flags = plan.memory != 0 ? plan.memory : flags_for(plan.arena);
  const HipClocks clocks{props_.wall_clock_hz, props_.shader_clock_hz};
  LineLatencyTable table;
  table.units = plan.units;
  table.lines = plan.lines;
  for (std::size_t u = 0; u < plan.units.size(); ++u) {
    const UnitRef& unit = plan.units[u];
    if (unit.device != device_ || !std::binary_search(ids.begin(), ids.end(), unit.unit))
      throw UsageError(fmt::format("{} {} of device {} is not on this device", unit_name_, unit.unit, unit.device));
    LineProbeLaunch launch;
    launch.stream = pool_->acquire(unit.unit);
    launch.flags = flags;
    for (std::uint64_t line : plan.lines) launch.line_offsets.push_back(plan.arena.offset_bytes + line);
    launch.chain = plan.chain;
    launch.repeats = plan.repeats;
    append_line_latencies(runtime_->probe_lines(launch), plan.chain, plan.repeats, clocks, table.ns, table.cycles);
    if (progress) progress(u + 1, plan.units.size());
  }
  return table;
}

}  // namespace

std::unique_ptr<Backend> make_hip_backend_with_runtime(std::unique_ptr<HipRuntime> runtime,
                                                       const DeviceSelection& selection) {
  return std::make_unique<HipBackend>(std::move(runtime), selection);
}

}  // namespace cumap
