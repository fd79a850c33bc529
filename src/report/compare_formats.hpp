#pragma once
// `cumap compare A B --format md|csv|json`: a comparison (core/run_comparison.hpp)
// as a page, a tidy table and its fields.
#include <string>

#include <nlohmann/json.hpp>

#include "core/run_comparison.hpp"

namespace cumap {

// The page: the two runs, the settings that differ (before any number),
// each table side by side with B - A, sides and groups, the files cell by
// cell (or the one line saying why cells are not compared), the verdict.
std::string comparison_markdown(const RunComparison& comparison);
// One row per thing compared:
//   section,name,a,b,b_minus_a,relative_difference,pearson_r,p95_relative_difference,count
// section: setting, <table title>, side, group, file, verdict; relative
// differences are |B - A| / A for a row and the median over cells for a file.
std::string comparison_csv(const RunComparison& comparison);
nlohmann::json comparison_json(const RunComparison& comparison);

}  // namespace cumap
