#include "cli/commands.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "cumap/error.hpp"
#include "report/run_summary.hpp"
#include "report/sync_summary.hpp"

namespace cumap::cli {

int run_summary_command(const SummaryCommand& command) {
  const OutputMeta read = read_output_meta(command.dir);
  // meta.json says which command wrote the set; a map's has no "command".
  if (is_sync_meta(read.meta)) {
    const SyncSummary summary = read_sync_summary(read);
    if (command.format == "csv") fmt::print("{}", sync_summary_csv(summary));
    else if (command.format == "json") fmt::print("{}\n", to_json(summary).dump(2));
    else fmt::print("{}", sync_summary_markdown(summary));
    return kExitOk;
  }
  const RunSummary summary = run_summary(read.meta, read.file.string());
  if (command.format == "csv") fmt::print("{}", summary_csv(summary));
  else if (command.format == "json") fmt::print("{}\n", to_json(summary).dump(2));
  else fmt::print("{}", summary_markdown(summary));
  return kExitOk;
}

}  // namespace cumap::cli
