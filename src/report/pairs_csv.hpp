#pragma once
#include <string>
#include <vector>

#include "cumap/latency_map.hpp"
#include "cumap/options.hpp"

namespace cumap {

// pairs.csv, long form, one row per pair, placement and flag line:
// a,b,via,placement,home_class,pass,first_flag,second_flag,flags_on,oneway_ns_median,line_correction_ns,
// rtt_ns_median,p05_ns,p95_ns,min_ns,cycles_median,cold_ns,samples,iters,timed_out
// (read back for --resume by report/read/pairs_csv.hpp).
std::string pairs_csv(const std::vector<const LatencyMap*>& maps, Path via = Path::Global);

}  // namespace cumap
