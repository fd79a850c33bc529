#pragma once
// barrier.csv or contention.csv read back (the file report/sync_csv.hpp
// writes), for a set of an earlier cumap whose meta.json holds the counts of
// its cases but not the cases (summary_json.hpp, read_sync_summary).
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "cumap/result.hpp"

namespace cumap {

struct SyncCsv {
  // Each case as its row says it (label, what, ns and cycles median, p05
  // and p95, per barrier, episodes or batches, ops_per_us, timed out, not
  // supported and why, counter class and participants; min and max are not read).
  std::vector<SyncCaseResult> cases;
  bool has_per_barrier = false;  // a barrier.csv of a cumap before that column has none
  bool across_gpus = false;      // the cases name their counter's GPU
};

// The CSV of `command` ("barrier" or "contention"). UsageError, one line,
// when it is not that command's (a column missing, a row of the wrong
// length, a cell that is not what its column holds: csv_row.hpp); `source`
// names it.
SyncCsv parse_sync_csv(std::string_view csv, const std::string& command, const std::string& source);
// The file itself: UsageError, one line, also when it does not exist or
// cannot be read.
SyncCsv read_sync_csv(const std::filesystem::path& csv, const std::string& command);

}  // namespace cumap
