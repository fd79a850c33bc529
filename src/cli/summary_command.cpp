#include "cli/commands.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "cumap/error.hpp"
#include "publish/json_file.hpp"
#include "report/saved_run.hpp"
#include "report/summary_formats.hpp"
#include "report/summary_md.hpp"
#include "report/summary_views.hpp"
#include "report/sync_summary_formats.hpp"
#include "report/sync_summary_md.hpp"
#include "report/units_csv.hpp"

namespace cumap::cli {

int run_summary_command(const SummaryCommand& command) {
  const SavedRun run = read_saved_run(command.dir, "summary");
  // meta.json says which command wrote the set; a map's has no "command".
  if (run.sync) {
    if (!command.file.empty() && command.file != "summary.md")
      throw UsageError(fmt::format("summary: --file {}: {} is a {} run, which has no such file", command.file,
                                   run.shown, run.kind()));
    const SyncSummary& summary = *run.sync;
    if (command.format == "csv") fmt::print("{}", sync_summary_csv(summary));
    else if (command.format == "json") fmt::print("{}", json_file_text(sync_summary_fields_json(summary)));
    else fmt::print("{}", sync_summary_markdown(summary));
    return kExitOk;
  }
  RunSummary summary = *run.map;
  // A set written before meta.json held the views: made from its matrices.
  if (!summary.has_views) add_views_from_files(summary, run);
  if (command.file == "units.csv") {
    fmt::print("{}", units_csv(UnitsTable{run.display_order, unit_side_numbers(summary.run), run.topology}, summary));
  } else if (command.file == "block-means.csv") {
    fmt::print("{}", block_means_csv(summary));
  } else if (command.format == "csv") {
    fmt::print("{}", summary_csv(summary));
  } else if (command.format == "json") {
    fmt::print("{}", json_file_text(summary_fields_json(summary)));
  } else {
    fmt::print("{}", summary_markdown(summary));
  }
  return kExitOk;
}

}  // namespace cumap::cli
