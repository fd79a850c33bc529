// `cumap compare A B`: two finished runs side by side.
#include <charconv>
#include <cmath>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cli/option_binding.hpp"
#include "cli/option_checks.hpp"
#include "cli/registration.hpp"
#include "core/printable.hpp"
#include "cumap/error.hpp"

namespace cumap::cli {
namespace {

// "3%", "3 %" or "3": percent of A's value, as a share (0.03).
double threshold_share(const std::string& text) {
  std::string digits = text;
  while (!digits.empty() && (digits.back() == '%' || digits.back() == ' ')) digits.pop_back();
  double percent = 0.0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), percent);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() || !std::isfinite(percent) ||
      percent < 0.0 || percent > 1000.0)
    throw UsageError(fmt::format("--threshold '{}': give a percentage from 0 to 1000, e.g. 3%",
                                 printable_excerpt(text)));
  return percent / 100.0;
}

}  // namespace

Registration register_compare(CLI::App& app) {
  auto compare = std::make_shared<CompareCommand>();
  auto threshold = std::make_shared<std::string>("3%");
  CLI::App* sub = app.add_subcommand(
      "compare", "two finished runs side by side: settings, structure, sides and groups, and (one chip) every "
                 "matrix file cell by cell; exit 0 alike, 1 different, 2 bad input");
  sub->add_option("a", compare->a, "output directory of a map, barrier or contention run (or its meta.json)")
      ->required();
  sub->add_option("b", compare->b, "the run to compare with it (the same command's)")->required();
  add_word_option(*sub, "--format", compare->format, {"md", "csv", "json"},
                  "md (GitHub markdown), csv (one row per setting, table row, side, group and file) or json");
  sub->add_option("--threshold", *threshold,
                  "alike (exit 0) when no compared median moved by more than this share of A's: each structure "
                  "row's (a barrier's or contention's case at k = every unit) |B-A|/A, and on one chip each matrix "
                  "file's median over cells of |B-A|/A (default 3%)");
  sub->add_option("-o,--out", compare->out,
                  "also write compare.md, compare.json and (one chip) diff-<matrix>.png, B - A, into this directory "
                  "(never inside A or B)");
  return {[sub] { return sub->parsed(); },
          [&app, compare, threshold](const std::string&) -> Command {
            reject_top_level_options(app, "compare", {});
            compare->threshold = threshold_share(*threshold);
            if (compare->out) check_output_path("--out", *compare->out);
            return *compare;
          }};
}

}  // namespace cumap::cli
