#pragma once
#include <cstddef>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cumap/error.hpp"
#include "cumap/homes.hpp"
#include "cumap/options.hpp"
#include "cumap/plan.hpp"
#include "cumap/sync.hpp"
#include "cumap/topology.hpp"
#include "cumap/values.hpp"

namespace cumap {

// One cell of `cumap check-coherence`: a reader SM loads a line with `load`
// (which may keep it in L1), a writer SM stores to it with `store`, and the
// reader reloads with `load` for a bounded time.
struct CoherenceCase {
  std::string store;        // "st.wb", "st.cg", "st.wt"
  std::string load;         // "ld.ca", "ld.cg", "ld.volatile", "ld.nc"
  bool load_caches_in_l1 = false;  // ld.ca and ld.nc may; ld.cg and ld.volatile bypass L1
  bool saw_new_value = false;
  bool handshake_timed_out = false;
  double first_seen_ns = 0;  // time from the writer's signal to the new value
  double window_ns = 0;      // how long the reader kept looking
  // Cycles per reload in a chain of dependent reloads just after priming:
  // tens of cycles mean the line really sat in the reader's L1; hundreds
  // mean it did not, and an L1-caching case proves nothing either way.
  double primed_reload_cycles = 0;
};

struct CoherenceReport {
  int reader_unit = 0;
  int writer_unit = 0;
  std::vector<CoherenceCase> cases;
};

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
  // Backend-specific identity facts (L2 size, ECC, PCI bus id, ...), written
  // to meta.json as they are: no reporter looks a key up in them. What a
  // reporter reads is typed below.
  nlohmann::json extra = nlohmann::json::object();

  // GPU backends: each GPU of the run by ordinal (one, or several for a map
  // across GPUs); NVML's serial where it can tell ("" where it cannot).
  struct Gpu {
    int ordinal = 0;
    std::string name;
    std::string pci_bus_id;
    std::string serial;
  };
  std::vector<Gpu> gpus;
  // Across GPUs, how each two are connected, as `nvidia-smi topo -m` names
  // it ("NV18", "via NVSwitch", "PCIe switch", ...; "unknown" with why).
  struct Link {
    int gpu_a = 0;
    int gpu_b = 0;
    std::string link;
    std::string reason;
  };
  std::vector<Link> links;
  // Other compute processes on each GPU when the run opened it: they share
  // its L2 and interconnect and can change the map. `known` false: NVML
  // could not tell (`reason` says why).
  struct Neighbours {
    std::string pci_bus_id;
    bool known = false;
    std::string reason;
    struct Process {
      unsigned pid = 0;
      unsigned long long used_memory_bytes = 0;
    };
    std::vector<Process> processes;
  };
  std::vector<Neighbours> neighbours;
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
  int default_cross_lines_per_class = 1;  // --cross-lines when the user gives none (maps across GPUs)
  // --cross-samples and --cross-warmup when the user gives none; unset: the
  // map's own --samples and --warmup.
  std::optional<int> default_cross_samples;
  std::optional<int> default_cross_warmup;
  // --iters when the user gives none. With many lines per class a pair's
  // round trips are better spent on more lines than on more per line.
  int default_iters = Options::kDefaultIters;
  // `cumap barrier --launches` when the user gives none. Each launch puts a
  // case's counter on lines of its own, and on a GPU a barrier's cost follows
  // its line's L2 slice: on an H200 (bench/RESULTS.md, "A case over
  // launches") repeat runs agreed within 2 % for 149-158 of 158 cases at 25
  // launches (1.6 s a run), 156-158 at 50 (2.8 s), 158 in each of five pairs
  // on two chips at 100 (largest 1.5 %, 4.8-5.7 s). The hip backend keeps
  // the same (no AMD GPU has run cumap yet).
  int default_barrier_launches = 100;
  // The measuring runs on host cores (the cpu backend's spinning threads):
  // host work must then wait for it rather than run beside it, where it
  // would take those cores from the pairs.
  bool measures_on_host_cores = false;
  // How far this backend's numbers have been checked against a real device,
  // said in every summary of its runs ("" where they have been).
  std::string caveat;
};

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

// A planned pair's measurement before its timings are filled in: the pair's
// units, flags and tag as planned, and the index of its round in the plan.
inline PairMeasurement measurement_for(const PlannedPair& pair, int round) {
  PairMeasurement m;
  m.a = pair.a;
  m.b = pair.b;
  m.flags = pair.flags;
  m.tag = pair.tag;
  m.round = round;
  return m;
}

// How the measuring went, returned with the pairs (not part of DeviceInfo).
// The dsm path's cluster barrier (barrier.cluster, i.e. cluster.sync()):
// its latency by cluster size.
struct ClusterBarrierRow {
  int cluster_size = 0;
  int clusters = 0;
  double median_cycles = kNaN;
  double median_ns = kNaN;
};

struct RunStats {
  double device_seconds = 0.0;  // time the measuring launches (or threads) took
  // A GPU backend's wall time in measure() beyond its launches' own time:
  // checking the plan, starting each launch, and the records of the last
  // one (the others are decoded while the next launch runs). 0 where the
  // measuring is not in launches (cpu).
  double host_seconds = 0.0;
  int launches = 0;
  double clock_hz = kNaN;       // cycle counter rate measured during the run; NaN without one
  std::vector<ClusterBarrierRow> cluster_barrier;  // --via dsm on cuda; empty elsewhere
  // Backend-specific counters (streams, launches per GPU, ...), written to
  // meta.json as they are; no reporter looks a key up in them.
  nlohmann::json extra = nlohmann::json::object();
};

struct Measurements {
  // In plan order. Path::Dsm measures only the pairs that share a cluster:
  // the others are left out (not timed out), and RunStats says the coverage.
  std::vector<PairMeasurement> pairs;
  RunStats stats;
  // The plan's stop request ended it early (MeasurementPlan::stop): the
  // pairs not finished by then are not in `pairs`.
  bool stopped = false;
};

// (rounds done, rounds in the plan) for measure(); (units done, units) for
// probe_lines; (cases done, cases in the plan) for a sync plan.
using ProgressFn = std::function<void(std::size_t done, std::size_t total)>;

// A `cumap barrier` / `cumap contention` plan (sync.hpp) opened on a backend
// (Backend::open_sync). The loop over its cases is written once, in src/run
// (measure_sync_plan, run/sync_run.hpp), and so are its rules: it asks the
// plan's stop request before every case, the first included, and once that
// says true runs no other case; it calls progress(cases done, cases) after
// each case that came back; a case cut short (nullopt below) ends the plan,
// stopped. A backend only runs the case it is asked for. A session rather
// than a per-case call on Backend: what a plan's cases share (the arena's
// memory, the clock measured over them, their device time) lives as long as
// the plan and no longer.
class SyncSession {
 public:
  virtual ~SyncSession() = default;
  // Runs case `index` of the plan, the units outside it idle, and returns its
  // measurement under the case's tag. Each case starts from zeroed words,
  // whatever ran before it. Marked, not thrown: a case whose wait ran past
  // SyncPlan::timeout_ms comes back timed_out without timings, and one this
  // device cannot run comes back unsupported with why (unsupported_case);
  // the next case then runs as any other. nullopt: the plan's stop request,
  // asked inside the case (the cpu backend asks it in its waits), cut the
  // case short, and it has no values. Throws RuntimeFailure when the device
  // fails.
  virtual std::optional<SyncMeasurement> measure_case(std::size_t index) = 0;
  // The time the cases run so far took on the device (their launches or
  // threads), and the cycle counter's rate measured over them (0 without one).
  virtual double device_seconds() const = 0;
  virtual double clock_hz() const = 0;
};

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
  // Executes the plan round by round in launches (one or more whole rounds;
  // on the cpu backend, one wave of a round's threads) and returns one
  // PairMeasurement per planned pair, in plan order (Path::Dsm: see
  // Measurements). Throws UsageError, before any launch, for a plan this
  // backend cannot run (a unit it lacks, a path or option it does not have,
  // an arena that does not fit), RuntimeFailure when the device fails. A pair
  // that times out comes back timed_out without timings; the run goes on.
  // Progress: after a launch, progress(rounds finished so far, rounds in the
  // plan), never the same count twice nor a smaller one, the plan's whole
  // count last unless stopped; every pair of the rounds counted is then in
  // the result. Stop (MeasurementPlan::stop): asked between launches, never
  // after the last; a backend may also ask it before the first and inside a
  // launch (the cpu backend does, from its threads). Once it says true no
  // launch starts, and what finished comes back with `stopped` set; a pair
  // it cut short is left out, neither measured nor timed out, so `stopped`
  // is set exactly when a planned pair is missing.
  virtual Measurements measure(const MeasurementPlan& plan, const ProgressFn& progress) = 0;
  // `cumap barrier` / `cumap contention`: checks the whole plan (every case,
  // now rather than when it runs) and readies what its cases share (the flag
  // arena). Throws as measure() does. The session holds `plan` by reference:
  // the plan outlives it, and the caller makes no other call on this backend
  // while it is open.
  virtual std::unique_ptr<SyncSession> open_sync(const SyncPlan& plan) {
    (void)plan;
    throw UsageError("the " + device().backend + " backend cannot measure barriers or contention");
  }
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
// With --backend auto, `backend_choice` (when given) is set to why the
// backend was chosen where it is the CPU, the one a user with a GPU in mind
// did not expect: which GPU backends were not built, and why each built one
// found no usable device. Empty otherwise.
std::vector<BackendKind> built_backends();
std::unique_ptr<Backend> make_backend(const DeviceSelection& selection, std::string* backend_choice = nullptr);
// The GPU backends this build left out, and what builds one.
std::vector<BackendKind> unbuilt_gpu_backends();
std::string how_to_build(BackendKind kind);
// How many devices `kind` sees (cpu: 1; a GPU backend without a device: 0).
// Throws UsageError when it is not built.
int device_count(BackendKind kind);

}  // namespace cumap
