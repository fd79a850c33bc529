#pragma once
#include <cstddef>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cumap/coherence.hpp"
#include "cumap/error.hpp"
#include "cumap/homes.hpp"
#include "cumap/options.hpp"
#include "cumap/plan.hpp"
#include "cumap/topology.hpp"

namespace cumap {

// What the device is: identity only, cheap to read and read once. Facts that
// take a kernel (clock calibration, census) happen on first use and are
// reported with the measurements (RunStats).
struct DeviceInfo {
  std::string backend;     // "cpu", "cuda", "hip"
  std::string name;        // "NVIDIA H100 80GB HBM3", the CPU model name, ...
  std::string unit_name;   // "SM", "CU", "WGP", "cpu"
  int unit_count = 0;
  std::string clock_source;  // what timed the round trips
  double clock_hz = 0.0;     // nominal frequency of the cycle counter; 0 when there is none
  std::string runtime_version;
  std::string driver_version;
  nlohmann::json extra = nlohmann::json::object();  // backend-specific identity facts (L2 size, ECC, ...)
};

// What a backend can execute; the planner sizes rounds by it.
struct Capabilities {
  int max_pairs_per_round = 1;  // disjoint pairs it can run at the same time
  // Units that must not play in two different pairs of one round (CPU: SMT
  // siblings of one physical core share the key). Empty: no such limit.
  std::map<int, int> exclusive_key;
  bool l2_persist = false;
  bool dsm = false;
  int default_lines_per_class = 1;  // --rotating-count when the user gives none
  // --iters when the user gives none. With many lines per class a pair's
  // round trips are better spent on more lines than on more per line.
  int default_iters = Options::kDefaultIters;
};

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Raw result for one planned pair.
struct PairMeasurement {
  UnitRef a;
  UnitRef b;
  FlagSite flags;
  int tag = 0;                      // the planned pair's tag
  int round = 0;                    // index of its round in the plan
  std::vector<double> rtt_ns;       // per sample: mean round trip over `iters`
  std::vector<double> rtt_cycles;   // same in device cycles; empty without a cycle clock
  double cold_rtt_ns = kNaN;        // the pair's first round trip, on its own
  bool timed_out = false;
};

// How the measuring went, returned with the pairs (not part of DeviceInfo).
struct RunStats {
  double device_seconds = 0.0;  // time the measuring launches (or threads) took
  int launches = 0;
  double clock_hz = kNaN;       // cycle counter rate measured during the run; NaN without one
  nlohmann::json extra = nlohmann::json::object();
};

struct Measurements {
  // In plan order. Path::Dsm measures only the pairs that share a cluster:
  // the others are left out (not timed out), and RunStats says the coverage.
  std::vector<PairMeasurement> pairs;
  RunStats stats;
};

// (rounds done, rounds in the plan)
using ProgressFn = std::function<void(std::size_t done, std::size_t total)>;

class Backend {
 public:
  virtual ~Backend() = default;
  virtual DeviceInfo device() const = 0;
  // Ids of every unit the device exposes (SM ids, CU ids, CPU ids), ascending.
  virtual std::vector<int> units() const = 0;
  virtual Capabilities capabilities() const = 0;
  virtual Topology topology() = 0;
  // Home discovery: dependent-atomic latency of every unit to every line.
  virtual LineLatencyTable probe_lines(const LineProbePlan& plan, const ProgressFn& progress) = 0;
  // Executes the plan round by round. Throws UsageError for a plan this
  // backend cannot run (a unit it lacks, a path or option it does not have,
  // an arena that does not fit), RuntimeFailure when the device fails. Pairs
  // that time out come back with timed_out set; the run goes on.
  virtual Measurements measure(const MeasurementPlan& plan, const ProgressFn& progress) = 0;
  // `cumap check-coherence`: which load/store operators see another unit's
  // store. Only where caches can be incoherent (GPUs).
  virtual CoherenceReport check_coherence(int reader, int writer, double window_ms) {
    (void)reader, (void)writer, (void)window_ms;
    throw UsageError("check-coherence needs a GPU backend: the " + device().backend +
                     " backend's caches are coherent by construction");
  }
};

// Which GPU (or none) a backend opens; the rest of Options is the map's.
struct DeviceSelection {
  BackendKind backend = BackendKind::Auto;
  int device = 0;
  HipUnit hip_unit = HipUnit::Cu;
  int max_streams = 0;  // hip: Options::max_streams
  // Two or more: one backend over all of them, a map across GPUs (cuda only;
  // UsageError elsewhere). Empty or one: `device` alone.
  std::vector<int> devices = {};
};

// Which backends this build contains, and a factory that resolves Auto.
// Throws UsageError when the requested backend is not built or has no device.
std::vector<BackendKind> built_backends();
std::unique_ptr<Backend> make_backend(const DeviceSelection& selection);
// How many devices `kind` sees (cpu: 1; a GPU backend without a device: 0).
// Throws UsageError when it is not built.
int device_count(BackendKind kind);

// The units a backend measures on each of its devices (ascending ids).
using UnitsByDevice = std::map<int, std::vector<int>>;

// Throws UsageError unless every unit is on a device of `available` and
// among its units, naming the first that is not.
void check_units_exist(std::span<const UnitRef> units, const UnitsByDevice& available, const std::string& unit_name);
// The same for every unit of the plan (its units and its pairs'), and every
// pair's flags on a device of `available`; and the plan's counts: round
// trips per pair that fit the flag values, counts not below 1. One device
// or several: a single-device backend passes {{device, its units}}.
void check_plan_units(const MeasurementPlan& plan, const UnitsByDevice& available, const std::string& unit_name);

// Every backend's check of a plan's pairs: throws UsageError unless every
// flag is an aligned word inside the arena, no pair is one unit or has both
// flags on one word, and no round uses a unit or a flag word in two pairs
// (the pairs of a round run at once: they would answer each other).
void check_plan_rounds(const MeasurementPlan& plan, const std::string& unit_name);

}  // namespace cumap
