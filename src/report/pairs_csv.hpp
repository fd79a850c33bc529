#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/matrix.hpp"
#include "cumap/options.hpp"

namespace cumap {

// Long form, one row per pair, placement and flag line:
// a,b,via,placement,home_class,pass,first_flag,second_flag,flags_on,oneway_ns_median,line_correction_ns,
// rtt_ns_median,p05_ns,p95_ns,min_ns,cycles_median,cold_ns,samples,iters,timed_out
std::string pairs_csv(const std::vector<const LatencyMap*>& maps, Path via = Path::Global);
// Reads pairs.csv back (--resume). Throws UsageError naming the line and
// column of anything this cumap would not have written: integers that are
// not decimal or out of their range, nan or inf, negative times or flag
// offsets, unknown placements or paths, a measured (not timed-out) row
// without samples, round trips or median. Whether the rows fit the run that
// continues them (its units, classes, lines) is the caller's to check.
struct PlacedPairStats {
  Placement placement = Placement::SameLine;
  Path via = Path::Global;  // files of older cumaps have no via column: global
  PairStats stats;
  std::size_t line = 0;  // of pairs.csv, counting the header as line 1
};
std::vector<PlacedPairStats> parse_pairs_csv(std::string_view text);

}  // namespace cumap
