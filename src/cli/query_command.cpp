#include "cli/commands.hpp"

#include <fmt/format.h>

#include "cumap/error.hpp"
#include "report/query_runs.hpp"
#include "report/saved_run.hpp"

namespace cumap::cli {

int run_query_command(const QueryCommand& command) {
  const QueryAnswer answer = query_saved_run(read_saved_run(command.dir, "query"), command.units);
  if (command.format == "csv") fmt::print("{}", query_csv(answer));
  else if (command.format == "json") fmt::print("{}\n", query_json(answer).dump(2));
  else fmt::print("{}", query_markdown(answer));
  return kExitOk;
}

}  // namespace cumap::cli
