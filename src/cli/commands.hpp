#pragma once
// What each command of the command line runs (main dispatches to these).
// Each returns the exit code.
#include "cli/command_line.hpp"

namespace cumap::cli {

// The default command: measure every pair for each placement, write the
// outputs, print a summary. Its steps are in src/run/map_run.hpp.
int run_map(const MapCommand& command);

// `cumap homes`: home discovery alone (the first step of every map). Writes
// homes.csv, homes.json, heatmap-homes.png and meta.json into --out and
// prints one summary line.
int run_homes(const HomesCommand& command);

// `cumap barrier` and `cumap contention`: home discovery, then the sweep of
// cases; writes barrier.csv (contention.csv), its plot, summary.md, the
// homes and meta.json into --out and prints one summary line.
int run_sync(const SyncCommand& command);

// `cumap topology`: prints the groups the backend discovered, and how.
int run_topology(const TopologyCommand& command);

// `cumap --list-devices`: one line per built backend.
int run_list_devices(const ListDevicesCommand& command);

// `cumap check-coherence`: the L1 coherence table for one reader/writer pair.
int run_check_coherence(const CoherenceCommand& command);

// `cumap summary DIR [--format md|csv|json]`: DIR/meta.json summarized on
// stdout, as the run wrote summary.md: a map's, or with the CSV beside it a
// barrier or contention run's. Bad DIR: UsageError (exit 2).
int run_summary_command(const SummaryCommand& command);

// `cumap compare A B`: the comparison on stdout (--format md|csv|json), its
// files with --out; exit 0 alike within the threshold, 1 different, 2 bad input.
int run_compare_command(const CompareCommand& command);

// `cumap query DIR --units LIST`: the answer on stdout (--format md|csv|json);
// units not in the run: UsageError (exit 2).
int run_query_command(const QueryCommand& command);

}  // namespace cumap::cli
