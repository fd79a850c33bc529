#include "cli/commands.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "cumap/error.hpp"
#include "report/run_summary.hpp"

namespace cumap::cli {

int run_summary_command(const SummaryCommand& command) {
  const RunSummary summary = read_run_summary(command.dir);
  if (command.format == "csv") fmt::print("{}", summary_csv(summary));
  else if (command.format == "json") fmt::print("{}\n", to_json(summary).dump(2));
  else fmt::print("{}", summary_markdown(summary));
  return kExitOk;
}

}  // namespace cumap::cli
