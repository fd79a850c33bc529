#pragma once
#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cumap/coherence.hpp"
#include "cumap/error.hpp"
#include "cumap/options.hpp"
#include "cumap/placement.hpp"
#include "cumap/schedule.hpp"
#include "cumap/topology.hpp"

namespace cumap {

struct DeviceInfo {
  std::string backend;     // "cpu", "cuda", "hip"
  std::string name;        // "NVIDIA H100 80GB HBM3", the CPU model name, ...
  std::string unit_name;   // "core", "SM", "CU", "WGP"
  int unit_count = 0;
  std::string clock_source;  // what timed the round trips
  double clock_hz = 0.0;     // frequency of the cycle counter; 0 when there is none
  std::string runtime_version;
  std::string driver_version;
  nlohmann::json extra = nlohmann::json::object();  // backend-specific facts
};

// What one call to Backend::measure should do; a slice of Options.
struct MeasureSpec {
  Placement placement = Placement::SameLine;
  int iters = 200;
  int samples = 5;
  int warmup = 20;
  double timeout_ms = 1000.0;
  bool ordered = false;
  bool flush_cache = false;
  int rotating_count = 1;
  bool l2_persist = false;
  Probe probe = Probe::Cas;
  // Fault injection for tests of the timeout path (no CLI flag): this unit
  // never answers, so its partner must time out. -1: none.
  int silent_unit = -1;
};
MeasureSpec measure_spec(const Options& o, Placement p);

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Raw result for one pair and one flag copy.
struct PairMeasurement {
  int a = 0;
  int b = 0;
  int copy = 0;                     // index of the rotating flag copy
  std::vector<double> rtt_ns;       // per sample: mean round trip over `iters`
  std::vector<double> rtt_cycles;   // same in device cycles; empty without a cycle clock
  double cold_rtt_ns = kNaN;        // the pair's first round trip, on its own
  bool timed_out = false;
};

using ProgressFn = std::function<void(std::size_t done, std::size_t total)>;

class Backend {
 public:
  virtual ~Backend() = default;
  virtual DeviceInfo device() const = 0;
  // Ids of every unit the device exposes (SM ids, CU ids, CPU ids).
  virtual std::vector<int> units() const = 0;
  virtual Topology topology() = 0;
  // Measures every pair of the schedule, once per rotating copy. Throws
  // RuntimeFailure when the device fails; pairs that time out are returned
  // with timed_out set.
  virtual std::vector<PairMeasurement> measure(const Schedule& schedule, const MeasureSpec& spec,
                                               const ProgressFn& progress) = 0;
  // `cumap check-coherence`: which load/store operators see another unit's
  // store. Only where caches can be incoherent (GPUs).
  virtual CoherenceReport check_coherence(int reader, int writer, double window_ms) {
    (void)reader, (void)writer, (void)window_ms;
    throw UsageError("check-coherence needs a GPU backend: the " + device().backend +
                     " backend's caches are coherent by construction");
  }
};

// Which backends this build contains, and a factory that resolves Auto.
// Throws UsageError when the requested backend is not built or has no device.
std::vector<BackendKind> built_backends();
std::unique_ptr<Backend> make_backend(const Options& options);

}  // namespace cumap
