// `cumap query DIR --units LIST`: what a finished run says about a pair or a set of units.
#include <memory>

#include "cli/option_binding.hpp"
#include "cli/option_checks.hpp"
#include "cli/registration.hpp"

namespace cumap::cli {

Registration register_query(CLI::App& app) {
  auto query = std::make_shared<QueryCommand>();
  CLI::App* sub = add_run_reader(
      app, "query",
      "what a finished run says about units you name: two units, their pair in each home class and placement; a "
      "set, a flag they share in each class and its barrier cases at that k",
      query->dir, "output directory of a map run (or of a barrier or contention run, for a set)", query->format,
      "md (GitHub markdown), csv (one row per placement and class; for a set also one per barrier or contention "
      "case) or json");
  sub->add_option("--units", query->units,
                  "two units (a pair, e.g. 12,87) or more (a set, e.g. 0-15); across GPUs g0.12,g1.87")
      ->required();
  return {[sub] { return sub->parsed(); },
          [&app, query](const std::string&) -> Command {
            reject_top_level_options(app, "query", {});
            return *query;
          }};
}

}  // namespace cumap::cli
