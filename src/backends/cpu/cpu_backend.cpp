#include "backends/cpu/cpu_backend.hpp"
#include "plan/plan_checks.hpp"
#include "plan/sync_checks.hpp"

#include <sys/utsname.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include <fmt/format.h>

#include "backends/cpu/cache_flush.hpp"
#include "backends/cpu/cpu_affinity.hpp"
#include "backends/cpu/cpu_pingpong.hpp"
#include "backends/cpu/cpu_sync.hpp"
#include "backends/cpu/flag_memory.hpp"
#include "backends/cpu/line_probe.hpp"
#include "backends/cpu/physical_cores.hpp"
#include "cumap/error.hpp"
#include "core/topology_discovery.hpp"

namespace cumap {
namespace {

constexpr const char* kSysfsCpuRoot = "/sys/devices/system/cpu";


std::string kernel_release() {
  utsname u{};
  return uname(&u) == 0 ? std::string(u.sysname) + " " + u.release : "unknown";
}

// What a plan may ask of the cpu backend, checked before any thread starts.
void check_cpu_plan(const MeasurementPlan& plan, const std::vector<int>& cpus) {
  if (plan.l2_persist)
    throw UsageError("--l2-persist needs the cuda backend: CPUs have no persisting-cache window to set");
  if (plan.path == Path::Dsm)
    throw UsageError("--via dsm needs the cuda backend (thread-block clusters); the cpu backend signals through memory");
  if (plan.probe == Probe::Mbarrier) throw UsageError("--probe mbarrier exists only with --via dsm on the cuda backend");
  check_plan_units(plan, {{0, cpus}}, "cpu");
  check_plan_rounds(plan, "cpu");
}

class CpuBackend final : public Backend {
 public:
  CpuBackend(std::filesystem::path sysfs_cpu_root, std::vector<int> cpus)
      : sysfs_cpu_root_(std::move(sysfs_cpu_root)),
        cpus_(std::move(cpus)),
        core_of_(cpu::physical_core_keys(sysfs_cpu_root_, cpus_)) {
    if (cpus_.size() < 2) throw UsageError("the cpu backend needs at least two CPUs this process may run on");
  }

  DeviceInfo device() const override {
    DeviceInfo d;
    d.backend = "cpu";
    std::ifstream cpuinfo("/proc/cpuinfo");
    d.name = cpu::cpu_model_name(cpuinfo);
    d.unit_name = "cpu";
    d.unit_count = static_cast<int>(cpus_.size());
    d.clock_source = "std::chrono::steady_clock (CLOCK_MONOTONIC)";
    d.clock_hz = 0.0;  // no portable cycle counter of the core clock
    d.runtime_version = kernel_release();
    d.extra["cache_line_bytes"] = cpu::cache_line_bytes();
    d.extra["hardware_concurrency"] = std::thread::hardware_concurrency();
    d.extra["last_level_cache_bytes"] = cpu::last_level_cache_bytes();
    return d;
  }

  std::vector<int> units() const override { return cpus_; }

  Capabilities capabilities() const override {
    Capabilities c;
    const std::set<int> cores = [&] {
      std::set<int> s;
      for (const auto& [cpu, core] : core_of_) s.insert(core);
      return s;
    }();
    // Two spinning threads per pair, one physical core each.
    c.max_pairs_per_round = std::max<int>(1, static_cast<int>(cores.size()) / 2);
    c.exclusive_key = core_of_;
    c.default_lines_per_class = 1;
    c.measures_on_host_cores = true;
    // A launch starts and pins a thread per participant, so a GPU's 100
    // launches (there for its L2 slices, which nothing has shown a CPU's
    // barrier to need) would grow with the host's cores and cases. On the
    // 2-vCPU VM 100 launches of the platform's case took 0.49 s idle and
    // 30 s beside a compiler (std::barrier sleeps in the kernel).
    c.default_barrier_launches = 10;
    return c;
  }

  Topology topology() override { return cpu_topology_from_sysfs(sysfs_cpu_root_, cpus_); }

  LineLatencyTable probe_lines(const LineProbePlan& plan, const ProgressFn& progress) override {
    if (plan.chain < 1 || plan.repeats < 1) throw UsageError("line probing needs chain and repeats of at least 1");
    if (plan.device != 0)
      throw UsageError(fmt::format("the cpu backend has one device, 0; the line probe names device {}", plan.device));
    if (plan.memory != 0)
      throw UsageError("the cpu backend probes the lines of its own flag memory only, not memory the caller owns");
    const cpu::FlagMemory& memory = memory_for(plan.arena);
    std::vector<std::atomic<std::uint32_t>*> lines;
    for (std::uint64_t offset : plan.lines) lines.push_back(&memory.word(offset));
    LineLatencyTable table;
    table.units = plan.units;
    table.lines = plan.lines;
    for (std::size_t u = 0; u < plan.units.size(); ++u) {
      const UnitRef& unit = plan.units[u];
      if (unit.device != 0 || !std::binary_search(cpus_.begin(), cpus_.end(), unit.unit))
        throw UsageError(fmt::format("cpu {} (device {}) is not one this process may run on", unit.unit, unit.device));
      const std::vector<double> ns = cpu::probe_lines_from_cpu(unit.unit, lines, plan.chain, plan.repeats);
      table.ns.insert(table.ns.end(), ns.begin(), ns.end());
      if (progress) progress(u + 1, plan.units.size());
    }
    table.cycles.assign(table.ns.size(), kNaN);  // no cycle counter
    return table;
  }

  Measurements measure(const MeasurementPlan& plan, const ProgressFn& progress) override {
    check_cpu_plan(plan, cpus_);
    const cpu::FlagMemory& memory = memory_for(plan.arena);
    std::optional<cpu::CacheFlusher> flusher;
    if (plan.flush_cache) flusher.emplace(cpu::last_level_cache_bytes());
    const std::size_t wave = static_cast<std::size_t>(capabilities().max_pairs_per_round);
    Measurements out;
    out.stats.clock_hz = kNaN;
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t r = 0; r < plan.rounds.size() && !out.stopped; ++r) {
      const std::vector<PlannedPair>& pairs = plan.rounds[r].pairs;
      // A round larger than the machine runs in waves: more spinning threads
      // than cores would time-slice the ping-pong itself.
      for (std::size_t first = 0; first < pairs.size() && !out.stopped; first += wave) {
        if (plan.stop && plan.stop()) {
          out.stopped = true;
          break;
        }
        const std::size_t last = std::min(pairs.size(), first + wave);
        std::vector<cpu::PairJob> jobs;
        for (std::size_t p = first; p < last; ++p)
          jobs.push_back({pairs[p].a.unit, pairs[p].b.unit, &memory.word(pairs[p].flags.first),
                          &memory.word(pairs[p].flags.second)});
        if (flusher) flusher->flush();
        auto timings = cpu::run_cpu_round(jobs, plan.counts, plan.probe, plan.timeout_ms, plan.stop);
        ++out.stats.launches;
        for (std::size_t j = 0; j < jobs.size(); ++j) {
          // The next round may reuse these words and counts from 0 again.
          jobs[j].first->store(0);
          jobs[j].second->store(0);
          // A pair the stop request cut short has no values: it is left out
          // (a resumed run measures it).
          if (timings[j].stopped) {
            out.stopped = true;
            continue;
          }
          PairMeasurement m = measurement_for(pairs[first + j], static_cast<int>(r));
          m.rtt_ns = std::move(timings[j].rtt_ns);
          m.cold_rtt_ns = timings[j].cold_rtt_ns;
          m.timed_out = timings[j].timed_out;
          out.pairs.push_back(std::move(m));
        }
      }
      if (progress && !out.stopped) progress(r + 1, plan.rounds.size());
    }
    out.stats.device_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
  }

  std::unique_ptr<SyncSession> open_sync(const SyncPlan& plan) override {
    check_sync_plan(plan, {{0, cpus_}}, "cpu");
    return cpu::open_cpu_sync_session(plan, memory_for(plan.arena));
  }

 private:
  // The arena lives as long as the backend and moves only for a different one.
  const cpu::FlagMemory& memory_for(const FlagArena& arena) {
    if (!memory_ || memory_->arena() != arena) memory_.emplace(arena);
    return *memory_;
  }

  std::filesystem::path sysfs_cpu_root_;
  std::vector<int> cpus_;
  std::map<int, int> core_of_;
  std::optional<cpu::FlagMemory> memory_;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend(const DeviceSelection& selection) {
  if (selection.device != 0)
    throw UsageError(fmt::format("--device {}: the cpu backend has one device, 0", selection.device));
  if (selection.hip_unit == HipUnit::Wgp) throw UsageError("--unit wgp needs the hip backend (AMD RDNA GPUs)");
  return std::make_unique<CpuBackend>(kSysfsCpuRoot, cpu::allowed_cpus());
}

std::unique_ptr<Backend> cpu::make_cpu_backend_on(const std::filesystem::path& sysfs_cpu_root, std::vector<int> cpus) {
  std::sort(cpus.begin(), cpus.end());
  return std::make_unique<CpuBackend>(sysfs_cpu_root, std::move(cpus));
}

namespace cpu {

std::string cpu_model_name(std::istream& cpuinfo) {
  for (std::string line; std::getline(cpuinfo, line);) {
    if (!line.starts_with("model name")) continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::size_t first = line.find_first_not_of(" \t", colon + 1);
    if (first == std::string::npos) continue;  // "model name\t:" with nothing after it
    return line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
  }
  return "unknown CPU";
}

}  // namespace cpu

}  // namespace cumap
