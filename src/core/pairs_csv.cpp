// pairs.csv: the long form, one row per pair, placement and flag line.
//
// Columns and their units, all times in nanoseconds:
//   via                   the signal's path: global (memory) or dsm (inside a cluster)
//   home_class            home class of the first flag's line (see homes.json)
//   pass                  which of the pair's lines in that class
//   first_flag, second_flag  byte offsets of the two flags in the flag arena
//   oneway_ns_median      one-way latency: the median round trip / 2
//   rtt_ns_median         the median round trip itself
//   p05_ns, p95_ns, min_ns  ONE-WAY, like oneway_ns_median (round-trip
//                         percentile / 2), so that the latency columns of a
//                         row can be compared with each other directly
//   cycles_median         median round trip in device cycles (empty without a cycle clock)
//   cold_ns               the pair's first round trip, measured on its own (a round trip)
//   samples               samples that produced a value; iters: round trips per sample
//   timed_out             1 when the pair hit the timeout, else 0
// Empty cells mark values that do not exist (NaN).
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cumap/outputs.hpp"

namespace cumap {
namespace {

std::string cell(double v) { return std::isfinite(v) ? fmt::format("{:.3f}", v) : std::string(); }

}  // namespace

std::string pairs_csv(const std::vector<LatencyMap>& maps, Path via) {
  std::string out =
      "a,b,via,placement,home_class,pass,first_flag,second_flag,oneway_ns_median,rtt_ns_median,p05_ns,p95_ns,min_ns,"
      "cycles_median,cold_ns,samples,iters,timed_out\n";
  for (const LatencyMap& map : maps) {
    const std::string_view placement = to_string(map.placement());
    for (const PairStats& p : map.pairs) {
      const Summary& rtt = p.rtt_ns;
      out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", p.a, p.b, to_string(via), placement,
                         p.home_class, p.pass, p.first_flag, p.second_flag,
                         cell(p.oneway_median_ns()), cell(rtt.median), cell(rtt.p05 / 2.0),
                         cell(rtt.p95 / 2.0), cell(rtt.min / 2.0), cell(p.cycles_median), cell(p.cold_ns),
                         rtt.count, p.iters, p.timed_out ? 1 : 0);
    }
  }
  return out;
}

}  // namespace cumap
