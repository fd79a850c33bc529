#pragma once
// A map run in a page: the device, how it was measured, the structure table
// (one-way latency by where a pair sits relative to the flag's home, per
// placement and home class), the dsm figures, timed-out pairs, and the
// sentences a reader acts on.
//
// One source: a RunSummary is made from a map's meta.json only. A run
// builds it from the JSON it writes as meta.json (make_meta) and writes
// summary.md; `cumap summary DIR` builds it from DIR/meta.json. Both are
// this code path, so the two never disagree.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/across_gpus_summary.hpp"

namespace cumap {

struct RunSummary {
  // The run.
  std::string tool_version;
  std::string timestamp_utc;
  std::string host;
  std::string command_line;
  double wall_seconds = 0.0;
  bool interrupted = false;

  // The device: its serial per GPU ("" where none was reported).
  std::string device_name;
  std::string backend;
  std::string unit_name;
  std::string driver_version;
  std::string runtime_version;
  std::vector<std::string> serials;
  std::size_t units = 0;        // units mapped
  bool across_devices = false;  // unit ids "g<device>.<unit>"

  // How it measured.
  std::string via;    // "global" or "dsm"
  std::string probe;  // "cas", ...
  int iters = 0;      // round trips per sample
  int samples = 0;    // samples per pair
  int lines_per_class = 0;  // 0 on the dsm path (no flag lines)
  int cross_lines = 0;      // a map across GPUs: lines per class of a pair across them, on each GPU; else 0
  double timeout_ms = 0.0;
  int class_count = 0;                  // home classes; 0 on the dsm path (no homes)
  std::vector<std::size_t> side_units;  // units per side, side 0 first

  // One per placement measured: its headline map (every home class together).
  struct Map {
    std::string placement;  // "same-line", ...; "dsm" on the dsm path
    bool complete = true;   // every planned pair measured (meta.json's "complete")
    std::size_t pairs = 0;            // pairs in the map (pair_count)
    std::size_t completed_pairs = 0;  // of them, with a value
    std::optional<double> median_ns, p05_ns, p95_ns, min_ns, max_ns;  // one-way; none without a value
    int pairs_per_round = 1;
    std::vector<std::string> timed_out_pairs;  // "a-b", ids as pairs.csv names them
  };
  std::vector<Map> maps;

  // One-way latency by where a pair sits relative to the flag's home.
  struct Structure {
    std::string placement;
    std::optional<int> home_class;  // none: every class pooled (a meta.json without per-class rows)
    std::string relation;           // "same-side" or "other-side"
    int near_units = 0;             // of the pair, the units on the side near the flag's class
    std::string where;              // in words: "near the flag's home (side 0)", "far", "across sides"
    std::optional<double> median_ns, p05_ns, p95_ns;
    std::size_t cells = 0;  // pairs (each direction once with --ordered)
  };
  std::vector<Structure> structure;

  // --via dsm: one barrier.cluster by cluster size.
  struct ClusterBarrier {
    int cluster_size = 0;
    long long clusters = 0;
    double median_ns = 0.0;
    double median_cycles = 0.0;
  };
  std::vector<ClusterBarrier> cluster_barrier;

  // A map across GPUs: the GPU x GPU table, the cross-GPU structure and
  // their sentences (empty on one GPU).
  AcrossGpus across_gpus;

  // What a reader acts on, in sentences made from the numbers above.
  std::vector<std::string> findings;

  // No map of the run has a value: every pair timed out (or none was planned).
  bool no_pair_completed() const;
};

// From a map's meta.json. Throws UsageError when `meta` is not one (not
// cumap's, or `cumap homes`'s, which holds no map); `source` names it in
// the message.
RunSummary run_summary(const nlohmann::json& meta, const std::string& source = "meta.json");

// DIR/meta.json (or that file itself when `path` names a file), read and
// parsed: what `cumap summary` starts from, for a map or another command's
// output set. UsageError, one line, for a path that does not exist, a
// directory without meta.json, and a file that is not JSON.
struct OutputMeta {
  std::filesystem::path file;  // the meta.json read
  nlohmann::json meta;
};
OutputMeta read_output_meta(const std::filesystem::path& path);

// DIR/meta.json (or that file itself), read and summarized. UsageError, one
// line, as read_output_meta, and for a file that is not a map's meta.json.
RunSummary read_run_summary(const std::filesystem::path& path);

// summary.md: GitHub markdown, pasteable as it is.
std::string summary_markdown(const RunSummary& summary);
// The structure table, tidy: one row per placement, home class and relation
// (home_class "all": classes pooled; relation "all": the map's headline;
// across GPUs also "gpu-pair" and "across-gpus", across_gpus_csv_rows):
//   placement,home_class,relation,near_units,where,median_ns,p05_ns,p95_ns,cells
std::string summary_csv(const RunSummary& summary);
// The struct itself (missing numbers are null).
nlohmann::json to_json(const RunSummary& summary);

}  // namespace cumap
