#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cumap/protocol.hpp"

namespace cumap {

// Where the two signalling flags live. Both placements run the same protocol
// (each side signals on its own flag and polls the partner's); only the
// distance between the two flags changes.
enum class Placement {
  SameLine,   // both flags in one cache line (adjacent words)
  SplitLine,  // the flags in different lines of the same home class
  CrossHome,  // the flags in lines of two different home classes (--cross-home)
};

std::string_view to_string(Placement p);  // "same-line" / "split-line" / "cross-home"
// The inverse; throws UsageError naming the choices for any other word.
Placement placement_from_string(std::string_view name);

enum class BackendKind { Auto, Cpu, Cuda, Hip };
// The signalling operation (--probe); protocol.hpp says what each does.
// Mbarrier exists only on the dsm path.
enum class Probe { Cas, Exch, AcqRel, Volatile, Mbarrier };
enum class UnitOrder { Index, Topology };
enum class HipUnit { Cu, Wgp };
// serial: one pair at a time; concurrent: rounds of disjoint pairs; auto: the
// most concurrency whose serial self-check passes.
enum class ScheduleKind { Auto, Serial, Concurrent };
// How the signal travels (--via): through global memory (L2 atomics) or,
// inside a thread-block cluster, through distributed shared memory.
enum class Path { Global, Dsm };
// --flag-on: whose memory holds the flags of a pair across devices: the
// first unit's (a: the pinger with --ordered, else the lower id), the
// second's, or each in turn.
enum class FlagOn { A, B, Both };

// Everything the user chose, filled by the CLI and passed down by const
// reference. Defaults live here so that tests and the CLI agree on them.
struct Options {
  std::vector<Placement> placements{Placement::SameLine, Placement::SplitLine};  // + CrossHome with --cross-home
  BackendKind backend = BackendKind::Auto;
  int device = 0;
  // --devices: one map over the units of several GPUs ("0,1", "0-3" or
  // "all"); empty: the one device of --device. Such a run names units by
  // unit_id() (plan.hpp), its default device is 0.
  std::string devices_spec;
  FlagOn flag_on = FlagOn::Both;  // across devices: whose memory holds a pair's flags
  std::string units_spec;  // "" = every unit of the device; else e.g. "0-7,16"
  // Round trips per sample; unset: the backend's default (Capabilities::default_iters,
  // kDefaultIters on the dsm path).
  std::optional<int> iters;
  static constexpr int kDefaultIters = protocol::Counts{}.iters;
  int samples = protocol::Counts{}.samples;  // per pair and line
  int warmup = protocol::Counts{}.warmup;    // untimed round trips per line, after the cold one
  double timeout_ms = 1000.0;  // budget of every wait loop
  bool ordered = false;        // measure a->b and b->a separately
  std::filesystem::path out_dir = "out";
  // --replace: replace an output set of another command in out_dir (a run
  // replaces a set of its own kind without it; see publish/output_set.hpp).
  bool replace = false;
  bool quiet = false;
  // --no-pairs-csv: leave pairs.csv out (a row per pair, flag line and flag
  // GPU: 410.1 MB across two GPUs, GBs across eight). Not what is measured,
  // only what is kept; without it a set cannot be continued (--resume).
  bool pairs_csv = true;
  // --resume DIR: an earlier, interrupted run whose pairs are reused (it must
  // have used the same options; see src/cli/resumed_run.hpp). Empty: start afresh.
  std::filesystem::path resume_dir;

  // Scheduling: how many pairs run at once.
  ScheduleKind schedule = ScheduleKind::Auto;
  int concurrency = 0;          // most pairs per round; 0 = as many as the backend can
  // Pairs re-measured serially (twice) to check a concurrent map: 256 keeps
  // the median shift's own error near 0.15 % at the H100's noise (64: 0.3 %).
  int check_pairs = 256;
  double check_max_rel_diff = 0.005;  // auto accepts a concurrency whose check stays within this

  // Flag lines and their homes.
  Path via = Path::Global;
  bool cross_home = false;          // also map with the two flags in different home classes
  int home_lines = 512;             // lines probed for home discovery
  int home_chain = 8;               // dependent atomics per home-probe timing
  int home_stride = 4224;           // bytes from one probed line to the next (a multiple of 128)
  // Home discovery one unit at a time, the others idle (--home-serial),
  // instead of every unit at once on different lines: the slow reference the
  // quick table is checked against (bench/RESULTS.md).
  bool home_serial = false;
  bool line_correction = true;      // maps subtract what the home table predicts for each line
  std::uint64_t flag_offset = 0;    // --flag-offset: bytes the flag arena is moved by

  // Cold-cache and memory-behaviour controls.
  bool flush_cache = false;
  // --lines-per-class: flag lines each pair uses in every home class (the
  // cells are the median over them); unset: the backend's default.
  std::optional<int> lines_per_class;
  // --cross-lines: flag lines per home class each pair across GPUs uses, on
  // each GPU that holds its flags; unset: the backend's default
  // (Capabilities::default_cross_lines_per_class), at most lines_per_class.
  std::optional<int> cross_lines;
  // --cross-samples, --cross-warmup: samples and untimed round trips of a
  // pair across GPUs, on each of its lines; unset: the backend's default
  // (Capabilities::default_cross_samples, _warmup), else samples and warmup.
  std::optional<int> cross_samples;
  std::optional<int> cross_warmup;
  bool l2_persist = false;
  Probe probe = Probe::Cas;

  // Presentation.
  UnitOrder order = UnitOrder::Topology;
  std::string colormap = "viridis";
  HipUnit hip_unit = HipUnit::Cu;
  // --max-streams: most CU-masked streams (hardware queues) the hip backend
  // keeps alive; 0 = the device's default (24 on Instinct). Past the
  // hardware's queues the firmware time-slices them and pairs stall.
  int max_streams = 0;
};

// What a kind of backend takes, before one is opened: the command line
// refuses by these the options that backend would ignore. In one table with
// the kinds' names (core/options.hpp); the backends' own facts, once open,
// are their Capabilities.
struct BackendFacts {
  bool several_devices = true;  // devices beyond 0 (--device N)
  bool spans_devices = false;   // one map across several devices (--devices)
  bool unit_choice = false;     // what a unit is can be chosen (--unit cu|wgp)
  bool stream_budget = false;   // a budget of hardware queues (--max-streams)
  // Its units are the host's CPU cores: a chip is known by its host and
  // model, not by a serial (`cumap compare`).
  bool host_cores = false;
};
BackendFacts backend_facts(BackendKind kind);

// The names of the enums, from one table each (core/options.hpp).
std::string_view to_string(BackendKind k);
// The inverse of to_string(BackendKind) ("cpu", "cuda", "hip", "auto"); UsageError naming the choices for any other word.
BackendKind backend_kind_from_string(std::string_view name);
std::string_view to_string(Probe p);
std::string_view to_string(UnitOrder o);
std::string_view to_string(ScheduleKind s);
std::string_view to_string(Path p);
std::string_view to_string(FlagOn f);  // "a", "b", "both"
std::string_view to_string(HipUnit u);  // "cu", "wgp"

// Every option by name, as meta.json records them ("options") and --resume
// compares them; an option left to the backend is null.
nlohmann::json to_json(const Options& options);
// The inverse, for --resume: the options an earlier run recorded (out_dir
// and quiet are not read; max_streams and resume_dir are not recorded).
// UsageError naming the key of a value missing or not of to_json's type and
// range (ranges the command line checks are its own: validate_options).
Options options_from_json(const nlohmann::json& options);

}  // namespace cumap
