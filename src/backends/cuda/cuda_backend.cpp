// The CUDA backend's host orchestration, over the CudaRuntime seam (plain
// C++: tests/backends/cuda run it against a fake runtime). It checks plans, keeps the
// flag arenas, cuts plans into launches at round boundaries, runs each launch
// on every GPU the plan touches at once, turns records into measurements and
// reports how the run went. One GPU is a group of one.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "backends/cuda/cuda_backend_on_runtime.hpp"
#include "plan/plan_checks.hpp"
#include "backends/cuda/cuda_gpu.hpp"
#include "backends/cuda/cuda_sync.hpp"
#include "backends/cuda/nvml/device_info_from_nvml.hpp"
#include "backends/cuda/launch_plan.hpp"
#include "backends/cuda/sync_measure.hpp"
#include "cumap/error.hpp"
#include "core/units.hpp"

namespace cumap::cuda {
namespace {

// A launch should last about this long: frequent enough progress, few launches.
constexpr double kTargetLaunchSeconds = 0.1;
// A ping-pong launch's length as estimated (kRttGuessNs per round trip, no
// time between rounds). A concurrent round of the default counts takes 3-4
// times that on an H200 (0.55 s of kernel for 48 passes of 66 rounds: 174 us
// a round against 48 us estimated; its slowest pair, then the hand-over to
// the next round), so this is ~0.1 s of kernel: a class of the default map
// in three launches, each decoded while the next one runs.
constexpr double kPingPongLaunchEstimateSeconds = 0.03;
constexpr double kRttGuessNs = 700.0;
constexpr double kAtomicGuessNs = 300.0;

// The persisting-L2 window over one GPU's arena, for one measure() call.
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

// One map pools its GPUs' home classes and sides by number and compares
// their SMs cell by cell: that holds for GPUs of one model only (another
// model is another chip, with other classes, sides and GPCs).
void check_one_model(const std::vector<std::unique_ptr<CudaGpu>>& gpus) {
  const DeviceFacts& first = gpus.front()->facts();
  for (const auto& g : gpus) {
    const DeviceFacts& f = g->facts();
    if (f.name == first.name && f.cc_major == first.cc_major && f.cc_minor == first.cc_minor) continue;
    throw UsageError(fmt::format("--devices: GPU {} is a {} (compute capability {}.{}) and GPU {} a {} ({}.{}): a map "
                                 "across GPUs needs GPUs of one model",
                                 first.ordinal, first.name, first.cc_major, first.cc_minor, f.ordinal, f.name,
                                 f.cc_major, f.cc_minor));
  }
}

class CudaBackend final : public Backend {
 public:
  CudaBackend(std::vector<std::unique_ptr<CudaRuntime>> runtimes, const CudaTestHooks& hooks) : hooks_(hooks) {
    if (runtimes.empty()) throw std::invalid_argument("the CUDA backend needs at least one GPU");
    for (auto& rt : runtimes) gpus_.push_back(std::make_unique<CudaGpu>(std::move(rt)));
    std::sort(gpus_.begin(), gpus_.end(), [](const auto& x, const auto& y) { return x->ordinal() < y->ordinal(); });
    for (std::size_t i = 1; i < gpus_.size(); ++i)
      if (gpus_[i]->ordinal() == gpus_[i - 1]->ordinal())
        throw UsageError(fmt::format("--devices names GPU {} twice", gpus_[i]->ordinal()));
    if (gpus_.size() > static_cast<std::size_t>(kMaxGroupGpus))
      throw UsageError(fmt::format("--devices names {} GPUs; cumap maps at most {} at once", gpus_.size(),
                                   kMaxGroupGpus));
    check_one_model(gpus_);
    open_peer_access();
    device_ = describe_all();
    add_nvml_facts(device_, hooks_.nvml_library != nullptr ? hooks_.nvml_library : nvml::kLibrary);
  }

  DeviceInfo device() const override { return device_; }

  // Across GPUs ids are unit_id()s (plan.hpp); on one, SM ids.
  std::vector<int> units() const override {
    if (gpus_.size() == 1) return gpus_.front()->sm_ids();
    std::vector<int> ids;
    for (const auto& g : gpus_)
      for (int sm : g->sm_ids()) ids.push_back(unit_id(UnitRef{g->ordinal(), sm}));
    return ids;
  }

  Capabilities capabilities() const override {
    Capabilities c;
    int sms = 0;
    for (const auto& g : gpus_) sms += g->facts().sm_count;
    c.max_pairs_per_round = std::max(1, sms / 2);
    c.l2_persist = true;
    // Clusters never span GPUs.
    c.dsm = gpus_.size() == 1 && gpus_.front()->facts().cc_major >= 9;
    // One line's home shapes a map as much as the pair does, and so do the
    // L2 slices within a home: precision comes from lines more than from
    // round trips per line. On an H200, 24 lines of 3 x 20 round trips per
    // class kept per-class maps of two allocations at r 0.991 in 0.55 s of
    // kernel per placement (16 lines of 5 x 20: r 0.990 in the same time),
    // where 64 x 5 x 50 took 4.25 s (bench/RESULTS.md, "The default counts").
    c.default_lines_per_class = 24;
    // A pair across GPUs: a round trip over the link costs 2.6 times one on
    // a chip, and with the far SM's term from the remote table its lines
    // differ less. On two H200s (bench/RESULTS.md, "Lines across GPUs"),
    // 12 lines per class on each GPU kept the cells across GPUs of two
    // allocations at r 0.983-0.991 per class (8: 0.978-0.987; 24: 0.991-
    // 0.994) for 1.8 s of kernel per placement (8: 1.4 s; 24: 3.0 s).
    c.default_cross_lines_per_class = 12;
    // And its round trips: 1 untimed and 2 samples of 20 on each line (51
    // round trips, 82 at the map's 8 and 3) kept those cells at r 0.986-
    // 0.992 per class at 12 lines on two H200s, as the map's own counts did,
    // for 38 % less of the kernel's largest part (bench/RESULTS.md, "Round
    // trips across GPUs").
    c.default_cross_samples = 2;
    c.default_cross_warmup = 1;
    c.default_iters = 20;
    return c;
  }

  Topology topology() override {
    if (gpus_.size() == 1) return gpus_.front()->topology();
    // Each GPU's groups, ids made unit_id()s; names stay the GPU's own
    // ("GPC3"): the display prefixes the GPU.
    Topology all;
    nlohmann::json details = nlohmann::json::array();
    for (const auto& g : gpus_) {
      const Topology t = g->topology();
      all.source = t.source;
      for (const UnitGroup& group : t.groups) {
        UnitGroup renamed{group.name, {}};
        for (int sm : group.units) renamed.units.push_back(unit_id(UnitRef{g->ordinal(), sm}));
        all.groups.push_back(std::move(renamed));
      }
      details.push_back({{"gpu", g->ordinal()}, {"details", t.details}});
    }
    all.details = {{"gpus", details}};
    return all;
  }

  Measurements measure(const MeasurementPlan& plan, const ProgressFn& progress) override {
    if (plan.path == Path::Dsm) {
      if (gpus_.size() > 1) throw UsageError("--via dsm works inside one GPU's clusters; a map across GPUs has none");
      CudaGpu& gpu = *gpus_.front();
      return gpu.runtime().measure_dsm(plan, gpu.sm_ids(), gpu.fallback_cycles_per_ns(), progress);
    }
    // The global path's kernels exist for these four; others (mbarrier) are dsm-only.
    if (plan.probe != Probe::Cas && plan.probe != Probe::Exch && plan.probe != Probe::AcqRel &&
        plan.probe != Probe::Volatile)
      throw UsageError(fmt::format("--probe {} needs --via dsm", to_string(plan.probe)));
    const auto began = std::chrono::steady_clock::now();
    check_plan_units(plan, sm_ids_by_gpu(), "SM");
    check_plan_flags(plan);
    const std::vector<int> group = launch_group(plan);
    std::vector<CudaGpu*> members;
    for (int device : group) members.push_back(&gpu_of(device));

    std::vector<DeviceAddress> arenas;
    std::vector<DeviceAddress> controls;
    unsigned group_blocks = 0;
    std::vector<std::optional<PersistingWindow>> persist(members.size());
    for (std::size_t g = 0; g < members.size(); ++g) {
      arenas.push_back(members[g]->arena_for(plan.arena, plan.flush_cache));
      // Every pair starts from zero, even after a launch that was abandoned.
      members[g]->zero_arena();
      controls.push_back(members[g]->runtime().control_words());
      group_blocks += static_cast<unsigned>(members[g]->facts().sm_count);
      if (plan.l2_persist) persist[g].emplace(members[g]->runtime(), arenas[g], plan.arena.bytes);
    }

    const PingPongSettings settings = settings_for(plan, members);
    std::vector<PingPongLaunch> launch(members.size());
    for (std::size_t g = 0; g < members.size(); ++g) {
      launch[g].settings = settings;
      launch[g].self = static_cast<int>(g);
      launch[g].arenas = arenas;
      launch[g].controls = controls;
      launch[g].group_blocks = group_blocks;
      if (plan.flush_cache) {
        launch[g].flush_buffer = members[g]->flush_buffer();
        launch[g].flush_words = members[g]->flush_words();
      }
    }
    Measurements out;
    std::vector<ClockTally> run_clock(members.size());
    const auto ranges = launch_round_ranges(
        plan.rounds.size(), rounds_per_launch(plan.counts, kRttGuessNs, kPingPongLaunchEstimateSeconds));
    const auto start = [&](const LaunchPairs& pairs) {
      // A word per pair on every member; a pair counts its sides on the
      // member that holds its flags, so a pair inside one GPU never crosses
      // the link to say it is done.
      std::vector<DeviceAddress> sides_done;
      for (CudaGpu* m : members) sides_done.push_back(m->cleared_sides_done(pairs.pairs.size()));
      for (PingPongLaunch& l : launch) {
        l.pairs = pairs;
        l.sides_done = sides_done;
      }
      start_group(members, launch, kPingPongSteps);
    };
    const auto decode = [&](const RoundRange& range, std::vector<PingPongOutcome> done) {
      std::vector<LaunchRecords> records;
      std::vector<double> cpn;
      double longest_ms = 0.0;
      for (std::size_t g = 0; g < members.size(); ++g) {
        cpn.push_back(members[g]->launch_cycles_per_ns(done[g], run_clock[g]));
        records.push_back(std::move(done[g].records));  // a launch's records: ~1.5 MB at the defaults
        longest_ms = std::max(longest_ms, done[g].elapsed_ms);
      }
      auto decoded = decode_launch(plan, range, group, records, cpn);
      out.pairs.insert(out.pairs.end(), std::make_move_iterator(decoded.begin()), std::make_move_iterator(decoded.end()));
      out.stats.device_seconds += longest_ms * 1e-3;
      ++out.stats.launches;
      if (progress) progress(range.end, plan.rounds.size());
    };
    // Each launch's records are decoded while the next launch runs, and the
    // next launch's pairs are made before the current one is waited for, so
    // the host's share of a launch costs no device time. The stop request is
    // asked between launches: what finished is kept, the rest is missing.
    if (!ranges.empty()) start(launch_pairs(plan, ranges.front(), group));
    for (std::size_t i = 0; i < ranges.size(); ++i) {
      const LaunchPairs upcoming = i + 1 < ranges.size() ? launch_pairs(plan, ranges[i + 1], group) : LaunchPairs{};
      std::vector<PingPongOutcome> done = finish_group(members, kPingPongSteps);
      for (const PingPongOutcome& d : done) check_abort(d, "ping-pong");
      const bool next = i + 1 < ranges.size() && !(plan.stop && plan.stop());
      if (next) start(upcoming);
      try {
        decode(ranges[i], std::move(done));
      } catch (...) {
        // No launch is left running behind the error, which is the one to report.
        if (next) {
          try {
            finish_group(members, kPingPongSteps);
          } catch (...) {
          }
        }
        throw;
      }
      if (!next && i + 1 < ranges.size()) {
        out.stopped = true;
        break;
      }
    }
    out.stats.clock_hz = run_clock.front().ns > 0 ? run_clock.front().cycles_per_ns() * 1e9
                                                   : members.front()->fallback_cycles_per_ns() * 1e9;
    out.stats.extra = run_extra(members, run_clock, persist);
    out.stats.host_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count() - out.stats.device_seconds;
    return out;
  }

  // The units run on their own GPUs: those of the lines' GPU probe its
  // memory, those of another (the remote table of a run across GPUs) reach
  // it over the link, through its peer address. Units come device by device.
  LineLatencyTable probe_lines(const LineProbePlan& plan, const ProgressFn& progress) override {
    CudaGpu& owner = gpu_of(plan.device);
    check_units_exist(plan.units, sm_ids_by_gpu(), "SM");
    check_line_probe(plan);
    LineLatencyTable table;
    table.units = plan.units;
    table.lines = plan.lines;
    table.cycles.assign(plan.units.size() * plan.lines.size(), kNaN);
    table.ns = table.cycles;
    if (plan.units.empty() || plan.lines.empty()) return table;

    LineProbeLaunch launch;
    launch.arena = plan.memory != 0 ? callers_memory(owner, plan) : owner.arena_for(plan.arena, false);
    launch.line_words = line_words(plan);
    launch.chain = plan.chain;
    launch.repeats = plan.repeats;
    launch.turn_ns_estimate = turn_ns_estimate(plan, kAtomicGuessNs);
    launch.together = plan.together;
    std::map<int, ClockTally> run_clock;  // by the GPU that ran the chains
    for (std::size_t begin = 0; begin < plan.units.size();) {
      CudaGpu& gpu = gpu_of(plan.units[begin].device);
      launch.remote = &gpu != &owner;
      // 20 us an atomic (turn_budget_cycles): ten times one over the link.
      launch.turn_budget_cycles = turn_budget_cycles(plan, gpu.facts().max_sm_clock_hz);
      std::size_t same_gpu = begin;
      while (same_gpu < plan.units.size() && plan.units[same_gpu].device == plan.units[begin].device) ++same_gpu;
      // Together, a launch lasts one unit's probe whatever the number of units.
      const std::size_t per = plan.together ? same_gpu - begin
                                            : units_per_probe_launch(plan, kAtomicGuessNs, kTargetLaunchSeconds);
      for (; begin < same_gpu;) {
        const std::size_t end = std::min(same_gpu, begin + per);
        launch.turn_sms.clear();
        for (std::size_t u = begin; u < end; ++u) launch.turn_sms.push_back(plan.units[u].unit);
        const LineProbeOutcome done = gpu.runtime().run_line_probe(launch);
        check_abort(done, "line-probe");
        fill_probe_rows(table, begin, end - begin, done.cycles, plan.chain, plan.repeats,
                        gpu.launch_cycles_per_ns(done, run_clock[gpu.ordinal()]));
        begin = end;
        if (progress) progress(end, plan.units.size());
      }
    }
    return table;
  }

  // One launch group per case, on every GPU the case touches (cuda_sync.hpp).
  std::unique_ptr<SyncSession> open_sync(const SyncPlan& plan) override {
    check_cuda_sync_plan(plan, sm_ids_by_gpu());
    std::vector<CudaGpu*> gpus;
    for (const auto& g : gpus_) gpus.push_back(g.get());
    return open_cuda_sync_session(plan, gpus, hooks_.silent_sm);
  }

  CoherenceReport check_coherence(int reader, int writer, double window_ms) override {
    CudaGpu& gpu = *gpus_.front();
    const std::vector<int>& sms = gpu.sm_ids();
    for (int u : {reader, writer})
      if (!std::binary_search(sms.begin(), sms.end(), u))
        throw UsageError(fmt::format("check-coherence: SM {} does not exist on this device", u));
    if (reader == writer) throw UsageError("check-coherence: reader and writer must be different SMs");
    return gpu.runtime().check_coherence(reader, writer, window_ms, gpu.calibrated_cycles_per_ns());
  }

 private:
  // The caller's memory a line probe times (LineProbePlan::memory): only device
  // memory of the GPU whose lines they are has lines with a fixed home.
  static DeviceAddress callers_memory(CudaGpu& owner, const LineProbePlan& plan) {
    check_callers_memory(owner.runtime().memory_facts(static_cast<DeviceAddress>(plan.memory)), plan.memory,
                         owner.ordinal(), "CUDA", "cudaMalloc");
    return static_cast<DeviceAddress>(plan.memory);
  }

  CudaGpu& gpu_of(int device) {
    for (const auto& g : gpus_)
      if (g->ordinal() == device) return *g;
    throw UsageError(fmt::format("GPU {} is not one this run measures", device));
  }

  UnitsByDevice sm_ids_by_gpu() const {
    UnitsByDevice sms;
    for (const auto& g : gpus_) sms[g->ordinal()] = g->sm_ids();
    return sms;
  }

  // Budgets in cycles of the fastest SM clock of the group (at slower
  // clocks a budget only lasts longer).
  PingPongSettings settings_for(const MeasurementPlan& plan, const std::vector<CudaGpu*>& members) const {
    double max_hz = 0;
    for (const CudaGpu* g : members) max_hz = std::max(max_hz, g->facts().max_sm_clock_hz);
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

  nlohmann::json run_extra(const std::vector<CudaGpu*>& members, const std::vector<ClockTally>& run_clock,
                           const std::vector<std::optional<PersistingWindow>>& persist) const {
    const auto one = [](const CudaGpu& g, const ClockTally& clock, const std::optional<PersistingWindow>& window) {
      nlohmann::json j;
      j["sm_clock_calibration_hz"] = g.calibrated_cycles_per_ns() * 1e9;
      j["clock_measured_by_launches"] = clock.ns > 0;
      if (clock.ns > 0) j["sm_clock_measured_hz"] = clock.cycles_per_ns() * 1e9;
      j["blocks_per_launch"] = g.facts().sm_count;
      j["dynamic_shared_memory_per_block_bytes"] = g.runtime().smem_per_block();
      if (window) j["l2_persisting_window_bytes"] = window->bytes();
      return j;
    };
    if (members.size() == 1) return one(*members.front(), run_clock.front(), persist.front());
    nlohmann::json gpus = nlohmann::json::array();
    for (std::size_t g = 0; g < members.size(); ++g) {
      nlohmann::json j = one(*members[g], run_clock[g], persist[g]);
      j["gpu"] = members[g]->ordinal();
      gpus.push_back(j);
    }
    return {{"gpus", gpus}};
  }

  // Pairs across GPUs signal through one GPU's memory with atomics from the
  // other: every GPU must reach every other's memory, with atomics done
  // natively at the memory's GPU (else a CAS over the link is not atomic).
  void open_peer_access() {
    peers_ = nlohmann::json::array();
    for (const auto& from_gpu : gpus_)
      for (const auto& to_gpu : gpus_) {
        if (from_gpu == to_gpu) continue;
        CudaGpu& from = *from_gpu;
        const CudaGpu& to = *to_gpu;
        const PeerAccess a = from.runtime().open_peer_access(to.ordinal());
        if (!a.can_access)
          throw UsageError(fmt::format("GPU {} cannot reach GPU {}'s memory (no peer access between them): a map "
                                       "across them is impossible",
                                       from.ordinal(), to.ordinal()));
        if (!a.native_atomics)
          throw UsageError(fmt::format("GPU {} reaches GPU {}'s memory without native atomics: a ping-pong across "
                                       "them would not be atomic",
                                       from.ordinal(), to.ordinal()));
        peers_.push_back({{"from", from.ordinal()},
                          {"to", to.ordinal()},
                          {"native_atomics", a.native_atomics},
                          {"performance_rank", a.performance_rank}});
      }
  }

  std::vector<std::unique_ptr<CudaGpu>> gpus_;  // by ordinal
  // One GPU: its identity. Across GPUs: "2 x NVIDIA H200" (or each name),
  // the units of all of them, and each GPU's own identity under "gpus", by
  // ordinal.
  DeviceInfo describe_all() const {
    DeviceInfo d = describe(gpus_.front()->facts());
    d.gpus = gpu_ids();
    if (gpus_.size() == 1) return d;
    d.unit_count = 0;
    d.extra = nlohmann::json::object();
    nlohmann::json gpus = nlohmann::json::array();
    bool one_model = true;
    std::string names;
    for (const auto& g : gpus_) {
      const DeviceInfo one = describe(g->facts());
      d.unit_count += one.unit_count;
      one_model &= one.name == d.name;
      names += (names.empty() ? "" : " + ") + one.name;
      nlohmann::json j = one.extra;
      j["name"] = one.name;
      gpus.push_back(j);
    }
    d.name = one_model ? fmt::format("{} x {}", gpus_.size(), d.name) : names;
    d.extra["gpus"] = gpus;
    d.extra["peer_access"] = peers_;
    return d;
  }

  std::vector<DeviceInfo::Gpu> gpu_ids() const {
    std::vector<DeviceInfo::Gpu> ids;
    for (const auto& g : gpus_) ids.push_back({g->ordinal(), g->facts().name, g->facts().pci_bus_id, ""});
    return ids;
  }


  CudaTestHooks hooks_;
  DeviceInfo device_;  // read once: identity does not change, and NVML is slow to ask
  nlohmann::json peers_ = nlohmann::json::array();
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend_on(std::vector<std::unique_ptr<CudaRuntime>> runtimes,
                                              const CudaTestHooks& hooks) {
  return std::make_unique<CudaBackend>(std::move(runtimes), hooks);
}

std::unique_ptr<Backend> make_cuda_backend_on(std::unique_ptr<CudaRuntime> runtime, const CudaTestHooks& hooks) {
  std::vector<std::unique_ptr<CudaRuntime>> one;
  one.push_back(std::move(runtime));
  return make_cuda_backend_on(std::move(one), hooks);
}

}  // namespace cumap::cuda
