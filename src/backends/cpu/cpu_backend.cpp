#include "backends/cpu/cpu_backend.hpp"

#include <sys/utsname.h>

#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include "backends/cpu/cache_flush.hpp"
#include "backends/cpu/cpu_affinity.hpp"
#include "backends/cpu/cpu_pingpong.hpp"
#include "backends/cpu/flag_buffer.hpp"
#include "cumap/error.hpp"
#include "cumap/topology_discovery.hpp"

namespace cumap {
namespace {

std::string cpu_model_name() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  }
  return "unknown CPU";
}

std::string kernel_release() {
  utsname u{};
  return uname(&u) == 0 ? std::string(u.sysname) + " " + u.release : "unknown";
}

class CpuBackend final : public Backend {
 public:
  CpuBackend() : cpus_(cpu::allowed_cpus()) {
    if (cpus_.size() < 2) throw UsageError("the cpu backend needs at least two CPUs this process may run on");
  }

  DeviceInfo device() const override {
    DeviceInfo d;
    d.backend = "cpu";
    d.name = cpu_model_name();
    d.unit_name = "cpu";
    d.unit_count = static_cast<int>(cpus_.size());
    d.clock_source = "std::chrono::steady_clock (CLOCK_MONOTONIC)";
    d.clock_hz = 0.0;  // no portable cycle counter of the core clock
    d.runtime_version = kernel_release();
    d.driver_version = "";
    d.extra["cache_line_bytes"] = cpu::cache_line_bytes();
    d.extra["hardware_concurrency"] = std::thread::hardware_concurrency();
    d.extra["last_level_cache_bytes"] = cpu::last_level_cache_bytes();
    return d;
  }

  std::vector<int> units() const override { return cpus_; }

  Topology topology() override { return cpu_topology_from_sysfs("/sys/devices/system/cpu", cpus_); }

  std::vector<PairMeasurement> measure(const Schedule& schedule, const MeasureSpec& spec,
                                       const ProgressFn& progress) override {
    if (spec.l2_persist)
      throw UsageError("--l2-persist needs the cuda backend: CPUs have no persisting-cache window to set");
    cpu::FlagBuffer buffer(spec.rotating_count);
    std::optional<cpu::CacheFlusher> flusher;
    if (spec.flush_cache) flusher.emplace(cpu::last_level_cache_bytes());
    std::vector<PairMeasurement> out;
    const std::size_t total = schedule.pairs.size() * static_cast<std::size_t>(spec.rotating_count);
    out.reserve(total);
    // Pairs run one at a time: concurrent pairs would share caches and the
    // interconnect and measure each other.
    for (int copy = 0; copy < spec.rotating_count; ++copy) {
      for (const Pair& p : schedule.pairs) {
        if (flusher) flusher->flush();
        PairMeasurement m = cpu::run_cpu_pair(p.a, p.b, buffer.flags(copy, spec.placement), spec);
        m.copy = copy;
        out.push_back(std::move(m));
        if (progress) progress(out.size(), total);
      }
    }
    return out;
  }

 private:
  std::vector<int> cpus_;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend(const Options&) { return std::make_unique<CpuBackend>(); }

}  // namespace cumap
