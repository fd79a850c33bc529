#include "cli/commands.hpp"

#include <fmt/format.h>

#include "cumap/error.hpp"
#include "report/compare_formats.hpp"
#include "report/compare_runs.hpp"
#include "report/saved_run.hpp"

namespace cumap::cli {

int run_compare_command(const CompareCommand& command) {
  const SavedRun a = read_saved_run(command.a, "compare");
  const SavedRun b = read_saved_run(command.b, "compare");
  const RunComparison comparison = compare_saved_runs(a, b, command.threshold);
  if (command.out) write_comparison_set(comparison, a, b, *command.out);
  if (command.format == "csv") fmt::print("{}", comparison_csv(comparison));
  else if (command.format == "json") fmt::print("{}\n", comparison_json(comparison).dump(2));
  else fmt::print("{}", comparison_markdown(comparison));
  return comparison.alike() ? kExitOk : kExitDifferent;
}

}  // namespace cumap::cli
