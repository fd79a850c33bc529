#pragma once
// A map seen from further out (RunSummary's views, core/map_views.hpp) in
// summary.md's sections and in block-means.csv.
#include <string>

#include "core/run_summary.hpp"

namespace cumap {

// summary.md's "Slowest and fastest pairs", "<Units> that stand out" and
// "Zoomed out" (side x side); empty where the summary has no views.
std::string views_markdown(const RunSummary& summary);

// block-means.csv: mean one-way latency between blocks of units, tidy:
//   placement,home_class,by,row,column,mean_ns,cells
//   home_class  the class of the flag's line; "all" for every class together
//   by          "side" (the units near each home class) or "group" (the
//               heatmaps' groups: side, then topology group, "S0 GPC3")
//   row,column  the blocks' names; cells: the unit pairs averaged (a mirrored
//               map counts each pair twice, as its matrix holds it)
std::string block_means_csv(const RunSummary& summary);

}  // namespace cumap
