// The map's options, one row each (option_table.hpp says what a row drives).
// Their defaults are Options' own; --help shows them from it.
#include <cstdint>
#include <vector>

#include "core/option_table.hpp"
#include "core/options.hpp"

namespace cumap {
namespace {

using G = OptionGroup;

// 64 Ki lines: an 8 MiB arena, already larger than most L2 slices' share of
// the address space; the probe's time grows with units x lines.
constexpr std::int64_t kMaxHomeLines = 65536;
constexpr std::int64_t kMaxHomeChain = 4096;
constexpr std::int64_t kMaxHomeStride = 1 << 20;
constexpr std::int64_t kLineBytes = 128;  // one cache line of every supported device
constexpr std::int64_t kMaxFlagOffset = std::int64_t{1} << 30;

std::vector<OptionRow> make_rows() {
  return {
      // Picking and driving a device: every command that opens one.
      option("--backend", "backend", &Options::backend, "auto, cpu, cuda or hip").in(G::Device),
      option("--device", "device", &Options::device, "GPU index (cpu: only 0)").in(G::Device).within(at_least(0)),
      option("--unit", "hip_unit", &Options::hip_unit, "hip backend: measure per cu or per wgp").in(G::Device),

      // Home discovery, which every map starts with and `cumap homes` runs alone.
      option("--devices", "devices", &Options::devices_spec,
             "GPUs of one map across them, e.g. 0,1 or all (cuda; default: the one of --device)")
          .in(G::HomeDiscovery)
          .default_in_help(),
      option("--units", "units_spec", &Options::units_spec,
             "units to measure, e.g. 0-7,16,32-47 (default: all); with --devices of every GPU, or g1.0-7 of GPU 1")
          .in(G::HomeDiscovery)
          .default_in_help(),
      option("--home-lines", "home_lines", &Options::home_lines,
             "lines probed to find the flags' home classes; the flag arena is these lines (1: every pair on one "
             "line, a single-address map)")
          .in(G::HomeDiscovery)
          .within(from_to(1, kMaxHomeLines)),
      option("--home-chain", "home_chain", &Options::home_chain,
             "dependent atomics per timing of a line in home discovery (3 timings per unit and line)")
          .in(G::HomeDiscovery)
          .within(from_to(1, kMaxHomeChain)),
      option("--home-stride", "home_stride", &Options::home_stride,
             "bytes from one probed line to the next (a multiple of 128): wider spreads the flag lines over more of "
             "the memory system")
          .in(G::HomeDiscovery)
          .within(from_to(kLineBytes, kMaxHomeStride).in_steps_of(kLineBytes)),
      option("--home-serial", "home_serial", &Options::home_serial,
             "home discovery one unit at a time, the others idle (default: every unit at once, each on other lines; "
             "GPU backends with one persistent launch, i.e. cuda)")
          .in(G::HomeDiscovery),
      option("--flag-offset", "flag_offset", &Options::flag_offset,
             "move the flag arena by BYTES (a multiple of 128, at most 1 GiB)")
          .in(G::HomeDiscovery)
          .within(from_to(0, kMaxFlagOffset).in_steps_of(kLineBytes).with_high_said("1 GiB")),
      option("--out", "out_dir", &Options::out_dir, "output directory")
          .in(G::HomeDiscovery)
          .recorded_as(Recorded::Written),
      option("--replace", "replace", &Options::replace,
             "replace the output set of another command in --out (a run replaces its own kind's without it)")
          .in(G::HomeDiscovery)
          .recorded_as(Recorded::No),
      option("--quiet,-q", "quiet", &Options::quiet, "no progress, no summary")
          .in(G::HomeDiscovery)
          .recorded_as(Recorded::Written),
      option("!--no-pairs-csv", "pairs_csv", &Options::pairs_csv,
             "leave out pairs.csv (a row per pair and flag line: hundreds of MB across two GPUs); the matrices, summary "
             "and pictures are as always, but the run cannot be continued with --resume")
          .recorded_as(Recorded::Written),

      // The map's own.
      option("--flag-on", "flag_on", &Options::flag_on,
             "across GPUs: whose memory holds a pair's flags: a (the first unit's GPU), b, or both in turn"),
      option("--same-line", "placements", PlacementFlag{Placement::SameLine},
             "both flags in one cache line (default: both placements)"),
      option("--split-line", "placements", PlacementFlag{Placement::SplitLine},
             "the flags in different cache lines (default: both placements)"),
      option("--cross-home", "placements", PlacementFlag{Placement::CrossHome},
             "also map with the two flags in lines of different home classes (in addition to the placements above)"),
      option("--iters", "iters", &Options::iters,
             "round trips per sample (default: the backend's choice: CUDA 20, AMD and CPU 100)")
          .within(at_least(1))
          .default_in_help(),
      option("--samples", "samples", &Options::samples, "samples per pair").within(at_least(1)),
      option("--warmup", "warmup", &Options::warmup,
             "untimed round trips before the samples (on every line a pair uses)")
          .within(at_least(0)),
      option("--timeout-ms", "timeout_ms", &Options::timeout_ms,
             "budget of every wait, at most 3600000 (an hour); a pair past it is reported as timed out")
          .within(kWaitMs),
      option("--ordered", "ordered", &Options::ordered,
             "measure a->b and b->a separately (default: each sample is half a->b, half b->a)"),
      option("--schedule", "schedule", &Options::schedule,
             "serial: one pair at a time; concurrent: rounds of disjoint pairs; auto: the most concurrency that "
             "passes the serial check"),
      // 0, the default, is as many as the backend can.
      option("--concurrency", "concurrency", &Options::concurrency,
             "at most K pairs at once (default: as many as the backend can)")
          .within(at_least(1).unset_by(0))
          .default_in_help(),
      option("--check-pairs", "check_pairs", &Options::check_pairs,
             "pairs re-measured serially to check a concurrent map")
          .within(at_least(1)),
      option("--via", "via", &Options::via,
             "how the signal travels: global (memory) or dsm (CUDA: distributed shared memory in a cluster)"),
      option("!--no-line-correction", "line_correction", &Options::line_correction,
             "maps show the measured medians as they are, without subtracting what the home table predicts for each "
             "flag line"),
      option("--resume", "resume_dir", &Options::resume_dir,
             "continue the interrupted run in DIR with its options, measuring only the missing pairs")
          .recorded_as(Recorded::No)
          .default_in_help(),
      option("--flush-cache", "flush_cache", &Options::flush_cache,
             "flush the cache before each round of pairs (GPU: L2, AMD also the instruction cache; CPU: the "
             "last-level cache)"),
      // --rotating-count: the option's first name, kept so that command lines written with it still work.
      option("--lines-per-class,--rotating-count", "lines_per_class", &Options::lines_per_class,
             "flag lines every pair uses in every home class; cells are the median over them (default: the "
             "backend's choice: CUDA 24, AMD 32, CPU 1)")
          .within(at_least(1).with_advice("leave it out for the backend's choice"))
          .default_in_help(),
      // Its range depends on --home-lines and --devices (validate_options).
      option("--cross-lines", "cross_lines", &Options::cross_lines,
             "with --devices: flag lines per home class each pair across GPUs uses on each GPU that holds its flags "
             "(default: the backend's choice: CUDA 12, at most --lines-per-class)")
          .default_in_help(),
      option("--cross-samples", "cross_samples", &Options::cross_samples,
             "with --devices: samples of a pair across GPUs on each line (default: the backend's choice: CUDA 2, "
             "else --samples)")
          .within(at_least(1))
          .default_in_help(),
      option("--cross-warmup", "cross_warmup", &Options::cross_warmup,
             "with --devices: untimed round trips of a pair across GPUs on each line (default: the backend's choice: "
             "CUDA 1, else --warmup)")
          .within(at_least(0))
          .default_in_help(),
      option("--l2-persist", "l2_persist", &Options::l2_persist, "CUDA: keep the flags in a persisting L2 window"),
      option("--probe", "probe", &Options::probe,
             "signalling operation: cas, exch, acq-rel, volatile; mbarrier with --via dsm"),
      // The hip backend's queues: how, not what, is measured.
      option("--max-streams", "max_streams", &Options::max_streams,
             "AMD: most CU-masked streams (hardware queues) at once (default 0: the device's usable queues)")
          .recorded_as(Recorded::No)
          .within(at_least(0)),
      option("--order", "order", &Options::order, "row/column order of matrices and heatmaps: index or topology"),
      option("--colormap", "colormap", &Options::colormap, "viridis, magma or cividis").one_of(kColormapNames),

      // Recorded, never typed: --cross-home sets it with the placement it
      // adds; auto's serial check holds a concurrency to the limit.
      recorded_only("cross_home", &Options::cross_home),
      recorded_only("check_max_rel_diff", &Options::check_max_rel_diff),
  };
}

}  // namespace

std::span<const OptionRow> map_option_rows() {
  static const std::vector<OptionRow> rows = make_rows();
  return rows;
}

}  // namespace cumap
