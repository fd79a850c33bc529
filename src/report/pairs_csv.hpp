#pragma once
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
// Reads pairs.csv back (--resume). Throws UsageError naming the line on
// anything this cumap would not have written.
struct PlacedPairStats {
  Placement placement = Placement::SameLine;
  PairStats stats;
};
std::vector<PlacedPairStats> parse_pairs_csv(std::string_view text);

}  // namespace cumap
