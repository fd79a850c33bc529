#pragma once
// Everything one `cumap` map run learned and how it was measured, computed
// once. The reporters (matrix and pairs CSVs, meta.json, heatmaps, the
// console summary) read only this: nothing of Options, the backend or the
// command line reaches them any other way.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cumap/backend.hpp"
#include "cumap/homes.hpp"
#include "cumap/latency_map.hpp"
#include "cumap/topology.hpp"
#include "cumap/values.hpp"

namespace cumap {

// Home discovery on one device's flag arena, which every map of the run
// uses for the flags that device holds. Homes are a device's own (its L2
// slices), so a run over several devices has one of these per device.
struct HomesResult {
  int device = 0;
  FlagArena arena;
  // The table's units as the run's maps and files name them (unit ids;
  // unit_id() across devices), in table order, as unit_side is.
  std::vector<int> unit_ids;
  LineLatencyTable table;
  HomeClasses classes;
  // A run across devices: every unit of the other devices to the same lines
  // of this device, over the link (their rows in unit order, ids by
  // unit_id()). A pair across devices costs about T[a][L] + T[b][L] with the
  // far unit's term from here, as a pair on one device does with `table`.
  LineLatencyTable remote;
  // Every eighth line is probed again: the share that fell in its class again
  // (1 with one class). Below 0.9 the classes were noise and one class is
  // kept; unreproduced_class_count says how many the first probe suggested.
  double recheck_agreement = 1.0;
  int unreproduced_class_count = 0;
};

// A run's homes, one entry per device in device order (none on the dsm path).
using RunHomes = std::vector<HomesResult>;
// Every unit with its side (the class of its own device it is near), in
// device order, then table order.
struct UnitSides {
  std::vector<int> units;
  std::vector<int> sides;
};

// A concurrent map checks itself: a sample of pairs measured one at a time
// on the same flag words, before the map and again after it. The two serial
// runs show how much a value moves over the time a map takes (the noise
// floor); concurrency passes when it shifts values by no more than the limit
// (bias) and disagrees with the serial mean by no more than the noise floor
// plus the limit. Compared in device cycles where the backend counts them.
struct SelfCheck {
  int pairs_per_round = 1;
  // A pilot checks only the map's rounds that hold the sample, before the
  // map, to choose the concurrency (--schedule auto); otherwise the whole map.
  bool pilot = false;
  Agreement agreement;      // concurrent against the mean of the serial runs
  Agreement serial_repeat;  // the serial run after the map against the one before
  double bias = 0.0;        // median of (concurrent - serial) / serial
  double bias_uncertainty = 0.0;  // standard error of that median
  // How far apart two measurements of a pair are expected to be from the
  // pairs' own sample spread alone (median |relative difference|): with short
  // samples it, not the serial repeat, is the floor the disagreement is
  // judged against.
  double sampling_noise = 0.0;
  // The largest serial repeat the run saw before this check (its pilot's, an
  // earlier placement's; 0 if none): the disagreement is judged against the
  // larger of it and serial_repeat.
  double earlier_serial_repeat = 0.0;
  bool passed = true;
  bool operator==(const SelfCheck&) const = default;
};

// Across GPUs, the structure table's counterpart: a pair between two GPUs by
// the GPU whose memory holds its flags, the home class of the flag's line (a
// class of that GPU) and the side of each unit on its own GPU
// (cross_gpu_structure.hpp computes the rows).
struct CrossGpuStructureRow {
  int gpu_a = 0;       // gpu_a < gpu_b
  int gpu_b = 0;
  int flags_on = 0;    // the GPU whose memory held the flags (gpu_a or gpu_b)
  int home_class = 0;  // of the flag's line, among flags_on's classes
  int side_a = 0;      // the side of the pair's unit on gpu_a, on gpu_a
  int side_b = 0;      // the same on gpu_b
  double median_ns = 0.0;
  double p05_ns = 0.0;
  double p95_ns = 0.0;
  std::size_t cells = 0;  // unit pairs (each direction once in an ordered map)
  bool operator==(const CrossGpuStructureRow&) const = default;
};

// Across GPUs: one row per pair of GPUs (a GPU with itself too) and per GPU
// holding the flags, what a user who signals from one GPU to another
// (all-reduce flags, pipeline stages) reads first.
struct GpuPairRow {
  int gpu_a = 0;  // the row unit's GPU: the pinger's with --ordered; gpu_a <= gpu_b otherwise
  int gpu_b = 0;
  // Where the flags were: one GPU ("g0"), or "both" for the map's own cells
  // across GPUs (each side's lines weighing the same). A GPU with itself: its own.
  std::string flags_on;
  std::size_t cells = 0;  // unit pairs (each direction once with --ordered)
  Summary oneway_ns;
  bool operator==(const GpuPairRow&) const = default;
};

struct PlacementResult {
  Placement placement = Placement::SameLine;
  bool complete = true;             // false: a stop request ended it early
  int pairs_per_round = 1;          // the concurrency the kept maps were measured at
  std::vector<SelfCheck> checks;    // one per concurrency tried, the kept one last
  std::vector<LatencyMap> per_class;  // flags in home class c (the first flag's class)
  // The headline is every class together, the same number of lines each: its
  // spec, and (like the rest) computed from per_class by summarize_placement,
  // once: the reporters read these rather than going over the pairs again.
  MapSpec headline;
  std::vector<ValueMatrix> per_class_ns;  // per_class[c].oneway_ns()
  ValueMatrix headline_ns;                // every class together (map_matrices: combined)
  ValueMatrix line_spread_ns;             // every class together (map_matrices: line_spread)
  // Per class, what report.html shows of a cell beside its value
  // (MapMatrices::per_map_p05 and the rest): over the cell's lines the median
  // one-way p05 and p95, the line spread, and how many lines timed out.
  std::vector<ValueMatrix> per_class_p05_ns;
  std::vector<ValueMatrix> per_class_p95_ns;
  std::vector<ValueMatrix> per_class_line_spread_ns;
  std::vector<ValueMatrix> per_class_timed_out_lines;
  // Across GPUs: the headline from the lines in one GPU's memory only, by
  // GPU (MapMatrices::per_flag_device); gpu_table() reads it.
  std::map<int, ValueMatrix> flags_on_ns;
  // The same split of per_class_ns: by GPU holding the flags, each class's
  // map from that GPU's lines only (MapMatrices::per_map_flag_device); the
  // cross-GPU structure is made from these.
  std::map<int, std::vector<ValueMatrix>> per_class_flags_on_ns;
  // Across GPUs: the GPU x GPU table of the headline; empty on one GPU.
  std::vector<GpuPairRow> gpu_table;
  // Two disjoint line sets (even and odd passes) of the headline, compared:
  // how much the map depends on which lines were used.
  Agreement line_sets;
  std::vector<AdditiveFit> fits;    // per class: RTT(a,b) = u(a) + u(b) + c
  // Per class: one-way latency by sides and the flag's home in that class's
  // map alone (class_structure_table of per_class_ns[c]); filled by
  // measure_map, which knows the sides; none on the dsm path.
  std::vector<std::vector<StructureRow>> structure_by_class;
  // Across GPUs: pairs between two GPUs by flag GPU, home class and both
  // units' sides (cross_gpu_structure of per_class_flags_on_ns); filled
  // with structure_by_class, empty on one GPU.
  std::vector<CrossGpuStructureRow> cross_gpu_structure;
  RunStats stats;                   // summed over the plans that made the kept maps
  // Where the placement's wall time went (meta.json "seconds"): measuring
  // the maps (launches and the backend's work between them, maps measured
  // again at a lower concurrency included), the serial checks and pilots,
  // and summarizing what the measuring did not hide.
  struct Seconds {
    double measuring = 0.0;
    double checks = 0.0;
    double summaries = 0.0;
  } seconds;

  std::vector<PairStats> timed_out() const;  // of every class
};


struct RunInfo {
  std::string tool_version;
  std::string timestamp_utc;  // ISO 8601
  std::string host_name;
  std::string command_line;
  double wall_seconds = 0.0;
  // Seconds per phase (opening the device, homes, each placement, outputs).
  std::vector<std::pair<std::string, double>> phase_seconds;
  // Why --backend auto chose a backend other than the one a user likely
  // expected (the CPU on a machine without a usable GPU); empty otherwise.
  std::string backend_choice;
};

// How a run measured and how its outputs are drawn: the options as the run
// resolved them against the backend, and every option as given.
struct MapSettings {
  Path via = Path::Global;  // Dsm: flags in shared memory, so no homes, classes or sides
  Probe probe = Probe::Cas;
  std::vector<Placement> placements{Placement::SameLine, Placement::SplitLine};  // as measured
  int lines_per_class = 1;             // --rotating-count, or the backend's default
  int cross_lines = 1;                 // --cross-lines (pairs across GPUs), or the backend's default
  int cross_samples = protocol::Counts{}.samples;  // --cross-samples, or the backend's default, or --samples
  int cross_warmup = protocol::Counts{}.warmup;    // --cross-warmup, or the backend's default, or --warmup
  int iters = Options::kDefaultIters;  // round trips per sample: --iters, or the backend's default
  bool ordered = false;
  std::string colormap = "viridis";
  std::filesystem::path out_dir;
  bool pairs_csv = true;  // pairs.csv is written (--no-pairs-csv leaves it out)
  // Every option as given, as meta.json records it ("options"; --resume
  // compares against it). `cumap homes` records the ones it reads.
  nlohmann::json options = nlohmann::json::object();

  bool has_homes() const { return via != Path::Dsm; }
};

struct MapResult {
  MapSettings settings;
  DeviceInfo device;
  Capabilities capabilities;
  Topology topology;               // as discovered, restricted to the measured units
  Topology display_groups;         // side x group, in display order (separators and labels)
  std::vector<int> display_order;  // the measured units, device, side, then group, then id
  RunHomes homes;                  // none where settings.has_homes() is false
  std::vector<PlacementResult> placements;
  std::vector<StructureRow> structure;  // from the same-line per-class maps
  bool interrupted = false;
  RunInfo run;

  std::vector<PairStats> timed_out() const;
};

// The planner's words for a case, beside the SyncCase the backend runs.
struct SyncCaseLabel {
  std::string set;           // "one-side", "alternating", "one-gpc", "spread"
  int k = 0;                 // participants
  // "near" or "far" (the counter's line relative to the participants), "any"
  // where the device has one home class (near and far are the same), "own"
  // for the platform's barrier (it keeps its own state).
  std::string counter_home;
  int counter_class = -1;    // home class of the counter's line; -1 for "own"
  int groups = 0;            // two-level: how many groups (sides, GPCs or GPUs)
  std::string grouped_by;    // two-level: "side", "group" or "gpu"
  // A run across GPUs only (empty on one): the GPU whose memory holds the
  // counter, "g0", "g1", ...; "each" for two-level by GPU (every group's
  // lines on its own GPU); empty for the platform's own barrier.
  std::string counter_gpu;
};

struct SyncCaseResult {
  SyncCaseLabel label;
  std::string what;                 // "counter", "flag", "two-level", "platform"; "cas", "add"
  std::vector<int> participants;    // unit ids, participant 0 first
  // Byte offsets of the counter's line in the flag arena, one per launch
  // measured, in launch order.
  std::vector<std::uint64_t> counter_offsets;
  int launches = 0;                 // launches measured (each its own counter lines)
  // Barrier: per episode (leave to leave, seen by participant 0).
  // Contention: per operation (each participant's batches). Over every launch.
  Summary ns{};
  Summary cycles{};                 // NaN without a cycle clock
  // Barrier: what one barrier costs in a loop of them, on a counter line of
  // the home class taken at random: each launch's mean over its episodes
  // (its loop's time over their count), and of those the mean over launches.
  // Means, not medians: episodes trade time with their neighbours
  // (participant 0 leaving one late shortens the next), and a launch settles
  // into one of a few such modes by its lines' L2 slices, so medians of
  // either jump from mode to mode between runs (up to 10 % at k = 2-8 on an
  // H200, bench/RESULTS.md) where the means move by their spread over
  // launches. NaN for contention.
  double per_barrier_ns = kNaN;
  double per_barrier_cycles = kNaN;
  int values = 0;                   // episodes (barrier) or batches (contention) that gave a value, all launches
  double ops_per_us = kNaN;         // contention: all participants together, the median over launches
  bool timed_out = false;
  bool unsupported = false;
  std::string why;                  // unsupported: the backend's reason
  bool measured() const { return !timed_out && !unsupported && values > 0; }
  // The case's one number: a barrier's per_barrier_ns, an operation's median.
  double headline_ns() const { return std::isnan(per_barrier_ns) ? ns.median : per_barrier_ns; }
  double headline_cycles() const { return std::isnan(per_barrier_cycles) ? cycles.median : per_barrier_cycles; }
};

// `cumap barrier` and `cumap contention` (cumap/sync.hpp): how they measured,
// and every case summarized. The reporters of these commands read only this.
// It lives here rather than in sync.hpp because it holds a MapResult, whose
// header already includes sync.hpp (through backend.hpp).
struct SyncSettings {
  bool contention = false;  // `cumap contention`; else `cumap barrier`
  Probe probe = Probe::Cas;
  int episodes = 0;         // per case: timed episodes (barrier) or batches per participant (contention)
  int warmup = 0;
  int ops_per_batch = 0;    // contention
  int launches = 1;         // per case, each on its own counter lines
  double timeout_ms = 0.0;
  std::filesystem::path out_dir;
  nlohmann::json options = nlohmann::json::object();  // every option as given, for meta.json
};

struct SyncResult {
  SyncSettings settings;
  // Home discovery and the units' layout, as `cumap homes` finds them (a
  // map with no placement): device, topology, homes, run clock and command line.
  MapResult discovery;
  std::vector<SyncCaseResult> cases;  // in plan order; fewer than planned when interrupted
  std::size_t planned_cases = 0;
  std::vector<std::string> notes;     // what the planner left out, and why
  double device_seconds = 0.0;
  double clock_hz = 0.0;              // the cycle counter's measured rate; 0 without one
  bool interrupted = false;

  bool complete() const { return !interrupted && cases.size() == planned_cases; }
  bool has_cycles() const { return clock_hz > 0; }
};

}  // namespace cumap
