#pragma once
// The files of `cumap barrier` and `cumap contention`, from their result and
// the summary made from it once (sync_summary):
//   barrier.csv or contention.csv   every case, long form (sync_csv.hpp)
//   barrier.png or contention.png   latency against k, a panel per participant set (sync_png.hpp)
//   summary.md                      the run in a page: the table at k = every unit of each set (sync_summary_md.hpp)
//   report.html                     the same with the plot in one self-contained page (sync_report_html.hpp)
//   homes.csv, homes.json           the home discovery the counter lines were chosen by
//   meta.json                       the summary's keys, and the device, command line, options, clock, homes
#include "cumap/result.hpp"
#include "publish/output_set.hpp"

namespace cumap {

void write_sync_outputs(const SyncResult& result, OutputSet& out);

}  // namespace cumap
