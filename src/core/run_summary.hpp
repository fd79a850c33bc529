#pragma once
// A map run in numbers and sentences, computed once from its result: the
// run and device (RunHeader), how it measured, each placement's headline
// map, one-way latency by where a pair sits relative to the flag's home,
// across GPUs the GPU x GPU table and the pairs between GPUs by flag GPU,
// class and sides, the dsm cluster barrier, and the findings a reader acts
// on, made from those numbers. summary.md, report.html's summary, the
// console's last line and meta.json's summary keys are written from it;
// `cumap summary DIR` reads it back from meta.json (report/summary_json.hpp).
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/run_header.hpp"
#include "cumap/result.hpp"

namespace cumap {

struct RunSummary {
  RunHeader run;
  bool interrupted = false;

  // How it measured, as meta.json's options record it (iters as measured).
  std::string via;  // "global" or "dsm"
  std::string probe;
  int iters = 0;    // round trips per sample
  int samples = 0;  // samples per pair
  double timeout_ms = 0.0;
  int lines_per_class = 0;  // 0 on the dsm path (no flag lines)
  int cross_lines = 0;      // across GPUs: lines per class of a pair across them, on each GPU; else 0
  int cross_samples = 0;    // across GPUs: its samples on each line; else 0
  int cross_warmup = 0;     // across GPUs: its untimed round trips on each line (0 also where none)
  bool pairs_csv = true;    // pairs.csv was written (not with --no-pairs-csv)

  // A row of the GPU x GPU table (PlacementResult::gpu_table) and the link
  // between its two GPUs ("NV18"; "same GPU" for a GPU with itself,
  // "unknown" where the device names none).
  struct GpuPair {
    GpuPairRow row;
    std::string link;
    bool operator==(const GpuPair&) const = default;
  };
  // --via dsm: one barrier.cluster by cluster size.
  struct ClusterBarrier {
    int cluster_size = 0;
    long long clusters = 0;
    double median_ns = 0.0;
    double median_cycles = 0.0;
    bool operator==(const ClusterBarrier&) const = default;
  };
  // One per placement measured: its headline map (every home class together).
  struct Map {
    std::string placement;  // "same-line", ... (the dsm path measures same-line)
    bool complete = true;   // every planned pair measured and none timed out
    std::size_t pairs = 0;            // distinct pairs in the map
    std::size_t completed_pairs = 0;  // of them, with a value on at least one line
    std::optional<double> median_ns, p05_ns, p95_ns, min_ns, max_ns;  // one-way over cells; none without a value
    int pairs_per_round = 1;
    std::vector<std::pair<int, int>> timed_out_pairs;  // unit ids, each pair once
    std::vector<ClusterBarrier> cluster_barrier;       // --via dsm, as measured
    // Across GPUs (none on one GPU): the GPU x GPU table, and the pairs
    // between two GPUs by flag GPU, home class and both units' sides.
    std::vector<GpuPair> gpu_pairs;
    std::vector<CrossGpuStructureRow> cross_gpu_structure;
    // The serial self-checks, one per concurrency tried, the kept one last
    // (meta.json "serial_checks"); none when one pair ran at a time.
    std::vector<SelfCheck> checks;
    // Every member equal, a check's values that do not exist (NaN, null in
    // meta.json: r of values without spread) equal too.
    bool operator==(const Map&) const;
  };
  std::vector<Map> maps;

  // One-way latency by where a pair sits relative to the flag's home, per
  // placement and home class (none: the classes pooled, as meta.json of
  // cumap 0.1.0 has them).
  struct Structure {
    std::string placement;
    std::optional<int> home_class;
    StructureRow row;
    bool operator==(const Structure&) const = default;
  };
  std::vector<Structure> structure;
  // The same-line rows with every class pooled (MapResult::structure): the
  // console's last line.
  std::vector<StructureRow> same_line_pooled;

  // The map seen from further out (core/map_views.hpp computes them).
  // A pair of a map with its value, per class too, and each unit's group.
  struct PairValue {
    int a = 0;
    int b = 0;
    double ns = 0.0;                  // the headline's (every class together)
    std::vector<std::optional<double>> per_class_ns;  // each class's map, in the order of Extremes::classes
    std::string group_a;              // the group the pictures draw it in ("S0 GPC3"); empty if none
    std::string group_b;
    bool operator==(const PairValue&) const = default;
  };
  // Per map: the slowest and the fastest pairs of its headline, each pair
  // once (both directions with --ordered), slowest (fastest) first.
  struct Extremes {
    std::string placement;
    std::vector<int> classes;  // the classes of per_class_ns
    std::vector<PairValue> slowest;
    std::vector<PairValue> fastest;
    bool operator==(const Extremes&) const = default;
  };
  std::vector<Extremes> extremes;
  // Each unit's own one-way term u in the additive fit oneway(a, b) = u(a) +
  // u(b) + c of the first map's per-class maps, averaged over the classes
  // (near and far cancel over two sides): units.csv's fit_term_ns. The
  // terms sum to zero; none on a map without a fit.
  struct UnitTerms {
    std::string placement;
    std::vector<int> units;       // those with a value to fit, in the map's order
    std::vector<double> term_ns;
    bool operator==(const UnitTerms&) const = default;
  };
  UnitTerms unit_terms;
  // The units whose term is far from the others' (kStandOutDeviations),
  // furthest first, at most kStandOutMost; and how far counts as far here.
  struct StandingOut {
    int unit = 0;
    std::string group;
    double term_ns = 0.0;
    double from_median_ns = 0.0;
    bool operator==(const StandingOut&) const = default;
  };
  std::vector<StandingOut> standing_out;
  double stand_out_ns = 0.0;  // 0: no fit
  // Mean one-way latency between blocks of units (sides, or the pictures'
  // groups) in one class's map (none: the headline): blocks x blocks, row-major.
  struct BlockMeans {
    std::string placement;
    std::optional<int> home_class;
    std::string by;  // "side" or "group"
    std::vector<std::string> blocks;
    std::vector<std::optional<double>> mean_ns;  // none where no pair has a value
    std::vector<std::size_t> cells;  // pairs (cells off the diagonal) averaged
    bool operator==(const BlockMeans&) const = default;
  };
  std::vector<BlockMeans> blocks;
  // The views above were made (a set of an earlier cumap read back from
  // meta.json has none until its matrices are read: report/saved_run.hpp).
  bool has_views = false;

  // What a reader acts on, in sentences made from the numbers above: of the
  // chip, and of signals between GPUs (summary.md's "Across GPUs").
  std::vector<std::string> findings;
  std::vector<std::string> across_gpu_findings;
  // Why the run may not be trusted as it stands, in sentences (run_warnings):
  // every output says them. Empty for a run with nothing to warn of.
  std::vector<std::string> warnings;

  bool has_homes() const { return via != "dsm"; }
  // A map's name as the pages show it: its placement, "dsm" on the dsm path.
  std::string map_name(const Map& map) const { return has_homes() ? map.placement : "dsm"; }
  // No map of the run has a value: every pair timed out (or none was planned).
  bool no_pair_completed() const;
  bool across_gpus() const;  // a GPU x GPU table or pairs between GPUs
  // Every map's cluster barrier rows, by cluster size.
  std::vector<ClusterBarrier> cluster_barrier() const;

  bool operator==(const RunSummary&) const = default;
};

// The summary of `result`, findings included.
RunSummary run_summary(const MapResult& result);

// The sentences made from a summary's numbers: of the chip
// (run_findings.cpp) and of signals between GPUs (across_gpu_findings.cpp).
std::vector<std::string> chip_findings(const RunSummary& summary);
std::vector<std::string> across_gpu_findings(const RunSummary& summary);
// Sets `summary`'s findings from its numbers: run_summary does, and so does
// a summary read back from meta.json.
void add_findings(RunSummary& summary);

// A map's serial self-checks in a reader's words: "agreed within 1.5 % of a
// serial measurement (median over 48 pairs); 66 pairs per round kept", or
// which concurrency failed and where it was measured again (run_checks.cpp).
std::string check_words(const RunSummary::Map& map);
// The run's warnings (RunSummary::warnings): the backend --backend auto chose
// where a user likely expected another, other processes on the GPU, maps
// whose self-check failed or could not run (one pair per round), and cells
// whose samples disagree far beyond the run's own typical spread.
std::vector<std::string> run_warnings(const MapResult& result, const RunSummary& summary);

// Where a pair sits relative to the flag's home, in a reader's words: "near
// the flag's home" (both units on the side near it), "far" (both on another
// side), "across sides" (one near it, one not), "across sides, both far"
// (with three or more classes: two sides, neither the flag's).
std::string structure_words(const StructureRow& row);
// The same with the side where one side is meant: near the home of class c
// is side c; with two classes "far" is the other side.
std::string where_words(const RunSummary::Structure& structure, int class_count);

// What the findings across GPUs call a factor's effect worth naming: a
// difference of medians over this share of their mean.
inline constexpr double kAcrossGpusEffectShare = 0.01;

}  // namespace cumap
