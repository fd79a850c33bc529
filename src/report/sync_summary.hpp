#pragma once
// A `cumap barrier` or `cumap contention` run in a page: the device, how it
// measured, whether it is complete, the table at k = every unit of each set,
// two-level against the flag barrier it replaces, and what the planner left
// out.
//
// One source, as for a map (run_summary.hpp): a SyncSummary is made from the
// run's meta.json and its CSV (barrier.csv or contention.csv) only. A run
// builds it from the JSON and CSV it writes, for summary.md and report.html;
// `cumap summary DIR` builds it from DIR's files. All three are this code
// path, so they never disagree. Their numbers are the CSV's (three
// decimals) rounded to one: a value whose third decimal is 5 may show 0.1
// away from the measured double rounded directly.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/sync_cases.hpp"
#include "report/run_summary.hpp"

namespace cumap {

struct SyncSummary {
  std::string command;  // "barrier" or "contention"

  // The run.
  std::string tool_version;
  std::string timestamp_utc;
  std::string host;
  std::string command_line;
  bool complete = true;        // every planned case measured (meta.json's "complete")
  bool interrupted = false;
  std::size_t planned_cases = 0;

  // The device.
  std::string device_name;
  std::string backend;
  std::string unit_name;
  std::string driver_version;
  std::string runtime_version;
  std::size_t units = 0;  // units measured
  int class_count = 1;

  // How it measured.
  std::string probe;
  int episodes = 0;  // per launch: barrier timed episodes; contention timed batches per participant
  int warmup = 0;
  int launches = 1;  // per case
  int ops_per_batch = 0;     // contention
  bool has_cycles = false;   // the backend counts device cycles (meta.json's clock_hz)
  // barrier.csv has per_barrier_ns; a file of a cumap before that column
  // has the episodes' median only, which is then the headline.
  bool has_per_barrier = false;
  // The run spans GPUs: the CSV names each case's counter GPU (counter_gpu).
  bool across_gpus = false;

  // Every case, in the CSV's order (the order measured): what its row says
  // (label, what, ns and cycles median, p05 and p95, per barrier, episodes
  // or batches, ops_per_us, timed out, not supported and why; participants,
  // min and max are not kept), and the row as the CSV has it.
  struct Case {
    SyncCaseResult result;
    std::vector<std::string> csv_fields;
  };
  std::vector<std::string> csv_header;
  std::vector<Case> cases;

  // Where two-level was measured at a set's largest k, in sentences: against
  // the flag barrier of the same set, k and counter home.
  std::vector<std::string> two_level;
  // Across GPUs, per set at its largest k, in sentences: which construction
  // (implementation or operation and where its counter is: on which GPU, or
  // two-level by GPU) is cheapest, and the others against it.
  std::vector<std::string> across;
  std::vector<std::string> left_out;  // what the planner left out, and why (meta.json's "left_out")

  bool contention() const { return command == "contention"; }
  std::string csv_name() const { return command + ".csv"; }
  std::string plot_name() const { return command + ".png"; }
  // The cases at k = every unit of their set (each set's largest k), in order.
  std::vector<const Case*> at_every_unit() const;
};

// meta.json of `cumap barrier` or `cumap contention`: "tool": "cumap" and
// their "command".
bool is_sync_meta(const nlohmann::json& meta);

// From the run's meta.json and CSV. UsageError, one line, when `meta` is not
// a barrier or contention run's, or the CSV is not its command's (a column
// missing, a row of the wrong length, a cell that is not a number where one
// belongs); `csv_source` names the CSV in the message.
SyncSummary sync_summary(const nlohmann::json& meta, std::string_view csv, const std::string& csv_source);

// `cumap summary DIR`: the CSV beside the meta.json read_output_meta found,
// read and summarized. UsageError, one line, when it is missing or bad.
SyncSummary read_sync_summary(const OutputMeta& meta);

// The table at k = every unit of each set as summary.md and report.html show
// it: column titles, which columns are numbers (right-aligned), the cells.
struct SyncTable {
  std::vector<std::string> header;
  std::vector<bool> numeric;
  std::vector<std::vector<std::string>> rows;
};
SyncTable sync_table(const SyncSummary& summary);

// The sentences both pages show: how the run measured ("cuda backend, 132
// SMs measured, ..."), whether it is complete, what the table's numbers are,
// and for a backend that has never run on the hardware it names, that.
std::string sync_measured_line(const SyncSummary& summary);
std::string sync_completeness(const SyncSummary& summary);
std::string sync_table_note(const SyncSummary& summary);
std::optional<std::string> sync_backend_caveat(const SyncSummary& summary);

// summary.md: GitHub markdown, pasteable as it is.
std::string sync_summary_markdown(const SyncSummary& summary);
// The CSV's header and its rows at k = every unit of each set, every column
// as the CSV has it: what a script reads of the summary table.
std::string sync_summary_csv(const SyncSummary& summary);
// The run, the device, complete, the table's rows (missing numbers null),
// the two-level verdicts and what was left out.
nlohmann::json to_json(const SyncSummary& summary);

}  // namespace cumap
