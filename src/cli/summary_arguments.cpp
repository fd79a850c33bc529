// `cumap summary DIR [--format md|csv|json]`: a run's results in a page again.
#include <memory>

#include "cli/option_binding.hpp"
#include "cli/option_checks.hpp"
#include "cli/registration.hpp"
#include "cumap/error.hpp"

namespace cumap::cli {

Registration register_summary(CLI::App& app) {
  auto summary = std::make_shared<SummaryCommand>();
  CLI::App* sub = add_run_reader(
      app, "summary",
      "a run's results in a page, from its output directory's meta.json (and barrier.csv or contention.csv)",
      summary->dir, "output directory of a map, barrier or contention run (or its meta.json)", summary->format,
      "md (GitHub markdown, as summary.md), csv (a map: the structure table, one row per placement, class and "
      "relation; barrier, contention: the CSV's rows at k = every unit of each set, with all its columns) or json");
  CLI::Option* format = sub->get_option("--format");
  add_word_option(*sub, "--file", summary->file, {"summary.md", "units.csv", "block-means.csv"},
                  "print this file of a map's set as this cumap writes it, made from the set's files alone (a set "
                  "of an earlier cumap gains its new columns and sections): summary.md, units.csv or "
                  "block-means.csv");
  return {[sub] { return sub->parsed(); },
          [&app, summary, format](const std::string&) -> Command {
            reject_top_level_options(app, "summary", {});
            if (!summary->file.empty() && format->count() > 0)
              throw UsageError("summary: give --format (the page, its table or its fields) or --file, not both");
            return *summary;
          }};
}

}  // namespace cumap::cli
