// The options of `cumap barrier` and `cumap contention`, one row each
// (option_table.hpp says what a row drives): the map's device and
// home-discovery rows, as these commands say and record them, then their
// own. Their defaults are SyncOptions' own.
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/option_table.hpp"
#include "core/sync_options.hpp"

namespace cumap {
namespace {

using G = OptionGroup;

constexpr std::int64_t kMaxEpisodes = 1000000;
// Each launch of a case takes lines of its own; beyond this a sweep's launches, not its values, set its time.
constexpr std::int64_t kMaxLaunches = 1000;

// The map's row of `flag`, to be said or recorded otherwise here.
OptionRow map_row(std::string_view flag) {
  for (const OptionRow& row : map_option_rows())
    if (row.flag() == flag) return row;
  throw std::logic_error("no map option " + std::string(flag));
}

std::vector<OptionRow> make_rows() {
  std::vector<OptionRow> rows;
  for (std::string_view flag : {"--backend", "--device", "--unit"}) rows.push_back(map_row(flag));
  rows.push_back(map_row("--devices")
                     .with_help("GPUs of one sweep across them, e.g. 0,1: participant sets interleave the GPUs, "
                                "counters go on each GPU in turn, two-level groups by GPU (cuda; default: the one of "
                                "--device)")
                     .recorded_as(Recorded::WhenGiven));  // so that a run of one GPU records what it always did
  rows.push_back(map_row("--units").with_help("units that may take part, e.g. 0-7,16,32-47 (default: all); with "
                                              "--devices of every GPU, or g1.0-7 of GPU 1"));
  // A flag barrier's counter and release flag are two lines of the arena.
  rows.push_back(map_row("--home-lines").within(at_least(2).with_reason("for a counter and a flag line")));
  rows.push_back(map_row("--home-chain"));
  rows.push_back(map_row("--home-stride"));
  rows.push_back(map_row("--home-serial").recorded_as(Recorded::No));
  for (std::string_view flag : {"--flag-offset", "--out", "--replace", "--quiet"}) rows.push_back(map_row(flag));

  const std::vector<OptionRow> own{
      option("--op", "ops", &SyncOptions::ops, "operations on the contended line (default: cas,add)")
          .in(G::Contention)
          .default_in_help(),
      option("--ops-per-batch", "ops_per_batch", &SyncOptions::ops_per_batch, "dependent operations per timed batch")
          .in(G::Contention)
          .within(from_to(1, kMaxEpisodes)),
      option("--impl", "impls", &SyncOptions::impls,
             "barrier implementations (default: counter,flag,two-level,platform)")
          .in(G::Barrier)
          .default_in_help(),
      option("--sets", "sets", &SyncOptions::sets,
             "participant sets by structure (default: one-side,alternating,one-gpc,spread)")
          .in(G::Sync)
          .default_in_help(),
      option("--homes", "homes", &SyncOptions::homes,
             "counter lines by home class, relative to the participants (default: near,far)")
          .in(G::Sync)
          .default_in_help(),
      option("--k", "k", &SyncOptions::k,
             "participant counts, e.g. 2,8,all (all: every unit of the set; default: 2, 4, 8, ... and all)")
          .in(G::Barrier)
          .default_in_help(),
      option("--k", "k", &SyncOptions::k,
             "participant counts, e.g. 2,8,all (all: every unit of the set; default: 1, 2, 4, ... and all)")
          .in(G::Contention)
          .default_in_help(),
      option("--episodes", "episodes", &SyncOptions::episodes, "timed barrier episodes per launch")
          .in(G::Barrier)
          .within(from_to(1, kMaxEpisodes)),
      option("--episodes", "episodes", &SyncOptions::episodes, "timed batches per participant")
          .in(G::Contention)
          .within(from_to(1, kMaxEpisodes)),
      option("--warmup", "warmup", &SyncOptions::warmup, "untimed episodes first")
          .in(G::Barrier)
          .within(from_to(0, kMaxEpisodes)),
      option("--warmup", "warmup", &SyncOptions::warmup, "untimed batches first")
          .in(G::Contention)
          .within(from_to(0, kMaxEpisodes)),
      option("--launches", "launches", &SyncOptions::launches,
             "launches per case, each on counter lines of its own; a case's number is the mean over them (default: "
             "the backend's choice: CUDA and AMD 100, CPU 10)")
          .in(G::Barrier)
          .within(from_to(1, kMaxLaunches))
          .default_in_help(),
      option("--launches", "launches", &SyncOptions::launches,
             fmt::format("launches per case, each on counter lines of its own; a case's numbers are over every "
                         "launch's operations (default: {})",
                         SyncOptions::kContentionLaunches))
          .in(G::Contention)
          .within(from_to(1, kMaxLaunches))
          .default_in_help(),
      map_row("--timeout-ms")
          .with_help("budget of every wait, at most 3600000 (an hour); a case past it is reported as timed out")
          .in(G::Sync),
      // mbarrier, which this help leaves out, is refused after parsing, saying why.
      map_row("--probe").with_help("how participants poll and signal: cas, exch, acq-rel, volatile").in(G::Sync),
  };
  rows.insert(rows.end(), own.begin(), own.end());
  return rows;
}

}  // namespace

std::span<const OptionRow> sync_option_rows() {
  static const std::vector<OptionRow> rows = make_rows();
  return rows;
}

}  // namespace cumap
