#pragma once
// A `cumap barrier` or `cumap contention` run in numbers and sentences,
// computed once from its result: the run and device (RunHeader), how it
// measured, whether it is complete, the cases at k = every unit of each set,
// two-level against the flag barrier it replaces and, across GPUs, which
// construction is cheapest. summary.md, report.html and meta.json's summary
// keys are written from it; `cumap summary DIR` reads it back from meta.json
// (report/summary_json.hpp).
#include <cstddef>
#include <string>
#include <vector>

#include "core/run_header.hpp"
#include "cumap/result.hpp"

namespace cumap {

struct SyncSummary {
  std::string command;  // "barrier" or "contention"
  RunHeader run;
  bool complete = true;  // every planned case measured
  bool interrupted = false;
  std::size_t planned_cases = 0;
  std::size_t measured_cases = 0;

  // How it measured.
  std::string probe;
  int episodes = 0;       // per launch: barrier timed episodes; contention timed batches per participant
  int warmup = 0;
  int launches = 1;       // per case, each on its own counter lines
  int ops_per_batch = 0;  // contention
  double clock_hz = 0.0;  // the cycle counter's measured rate; 0 without one
  // A barrier's headline is per_barrier_ns; a barrier.csv of a cumap before
  // that column (read back by read_sync_summary) has the episodes' median only.
  bool has_per_barrier = false;
  // The run spans GPUs (home discovery on more than one): its cases name
  // the counter's GPU.
  bool across_gpus = false;

  // The cases at k = every unit of each set (each set's largest k), in the
  // order measured: the table the pages show.
  std::vector<SyncCaseResult> at_every_unit;
  std::vector<std::string> left_out;  // what the planner left out, and why

  // Sentences made from those cases (add_verdicts): two-level against the
  // flag barrier of the same set, k and counter home; across GPUs, per set,
  // which construction is cheapest and the others against it.
  std::vector<std::string> two_level;
  std::vector<std::string> across;

  bool contention() const { return command == "contention"; }
  bool has_cycles() const { return clock_hz > 0; }
  std::string csv_name() const { return command + ".csv"; }
  std::string plot_name() const { return command + ".png"; }

  // Equal in every field, a missing number (NaN) equal to a missing one.
  bool operator==(const SyncSummary& other) const;
};

// The summary of `result`, verdicts included.
SyncSummary sync_summary(const SyncResult& result);

// The cases of `cases` at each set's largest k, in their order.
std::vector<SyncCaseResult> cases_at_every_unit(const std::vector<SyncCaseResult>& cases);

// Sets `summary`'s verdicts from its cases: sync_summary does, and so does a
// summary read back from meta.json.
void add_verdicts(SyncSummary& summary);

}  // namespace cumap
