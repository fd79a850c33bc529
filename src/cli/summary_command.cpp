#include "cli/commands.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "cumap/error.hpp"
#include "publish/json_file.hpp"
#include "report/read/meta_json.hpp"
#include "report/summary_formats.hpp"
#include "report/summary_json.hpp"
#include "report/summary_md.hpp"
#include "report/sync_summary_formats.hpp"
#include "report/sync_summary_md.hpp"

namespace cumap::cli {

int run_summary_command(const SummaryCommand& command) {
  const OutputMeta read = read_output_meta(command.dir);
  // meta.json says which command wrote the set; a map's has no "command".
  if (is_sync_meta(read.meta)) {
    const SyncSummary summary = read_sync_summary(read);
    if (command.format == "csv") fmt::print("{}", sync_summary_csv(summary));
    else if (command.format == "json") fmt::print("{}", json_file_text(sync_summary_fields_json(summary)));
    else fmt::print("{}", sync_summary_markdown(summary));
    return kExitOk;
  }
  const RunSummary summary = run_summary_from_json(read.meta, read.file.string());
  if (command.format == "csv") fmt::print("{}", summary_csv(summary));
  else if (command.format == "json") fmt::print("{}", json_file_text(summary_fields_json(summary)));
  else fmt::print("{}", summary_markdown(summary));
  return kExitOk;
}

}  // namespace cumap::cli
